"""The same orders typed plain, written bold in Gmail (HTML and its plain part), pasted from Outlook with
bullets, sent from Apple Mail as a list and typed on an iPhone with smart punctuation give the same order set,
for Venice and Renaissance, through the whole intake (Maildir, daemon pass, database on SQLite and PostgreSQL);
and the greetings and signatures each program's users add are listed in the ack as ignored."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from maild.app import App
from maild.games import sync_games
from maild.models import InboundMail, OrderSetRow
from tests import mailshapes
from tests.conftest import make_app
from tests.mailflow import ROME, drop, run_pass, sent
from tests.renaissance_fixtures import mail_game

MORNING = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)

VENICE_ORDERS = ["bid 20$ for 1 of silk tax", 'bid 45$ for 1 of "exile competitor"', "borrow 100$"]
RENAISSANCE_ORDERS = ["/MED *MEDICI", "*Florence .0101", "Bwool100 T0102ducat1000 -- for Giovanni",
                      "*Florence .0102", "HC1000"]

Builder = Callable[[str, str, list[str], int, str], bytes]
CLIENTS: dict[str, Builder] = {
    "gmail": mailshapes.gmail,
    "gmail-html": lambda *a: mailshapes.html_only(mailshapes.gmail(*a)),
    "gmail-block": mailshapes.gmail_block,
    "gmail-block-html": lambda *a: mailshapes.html_only(mailshapes.gmail_block(*a)),
    "outlook": mailshapes.outlook,
    "outlook-html": lambda *a: mailshapes.html_only(mailshapes.outlook(*a)),
    "apple-mail": mailshapes.apple_mail,
    "apple-mail-html": lambda *a: mailshapes.html_only(mailshapes.apple_mail(*a)),
    "iphone": mailshapes.iphone,
}


def order_sets(app: App) -> dict[str, list[dict[str, Any]]]:
    """Message-ID -> the order set its mail gave, as stored: each order's kind, arguments and text (line
    numbers differ, since the greetings above the orders differ; case, since phones capitalise), and no
    diagnostics."""
    out: dict[str, list[dict[str, Any]]] = {}
    with app.db.session() as s:
        rows = s.execute(select(InboundMail.raw, OrderSetRow.orders, OrderSetRow.diagnostics)
                         .join(OrderSetRow, OrderSetRow.mail_id == InboundMail.id)).all()
    for raw, orders, diagnostics in rows:
        mid = next(line for line in bytes(raw).decode("ascii").split("\r\n") if line.startswith("Message-ID:"))
        assert diagnostics == [], (mid, diagnostics)
        out[mid] = [{"kind": o["kind"], "args": o["args"], "text": o["text"].casefold()} for o in orders]
    return out


def send_all(app: App, sender: str, name: str, orders: list[str], signature: str) -> None:
    drop(app, mailshapes.plain_typed(sender, name, orders, 0), MORNING)
    for n, build in enumerate(CLIENTS.values(), start=1):
        drop(app, build(sender, name, orders, n, signature), MORNING)
    run_pass(app, MORNING)


def assert_all_the_same(app: App, expected: int) -> None:
    sets = order_sets(app)
    assert len(sets) == 1 + len(CLIENTS)
    reference = next(v for k, v in sets.items() if "<mozilla-" in k)
    assert len(reference) == expected
    for mid, orders in sets.items():
        assert orders == reference, mid


def test_venice_orders_read_the_same_from_every_mail_program(tmp_path: Path, db_url: str,
                                                             venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    with app.db.session() as s:
        sync_games(s, app.config, MORNING)
    send_all(app, "alice@example.org", "Alice Liddell", VENICE_ORDERS, "Alice")
    assert_all_the_same(app, 3)
    acks = [m.get_content() for m in sent(app)]
    assert len(acks) == 1 + len(CLIENTS)
    assert all("Not understood" not in a for a in acks)
    # Every program's user greeted and signed: each ack lists those lines as ignored, by line number.
    assert sum("Ignored (" in a for a in acks) == len(CLIENTS)
    gmail = next(a for a in acks if "line 1: Hi GM," in a)
    assert "Ignored (3) - greetings, closings and signatures, not orders:" in gmail
    assert "line 7: Thanks!" in gmail and "line 8: Alice" in gmail


def test_renaissance_orders_read_the_same_from_every_mail_program(tmp_path: Path, db_url: str) -> None:
    app = mail_game(tmp_path, db_url, MORNING)
    send_all(app, "med@example.org", "Lorenzo de' Medici", RENAISSANCE_ORDERS, "Lorenzo")
    sets = order_sets(app)
    reference = next(v for k, v in sets.items() if "<mozilla-" in k)
    assert [o["kind"] for o in reference] == ["buy", "transfer", "charity"]
    assert all(o["args"]["family"] == "MEDICI" for o in reference)
    assert [o["args"]["persona"] for o in reference] == ["0101", "0101", "0102"]
    assert_all_the_same(app, 3)
    acks = [m.get_content() for m in sent(app)]
    assert all("Not understood" not in a for a in acks)
    iphone = next(a for a in acks if "line 1: Hi all" in a)
    assert "line 9: -- Lorenzo" not in iphone  # a comment to Renaissance: nothing to list, nothing refused


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_each_program_alone_gives_the_plain_order_set(tmp_path: Path, venice_setup: Path, client: str) -> None:
    """One mail per database, so a failure names the program (SQLite only: the test above covers both)."""
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'm.db'}", MORNING, venice_setup)
    with app.db.session() as s:
        sync_games(s, app.config, MORNING)
    drop(app, mailshapes.plain_typed("alice@example.org", "Alice Liddell", VENICE_ORDERS, 0), MORNING)
    drop(app, CLIENTS[client]("alice@example.org", "Alice Liddell", VENICE_ORDERS, 1, "Alice"), MORNING)
    run_pass(app, MORNING)
    sets = list(order_sets(app).values())
    assert len(sets) == 2 and len(sets[0]) == 3 and sets[0] == sets[1]


@pytest.mark.parametrize("client", ["gmail", "gmail-block", "gmail-html", "outlook", "iphone"])
def test_a_bold_or_bulleted_header_line_still_routes_and_authenticates(tmp_path: Path, venice_setup: Path,
                                                                        client: str) -> None:
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'm.db'}", MORNING, venice_setup)
    with app.db.session() as s:
        sync_games(s, app.config, MORNING)
    lines = ["#venice1 bob sesame", *VENICE_ORDERS]
    drop(app, mailshapes.plain_typed("bob@example.org", "Bob Foscari", lines, 0), MORNING)
    drop(app, CLIENTS[client]("bob@example.org", "Bob Foscari", lines, 1, "Bob"), MORNING)
    run_pass(app, MORNING)
    sets = list(order_sets(app).values())
    assert len(sets) == 2 and len(sets[0]) == 3 and sets[0] == sets[1]


def test_a_mail_of_greetings_only_holds_no_orders_and_says_what_it_ignored(tmp_path: Path,
                                                                          venice_setup: Path) -> None:
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'm.db'}", MORNING, venice_setup)
    with app.db.session() as s:
        sync_games(s, app.config, MORNING)
    drop(app, mailshapes.plain_typed("alice@example.org", "Alice Liddell", ["Hi GM,", "", "Thanks!"], 0), MORNING)
    run_pass(app, MORNING)
    with app.db.session() as s:
        assert [m.status for m in s.scalars(select(InboundMail))] == ["empty"]
    [ack] = [m.get_content() for m in sent(app)]
    assert "it held no orders" in ack and "Not understood" not in ack
    assert "Ignored (2)" in ack and "line 1: Hi GM," in ack and "line 3: Thanks!" in ack


def test_the_wordwrap_filter_wraps_as_jinjas_own() -> None:
    """maild's `wordwrap` (maild/render.py) skips textwrap for text whose lines fit; its text is Jinja's."""
    import random

    import jinja2

    from maild.render import environment, wordwrap

    env = environment()
    rng = random.Random(23)
    pieces = ["bid", "5$", "for", "silk tax", " ", "  ", "\t", "-", "well-known", "\n", "\n\n", "\u00a0", "x" * 30,
              "\u2028", "\r\n", "ünïcode"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 25)))
        width = rng.choice([10, 20, 78, 79])
        wrapstring = rng.choice([None, "\n", "\n    "])
        assert wordwrap(env, text, width, wrapstring=wrapstring) == \
            jinja2.filters.do_wordwrap(env, text, width, wrapstring=wrapstring), (text, width)
