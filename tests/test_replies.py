"""Hostile mail must not make maild send unbounded replies (issue 8, "Replies"). Each attack runs through the
real intake (stored raw mail, `process_new`, the outbox table) on SQLite and PostgreSQL; each failed on the
code before the reply limits."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from maild.app import App
from maild.models import InboundMail, OrderSetRow, OutboundMail, Reply
from maild.replylimits import Answer, Gate, give
from maild.turn import run_turn
from tests.replyflow import MORNING, answers, at, deliver, gm_notices, header, limited_app, mail, text_of


def test_a_dumb_autoresponder_is_answered_a_few_rounds_not_150(tmp_path: Path, db_url: str,
                                                                 venice_setup: Path) -> None:
    """Alice's mailbox answers every mail with a vacation note and no RFC 3834 header, threaded to the mail
    it answers. Maild answers its notes ("no orders in it") until the loop guard sees the burst."""
    app = limited_app(tmp_path, db_url, venice_setup, loop_replies=4, loop_window="1h")
    deliver(app, mail("alice@example.org", "borrow 100$"))
    when = MORNING
    for _round in range(150):
        last = answers(app, "alice@example.org")[-1]
        when += timedelta(seconds=20)
        note = mail("alice@example.org", "I am away until Monday.", subject=f"Re: {last.subject}",
                    headers=f"In-Reply-To: {last.message_id}\r\nReferences: {last.message_id}\r\n")
        deliver(at(app, when), note)
    acks = answers(app, "alice@example.org")
    # The first ack, then one per echo until loop_replies (4) echoes are on record.
    assert len(acks) == 1 + 4
    with app.db.session() as s:
        statuses = list(s.scalars(select(InboundMail.status).order_by(InboundMail.id)))
        held = list(s.scalars(select(InboundMail.note).where(InboundMail.note.like("%not answered%"))))
    assert len(statuses) == 151 and set(statuses) <= {"orders", "empty"}  # every note read and kept
    assert len(held) == 150 - 4 and all("loop guard" in n for n in held)
    # The GM hears of it once, not 146 times.
    assert sum("alice@example.org: ack not sent, loop guard" in text_of(n) for n in gm_notices(app)) == 1

    # After the window, alice is answered again (a player replying to an ack is no loop in itself).
    deliver(at(app, when + timedelta(hours=2)), mail("alice@example.org", "bid 5$ for 1 of silk tax",
                                                     headers=f"In-Reply-To: {acks[-1].message_id}\r\n"))
    assert len(answers(app, "alice@example.org")) == len(acks) + 1


def test_a_responder_without_threading_is_held_by_the_caps(tmp_path: Path, db_url: str,
                                                           venice_setup: Path) -> None:
    app = limited_app(tmp_path, db_url, venice_setup, replies_per_hour=5, replies_per_day=8)
    when = MORNING
    for _round in range(150):
        when += timedelta(minutes=2)
        deliver(at(app, when), mail("alice@example.org", "Thank you for your mail, I will answer soon."))
    # 150 rounds over five hours: 5 in the first hour, 3 more in the second, then the day's cap holds.
    assert len(answers(app, "alice@example.org")) == 8


def test_2000_forged_mails_bring_the_player_one_notice_a_day_with_the_count(tmp_path: Path, db_url: str,
                                                                            venice_setup: Path) -> None:
    """300 mails (the property of 2,000, faster) in bob's name with wrong passwords, from all over."""
    app = limited_app(tmp_path, db_url, venice_setup)
    forged = [mail(f"mallory{i}@example.com", f"#venice1 bob guess{i}\nbid 1$ for 1 of opera") for i in range(300)]
    deliver(app, *forged)
    notices = refusal_notices(app)
    assert len(notices) == 1
    # Beside it, the one notice that someone is guessing (the limits on guessing held mails 11 to 300).
    [_guessing] = [a for a in answers(app, "bob@example.org", "warning") if "guessing" in str(a.subject)]
    with app.db.session() as s:
        statuses = list(s.scalars(select(InboundMail.status)))
        batched = s.scalar(select(func.count()).select_from(Reply).where(Reply.status == "batched"))
    assert statuses == ["bad_password"] * 300 and batched == 299
    # The GM is told once, not 300 times (one line for bob's address).
    assert sum("bob@example.org: refusal not sent" in text_of(n) for n in gm_notices(app)) == 1

    # Later that day: still nothing more, whatever comes.
    deliver(at(app, MORNING + timedelta(hours=5)), mail("eve@example.com", "#venice1 bob x\nborrow 5$"))
    assert len(refusal_notices(app)) == 1
    # The next day, one notice counts what came since the first: 299 + 1 mails.
    deliver(at(app, MORNING + timedelta(days=1, minutes=1)))
    notices = refusal_notices(app)
    assert len(notices) == 2
    text = text_of(notices[1])
    assert "received 300 mails that claimed to carry your orders" in " ".join(text.split())
    assert "from:     eve@example.com" in text
    # Nothing more is owed: a third pass sends nothing.
    deliver(at(app, MORNING + timedelta(days=2, hours=1)))
    assert len(refusal_notices(app)) == 2


def refusal_notices(app: App, to: str = "bob@example.org") -> list[OutboundMail]:
    return [a for a in answers(app, to, "warning") if "orders in your name were refused" in str(a.subject)]


def test_a_flooder_gets_capped_acks_and_all_his_orders_booked(tmp_path: Path, db_url: str,
                                                              venice_setup: Path) -> None:
    app = limited_app(tmp_path, db_url, venice_setup, replies_per_hour=20, replies_per_day=30)
    deliver(app, *[mail("carol@example.net", f"bid {i + 1}$ for 1 of silk tax") for i in range(300)])
    assert len(answers(app, "carol@example.net")) == 20
    with app.db.session() as s:
        assert s.scalar(select(func.count()).select_from(OrderSetRow)) == 300
        notes = list(s.scalars(select(InboundMail.note).where(InboundMail.note.is_not(None))))
    assert len(notes) == 280 and all("reply cap: 20 answers an hour" in n for n in notes)

    # The caps are in the database: a restarted maild (a new engine on the same database) keeps them.
    later = limited_app(tmp_path, db_url, venice_setup, now=MORNING + timedelta(minutes=30),
                        replies_per_hour=20, replies_per_day=30)
    deliver(later, mail("carol@example.net", "bid 7$ for 1 of opera"))
    assert len(answers(later, "carol@example.net")) == 20
    # An hour on, the day's cap leaves 10 more.
    deliver(at(later, MORNING + timedelta(hours=1, minutes=1)),
            *[mail("Carol <CAROL@example.net>", "bid 8$ for 1 of opera") for _ in range(40)])
    assert len(answers(later, "carol@example.net")) == 30
    # Printouts are no answers: they go out whatever the caps say.
    run_turn(at(later, MORNING + timedelta(hours=9)), "venice1", force=True)
    assert len(answers(later, "carol@example.net", "printout")) == 1


def test_an_ack_of_a_2mb_line_stays_small(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = limited_app(tmp_path, db_url, venice_setup)
    line = "bid " + "x" * 2_000_000 + "$ for 1 of silk tax"
    deliver(app, mail("alice@example.org", f"borrow 100$\n{line}", subject="x" * 5000 + "\x00\x07"))
    [ack] = answers(app, "alice@example.org")
    assert len(ack.raw) < 20_000
    text = text_of(ack)
    assert "this line has 2,000,023 characters" in text and "Understood (1)" in text
    subject = header(ack, "Subject")
    assert len(subject) <= 200 and subject.endswith("… [venice1]") and "\x00" not in subject


def test_an_ack_echoes_a_bounded_number_of_lines(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = limited_app(tmp_path, db_url, venice_setup, ack_lines=50)
    bad = "\n".join(f"plant {i} trees" for i in range(5000))
    deliver(app, mail("alice@example.org", f"borrow 100$\n{bad}"))
    [ack] = answers(app, "alice@example.org")
    text = text_of(ack)
    assert "Not understood (5000)" in text and "... and 4950 more lines not understood" in text
    assert "line 51: plant 49 trees" in text and "plant 50 trees" not in text
    assert len(ack.raw) < 20_000
    with app.db.session() as s:
        assert s.scalar(select(OrderSetRow.diagnostics)).__len__() == 5000  # all kept for the GM


def test_a_forwarding_loop_does_not_double_the_ack(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    """Alice's mailbox forwards everything to a second mailbox that forwards it back to maild from her
    address: each ack comes back whole, quoted, with the thread's ids."""
    app = limited_app(tmp_path, db_url, venice_setup, loop_replies=4)
    deliver(app, mail("alice@example.org", "borrow 100$\nbid 5$ for 2 of silk tax\nbid many for all"))
    when = MORNING
    sizes = []
    for _hop in range(12):
        last = answers(app, "alice@example.org")[-1]
        sizes.append(len(last.raw))
        refs = header(last, "References")
        when += timedelta(seconds=30)
        forwarded = "---------- Forwarded message ---------\n" + text_of(last) + "\n" + text_of(last)
        deliver(at(app, when), mail("alice@example.org", forwarded, subject=f"Fwd: {last.subject}",
                                    headers=f"In-Reply-To: {last.message_id}\r\nReferences: {refs} "
                                            f"{last.message_id}\r\n"))
    acks = answers(app, "alice@example.org")
    assert len(acks) == 1 + 4  # then the loop guard stops it
    # Each hop quotes the last ack twice over; the echo caps stop the growth at a bound instead of doubling.
    assert max(sizes) < 100_000 and sizes[4] < 2 * sizes[3]
    assert all(len(header(a, "References").split()) <= 7 for a in acks)
    assert header(acks[-1], "References").split()[0] == header(acks[0], "In-Reply-To")  # the thread's first


def test_a_stranger_gets_one_answer_a_day_help_included(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = limited_app(tmp_path, db_url, venice_setup)
    deliver(app, mail("Dave <dave@example.com>", "HELP", subject="how do I join?"))
    [answer] = answers(app, "dave@example.com")
    text = text_of(answer)
    assert "dave@example.com is not the address of a player of venice1" in " ".join(text.split())
    assert "bid" in text.lower()  # HELP's order sheet
    assert header(answer, "Auto-Submitted") == "auto-replied"
    # Again that day, from the same mailbox under any +tag: kept for the GM, not answered.
    deliver(at(app, MORNING + timedelta(hours=3)), mail("dave+games@example.com", "HELP"),
            mail("DAVE@example.com", "please let me in"))
    assert answers(app, "dave+games@example.com") == [] and len(answers(app, "dave@example.com")) == 1
    with app.db.session() as s:
        rows = list(s.scalars(select(InboundMail).order_by(InboundMail.id)))
    assert [r.status for r in rows] == ["unknown_sender"] * 3
    assert "answered once" in (rows[0].note or "")
    assert all("not answered: a stranger gets one answer a day" in (r.note or "") for r in rows[1:])
    # The next day: one answer again, the short one when he did not ask for HELP.
    deliver(at(app, MORNING + timedelta(days=1, minutes=1)), mail("dave@example.com", "hello?"))
    answers_now = answers(app, "dave@example.com")
    assert len(answers_now) == 2 and "Mail HELP to this address" in text_of(answers_now[1])


def test_a_players_help_is_answered_and_an_autoreply_never(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = limited_app(tmp_path, db_url, venice_setup)
    deliver(app, mail("alice@example.org", "HELP"),
            mail("alice@example.org", "I am away", headers="X-Autorespond: yes\r\n"))
    assert [a.kind for a in answers(app, "alice@example.org")] == ["ack"]


def test_strangers_together_get_a_bounded_number_of_answers(tmp_path: Path, db_url: str,
                                                            venice_setup: Path) -> None:
    """Spam with forged senders, each a new address: maild must not answer them all (backscatter)."""
    app = limited_app(tmp_path, db_url, venice_setup, strangers_per_hour=3)
    deliver(app, *[mail(f"victim{i}@example.com", "cheap pills") for i in range(40)])
    with app.db.session() as s:
        sent = list(s.scalars(select(OutboundMail).where(OutboundMail.kind == "stranger")))
        notes = list(s.scalars(select(InboundMail.note).order_by(InboundMail.id)))
    assert len(sent) == 3
    assert all("reply cap: 3 answers an hour to strangers in all" in n for n in notes[3:])
    deliver(at(app, MORNING + timedelta(hours=1, minutes=1)), mail("victim0@example.com", "more pills"),
            mail("victim39@example.com", "more pills"))
    with app.db.session() as s:
        assert s.scalar(select(func.count()).select_from(OutboundMail).where(OutboundMail.kind == "stranger")) == 4


def test_two_processes_on_one_database_share_the_caps(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    """Two daemons on one PostgreSQL database answer the same address at the same moment: the per-address
    lock makes the second wait for the first's commit and count its answer, so the cap of 1 holds."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer: a second transaction cannot write beside the first")
    app = limited_app(tmp_path, db_url, venice_setup, replies_per_hour=1)
    results: dict[str, str | None] = {}
    first_counted = threading.Event()

    def answer(key: str, hold: float) -> None:
        with app.db.session() as s:
            results[key] = give(s, app, Answer(kind="ack", key=key, outbox_kind="ack", to="alice@example.org",
                                               subject="x", body="b", game_id=None, mail_id=None), Gate())
            first_counted.set()
            time.sleep(hold)  # the transaction is still open: another process's count must not miss it

    first = threading.Thread(target=answer, args=("first", 1.0))
    first.start()
    assert first_counted.wait(30)
    answer("second", 0)
    first.join()
    assert results["first"] is None and "reply cap: 1 answer an hour" in (results["second"] or "")


def test_a_stranger_with_an_address_longer_than_mail_allows_is_not_answered(tmp_path: Path, db_url: str,
                                                                            venice_setup: Path) -> None:
    app = limited_app(tmp_path, db_url, venice_setup)
    deliver(app, mail("x" * 5000 + "@example.com", "HELP"))
    with app.db.session() as s:
        row = s.scalar(select(InboundMail))
        assert row is not None and row.status == "unknown_sender"
        assert "not answered: the address is longer than mail allows (5,012 characters)" in (row.note or "")
        assert s.scalar(select(func.count()).select_from(OutboundMail).where(OutboundMail.kind != "gm")) == 0
    [notice] = gm_notices(app)
    assert len(notice.raw) < 5000  # the GM's notice names the address shortened


def test_help_needs_no_password_and_a_strangers_help_is_answered(tmp_path: Path, db_url: str,
                                                                  venice_setup: Path) -> None:
    """DESIGN: "HELP is answered to anyone, stranger or player, within the reply caps"."""
    app = limited_app(tmp_path, db_url, venice_setup)
    # Bob's game gives him a password; his HELP from his own address carries none.
    deliver(app, mail("bob@example.org", "HELP", subject="help"))
    [answer] = answers(app, "bob@example.org")
    text = text_of(answer)
    assert answer.kind == "ack" and "venice1 answers your HELP" in text and "bid" in text.lower()
    assert "password" not in text  # no refusal, and no "orders in your name were refused" notice
    # Someone else names bob with a wrong password and asks for HELP: the sheet goes to him as to any stranger,
    # never saying that the password was wrong (tests/test_guessing.py); bob hears nothing, since nothing was
    # ordered in his name.
    deliver(app, mail("mallory@example.com", "#venice1 bob guess\nHELP", subject="help"))
    [to_mallory] = answers(app, "mallory@example.com")
    text = text_of(to_mallory)
    assert to_mallory.kind == "stranger"
    assert "mallory@example.com is not the address of a player of venice1" in " ".join(text.split())
    assert "password" not in text.split("HELP")[0]
    assert "You asked for HELP; here it is." in text and "bid" in text.lower()
    assert len(answers(app, "bob@example.org")) == 1
    # A stranger's HELP, routed by the game's header line alone, gets the sheet too.
    deliver(app, mail("dave@example.com", "#venice1\nHELP", subject="rules?"))
    [to_dave] = answers(app, "dave@example.com")
    assert "dave@example.com is not the address of a player of venice1" in " ".join(text_of(to_dave).split())
    assert "bid" in text_of(to_dave).lower()
    with app.db.session() as s:
        statuses = list(s.scalars(select(InboundMail.status).order_by(InboundMail.id)))
    assert statuses == ["command", "unknown_sender", "unknown_sender"]


def test_orders_with_help_but_without_the_password_are_refused_and_help_answered(tmp_path: Path, db_url: str,
                                                                                venice_setup: Path) -> None:
    app = limited_app(tmp_path, db_url, venice_setup)
    deliver(app, mail("bob@example.org", "HELP\nbid 99$ for 2 of silk tax", subject="bids"))
    with app.db.session() as s:
        assert s.scalar(select(InboundMail.status)) == "bad_password"
        assert s.scalar(select(OrderSetRow.id)) is None  # the bid needs the password
    warning, sheet = sorted(answers(app, "bob@example.org"), key=lambda a: a.kind == "stranger")
    assert warning.kind == "warning" and "it carried no password" in text_of(warning)
    assert "Your mail was not read as bob's orders in venice1: it carried no password" in " ".join(
        text_of(sheet).split())
    assert "bid" in text_of(sheet).lower()
