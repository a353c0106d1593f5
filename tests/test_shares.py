"""Several daemons on one PostgreSQL database (maild/shares.py): games shared fairly, a daemon started later
gets its share, one taken for dead is reaped and its games taken, and work on a game is fenced by its lease."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from maild.daemonsview import daemon_runs, game_holders
from maild.db import Database, upgrade
from maild.lease import SERVER_NOW, LeaseLost, new_holder, presence, take
from maild.shares import GameLost, Shares, game_lease
from tests.manydaemons import lapse

pytestmark = pytest.mark.postgres

GAMES = [f"g{i}" for i in range(6)]
SOURCE = "maildir /tmp/in"


@pytest.fixture
def url(pg_url: str) -> Iterator[str]:
    db = Database(pg_url)
    upgrade(db.engine)
    db.close()
    yield pg_url


def daemon(url: str, stack: ExitStack, period: float = 60) -> Shares:
    """A daemon run's leases and shares, without its heartbeat (the tests renew by hand)."""
    db = Database(url)
    stack.callback(db.close)
    holder = new_holder()
    lease = take(url, presence(holder), period, holder=holder)
    stack.callback(lease.engine.dispose)
    shares = Shares(db, lease, SOURCE)
    stack.callback(shares.close)
    return shares


def holders(url: str) -> dict[str, str]:
    """Who holds each live lease."""
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            return dict(conn.execute(text(f"SELECT name, holder FROM leases WHERE expires_at > {SERVER_NOW}")).all())
    finally:
        db.close()


def test_games_are_shared_fairly_and_a_daemon_started_later_gets_its_share(url: str) -> None:
    with ExitStack() as stack:
        first = daemon(url, stack)
        assert first.share(GAMES) == 1
        assert first.games() == set(GAMES) and first.fetches()
        second = daemon(url, stack)
        assert second.share(GAMES) == 2
        assert second.games() == set() and not second.fetches()  # all held, live
        first.share(GAMES)  # gives back its surplus
        assert len(first.games()) == 3
        second.share(GAMES)
        assert len(second.games()) == 3 and not first.games() & second.games()
        third = daemon(url, stack)
        for shares in (third, first, second, third):
            shares.share(GAMES)
        counts = sorted(len(s.games()) for s in (first, second, third))
        assert counts == [2, 2, 2]
        live = holders(url)
        for shares in (first, second, third):
            assert all(live[game_lease(g)] == shares.lease.holder for g in shares.games())
        assert live["inbox:" + SOURCE] == first.lease.holder
        # A game that ends is given back; the others are shared anew.
        first.share(GAMES[1:])
        assert GAMES[0] not in first.games()


def test_a_daemon_taken_for_dead_is_reaped_and_its_games_and_inbox_taken(url: str) -> None:
    with ExitStack() as stack:
        first, second = daemon(url, stack), daemon(url, stack)
        first.share(GAMES)
        second.share(GAMES)
        first.share(GAMES)
        second.share(GAMES)
        assert len(first.games()) == 3 and first.fetches()
        lapse(url, first.lease.holder)  # it stopped renewing (frozen, or killed on another machine)
        assert second.share(GAMES) == 1
        assert second.games() == set(GAMES) and second.fetches()
        reaped = holders(url)
        assert first.lease.name not in reaped  # taken and given back at once
        # Should it wake, it finds itself taken for dead and stops.
        with pytest.raises(LeaseLost, match=f"held by {second.lease.holder}"):
            first.lease.renew()


def test_work_on_a_game_is_fenced_by_its_lease_and_a_lost_game_stops_only_that_work(url: str) -> None:
    with ExitStack() as stack:
        first = daemon(url, stack)
        first.share(GAMES[:2])
        with first.working_on("g0"), first.db.session() as s:
            s.execute(text("INSERT INTO games (name, ruleset, seed, turn, finished, created_at) "
                           "VALUES ('written', 'venice', 1, 1, false, now())"))
        # g0's lease passes to another daemon (as if it had lapsed and been taken).
        with first.engine.begin() as conn:
            conn.execute(text("UPDATE leases SET expires_at = expires_at - interval '1 hour' WHERE name = 'game:g0'"))
        taker = take(url, game_lease("g0"), 60)
        stack.callback(taker.engine.dispose)
        with pytest.raises(GameLost), first.working_on("g0"), first.db.session() as s:
            s.execute(text("INSERT INTO games (name, ruleset, seed, turn, finished, created_at) "
                           "VALUES ('after', 'venice', 1, 1, false, now())"))
        assert first.games() == {"g1"} and first.lease.lost is None
        with first.working_on("g1"), first.db.session() as s:  # its other games go on
            s.execute(text("UPDATE games SET turn = 2 WHERE name = 'written'"))
        with first.db.session() as s:  # and so does the rest of its work
            names = list(s.scalars(text("SELECT name FROM games")))
        assert names == ["written"]


def test_the_heartbeat_renews_every_lease_in_one_statement_and_drops_one_taken(url: str) -> None:
    with ExitStack() as stack:
        first = daemon(url, stack, period=60)
        first.share(GAMES[:3])
        dropped: list[str] = []
        first.lease.on_dropped = dropped.append
        lapse(url, first.lease.holder)
        taker = take(url, game_lease("g1"), 60)
        stack.callback(taker.engine.dispose)
        first.lease.renew()
        assert dropped == ["game:g1"] and first.games() == {"g0", "g2"}
        live = holders(url)
        assert live[game_lease("g0")] == live[game_lease("g2")] == live[first.lease.name] == first.lease.holder
        # A game given back is not renewed again.
        first.lease.release([game_lease("g0")])
        first.lease.renew()
        assert game_lease("g0") not in holders(url)


def test_a_turn_due_waits_for_a_fetch_begun_after_its_deadline(url: str) -> None:
    with ExitStack() as stack:
        first = daemon(url, stack)
        assert first.fetched_at() is None
        later = datetime(2026, 11, 22, 16, 16, tzinfo=UTC)
        first.fetched(later)
        first.fetched(datetime(2026, 11, 22, 10, tzinfo=UTC))  # an older mark does not move it back
        assert first.fetched_at() == later


def test_maild_daemons_shows_who_holds_what_and_who_took_a_dead_one(url: str) -> None:
    with ExitStack() as stack:
        first, second = daemon(url, stack), daemon(url, stack)
        for shares in (first, second, first, second):
            shares.share(GAMES[:4])
        with first.db.session() as s:
            runs = {r.run: r for r in daemon_runs(s)}
            held = game_holders(s)
        one, two = (runs[s.lease.name.removeprefix("daemon:")] for s in (first, second))
        assert one.live and two.live and one.inbox == [SOURCE] and not two.inbox
        assert sorted(one.games + two.games) == GAMES[:4] and len(one.games) == 2
        assert one.line().startswith(f"{one.host} pid {os.getpid()} run {one.run}  since ")
        assert f"inbox {SOURCE}  games {', '.join(one.games)}" in one.line()
        assert {held[g] for g in one.games} == {f"{one.host} pid {os.getpid()}"}
        lapse(url, first.lease.holder)
        second.share(GAMES[:4])
        with first.engine.connect() as conn, Session(conn) as s:
            runs = {r.run: r for r in daemon_runs(s)}
        dead = runs[one.run]
        assert not dead.live and dead.taken_by == second.lease.holder and dead.games == []
        assert f"taken for dead by {second.lease.holder}" in dead.line()
        assert runs[two.run].games == GAMES[:4]
        assert runs[two.run].export()["games"] == GAMES[:4]
