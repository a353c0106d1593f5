"""The stored running result of each player's orders in force (`orders_in_force`, maild/inforce.py): intake
reads it instead of the book, and after each kind of change it equals what the book says is in force."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import event, select

from maild import inforce
from maild.app import App
from maild.db import alembic_config, upgrade
from maild.games import players_of, ruleset_named, sync_games
from maild.intake.pipeline import process_new
from maild.intake.reprocess import reprocess_into
from maild.intake.run import IntakeRun
from maild.intake.store import store_batch
from maild.models import Game, OrderSetRow, OrdersInForce
from maild.orderbook import accepted_sets
from tests.batchmail import MORNING, order_mail
from tests.conftest import answering_every_mail, make_app


@pytest.fixture
def app(tmp_path: Path, db_url: str, venice_setup: Path) -> Iterator[App]:
    """The Venice game of two players mailing, on SQLite and on PostgreSQL, every mail answered."""
    made = answering_every_mail(make_app(tmp_path, db_url, MORNING, venice_setup))
    with made.db.session() as s:
        sync_games(s, made.config, made.now())
    yield made
    made.db.close()


def intake(app: App, first: int, stop: int) -> list[int | None]:
    """Order mails `first` to `stop` - 1 (alice's and carol's by turns) stored and read, each booked."""
    ids = store_batch(app, [order_mail(n) for n in range(first, stop)])
    assert process_new(app) == {"orders": stop - first}
    return ids


def in_force(app: App) -> dict[str, list[tuple[int, str]]]:
    """Each player's orders in force by the book (seq and summary), checked against the stored rows (those not
    emptied) and against what a fresh intake run reads (which rebuilds the emptied ones)."""
    with app.db.session() as s:
        game = s.scalars(select(Game)).one()
        ruleset = ruleset_named(game.ruleset)
        players = players_of(s, game)
        book = accepted_sets(s, game, game.turn)
        want = {p.name: [(o.seq, o.order.summary) for o in ruleset.effective(book.get(p.name, []))] for p in players}
        names = {p.id: p.name for p in players}
        for row in s.scalars(select(OrdersInForce).where(OrdersInForce.turn == game.turn)):
            if row.sets is not None:
                sets = inforce.decode(names[row.player_id], row.sets)
                assert [(o.seq, o.order.summary) for o in ruleset.effective(sets)] == want[names[row.player_id]]
        run = IntakeRun()
        run.begin(s)
        read = {p.name: [(o.seq, o.order.summary) for o in ruleset.effective(run.on_file(s, game, game.turn, p))]
                for p in players}
        run.flush(s)
        assert read == want
    return want


def stored_rows(app: App) -> list[tuple[int, bool, int]]:
    with app.db.session() as s:
        return [(r.player_id, r.sets is not None, r.version) for r in
                s.scalars(select(OrdersInForce).order_by(OrdersInForce.player_id))]


def test_intake_stores_the_orders_in_force_with_each_batch(app: App) -> None:
    intake(app, 0, 12)
    want = in_force(app)
    assert want["alice"] and want["carol"]
    rows = stored_rows(app)
    assert [(ok, v >= 1) for _pid, ok, v in rows] == [(True, True)] * len(rows) and len(rows) >= 2
    with app.db.session() as s:  # folded: fewer sets stored than alice sent
        alice = s.scalars(select(OrdersInForce)).first()
        assert alice is not None and alice.sets is not None and len(alice.sets) < 6
    intake(app, 12, 20)
    in_force(app)


def test_a_later_run_reads_the_stored_result_not_the_book(app: App) -> None:
    intake(app, 0, 6)
    statements: list[str] = []
    event.listen(app.db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    intake(app, 6, 10)
    reads = [q for q in statements if q.lstrip().upper().startswith("SELECT")]
    assert any("orders_in_force" in q for q in reads)
    assert not any("FROM order_sets" in q for q in reads), reads
    in_force(app)


def test_a_result_emptied_by_a_change_of_the_book_is_rebuilt_from_it(app: App) -> None:
    """What changes the book otherwise than intake's booking empties the rows (as a CANCEL of late orders and
    `turn rerun` do): the next read rebuilds them from the book, and another run's copy is seen to be stale."""
    intake(app, 0, 8)
    before = in_force(app)
    with app.db.session() as s:
        game = s.scalars(select(Game)).one()
        latest = s.scalar(select(OrderSetRow.id).order_by(OrderSetRow.id.desc()))
        s.execute(OrderSetRow.__table__.update().where(OrderSetRow.id == latest).values(status="cancelled"))
        inforce.invalidate(s, game.id, game.turn)
    assert {ok for _pid, ok, _v in stored_rows(app)} == {False}
    after = in_force(app)  # rebuilt, and stored again
    assert after != before
    assert {ok for _pid, ok, _v in stored_rows(app)} == {True}
    intake(app, 8, 12)
    in_force(app)


def test_a_mail_the_gm_books_again_leaves_the_result_right(app: App) -> None:
    ids = intake(app, 0, 6)
    in_force(app)
    assert ids[0] is not None
    reread = reprocess_into(app, ids[0], 1)
    assert reread.status == "orders"
    in_force(app)


def test_the_migration_fills_an_existing_games_open_turn(app: App) -> None:
    intake(app, 0, 10)
    stored = stored_rows(app)
    command.downgrade(alembic_config(app.db.engine), "0015_outbox_claims")  # a database of before
    upgrade(app.db.engine)
    assert [(pid, ok) for pid, ok, _v in stored_rows(app)] == [(pid, ok) for pid, ok, _v in stored]
    in_force(app)


def test_a_result_another_process_wrote_meanwhile_is_emptied_not_overwritten(app: App) -> None:
    """Between a run's check of a result and its write, another process booked for the same player (the sender
    claims make it rare: a mail naming the player from another address): the write leaves the row emptied, to
    be rebuilt from the book, rather than overwriting the other's."""
    intake(app, 0, 6)
    run = IntakeRun()
    with app.db.session() as s:
        run.begin(s)
        game = s.scalars(select(Game)).one()
        alice = next(p for p in players_of(s, game) if p.name == "alice")
        mine = run.on_file(s, game, game.turn, alice)
        run.flush(s)
    with app.db.session() as s:  # the other process
        s.execute(OrdersInForce.__table__.update().where(OrdersInForce.player_id == alice.id)
                  .values(version=OrdersInForce.version + 1))
    with app.db.session() as s:  # the run goes on without a new check (`begin`): the race's window
        run.accepted(game, game.turn, alice, mine[0])
        run.flush(s)
    with app.db.session() as s:
        assert s.scalar(select(OrdersInForce.sets).where(OrdersInForce.player_id == alice.id)) is None
    in_force(app)
