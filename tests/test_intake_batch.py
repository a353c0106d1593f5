"""Intake's query pattern: a batch of mails costs a few statements, not several a mail, and a big mail is
read alone (an oversized one is its header block only)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event, func, select

from maild import inforce
from maild.games import sync_games
from maild.intake.pipeline import INTAKE_BATCH, process_new
from maild.intake.run import BULK_RAW_BYTES, iter_new
from maild.intake.store import store_batch
from maild.mail.base import header_block
from maild.models import InboundMail, OrderSetRow, OutboundMail
from tests.batchmail import MORNING, order_mail
from tests.conftest import answering_every_mail, make_app


def test_a_batch_of_mails_costs_about_one_statement_a_mail(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    # Two players mail many times: the reply caps are raised so that every mail is answered.
    answering_every_mail(app)
    with app.db.session() as s:
        sync_games(s, app.config, app.now())
    store_batch(app, [order_mail(n) for n in range(INTAKE_BATCH)])
    statements: list[str] = []
    event.listen(app.db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    assert process_new(app) == {"orders": INTAKE_BATCH}
    # Reading the mails, counting their attempts, writing their statuses, booking their order sets, the reply
    # limits' counts (one an address) and records, queueing the acks: a few statements for the whole batch,
    # however many mails it holds. On PostgreSQL two more hold the batch's claims and release them
    # (maild/intake/claims.py); one looks whether an answer's key was taken by a mail read before (a mail read
    # again gets answers of its own keys: replylimits._fresh_keys); one looks for earlier mail of the batch's
    # senders still unread (attempts.in_turn: each sender's mails are read in order).
    assert len(statements) < 29, statements
    with app.db.session() as s:
        assert s.scalar(select(func.count()).select_from(OutboundMail).where(OutboundMail.kind == "ack")) \
            == INTAKE_BATCH
    with app.db.session() as s:
        assert s.scalar(select(func.count()).select_from(OrderSetRow)) == INTAKE_BATCH
        assert set(s.scalars(select(InboundMail.status))) == {"orders"}


def test_big_mails_are_read_alone_and_oversized_ones_as_headers(tmp_path: Path, db_url: str,
                                                                 venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    big = "x" * 70 + "\r\n"
    mails = [order_mail(0), order_mail(1, big * (BULK_RAW_BYTES // len(big) + 1)),
             order_mail(2, big * (app.config.max_mail_bytes // len(big) + 1)), order_mail(3)]
    ids = store_batch(app, mails)
    statements: list[str] = []
    event.listen(app.db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    with app.db.session() as s:
        rows = iter_new(s, [i for i in ids if i is not None], app.config.max_mail_bytes)
        seen = [(row.id, len(row.raw), row.size) for row in rows]
    sizes = [len(m.raw) for m in mails]
    # In receipt order; each with its bytes, but the oversized one was stored as its header block only (all
    # intake needs to refuse it).
    assert seen == [(ids[0], sizes[0], sizes[0]), (ids[1], sizes[1], sizes[1]),
                    (ids[2], len(header_block(mails[2].raw)), sizes[2]), (ids[3], sizes[3], sizes[3])]
    # Heads, the small ones' bytes together, the big one's alone, the oversized one's header block alone.
    assert len([q for q in statements if q.startswith("SELECT")]) == 4


def test_a_book_read_in_an_earlier_transaction_is_checked_not_trusted(tmp_path: Path, db_url: str,
                                                                     venice_setup: Path) -> None:
    """Intake keeps a player's order book from one transaction to the next, and before using it again checks
    that the same sets are accepted: another process's intake may have booked one meanwhile, or a CANCEL
    withdrawn one."""
    from maild.intake.run import IntakeRun
    from maild.models import Game, Player

    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    with app.db.session() as s:
        sync_games(s, app.config, app.now())
    store_batch(app, [order_mail(0)])
    assert process_new(app) == {"orders": 1}
    run = IntakeRun()
    with app.db.session() as s:
        run.begin(s)
        game = s.scalars(select(Game)).one()
        alice = s.scalars(select(Player).where(Player.name == "alice")).one()
        assert len(run.on_file(s, game, 1, alice)) == 1
    second = store_batch(app, [order_mail(2)])[0]  # alice again, booked by another intake
    assert process_new(app) == {"orders": 1}
    with app.db.session() as s:
        run.begin(s)
        # The book is kept as the orders in force: her later bid for silk tax replaced the earlier one.
        assert [o.seq for o in run.on_file(s, game, 1, alice)] == [second]
    with app.db.session() as s:  # a CANCEL elsewhere: it empties the stored orders in force (orderbook.cancel_late)
        s.execute(OrderSetRow.__table__.update().values(status="cancelled"))
        inforce.invalidate(s, game.id, 1)
    with app.db.session() as s:
        run.begin(s)
        assert run.on_file(s, game, 1, alice) == []
