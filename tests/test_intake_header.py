"""The header line, commands, quote and signature removal, and the order text cut from a mail."""

from __future__ import annotations

import pytest

from maild.intake.header import (
    OrderHeader,
    is_end_line,
    line_command,
    parse_header_line,
    subject_command,
    subject_tags,
)
from maild.intake.ordertext import extract
from maild.intake.quotes import strip_quotes

# -- the header line ------------------------------------------------------------------------------------


@pytest.mark.parametrize("line, expected", [
    ("#venice1 alice sesame", ("venice1", "alice", "sesame")),
    ("#venice1 alice", ("venice1", "alice", None)),
    ("#venice1", ("venice1", None, None)),
    ("  #Venice1   Alice   Sesame  ", ("Venice1", "Alice", "Sesame")),
    ("**#venice1 carol**", ("venice1", "carol", None)),
    ('#venice1 bob "my pass"', ("venice1", "bob", "my pass")),
    ("#venice1 bob “my pass”", ("venice1", "bob", "my pass")),
    ("#venice1 bob „my pass“", ("venice1", "bob", "my pass")),
    ("#venice1 bob « my pass »", ("venice1", "bob", "my pass")),
    ("#game venice1 bob sesame", ("venice1", "bob", "sesame")),
    ("#GAME venice1 bob", ("venice1", "bob", None)),
    ("#atlantis 12 'pw'", ("atlantis", "12", "'pw'")),
    ("#venice1 alice@example.org", ("venice1", "alice@example.org", None)),
])
def test_header_lines(line: str, expected: tuple[str, str | None, str | None]) -> None:
    h = parse_header_line(line, 4)
    assert h is not None
    assert (h.game, h.player, h.password) == expected
    assert h.line_index == 4 and h.line == 5


@pytest.mark.parametrize("line", [
    "# my bids for this turn",  # a blank after '#': a comment
    "#end",
    "#END.",
    "#1 priority is to win the silk tax",  # prose: starts with a digit, and too many words
    "#venice1 alice sesame extra",  # four words
    "##venice1 alice",
    "bid 30$ for 2 of silk tax",
    "#",
    "#venice1 \"alice\" pw",  # a quoted player name is not a name
    "#venice1 al/ice",
    "> #venice1 alice",
])
def test_not_header_lines(line: str) -> None:
    assert parse_header_line(line) is None


def test_end_and_commands() -> None:
    assert is_end_line("#end") and is_end_line("  #END ") and is_end_line("**#End**")
    assert not is_end_line("#ending")
    assert line_command("HELP") == "help" and line_command(" status! ") == "status"
    assert line_command("**Help**") == "help" and line_command("Status.") == "status"
    assert line_command("help me") is None and line_command("statuses") is None
    assert line_command("**CODESHEET**") == "codesheet" and line_command("Cancel.") == "cancel"
    assert line_command("cancel my orders") is None
    assert subject_command("STATUS") == "status"
    assert subject_command("Re: [venice1] help") == "help"
    assert subject_command("AW: Fwd: RE[2]: Status") == "status"
    assert subject_command("[venice1] my bids") is None and subject_command("") is None
    assert subject_tags("Re: [Venice1] bids [x]") == ["venice1", "x"]
    assert subject_tags("no tags [] [ two words ]") == []


# -- quotes and signatures ------------------------------------------------------------------------------

def kept(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[i] for i in strip_quotes(lines).indices if lines[i].strip()]


@pytest.mark.parametrize("attribution", [
    "On Sun, Nov 22, 2026 at 5:15 PM GM <gm@example.org> wrote:",
    "On 22 Nov 2026, at 17:15, GM <gm@example.org> wrote:",
    "On 22/11/2026 17:15, gm@example.org wrote:",
    "On Sun, Nov 22, 2026 at 5:15 PM Venice Game Master of the Serenissima <\ngm@example.org> wrote:",
    "Am So., 22. Nov. 2026 um 17:15 Uhr schrieb GM <gm@example.org>:",
    "Am So., 22. Nov. 2026 um 17:15 Uhr schrieb Venice Game Master <\ngm@example.org>:",
    "Le dim. 22 nov. 2026 à 17:15, GM <gm@example.org> a écrit :",
    "El dom, 22 nov 2026 a las 17:15, GM (<gm@example.org>) escribió:",
    "Il giorno dom 22 nov 2026 alle ore 17:15 GM <gm@example.org> ha scritto:",
    "Op zo 22 nov. 2026 om 17:15 schreef GM <gm@example.org>:",
    "GM <gm@example.org> wrote:",
    "**On Sunday, GM wrote:**",
])
def test_attribution_and_quote_removed(attribution: str) -> None:
    text = f"bid 30$ for 2 of silk tax\n\n{attribution}\n\n> the report\n> more\n"
    assert kept(text) == ["bid 30$ for 2 of silk tax"]


def test_vague_attribution_followed_by_text_is_kept() -> None:
    # Without a quote after it, cutting could lose orders: the line is left for the grammar to reject.
    assert kept("On Monday I wrote:\nborrow 5$") == ["On Monday I wrote:", "borrow 5$"]
    assert kept("Bob wrote:\nborrow 5$") == ["Bob wrote:", "borrow 5$"]


def test_full_attribution_followed_by_unquoted_original_is_a_cut() -> None:
    # Yahoo's plain part: the original follows the attribution without '>' markers.
    text = ("borrow 5$\n\n\nOn Sunday, November 22, 2026, 05:15:00 PM GMT+1, GM <gm@example.org> wrote:\n\n\n"
            "Venice, turn 1\nbid 40$ for 2 of silk tax\n")
    assert kept(text) == ["borrow 5$"]


def test_interleaved_and_bottom_posted_text_is_kept() -> None:
    text = "On x, GM wrote:\n> report\nborrow 5$\n> more report\n>\n  > indented quote\nbid 1$ for 1 of silk tax"
    assert kept(text) == ["borrow 5$", "bid 1$ for 1 of silk tax"]


@pytest.mark.parametrize("marker", [
    "-- ", "--", "Sent from my iPhone", "Sent from my Samsung Galaxy smartphone.", "Get Outlook for iOS",
    "Get Outlook for Android<https://aka.ms/ghei36>", "Sent from Mail for Windows", "Sent from Yahoo Mail on Android",
    "Envoyé de mon iPhone", "Von meinem iPhone gesendet", "Inviato da iPhone", "Enviado desde mi iPhone",
    "-----Original Message-----", "-----Ursprüngliche Nachricht-----", "________________________________",
    "From: GM <gm@example.org>\nSent: Sunday, November 22, 2026 7:20 PM\nTo: Bob\nSubject: x",
    "**From:** GM\n**Sent:** Sunday\n**To:** Bob\n**Subject:** x",
    "Von: GM <gm@example.org>\nGesendet: Sonntag, 22. November 2026 19:20\nAn: Bob\nBetreff: x",
    "De : GM\nEnvoyé : dimanche 22 novembre 2026 19:20\nÀ : Bob\nObjet : x",
    "From: GM <gm@example.org>\nDate: Sunday, 22 November 2026 at 19:20\nTo: Bob <bob@example.org>",
])
def test_cuts(marker: str) -> None:
    text = f"borrow 5$\n\n{marker}\nbid 99$ for 2 of silk tax\n"
    assert kept(text) == ["borrow 5$"]


def test_from_line_alone_is_not_a_cut() -> None:
    assert kept("From: the Doge, with love\nborrow 5$") == ["From: the Doge, with love", "borrow 5$"]


def test_forward_keeps_forwarded_text() -> None:
    text = ("---------- Forwarded message ---------\nFrom: Alice <a@w.example>\nDate: Tue\nSubject: orders\n"
            "To: <gm@example.org>\n\n\nborrow 5$\n")
    assert kept(text) == ["borrow 5$"]
    assert kept("Begin forwarded message:\n\nFrom: A\nSubject: o\n\nborrow 5$") == ["borrow 5$"]


# -- the order text -------------------------------------------------------------------------------------

def test_plain_orders() -> None:
    ot = extract("\n\nbid 30$ for 2 of silk tax\n\nborrow 5$\n\n")
    assert ot.text == "bid 30$ for 2 of silk tax\n\nborrow 5$"
    assert ot.line_map == (3, 4, 5)
    assert ot.header is None and ot.command is None and not ot.quoted_removed and ot.notes == []


def test_header_text_above_ignored_and_noted() -> None:
    ot = extract("Hi GM!\n#venice1 alice\nborrow 5$\n#end\nbid 99$ for 2 of silk tax")
    assert ot.header == OrderHeader("venice1", "alice", None, 1)
    assert ot.text == "borrow 5$" and ot.line_map == (3,)
    assert ot.notes and "above" in ot.notes[0]


def test_header_under_quoted_report_no_note() -> None:
    text = "On x, GM wrote:\n> report\n> #venice1 alice old\n\n#venice1 alice\n> quoted\nborrow 5$\n"
    ot = extract(text)
    assert ot.header is not None and ot.header.line_index == 4
    assert ot.text == "borrow 5$" and ot.notes == [] and ot.quoted_removed


def test_only_one_header_per_mail() -> None:
    ot = extract("#venice1 alice\nborrow 5$\n#venice1 bob sesame\nborrow 9$")
    assert ot.header is not None and ot.header.player == "alice"
    assert ot.text == "borrow 5$"
    assert ot.notes == ["only one header line is read per mail; the text from '#venice1 bob ...' on was ignored"]


def test_notes_never_show_the_password() -> None:
    ot = extract("Hello\n#venice1 bob sesame\nborrow 5$")
    assert ot.notes == ["the text above the line '#venice1 bob ...' was ignored"]


def test_header_in_the_original_below_a_top_post_is_not_used() -> None:
    # Orders on top without a header; the quoted-by-Outlook original echoes an old header line.
    text = ("borrow 5$\n\n________________________________\nFrom: GM\nSent: Sunday\nTo: Bob\nSubject: x\n\n"
            "#venice1 bob\nbid 40$ for 2 of silk tax\n")
    ot = extract(text)
    assert ot.header is None and ot.text == "borrow 5$"


def test_orders_pasted_below_an_unquoted_original() -> None:
    # Nothing written above the Outlook original: the player pasted the orders at the bottom.
    text = ("\n________________________________\nFrom: GM\nSent: Sunday\nTo: Bob\nSubject: report\n\n"
            "the report\n\n#venice1 bob sesame\nborrow 5$\n-- \nBob")
    ot = extract(text)
    assert ot.header is not None and ot.header.password == "sesame"
    assert ot.text == "borrow 5$"


def test_end_inside_quote_does_not_end() -> None:
    ot = extract("#venice1 alice\n> #end\nborrow 5$\n#END\nmore")
    assert ot.text == "borrow 5$"


def test_commands() -> None:
    assert extract("HELP").command == "help"
    ot = extract("#venice1 bob sesame\nSTATUS\nborrow 5$\nhelp")
    assert ot.command == "status" and ot.text == "borrow 5$" and ot.line_map == (3,)
    assert extract("", "Re: [venice1] STATUS").command == "status"
    assert extract("borrow 5$", "status").command is None  # the subject counts only without orders
    assert extract("help me please").command is None


def test_signature_only_mail_is_empty() -> None:
    ot = extract("\n-- \nAlice\nSent from my iPhone")
    assert ot.text == "" and ot.line_map == () and ot.quoted_removed


def test_gmail_plain_bold_header_end_and_commands() -> None:
    """Gmail's plain part writes bold as *...*: a bold header line, #end and command are still what they are."""
    h = parse_header_line("*#venice1 bob sesame*")
    assert h is not None and (h.game, h.player, h.password) == ("venice1", "bob", "sesame")
    h = parse_header_line("*#venice1 bob sesame")  # the first line of a bold block over several lines
    assert h is not None and h.password == "sesame"
    assert parse_header_line("#venice1 bob sesame*") is not None  # a password may end with a star
    assert parse_header_line("#venice1 bob sesame*").password == "sesame*"  # type: ignore[union-attr]
    assert is_end_line("*#end*") and line_command("*HELP*") == "help" and line_command("_status_") == "status"
    assert parse_header_line("* #venice1 bob") is None and line_command("*") is None


def test_bulleted_header_line() -> None:
    for line in ("\u2022\t#venice1 bob sesame", "\u00b7       #venice1 bob sesame", "- **#venice1 bob sesame**"):
        h = parse_header_line(line)
        assert h is not None and (h.game, h.player, h.password) == ("venice1", "bob", "sesame"), line
    assert extract("Hi\n\u2022\t#venice1 bob sesame\n\u2022\tbid 1$ for 1 of opera").header is not None
