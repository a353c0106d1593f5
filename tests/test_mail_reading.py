"""How every game reads a player's mail (issue 23), from the player's side: the mail in, the ack he gets.

mailx/s-nail's indented quotes, what the ack says of the quoted and signature lines it dropped, line numbers
as the player sees them in his mail, sign-offs under the orders, sentence punctuation at the end of an order,
and an ack that does not contradict itself."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from maild.ruleset import Diagnostic, Order, ParsedOrders, register, unregister
from maild.testing import Table
from tests.conftest import VENICE_SETUP
from tests.mailcheck import section
from tests.replyshapes import SHAPES
from tests.rps_game import EXAMPLE_SETUP, RockPaperScissors


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    (tmp_path / "venice.toml").write_text(VENICE_SETUP)
    with Table(tmp_path) as table:
        table.create_game("venice1", "venice", tmp_path / "venice.toml")
        yield table


def ack_of(table: Table, sender: str, body: str) -> str:
    table.send(sender, body)
    table.intake()
    return table.ack(sender)


# -- 1. mailx / s-nail replies ---------------------------------------------------------------------------------

SNAIL_REPLY = """#venice1 bob sesame
gm@example.org wrote:
\tHello bob,
\t
\tthis is what venice1 read in your mail for turn 1.
\t
\tUnderstood (1):
\t  line 2: bid 20$ each for up to 1 of silk tax
\t
\tDeadline for turn 1: Sunday 22 November 2026, 17:15 (Europe/Rome).

bid 30$ for 1 of silk tax
borrow 100$
"""


def test_an_s_nail_reply_under_a_tab_indented_quote_is_read(table: Table) -> None:
    ack = ack_of(table, "bob@example.org", SNAIL_REPLY)
    assert "held no orders" not in ack
    understood = section(ack, "Understood (2):")
    assert "line 12: bid 30$ each for up to 1 of silk tax" in understood, ack
    assert "line 13: borrow 100$" in understood, ack
    assert "ignored 9 quoted lines below line 1" in ack, ack


def test_a_quote_indented_with_blanks_is_quoted_too(table: Table) -> None:
    body = ("#venice1 bob sesame\nOn Sun, 22 Nov 2026 at 09:00, GM <gm@example.org> wrote:\n"
            "    Understood (1):\n      line 2: borrow 50$\n\nborrow 100$\n")
    ack = ack_of(table, "bob@example.org", body)
    assert "line 6: borrow 100$" in section(ack, "Understood (1):"), ack
    assert "ignored 3 quoted lines below line 1" in ack, ack


def test_the_ack_says_where_quoted_and_signature_lines_were_dropped(table: Table) -> None:
    body = ("#venice1 bob sesame\nborrow 100$\n\nOn Sun, 22 Nov 2026 at 09:00, GM <gm@example.org> wrote:\n"
            "> Hello bob,\n>\n> Understood (1):\n\nbid 30$ for 1 of silk tax\n-- \nBob Rossi\n+39 06 1234\n")
    ack = ack_of(table, "bob@example.org", body)
    assert len(section(ack, "Understood (2):").strip().splitlines()) == 2, ack
    assert "ignored 4 quoted lines below line 2" in ack, ack
    assert "ignored 3 signature lines below line 9" in ack, ack


# -- 4. line numbers as the player sees them --------------------------------------------------------------------

def test_ack_line_numbers_count_from_the_top_of_the_mail(table: Table) -> None:
    body = "Dear GM,\n\n#venice1 bob sesame\nbid 30$ for 1 of silk tax\nbid thirty for silk tax\n"
    ack = ack_of(table, "bob@example.org", body)
    assert "line 4: bid 30$ each" in section(ack, "Understood (1):"), ack
    assert "line 5: bid thirty for silk tax" in section(ack, "Not understood (1)"), ack


# -- 3. sentence punctuation at the end of an order -------------------------------------------------------------

def test_a_full_stop_ends_a_galilei_order_without_breaking_it(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("gal", "galilei", "example:galilei")
        ack = ack_of(table, "alice@example.org", "Bid 10 for cards, 10 for capitals.\nturn bid 0!\n")
        assert "Not understood" not in ack, ack
        assert "Understood (2):" in ack, ack
        for name in ("bob", "carol", "dave", "erin", "frank"):
            table.send(f"{name}@example.org", "bid 5 for cards, 5 for capitals\nturn bid 2")
        table.intake()
        ack = ack_of(table, "alice@example.org", "number 4.")
        assert "Not understood" not in ack and "expected" not in ack, ack


def test_a_full_stop_ends_a_venice_order_and_a_decimal_keeps_its_dot(table: Table) -> None:
    ack = ack_of(table, "alice@example.org", "bid 30$ for 1 of silk tax.\nborrow 100$;\n")
    assert "Not understood" not in ack, ack
    assert "Understood (2):" in ack, ack
    from maild.intake.normalize import CleanText, without_full_stops
    assert without_full_stops(CleanText("spend 0.1667\nspend 0.1667.\nattack Paris...")).text == \
        "spend 0.1667\nspend 0.1667\nattack Paris"


# -- 2. a bare name under the orders is a signature, in every game ------------------------------------------------

def test_a_line_number_inside_a_games_message_is_the_mails_too(tmp_path: Path) -> None:
    from datetime import datetime

    from tests.mailflow import ROME, drop, mail, run_pass, sent
    from tests.renaissance_fixtures import mail_game

    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", morning)
    drop(app, mail("bor@example.org", "Dear GM,\n#ren1 BOR cantarella\n/BOR\n*Florence .0301\nBwool50\n", 1),
         morning)
    run_pass(app, morning)
    [ack] = [m.get_content() for m in sent(app) if m["To"] == "bor@example.org"]
    said = " ".join(ack.split())
    assert "line 5: Bwool50" in said and "after /BOR (line 3) comes the family's name" in said, ack


def test_a_renaissance_mail_signed_with_a_bare_name(tmp_path: Path) -> None:
    from datetime import datetime

    from tests.mailflow import ROME, drop, mail, run_pass, sent
    from tests.renaissance_fixtures import mail_game

    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", morning)
    drop(app, mail("med@example.org", "/MED *MEDICI\n*Florence .0101\nBwool100\n\nLorenzo\n", 1), morning)
    run_pass(app, morning)
    [ack] = [m.get_content() for m in sent(app) if m["To"] == "med@example.org"]
    assert "Not understood" not in ack and "boarding" not in ack, ack
    assert "line 5: Lorenzo" in section(ack, "Ignored (1)"), ack


def test_a_venice_mail_signed_with_a_bare_name_but_a_lone_order_word_is_a_mistake(table: Table) -> None:
    ack = ack_of(table, "carol@example.net", "bid 30$ for 1 of silk tax\n\nLorenzo")
    assert "Not understood" not in ack and "line 3: Lorenzo" in section(ack, "Ignored (1)"), ack
    ack = ack_of(table, "carol@example.net", "bid 30$ for 1 of silk tax\n\nBorrow")
    assert "line 3: Borrow" in section(ack, "Not understood (1)"), ack
    ack = ack_of(table, "carol@example.net", "Lorenzo\nbid 30$ for 1 of silk tax")  # not under the orders
    assert "line 1: Lorenzo" in section(ack, "Not understood (1)"), ack


def test_a_galilei_mail_signed_with_a_bare_name(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("gal", "galilei", "example:galilei")
        ack = ack_of(table, "alice@example.org", "bid 10 for cards, 10 for capitals\nturn bid 0\n\nCheers, Anna\n")
        assert "Not understood" not in ack, ack
        ack = ack_of(table, "bob@example.org", "bid 10 for cards, 10 for capitals\nturn bid 0\n-- Bob\n")
        assert "Not understood" not in ack, ack
        ack = ack_of(table, "carol@example.org", "bid 10 for cards, 10 for capitals\nTurn\n")
        assert "line 2: Turn" in section(ack, "Not understood (1)"), ack


# -- 5. an ack that does not contradict itself ------------------------------------------------------------------

LONG_HINT = ("the newsletter cannot print a percent sign in a say. Defenders of the newsletter's plain "
             "letters say so in rule 9, which the GM may quote at length. Write the word percent instead, e.g. "
             "say 50 percent of the time I throw rock or say I win ninety percent or say percentages are fun")


class _Strict(RockPaperScissors):
    """Rock, paper, scissors with one rule that refuses an understood order (no paper before round 2), and a
    warning on every `say` with a word it cannot print, also when the line is not understood."""

    name = "rps_strict"

    def parse(self, text: str) -> ParsedOrders:
        parsed = super().parse(text)
        for n, line in enumerate(text.split("\n"), start=1):
            if line.startswith("say") and "@" in line:
                parsed.diagnostics.append(Diagnostic(n, line, "the newsletter prints no '@'", warning=True))
                parsed.diagnostics.append(Diagnostic(n, line, "a say has at most five words"))
                parsed.orders = [o for o in parsed.orders if o.line != n]
            if line.startswith("say") and "~" in line:  # the say stands, the rest of the line is not read
                parsed.diagnostics.append(Diagnostic(n, line, "the part after '~' was not read"))
                parsed.diagnostics.append(Diagnostic(n, line, "the newsletter prints no '~'", warning=True))
            if line.startswith("say") and "%" in line:
                parsed.diagnostics.append(Diagnostic(n, line, LONG_HINT))
                parsed.orders = [o for o in parsed.orders if o.line != n]
        parsed.diagnostics.sort(key=lambda d: d.line)
        return parsed

    def check(self, state: dict[str, Any], turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
        return [Diagnostic(o.line, o.text, "paper is not thrown in the first round", rule="rule 4")
                for o in orders if o.kind == "throw" and o.args.get("throw") == "paper" and turn == 1]


@pytest.fixture
def strict() -> Iterator[Table]:
    register(_Strict())
    try:
        yield
    finally:
        unregister(_Strict.name)


def test_a_rule_refusal_is_listed_with_its_rule_not_as_not_understood(tmp_path: Path, strict: None) -> None:
    with Table(tmp_path) as table:
        table.create_game("rps1", _Strict.name, EXAMPLE_SETUP)
        ack = ack_of(table, "ann@example.org", "throw paper\nthrow rocks\nsay hello there @all of you out there")
        refused = section(ack, "Refused by the rules (1)")
        assert "line 1: throw paper" in refused and "paper is not thrown in the first round" in refused, ack
        assert "see rule 4" in refused, ack
        errors = section(ack, "Not understood (2)")
        assert "throw paper" not in errors and "line 2: throw rocks" in errors, ack
        # The say is not understood, so it is not "accepted all the same": its note goes with it.
        assert "line 3: say" in errors and "Please note" not in ack and "prints no '@'" not in ack, ack


# -- 6. long hints are shortened by whole examples and sentences, never mid-word ------------------------------------

def test_a_long_hint_loses_whole_examples_and_sentences_never_what_was_wrong(tmp_path: Path, strict: None) -> None:
    assert len(LONG_HINT) > 200
    with Table(tmp_path) as table:
        table.create_game("rps1", _Strict.name, EXAMPLE_SETUP)
        ack = ack_of(table, "ann@example.org", "throw rock\nsay 50% of the time")
    errors = " ".join(section(ack, "Not understood (1)").split())
    assert "line 2: say 50% of the time the newsletter cannot print a percent sign in a say." in errors, ack
    assert "…" not in ack and "characters)" not in ack, ack
    assert "say percentages are fun" not in errors, ack  # an example dropped whole
    for line in ack.splitlines():
        assert len(line) <= 78, line


def test_the_printout_numbers_lines_not_carried_out_as_the_mail_does(table: Table) -> None:
    table.send("bob@example.org", "Hi GM,\n#venice1 bob sesame\nborrow 100$\nbid thirty for silk tax\n")
    table.intake()
    table.run_turn("venice1")
    printout = table.printout("venice1", 1, "bob")
    assert "line 4: bid thirty for silk tax" in printout, printout


# -- 1. every mail program's reply, in two games --------------------------------------------------------------

ACK_QUOTED = ["Hello bob,", "", "this is what the game read in your mail for turn 1.", "", "Understood (1):",
              "  line 2: bid 20$ each for up to 1 of silk tax", "",
              "Deadline for turn 1: Sunday 22 November 2026, 17:15 (Europe/Rome)."]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_mail_programs_reply_is_read_in_venice_and_galilei(tmp_path: Path, shape: str) -> None:
    write = SHAPES[shape]
    (tmp_path / "venice.toml").write_text(VENICE_SETUP)
    with Table(tmp_path) as table:
        table.create_game("venice1", "venice", tmp_path / "venice.toml")
        table.create_game("gal", "galilei", "example:galilei", address="galilei@example.org")
        ack = ack_of(table, "bob@example.org",
                     write(ACK_QUOTED, ["#venice1 bob sesame", "bid 30$ for 1 of silk tax", "borrow 100$"]))
        assert "Understood (2)" in ack and "Not understood" not in ack, ack
        assert re.search(r"ignored \d+ quoted lines (below line \d+|at the top of your mail)", ack), ack
        table.send("alice@example.org", write(ACK_QUOTED, ["bid 10 for cards, 10 for capitals", "turn bid 3"]),
                   to="galilei@example.org")
        table.intake()
        ack = table.ack("alice@example.org")
        assert "Understood (2)" in ack and "Not understood" not in ack, ack
        assert re.search(r"ignored \d+ quoted lines (below line \d+|at the top of your mail)", ack), ack


def test_a_warning_goes_with_its_line_not_under_accepted_all_the_same(tmp_path: Path, strict: None) -> None:
    with Table(tmp_path) as table:
        table.create_game("rps1", _Strict.name, EXAMPLE_SETUP)
        ack = ack_of(table, "ann@example.org", "throw rock\nsay hello ~ all")
    errors = section(ack, "Not understood (1)")
    assert "line 2: say hello ~ all" in errors and "note: the newsletter prints no '~'" in errors, ack
    assert "Please note" not in ack, ack


def test_a_venice_note_on_a_refused_bid_is_not_accepted_all_the_same(table: Table) -> None:
    ack = ack_of(table, "alice@example.org", "bid 0$ for 1 of opera\nbid 0$ for 1 of silk tax")
    # An item of the game not offered in this auction: understood, refused by the rules' auction process.
    assert "line 1: bid 0$ for 1 of opera" in section(ack, "Refused by the rules (1)"), ack
    notes = section(ack, "Please note (1)")
    assert "line 2: bid 0$ for 1 of silk tax" in notes and "line 1" not in notes, ack


def test_the_jungle_hint_listing_the_actions_is_not_cut_and_its_line_is_said_once(tmp_path: Path) -> None:
    """The case met in play: "'Message' is in bold but is no action; the actions are ..., Attack, De… (296
    characters)". What was wrong and the list stay whole; the line is listed once with both messages."""
    with Table(tmp_path) as table:
        table.create_game("j1", "jungle", "example:jungle")
        table.intake()
        ack = ack_of(table, "alice@example.org", "**Message** Xolotl: meet me at dawn")
    errors = section(ack, "Not understood (1)")
    said = " ".join(errors.split())
    assert "'Message' is in bold but is no action; the actions are Sacrifice," in said, ack
    assert "Attack, Defend, Propose," in said and "Propose Rule" in said, ack
    assert "…" not in ack and "characters)" not in ack, ack
    assert errors.count("line 1:") == 1, ack
    assert not [line for line in ack.splitlines() if len(line) > 78], ack


def test_a_refused_mail_does_not_say_its_orders_were_accepted_all_the_same(tmp_path: Path) -> None:
    from datetime import datetime

    from tests.mailflow import ROME, drop, mail, run_pass, sent
    from tests.renaissance_fixtures import mail_game

    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", morning)
    sforza = "/SFO *SFORZA\n*Florence .0201\nS0fibwool50\n"  # he is at Milan: a note, and the sale stands
    drop(app, mail("sfo@example.org", sforza, 1, subject="first"), morning)
    drop(app, mail("sfo@example.org", sforza, 2, subject="second"), morning)
    run_pass(app, morning)
    [first, second] = [m.get_content() for m in sent(app) if m["To"] == "sfo@example.org" and "Re:" in m["Subject"]]
    assert "Please note (1) - these orders were accepted all the same:" in first
    assert "Read but NOT ACCEPTED (1)" in second and "Please note (1):" in second, second
    assert "accepted all the same" not in second, second


def test_every_line_of_an_ack_fits_78_columns(tmp_path: Path) -> None:
    """A Jungle action's summary runs long; the ack wraps it, as it wraps every message."""
    with Table(tmp_path) as table:
        table.create_game("j1", "jungle", "example:jungle")
        table.intake()
        ack = ack_of(table, "alice@example.org",
                     "**Attack** Xolotl, duel, desperate, joint with Coyotl and Itzel, Itzel principal\n"
                     "**Purchase** 3 food\n**Purchase** 2 weapons\n**Give** 5 gold to Xolotl\n")
    assert "Understood" in ack, ack
    assert not [line for line in ack.splitlines() if len(line) > 78], ack


def test_an_orders_summary_is_echoed_whole_up_to_three_widths_and_cut_beyond() -> None:
    from maild.config import ReplyLimits
    from maild.intake.ackecho import Echo

    echo = Echo(ReplyLimits(ack_line_chars=200))
    held = Order(1, "x", "say", {}, "w " * 290)  # 580 characters: what the player is held to, whole
    run_on = Order(2, "x", "say", {}, "w " * 1000)  # 2,000: a run-on, cut with its length
    [shown, cut] = echo("orders", [held, run_on])
    assert shown.summary == held.summary
    assert cut.summary.endswith("… (2,000 characters)") and len(cut.summary) < 600
