"""The daemon end to end on the embedded default (Maildir in, Maildir out), on SQLite and PostgreSQL:
players mail orders, get acks, the deadline passes, printouts and newsletters go out."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlalchemy import select

from maild.cli import game_export
from maild.games import get_game
from maild.models import InboundMail, OutboundMail, Turn
from maild.testing import text_of
from maild.turn import release_turn
from tests.conftest import make_app
from tests.mailflow import ROME, by_subject, drop, mail, run_pass, sent


def test_orders_acks_deadline_printouts(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    morning = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)
    app = make_app(tmp_path, db_url, morning, venice_setup)
    drop(app, mail("alice@example.org", "borrow 300$\nbid 30$ for 2 of silk tax", 1), morning)
    drop(app, mail("bob@example.org", "#venice1 bob sesame\nborrow 200$\nBID $45 FOR 1 OF \"Exile Competitor\"", 2),
         morning)
    drop(app, mail("carol@example.net", "borrow 100$\nbid 25$ for 1 of silk tax\nbid lots for everything", 3),
         morning)
    run_pass(app, morning)

    # The game was created by this first pass: each player got his welcome (money, loan terms, agendas) once.
    welcomes = [m for m in sent(app, welcomes=True) if "welcome" in str(m["Subject"])]
    assert sorted(m["To"] for m in welcomes) == ["alice@example.org", "bob@example.org", "carol@example.net"]
    assert "Your money: 0$." in text_of(welcomes[0])
    acks = sent(app)
    assert len(acks) == 3
    alice = next(m for m in acks if m["To"] == "alice@example.org")
    assert alice["Subject"] == "Re: my bids [venice1]"  # threaded replies keep the subject
    assert all(m["In-Reply-To"] for m in acks)
    assert all(m["Auto-Submitted"] == "auto-replied" for m in acks)
    carol = next(m for m in acks if m["To"] == "carol@example.net")
    carol_text = carol.get_content()
    # The bad line is named with its number and text, and the good ones are listed as understood.
    assert "line 3: bid lots for everything" in carol_text
    assert "Understood (2)" in carol_text
    assert "Deadline for turn 1: Sunday 22 November 2026, 17:15 CET (Europe/Rome)" in carol_text
    assert alice["In-Reply-To"] == "<flow-1@example.org>"
    assert alice["References"] == "<flow-1@example.org>"

    with app.db.session() as s:
        assert [r.status for r in s.scalars(select(InboundMail).order_by(InboundMail.id))] == ["orders"] * 3

    # A second pass before the deadline changes nothing.
    run_pass(app, morning.replace(hour=17, minute=14))
    assert len(sent(app, welcomes=True)) == 3 + 3

    run_pass(app, morning.replace(hour=17, minute=16))
    assert len(sent(app, welcomes=True)) == 3 + 3 + 3 + 1  # no second welcome
    mails = sent(app)
    assert len(mails) == 3 + 3 + 1  # acks, printouts, one newsletter to all (recipients undisclosed)
    newsletter = by_subject(mails, "turn 1 newsletter")
    assert newsletter["To"] == "undisclosed-recipients:;"
    alice_printout = by_subject(mails, "turn 1 printout for alice").get_content()
    # Alice borrowed 300 and won both silk tax at 30: 300 - 2 × 30 = 240.
    assert "240" in alice_printout
    with app.db.session() as s:
        export = game_export(s, app, get_game(s, "venice1"))
        turns = list(s.scalars(select(Turn).order_by(Turn.number)))
        assert [(t.number, t.status) for t in turns] == [(1, "done"), (2, "open")]
        # The next deadline is the config's second one.
        assert turns[1].deadline == datetime(2026, 11, 23, 17, 15, tzinfo=ROME)
        assert s.scalar(select(OutboundMail).where(OutboundMail.status != "sent")) is None
        assert s.scalar(select(OutboundMail.recipients).where(OutboundMail.kind == "newsletter")) == [
            "alice@example.org", "bob@example.org", "carol@example.net"]
    assert export["turn"] == 2
    assert export["players"]["alice"]["money"] == 240
    assert export["players"]["alice"]["holdings"] == {"silk tax": 2}
    # Bob: 200 - 45 = 155, and the exile competitor.
    assert export["players"]["bob"]["money"] == 155
    assert export["players"]["bob"]["holdings"] == {"exile competitor": 1}
    # Carol's 25 lost to alice's 30 for both units: she keeps her 100.
    assert export["players"]["carol"]["money"] == 100
    assert export["players"]["carol"]["holdings"] == {}


def test_deadline_missed_while_down_runs_on_start(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    morning = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)
    app = make_app(tmp_path, db_url, morning, venice_setup)
    for i, who in enumerate(("alice@example.org", "carol@example.net")):
        drop(app, mail(who, "bid 10$ for 1 of silk tax", i), morning)
    run_pass(app, morning)
    # The daemon was down for three days: on start it runs turn 1, whose deadline passed; turn 2's
    # (23 November) has passed too, so it runs next, but nobody could send orders for it, and the
    # safety gate holds it for the GM rather than resolving an empty auction.
    run_pass(app, datetime(2026, 11, 25, 9, 0, tzinfo=ROME))
    with app.db.session() as s:
        statuses = [(t.number, t.status) for t in s.scalars(select(Turn).order_by(Turn.number))]
    assert statuses == [(1, "done"), (2, "held")]


def test_safety_gate_holds_a_turn_when_nobody_sent_orders(tmp_path: Path, db_url: str,
                                                          venice_setup: Path) -> None:
    morning = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)
    app = make_app(tmp_path, db_url, morning, venice_setup)
    run_pass(app, morning.replace(hour=17, minute=16))
    with app.db.session() as s:
        turn = s.scalar(select(Turn).where(Turn.number == 1))
        assert turn is not None and turn.status == "held"
        assert turn.note == "3 of 3 players have nothing on file (100%; usually 0%)"
    notice = by_subject(sent(app), "turn 1 held")
    assert notice["To"] == "referee@example.org"
    assert "maild turn release venice1" in notice.get_content()


def test_a_whole_week_to_the_final_ranking(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    """Seven auctions at seven deadlines; after the closing auction the game is over, and a late mail is
    told so rather than booked."""
    app = make_app(tmp_path, db_url, datetime(2026, 11, 22, 9, 0, tzinfo=ROME), venice_setup)
    orders = {
        1: ["borrow 100$\nbid 10$ for 1 of silk tax",
            "#venice1 bob sesame\nborrow 100$\nbid 20$ for 1 of exile competitor",
            "bid 1$ for 1 of silk tax"],
    }
    for day in range(7):
        morning = datetime(2026, 11, 22 + day, 9, 0, tzinfo=ROME)
        bodies = orders.get(day + 1, ["STATUS", "#venice1 bob sesame\nSTATUS", "STATUS"])
        players = ("alice@example.org", "bob@example.org", "carol@example.net")
        for n, (who, body) in enumerate(zip(players, bodies, strict=True)):
            # Message-IDs of their own: alice's and carol's addresses are the same length, and a mail with the
            # Message-ID of one already received is a duplicate, whichever the Maildir lists first.
            drop(app, mail(who, body, 100 * day + n), morning)
        run_pass(app, morning)
        # Everyone mailed (orders or STATUS): only order sets count for the safety gate, so release it.
        run_pass(app, morning.replace(hour=17, minute=16))
        with app.db.session() as s:
            turn = s.scalar(select(Turn).where(Turn.number == day + 1))
            assert turn is not None
        if turn.status == "held":  # outside the session: SQLite has one writer at a time, even in one process
            assert release_turn(app, "venice1").status == "done"
    with app.db.session() as s:
        export = game_export(s, app, get_game(s, "venice1"))
    assert export["finished"] is True and export["deadline"] is None
    assert [p for p in sent(app) if "turn 7 printout" in str(p["Subject"])]
    # Alice: borrowed 100, paid 10 for a silk tax she cannot realize (no assets): 90 − 100 − 35 = −45.
    assert export["players"]["alice"]["money"] == -45
    drop(app, mail("alice@example.org", "bid 5$ for 1 of opera", 999), datetime(2026, 11, 29, 9, 0, tzinfo=ROME))
    run_pass(app, datetime(2026, 11, 29, 9, 0, tzinfo=ROME))
    last = sent(app)[-1]
    assert last["To"] == "alice@example.org" and "the game is over" in last.get_content()


def test_acks_say_what_a_later_mail_does_and_printouts_repeat_what_was_not_read(tmp_path: Path, db_url: str,
                                                                               venice_setup: Path) -> None:
    morning = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)
    app = make_app(tmp_path, db_url, morning, venice_setup)
    drop(app, mail("alice@example.org", "borrow 300$\nbid 30$ for 2 of silk tax\nbid lots for everything", 1,
                   subject="first"), morning)
    run_pass(app, morning)
    first = by_subject(sent(app), "Re: first").get_content()
    # The bad line is listed, then what a new mail would do in Venice, not a promise another game may break.
    not_understood = first.split("Not understood (1) - these lines were ignored:")[1]
    assert "line 3: bid lots for everything" in not_understood
    # The ack wraps the sentence to the width of a mail: read it as words.
    assert "a later bid for an item replaces your earlier bid for that item" in " ".join(not_understood.split())
    assert "send them again corrected" not in first

    # What the ack promised: the later bid for silk tax replaces the earlier one, the borrow stays on file.
    drop(app, mail("alice@example.org", "bid 35$ for 2 of silk tax", 2, subject="second"), morning)
    drop(app, mail("bob@example.org", "#venice1 bob sesame\nbid 45$ for 1 of exile competitor", 3), morning)
    drop(app, mail("carol@example.net", "bid 25$ for 1 of silk tax\nbid lots for everything", 4, subject="carol's"),
         morning)
    run_pass(app, morning)
    second = by_subject(sent(app), "Re: second").get_content()
    on_file = second.split("Orders on file for turn 1 (2):")[1]
    assert "borrow 300$" in on_file and "bid 35$ each for up to 2 of silk tax" in on_file
    assert "bid 30$" not in on_file
    footer = " ".join(second.split("Deadline for turn 1:")[1].split())
    assert "a later bid for an item replaces your earlier bid" in footer

    run_pass(app, morning.replace(hour=17, minute=16))
    carol = by_subject(sent(app), "turn 1 printout for carol").get_content()
    missed = carol.split("Orders not carried out:")[1]
    assert "Your mail \"carol's\" of Sunday 22 November 2026, 10:00 CET (Europe/Rome):" in missed
    assert "Not understood:\n      line 2: bid lots for everything" in missed
    # Alice's later mail answered the ack of her first (it listed every order on file): the first mail's line
    # not understood is not repeated (maild/notcarried.py).
    assert "Orders not carried out" not in by_subject(sent(app), "turn 1 printout for alice").get_content()
    assert "Orders not carried out" not in by_subject(sent(app), "turn 1 printout for bob").get_content()

    # STATUS: alice borrowed 300 and won both silk tax at 35: 300 - 2 × 35 = 230$; interest 5% a day for the
    # 7 days of the game: 300 × 0.05 × 7 = 105$.
    drop(app, mail("alice@example.org", "STATUS", 5, subject="status"), morning.replace(day=23))
    run_pass(app, morning.replace(day=23))
    status = by_subject(sent(app), "Re: status").get_content()
    standing = status.split("Your standing, as the last results left it:\n")[1]
    assert standing.startswith("  Money: 230$\n"
                               "  Loan: 300$, interest 105$, both repaid after the closing auction\n"
                               "  Holdings: 2 x silk tax\n")


def test_a_printout_lists_a_bounded_number_of_mails_not_carried_out(tmp_path: Path, db_url: str,
                                                                    venice_setup: Path) -> None:
    from maild.notcarried import MAILS_SHOWN

    morning = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)
    app = make_app(tmp_path, db_url, morning, venice_setup)
    drop(app, mail("alice@example.org", "bid 30$ for 2 of silk tax", 1), morning)
    drop(app, mail("bob@example.org", "#venice1 bob sesame\nbid 45$ for 1 of exile competitor", 2), morning)
    # Carol's mail program answers every ack: none of it reads as orders (1 of 3 players with nothing on
    # file is under the safety gate's half, so the turn runs).
    for n in range(MAILS_SHOWN + 5):
        drop(app, mail("carol@example.net", f"bid lots for everything {n}", 10 + n, subject=f"echo {n}"),
             morning.replace(second=n))  # one a second: received in this order
    run_pass(app, morning)
    run_pass(app, morning.replace(hour=17, minute=16))
    carol = by_subject(sent(app), "turn 1 printout for carol").get_content()
    assert carol.count("  Your mail ") == MAILS_SHOWN
    assert '"echo 0"' in carol and f'"echo {MAILS_SHOWN}"' not in carol
    assert "  ... and 5 more mails with orders not carried out" in carol
