"""The same Law of the Jungle actions written in Gmail (HTML bold, and bold pasted as a styled span), Outlook
(MsoNormal HTML with a plain alternative that has lost the bold), Thunderbird (``<strong>``) and plain text
(``**Attack**`` and ``*Attack*``) give the same actions (issue 10's acceptance 2).

Two levels: each raw mail through maild's intake reading as the pipeline does it for a game that reads bold
(`read_mail` with the HTML part first, `read_orders` with the marked text) and `parse`; and the whole intake
(Maildir, daemon pass, database) for a test game whose `parse` is the jungle's, comparing the order sets it
stored.

CHARACTER ACTIONS: "Actions should be signified by putting the appropriate action keyword in bold."
"""

from __future__ import annotations

import html
import quopri
import zlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from maild.intake.orders import read_orders
from maild.intake.read import EMPHASIS_FIRST, read_mail
from maild.models import InboundMail, OrderSetRow
from maild.ruleset import ParsedOrders, PlayerSpec, Ruleset, TurnResult, register, unregister
from maild.testing import Table, drop
from maild_rules.jungle.orders import parse

# The player's actions as he means them: (the keyword he makes bold, the rest of the line); None: no bold.
LINES: list[tuple[str | None, str]] = [
    (None, "Itzel:"),
    ("Attack", " Xolotl (joint with Coyotl, Itzel principal) - capture, desperate"),
    (None, "Coyotl:"),
    ("Give", " 5 gold to Itzel"),
    (None, "Tochtli (slave of Xolotl):"),
    ("Order", " Jaguar Warriors: fortify on the north-east hill, then wait (both actions)"),
    (None, "For Ome:"),
    ("Research", " Bronze Working"),
]
EXPECTED = [
    ("attack", {"target": "Xolotl", "type": "capture", "desperate": True, "joint": ["Coyotl"],
                "principal": "Itzel", "item": None, "character": "Itzel", "both": False, "part": None}),
    ("give", {"what": "gold", "amount": 5, "object": None, "to": "Itzel", "character": "Coyotl", "both": False,
              "part": None}),
    ("order", {"unit": "Jaguar Warriors", "text": "fortify on the north-east hill, then wait", "words": None,
               "written": "Jaguar Warriors: fortify on the north-east hill, then wait", "character": "Tochtli",
               "both": True, "part": None}),
    ("research", {"technology": "Bronze Working", "character": "Ome", "both": False, "part": None}),
]


def _qp(text: str) -> str:
    return quopri.encodestring(text.replace("\n", "\r\n").encode("utf-8")).decode("ascii")


def _head(sender: str, n: int, mailer: str, ctype: str) -> str:
    return (f"From: Anna <{sender}>\r\nTo: gm@example.org\r\nSubject: council\r\n"
            "Date: Wed, 25 Nov 2026 09:12:33 +0000\r\n"
            f"Message-ID: <jungle-{n}-{zlib.crc32(mailer.encode()) % 10_000}@mail.example.org>\r\nMIME-Version: 1.0\r\n"
            f"{mailer}Content-Type: {ctype}\r\n")


def _alternative(head: str, boundary: str, plain: str, html_part: str | None) -> bytes:
    body = (f"{head}\r\n--{boundary}\r\n"
            "Content-Type: text/plain; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            f"{_qp(plain)}\r\n")
    if html_part is not None:
        body += (f"--{boundary}\r\n"
                 "Content-Type: text/html; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
                 f"{_qp(html_part)}\r\n")
    return (body + f"--{boundary}--\r\n").encode("ascii")


def _html_only(head: str, html_part: str) -> bytes:
    return (head + "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + _qp(html_part) + "\r\n").encode("ascii")


def _plain_lines(star: str) -> list[str]:
    return [f"{star}{b}{star}{rest}" if b else rest for b, rest in LINES]


def plain_double(sender: str, game: str, n: int) -> bytes:
    """Typed in a plain-text client, bold written as Markdown's ``**Attack**``."""
    body = "\n".join([f"#{game} anna", *_plain_lines("**"), "", "Thanks!", "Anna"])
    return (_head(sender, n, "User-Agent: Mutt/2.2\r\n", "text/plain; charset=UTF-8")
            + "Content-Transfer-Encoding: 7bit\r\n\r\n" + body.replace("\n", "\r\n") + "\r\n").encode("ascii")


def plain_single(sender: str, game: str, n: int) -> bytes:
    """Plain text with ``*Attack*``, as Gmail's plain part and many players write bold."""
    body = "\n".join([f"#{game} anna", "Hi GM,", "", *_plain_lines("*"), "", "Cheers,", "Anna"])
    return (_head(sender, n, "", "text/plain; charset=UTF-8")
            + "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + _qp(body) + "\r\n").encode("ascii")


def _gmail_html(game: str, bold: Callable[[str], str]) -> str:
    divs = "".join(f"<div>{bold(html.escape(b)) if b else ''}{html.escape(rest, quote=False)}</div>"
                   for b, rest in LINES)
    return (f'<div dir="ltr"><div>#{game} anna</div><div>Hi GM,</div><div><br></div>{divs}<div><br></div>'
            "<div>Thanks!</div><div>Anna</div></div>\n")


def gmail(sender: str, game: str, n: int) -> bytes:
    """Gmail: multipart/alternative, ``<b>`` in the HTML, ``*Attack*`` in the plain part."""
    plain = "\n".join([f"#{game} anna", "Hi GM,", "", *_plain_lines("*"), "", "Thanks!", "Anna"])
    boundary = f"000000000000a1b2c3d4e5f6{n:04d}"
    return _alternative(_head(sender, n, "", f'multipart/alternative; boundary="{boundary}"'), boundary, plain,
                        _gmail_html(game, lambda b: f"<b>{b}</b>"))


def gmail_html_only(sender: str, game: str, n: int) -> bytes:
    return _html_only(_head(sender, n, "", 'text/html; charset="UTF-8"'), _gmail_html(game, lambda b: f"<b>{b}</b>"))


def gmail_span(sender: str, game: str, n: int) -> bytes:
    """Gmail with the bold pasted from a web page: ``<span style="font-weight:bold">``; its plain part has
    lost it, as it does for styled spans."""
    plain = "\n".join([f"#{game} anna", "Hi GM,", "", *_plain_lines(""), "", "Thanks!", "Anna"])
    boundary = f"000000000000f6e5d4c3b2a1{n:04d}"
    span = _gmail_html(game, lambda b: f'<span style="font-weight:bold;color:rgb(34,34,34)">{b}</span>')
    return _alternative(_head(sender, n, "", f'multipart/alternative; boundary="{boundary}"'), boundary, plain,
                        span)


def gmail_block(sender: str, game: str, n: int) -> bytes:
    """Gmail with the whole block made bold: one ``<b>`` over ``<br>``-separated lines, which its plain part
    writes as one ``*...*`` run over every line; the names and objects are bold too."""
    text = [(b or "") + rest for b, rest in LINES]
    plain = "\n".join([f"#{game} anna", "Hello,", "", "*" + "\n".join(text) + "*", "", "Regards,", "Anna"])
    inner = "<br>".join(html.escape(line, quote=False) for line in text)
    html_part = (f'<div dir="ltr"><div>#{game} anna</div>Hello,<div><br></div><div><b>{inner}</b></div>'
                 "<div><br></div><div>Regards,</div><div>Anna</div></div>\n")
    boundary = f"000000000000b10c4b10c4{n:04d}"
    return _alternative(_head(sender, n, "", f'multipart/alternative; boundary="{boundary}"'), boundary, plain,
                        html_part)


def gmail_block_plain(sender: str, game: str, n: int) -> bytes:
    """The plain part of the same mail alone."""
    raw = gmail_block(sender, game, n).decode("ascii")
    head, rest = raw.split("\r\n\r\n", 1)
    plain = rest.split("\r\n\r\n", 1)[1].split("\r\n--", 1)[0]
    head = head.replace(head[head.index("Content-Type:"):], "Content-Type: text/plain; charset=UTF-8")
    return (head + "\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + plain + "\r\n").encode("ascii")


_MSO = "<p class=MsoNormal>{}<o:p></o:p></p>\r\n"
_FONT = "<span style='font-family:\"Calibri\",sans-serif'>{}</span>"


def outlook(sender: str, game: str, n: int) -> bytes:
    """Outlook desktop: MsoNormal paragraphs, ``<b><span ...>`` for bold, Word's en dash for " - ", and a
    plain alternative in which the bold is gone (Outlook writes bold as plain words)."""
    word = [(b, rest.replace(" - ", " \u2013 ")) for b, rest in LINES]
    plain = "\n".join([f"#{game} anna", "Dear GM,", "", *((b or "") + rest for b, rest in word), "",
                       "Kind regards,", "Anna"])
    paragraphs = "".join(
        _MSO.format((f"<b>{_FONT.format(html.escape(b))}</b>" if b else "")
                    + _FONT.format(html.escape(rest, quote=False).replace(" ", "&nbsp;", 1) if b else
                                   html.escape(rest, quote=False)))
        for b, rest in word)
    body = ('<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta http-equiv=Content-Type '
            'content="text/html; charset=utf-8"><style><!--\r\np.MsoNormal {margin:0in; font-size:11.0pt;}\r\n'
            '--></style></head>\r\n<body lang=EN-US><div class=WordSection1>\r\n'
            f"{_MSO.format(f'#{game} anna')}{_MSO.format('Dear GM,')}{_MSO.format('&nbsp;')}{paragraphs}"
            f"{_MSO.format('&nbsp;')}{_MSO.format('Kind regards,')}{_MSO.format('Anna')}</div></body></html>\r\n")
    boundary = f"_000_DB7PR0401MB2345{n:04d}EURPRD04PRODOUTLOOKCOM_"
    head = _head(sender, n, "X-Mailer: Microsoft Outlook 16.0\r\nThread-Index: AdjA1b2c3d4\r\n",
                 f'multipart/alternative; boundary="{boundary}"')
    return _alternative(head, boundary, plain, body)


def _thunderbird_html(game: str) -> str:
    lines = "<br>\n".join((f"<strong>{html.escape(b)}</strong>" if b else "") + html.escape(rest, quote=False)
                          for b, rest in LINES)
    return ('<html><head><meta http-equiv="content-type" content="text/html; charset=UTF-8"></head>'
            f'<body><p>#{game} anna<br>\nHello,</p>\n<p>{lines}</p>\n<p>Regards,<br>\nAnna</p>\n'
            '<div class="moz-signature">-- <br>Anna of Aztlan</div></body></html>\n')


def thunderbird(sender: str, game: str, n: int) -> bytes:
    """Thunderbird "plain text and HTML": ``<strong>``, and its plain conversion writes bold as ``*x*``."""
    plain = "\n".join([f"#{game} anna", "Hello,", "", *_plain_lines("*"), "", "Regards,", "Anna", "",
                       "-- ", "Anna of Aztlan"])
    boundary = f"------------tb{n:04d}Q2W3E4R5T6Y7U8"
    head = _head(sender, n, "User-Agent: Mozilla Thunderbird\r\n", f'multipart/alternative; boundary="{boundary}"')
    return _alternative(head, boundary, plain, _thunderbird_html(game))


def thunderbird_html_only(sender: str, game: str, n: int) -> bytes:
    return _html_only(_head(sender, n, "User-Agent: Mozilla Thunderbird\r\n", "text/html; charset=UTF-8"),
                      _thunderbird_html(game))


CLIENTS: dict[str, Callable[[str, str, int], bytes]] = {
    "plain-double-star": plain_double, "plain-single-star": plain_single, "gmail": gmail,
    "gmail-html-only": gmail_html_only, "gmail-bold-span": gmail_span, "gmail-bold-block": gmail_block,
    "gmail-bold-block-plain": gmail_block_plain, "outlook": outlook,
    "thunderbird": thunderbird, "thunderbird-html-only": thunderbird_html_only,
}


class _Bold(Ruleset):
    """A game that reads the jungle's orders, for the intake's sake."""

    name = "jungle_mailforms"
    reads_emphasis = True

    def parse(self, text: str) -> ParsedOrders:
        return parse(text)

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        return {"players": setup["players"]}

    def players(self, state: dict[str, Any]) -> list[PlayerSpec]:
        return [PlayerSpec(p, f"{p}@example.org") for p in state["players"]]

    def resolve(self, state: dict[str, Any], turn: int, orders: Any, rng: Any) -> TurnResult:
        return TurnResult(state, {}, {})


def understood(parsed: ParsedOrders) -> list[tuple[str, dict[str, Any]]]:
    return [(o.kind, o.args) for o in parsed.orders]


@pytest.mark.parametrize("client", list(CLIENTS))
def test_each_mail_program_gives_the_same_actions(client: str) -> None:
    """Read as intake reads a mail for a game with `reads_emphasis`: HTML part first, bold marked."""
    raw = CLIENTS[client]("anna@example.org", "jungle1", 1)
    mail = read_mail(raw, prefer=EMPHASIS_FIRST)
    read = read_orders(_Bold(), mail.order_text, {"anna"})
    assert understood(read.parsed) == EXPECTED
    assert [d for d in read.parsed.diagnostics if not d.warning] == []
    # Only greetings, closings and signatures are set aside, never an action.
    assert all(d.message in ("greeting", "closing", "signature") for d in read.ignored), read.ignored


def test_the_plain_alternative_first_loses_outlooks_bold() -> None:
    """Why a game that reads bold takes the HTML part first: Outlook's plain part has the keywords as plain
    words, which are no actions (they are pointed out as keywords not in bold)."""
    mail = read_mail(outlook("anna@example.org", "jungle1", 1))
    read = read_orders(_Bold(), mail.order_text, {"anna"})
    assert read.parsed.orders == []
    assert {d.text.split()[0] for d in read.parsed.diagnostics if d.warning} >= {"Attack", "Give", "Order"}


@pytest.fixture
def bold_game() -> Any:
    register(_Bold())
    yield
    unregister(_Bold.name)


def test_through_the_whole_intake_every_program_gives_the_same_order_set(tmp_path: Path, db_url: str,
                                                                         bold_game: Any) -> None:
    """Maildir, daemon pass, database (SQLite and PostgreSQL): each player's mail from another program, the
    same order set stored."""
    players = [f"p{i}" for i in range(len(CLIENTS))]
    with Table(tmp_path, db_url=db_url, now=datetime(2026, 11, 25, 9, 0, tzinfo=UTC)) as table:
        table.create_game("jungle1", _Bold.name, {"players": players})
        table.intake()  # the welcomes
        for n, (player, build) in enumerate(zip(players, CLIENTS.values(), strict=True), start=1):
            raw = build(f"{player}@example.org", "jungle1", n).replace(b"#jungle1 anna", f"#jungle1 {player}".encode())
            drop(table.app, raw, table.now())
        table.intake()
        with table.app.db.session() as s:
            rows = s.execute(select(InboundMail.sender, OrderSetRow.orders, OrderSetRow.diagnostics)
                             .join(OrderSetRow, OrderSetRow.mail_id == InboundMail.id)).all()
    assert len(rows) == len(CLIENTS)
    for sender, orders, diagnostics in rows:
        assert [(o["kind"], o["args"]) for o in orders] == EXPECTED, sender
        assert [d for d in diagnostics if not d.get("warning")] == [], (sender, diagnostics)
