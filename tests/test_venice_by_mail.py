"""A whole (short) game of Venice by mail, as its players meet it: they mail bids (a misspelt item sent again
corrected, a bid raised in a later mail, a line that is no order), the seven turns run at the schedule's
deadlines, and every welcome, printout and newsletter is read as a player reads it (tests/mailcheck.py): no
prose line over 78 columns, no line said twice, and what he needs for his next bids."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from maild.games import get_game
from maild.testing import text_of
from tests.conftest import make_app
from tests.mailcheck import long_prose_lines, repeated_lines, section
from tests.mailflow import ROME, drop, mail, run_pass, sent

# The schedule the game had: the opening auction on Monday 07 December, one auction a day.
DEADLINES = [f"2026-12-{7 + i:02d}T17:15" for i in range(7)]
BOB = "#venice1 bob sesame\n"
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]  # from 07 December

# Turn -> the mails of that turn, in the order they come: (sender, body).
MAILS: dict[int, list[tuple[str, str]]] = {
    1: [("alice@example.org", "borrow 300$\nbid 35$ for 2 of silk tx\nbid 20$ for 1 of exile competitor"),
        ("alice@example.org", "bid 35$ for 2 of silk tax"),  # the misspelt bid, corrected
        ("bob@example.org", BOB + "borrow 200$\nbid 45$ for 1 of exile competitor\nbid lots for everything"),
        ("carol@example.net", "Hi all,\nborrow 250$\nbid 25$ for 1 of silk tax\nbid 40$ for 1 of exile competitor"
                              "\n\nCiao,\nCarol"),
        ("carol@example.net", "bid 50$ for 1 of exile competitor")],  # raised: replaces her 40$
    2: [("alice@example.org", "bid 30$ for 1 of opera"),
        ("bob@example.org", BOB + "bid 20$ for 2 of senator"),
        ("carol@example.net", "bid 10$ for 1 of senator\nbid 40$ for 1 of opera")],
    3: [("alice@example.org", "bid 15$ for 1 of swiss mercenaries\nbid 15$ for 1 of senator"),
        ("bob@example.org", BOB + "bid 30$ for 2 of swiss mercenaries")],
    4: [("alice@example.org", "bid 12$ for 2 of senator"),
        ("bob@example.org", BOB + "bid 11$ for 2 of senator"),
        ("carol@example.net", "bid 13$ for 1 of senator")],
    5: [("alice@example.org", "bid 25$ for 1 of opera"),
        ("carol@example.net", "bid 20$ for 1 of swiss mercenaries\nbid 30$ for 1 of opera")],
    6: [("bob@example.org", BOB + "bid 10$ for 2 of senator\nbid 10$ for 1 of swiss mercenaries"),
        ("carol@example.net", "bid 5$ for 1 of senator")],
    7: [("alice@example.org", "bid 40$ for 1 of silk tax"),
        ("bob@example.org", BOB + "bid 30$ for 1 of exile competitor"),
        ("carol@example.net", "bid 45$ for 1 of silk tax")],
}


def _read(message: EmailMessage) -> str:
    """The mail's text; a welcome, printout or newsletter checked as its reader meets it (acks are another
    part of issue 23's)."""
    text = text_of(message)
    if str(message["Subject"]).startswith("Re: "):
        return text
    assert long_prose_lines(text) == [], (message["Subject"], long_prose_lines(text))
    assert repeated_lines(text) == {}, (message["Subject"], repeated_lines(text))
    return text


def test_a_whole_game_of_venice_by_mail(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    start = datetime(2026, 12, 7, 9, 0, tzinfo=ROME)
    app = make_app(tmp_path, db_url, start, venice_setup,
                   schedule={"timezone": "Europe/Rome", "at": DEADLINES})
    run_pass(app, start)
    welcomes = {m["To"]: _read(m) for m in sent(app, welcomes=True)}
    assert len(welcomes) == 3
    n = 0
    mails: dict[int, dict[str, str]] = {}
    seen = len(sent(app, welcomes=True))
    for turn in range(1, 8):
        day = datetime(2026, 12, 6 + turn, 10, 0, tzinfo=ROME)
        for sender, body in MAILS[turn]:
            n += 1
            drop(app, mail(sender, body, n, subject=f"turn {turn} bids"), day.replace(minute=n % 60))
        run_pass(app, day.replace(hour=12))
        run_pass(app, day.replace(hour=17, minute=16))
        new = sent(app, welcomes=True)[seen:]
        seen += len(new)
        mails[turn] = {str(m["Subject"]): _read(m) for m in new}

    # The welcome names the opening auction's real day, from the schedule, and no weekday of the rules' week.
    for text in welcomes.values():
        assert "The first, the opening auction, is due\nMonday 07 December 2026, 17:15 CET" in text
        assert not any(day in text for day in ("Sunday", "Tuesday", "Saturday"))
        assert "  silk tax           agenda    20$      0          10         20" in text  # the items, once

    first = mails[1]
    alice = first["[venice1] turn 1 printout for alice"]
    # The misspelt bid was sent again corrected: only the bid that stood is shown, with what came of it.
    assert "35$ each for up to 2 of silk tax: won 2 for 70$" in alice
    assert "silk tx" not in alice and "Orders not carried out" not in alice
    bob = section(first["[venice1] turn 1 printout for bob"], "Orders not carried out")
    assert bob.count("bid lots for everything") == 1
    carol = first["[venice1] turn 1 printout for carol"]
    # Her raised bid replaced the first; her greeting and signature were manners, not orders.
    assert "50$ each for up to 1 of exile competitor: won 1 for 50$" in carol and "40$ each" not in carol
    assert "Orders not carried out" not in carol

    with app.db.session() as s:
        assert get_game(s, "venice1").finished
    for turn in range(1, 8):
        news = mails[turn][f"[venice1] turn {turn} newsletter"]
        assert "Winning bids:" in news
        assert all(f"  {p}: " in section(news, "Holdings:") for p in ("alice", "bob", "carol"))
        for player in ("alice", "bob", "carol"):
            printout = mails[turn][f"[venice1] turn {turn} printout for {player}"]
            assert section(printout, "Your bids:") and section(printout, "Your holdings:")
            if turn < 7:  # what the next bids are made from: the next lineup, with what each item is, and when
                offered = section(printout, f"Next: turn {turn + 1}, the ")
                assert offered.startswith("  units  item ") and ("  agenda  " in offered or "  asset  " in offered)
                assert "Deadline for your bids: " in printout and f"{7 + turn:02d} December 2026, 17:15" in printout
                assert section(news, f"Next: turn {turn + 1}, the ") == offered
            else:
                assert "Final ranking (you are " in printout
    # The rules publish every bid after the last common auction: the newsletters of turns 6 and 7 list them.
    assert "All bids so far" not in mails[5]["[venice1] turn 5 newsletter"]
    every = section(mails[7]["[venice1] turn 7 newsletter"], "All bids so far")
    assert "     1  alice     35$      2  silk tax: won 2" in every
    assert "     7  bob       30$      1  exile competitor: won 1" in every
    assert "The game is over." in mails[7]["[venice1] turn 7 newsletter"]
    # A long list of holdings is broken between items, never inside an item's name.
    assert ("  carol: 1 x silk tax, 1 x exile competitor, 2 x opera, 1 x senator,\n      1 x swiss mercenaries\n"
            in mails[7]["[venice1] turn 7 newsletter"])


def test_the_welcome_names_the_real_day_of_the_opening_auction(tmp_path: Path, db_url: str,
                                                                venice_setup: Path) -> None:
    # The rules' week starts on a Sunday; this game's schedule on Monday 07 December: the welcome says when
    # the opening auction really is, and no weekday of the rules' week beside it.
    start = datetime(2026, 12, 7, 9, 0, tzinfo=ROME)
    app = make_app(tmp_path, db_url, start, venice_setup, schedule={"timezone": "Europe/Rome", "at": DEADLINES})
    run_pass(app, start)
    for message in sent(app, welcomes=True):
        text = text_of(message)
        assert "the opening auction, is due\nMonday 07 December 2026, 17:15 CET" in text
        assert "Sunday" not in text and "(Monday)" not in text



def test_a_plural_names_the_item_and_a_late_borrow_is_refused_by_its_rule(tmp_path: Path, db_url: str,
                                                                          venice_setup: Path) -> None:
    # Turn 2 offers senators. "2 of senators" asks for two of the rules' "senator": understood and on file. A
    # borrow in turn 2 is understood but the rules' "Money" allows it only "Before the opening auction": the
    # ack gives it with that rule, not as a line it could not read.
    start = datetime(2026, 12, 7, 9, 0, tzinfo=ROME)
    app = make_app(tmp_path, db_url, start, venice_setup, schedule={"timezone": "Europe/Rome", "at": DEADLINES})
    run_pass(app, start)
    for n, (sender, body) in enumerate(MAILS[1], start=10):
        drop(app, mail(sender, body, n, subject="turn 1 bids"), start.replace(hour=10))
    run_pass(app, start.replace(hour=12))
    run_pass(app, datetime(2026, 12, 7, 17, 16, tzinfo=ROME))
    day2 = datetime(2026, 12, 8, 10, 0, tzinfo=ROME)
    drop(app, mail("carol@example.net", "bid 10$ for 2 of senators\nborrow 100$", 1, subject="turn 2"), day2)
    run_pass(app, day2.replace(minute=5))
    ack = [m for m in sent(app) if str(m["Subject"]).startswith("Re: turn 2")]
    assert len(ack) == 1
    text = ack[0].get_content()
    assert "for up to 2 of senator" in text
    assert "no item called" not in text
    assert "Money" in text and "borrow only before the opening auction" in text
    with app.db.session() as s:
        from maild.models import OrderSetRow  # noqa: PLC0415
        rows = s.query(OrderSetRow).all()
        kinds = [o["kind"] for r in rows for o in r.orders if r.turn == 2]
    assert kinds == ["bid"]
