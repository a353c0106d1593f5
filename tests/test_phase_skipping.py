"""Phases a turn passes over (`Ruleset.skips_phase`, maild/phases.py): not opened, not mailed, not timed; the
turn goes on with the next phase, or ends as after its last. Driven through the daemon's pass with a game of
three phases a, b, c whose setup says which turns pass over which phase (the Grand Game's picking of
countries, initial purchase and placement exist only in turn 1)."""

from __future__ import annotations

import email
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from maild.app import App
from maild.clock import Clock
from maild.games import get_game
from maild.models import OrderSetRow, OutboundMail, Snapshot, Turn, TurnPhase
from maild.phases import target_phase
from maild.ruleset import (
    Diagnostic,
    Order,
    ParsedOrders,
    Phase,
    PlacedOrder,
    PlayerSpec,
    Ruleset,
    TurnResult,
    register,
    unregister,
)
from maild.testing import drop, open_app, run_pass, sent
from maild.turn import rerun_turn, run_turn
from maild.turnplan import plan
from tests.conftest import config_dict
from tests.mailflow import mail

_LINE = re.compile(r"^([abc]) (\d+)$")
PLAYERS = ("ann", "bob")


class ThreePhases(Ruleset):
    """Each phase takes orders `a N`, `b N` or `c N`, adds N to the sender's sum and notes that it ran. The
    setup's `skip` says which turns pass over which phase; a phase's order `X 0` makes the turn pass over the
    phases after it (a choice the state holds)."""

    name = "threephases"

    def __init__(self) -> None:
        self.asked: list[tuple[int, str, tuple[str, ...]]] = []

    def phases(self) -> tuple[Phase, ...]:
        return tuple(Phase(p, frozenset({p})) for p in "abc")

    def skips_phase(self, state: dict[str, Any], turn: int, phase: str) -> bool:
        self.asked.append((turn, phase, tuple(state["ran"])))
        return turn in state["skip"].get(phase, []) or state.get("stop") == turn

    def parse(self, text: str) -> ParsedOrders:
        parsed = ParsedOrders()
        for n, line in enumerate(text.splitlines(), start=1):
            if m := _LINE.match(line.strip()):
                parsed.orders.append(Order(n, line, m.group(1), {"n": int(m.group(2))}, line.strip()))
            elif line.strip():
                parsed.diagnostics.append(Diagnostic(n, line, "expected a N, b N or c N"))
        return parsed

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        return {"skip": setup.get("skip", {}), "ran": [], "sums": {p: 0 for p in PLAYERS}}

    def players(self, state: dict[str, Any]) -> list[PlayerSpec]:
        return [PlayerSpec(p, f"{p}@example.org") for p in PLAYERS]

    def resolve(self, state: dict[str, Any], turn: int, orders: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        raise AssertionError("a game of phases is resolved a phase at a time")

    def resolve_phase(self, state: dict[str, Any], turn: int, phase: str, orders: dict[str, list[PlacedOrder]],
                      rng: random.Random) -> TurnResult:
        state["ran"].append(f"{turn}{phase}")
        for player in PLAYERS:
            for placed in orders[player]:
                state["sums"][player] += placed.order.args["n"]
                if placed.order.args["n"] == 0:
                    state["stop"] = turn
        lines = {p: [f"{phase} of turn {turn}: your sum is {state['sums'][p]}"] for p in PLAYERS}
        return TurnResult(state, {p: {"sections": [{"title": "Sums", "lines": lines[p]}]} for p in PLAYERS},
                          {"sections": [{"title": "Ran", "lines": [" ".join(state["ran"])]}]})


def utc(day: int, hour: int, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, 0, tzinfo=UTC)


START = utc(21, 8)  # a Saturday
CRON = {"a": {"cron": "0 12 * * sat"}, "b": {"cron": "0 18 * * sat"}, "c": {"cron": "0 12 * * sun"}}


@pytest.fixture
def game() -> Iterator[ThreePhases]:
    ruleset = register(ThreePhases())
    try:
        yield ruleset
    finally:
        unregister(ruleset.name)


def make_app(tmp_path: Path, db_url: str, skip: dict[str, list[int]], phases: dict[str, Any] | None = None
             ) -> App:
    setup = tmp_path / "tri.toml"
    setup.write_text("[skip]\n" + "".join(f"{p} = {turns}\n" for p, turns in skip.items()))
    data = config_dict(tmp_path, db_url)
    data["games"].append({"name": "tri", "ruleset": "threephases", "setup": str(setup),
                          "address": "gm@example.org",
                          "schedule": {"timezone": "UTC", "phases": phases or CRON}})
    data["limits"] = {"replies_per_hour": 100, "replies_per_day": 100}
    app = open_app(data, tmp_path, START)
    run_pass(app, START)  # the daemon's start creates the game
    return app


def phases_of(app: App, turn: int) -> list[tuple[str, str, datetime | None]]:
    with app.db.session() as s:
        game = get_game(s, "tri")
        return [(r.name, r.status, r.deadline) for r in s.scalars(
            select(TurnPhase).where(TurnPhase.game_id == game.id, TurnPhase.turn == turn)
            .order_by(TurnPhase.position))]


def open_turn(app: App) -> int:
    with app.db.session() as s:
        return get_game(s, "tri").turn


def subjects(app: App, turn: int) -> list[str]:
    return sorted(str(m["Subject"]) for m in sent(app) if f"turn {turn} " in str(m["Subject"]))


def results(turn: int, *phases: str) -> list[str]:
    """The subjects of the printouts and newsletters of `phases` of `turn`."""
    return sorted(f"[tri] turn {turn} {what} ({p})" for p in phases
                  for what in ("newsletter", "printout for ann", "printout for bob"))


counter = iter(range(5000, 100000))


def send(app: App, who: str, body: str, when: datetime) -> None:
    drop(app, mail(f"{who}@example.org", body, next(counter), subject="orders"), when)


def test_turns_pass_over_their_skipped_phases(tmp_path: Path, db_url: str, game: ThreePhases) -> None:
    # Turn 2 passes over its first phase, turn 3 its middle one, turn 4 its last two.
    app = make_app(tmp_path, db_url, {"a": [2], "b": [3, 4], "c": [4]})
    for deadline in (utc(21, 12), utc(21, 18), utc(22, 12)):
        run_pass(app, deadline)
    assert phases_of(app, 1) == [("a", "done", utc(21, 12)), ("b", "done", utc(21, 18)), ("c", "done", utc(22, 12))]
    assert subjects(app, 1) == results(1, "a", "b", "c")

    # Turn 2 opens with b: a has no row, no mail, no deadline. b's cron rule counts from turn 1's last
    # deadline (Sunday 22 November, 12:00): the next Saturday, 28 November, 18:00, not a's noon.
    assert open_turn(app) == 2 and phases_of(app, 2) == [("b", "open", utc(28, 18))]
    with app.db.session() as s:  # what `maild game list` and `turn run` show
        shown = plan(s, "tri")
    assert (shown.turn, shown.phase, shown.deadline) == (2, "b", utc(28, 18))
    run_pass(app, utc(28, 18))
    run_pass(app, utc(29, 12))
    assert phases_of(app, 2) == [("b", "done", utc(28, 18)), ("c", "done", utc(29, 12))]
    assert subjects(app, 2) == results(2, "b", "c")

    # Turn 3: a (Saturday 5 December, noon, the first after 29 November noon), then c, its b passed over; c's
    # rule counts from a's deadline: Sunday 6 December, noon.
    run_pass(app, utc(5, 12, 12))
    assert phases_of(app, 3) == [("a", "done", utc(5, 12, 12)), ("c", "open", utc(6, 12, 12))]
    run_pass(app, utc(6, 12, 12))
    assert subjects(app, 3) == results(3, "a", "c")
    # b was asked with the state after a, the state it would have opened on; c with the same state.
    assert (3, "b", ("1a", "1b", "1c", "2b", "2c", "3a")) in game.asked
    assert (3, "c", ("1a", "1b", "1c", "2b", "2c", "3a")) in game.asked

    # Turn 4 passes over b and c: it ends after a, as after its last phase, and turn 5 opens with a.
    run_pass(app, utc(12, 12, 12))
    assert phases_of(app, 4) == [("a", "done", utc(12, 12, 12))]
    assert phases_of(app, 5) == [("a", "open", utc(19, 12, 12))]
    assert subjects(app, 4) == results(4, "a")
    # The last printout of the turn names the next turn's deadline.
    last = [m for m in sent(app) if str(m["Subject"]) == "[tri] turn 4 printout for ann (a)"]
    assert "Next deadline: Saturday 19 December 2026, 12:00 UTC (UTC)." in last[0].get_content()
    with app.db.session() as s:
        snapshots = {n: st for n, st in s.execute(select(Snapshot.turn, Snapshot.state))}
    assert snapshots[5]["ran"] == ["1a", "1b", "1c", "2b", "2c", "3a", "3c", "4a"]


def test_a_turn_passes_over_what_a_phase_before_decided(tmp_path: Path, db_url: str, game: ThreePhases) -> None:
    """ann's `a 0` in turn 1's a makes the turn pass over b and c: the state the phases would open on says so."""
    app = make_app(tmp_path, db_url, {})
    send(app, "ann", "a 0", utc(21, 9))
    run_pass(app, utc(21, 9))
    run_pass(app, utc(21, 12))
    assert phases_of(app, 1) == [("a", "done", utc(21, 12))]
    # Turn 2's a: the first Saturday noon after turn 1's last deadline, a's own.
    assert phases_of(app, 2) == [("a", "open", utc(28, 12))]


def test_a_mail_late_for_a_phase_counts_for_the_next_one_the_turn_opens(tmp_path: Path, db_url: str,
                                                                        game: ThreePhases) -> None:
    app = make_app(tmp_path, db_url, {"a": [2], "b": [1]})
    # Received after a's deadline, before its results: b is passed over in turn 1, so it counts for c.
    send(app, "ann", "c 5", utc(21, 12).replace(minute=30))
    run_pass(app, utc(21, 13))
    assert phases_of(app, 1) == [("a", "done", utc(21, 12)), ("c", "open", utc(22, 12))]
    # Received after c's deadline, before its results: turn 2 passes over a, so it counts for turn 2's b.
    send(app, "bob", "b 7", utc(22, 12).replace(minute=30))
    run_pass(app, utc(22, 13))
    assert phases_of(app, 2) == [("b", "open", utc(28, 18))]
    with app.db.session() as s:
        booked = s.execute(select(OrderSetRow.turn, OrderSetRow.phase, OrderSetRow.status)
                           .order_by(OrderSetRow.seq)).all()
    assert [tuple(r) for r in booked] == [(1, "c", "accepted"), (2, "b", "accepted")]
    run_pass(app, utc(28, 18))
    assert "b of turn 2: your sum is 7" in [m for m in sent(app) if str(m["Subject"]) ==
                                            "[tri] turn 2 printout for bob (b)"][0].get_content()


def test_a_mail_late_for_a_phase_not_yet_run_is_placed_by_the_state_that_phase_opened_on(
        tmp_path: Path, db_url: str, game: ThreePhases) -> None:
    """Intake may read a late mail before the phase it missed has run (the pass after the deadline has not come):
    the phases after are asked with the state the open phase opened on."""
    app = make_app(tmp_path, db_url, {"b": [1], "c": [1], "a": [2]})
    late = utc(21, 12).replace(minute=30)  # after turn 1's a, its only phase
    with app.db.session() as s:
        tri = get_game(s, "tri")
        turn = s.scalar(select(Turn).where(Turn.game_id == tri.id, Turn.number == 1))
        assert turn is not None
        target = target_phase(s, game, tri, turn, "ann", late, "next_turn")
    # Turn 1 passes over b and c, turn 2 over a: the mail counts for turn 2's b.
    assert (target.turn, target.phase, target.current) == (2, "b", "a")
    assert target.late == "it came after the deadline of the a of turn 1, so it counts for the b of turn 2"


def test_a_game_may_open_with_its_second_phase_timed_by_its_own_at(tmp_path: Path, db_url: str,
                                                                   game: ThreePhases) -> None:
    """With `at` lists the N-th entry is turn N's: a phase passed over in turn N leaves its N-th unused."""
    at = {"a": {"at": ["2026-11-21T12:00", "2026-11-28T12:00"]},
          "b": {"at": ["2026-11-21T18:00", "2026-11-28T18:00"]},
          "c": {"at": ["2026-11-22T12:00", "2026-11-29T12:00"]}}
    app = make_app(tmp_path, db_url, {"a": [1], "b": [2]}, at)
    assert phases_of(app, 1) == [("b", "open", utc(21, 18))]
    run_pass(app, utc(21, 18))
    run_pass(app, utc(22, 12))
    assert phases_of(app, 2) == [("a", "open", utc(28, 12))]
    run_pass(app, utc(28, 12))
    assert phases_of(app, 2) == [("a", "done", utc(28, 12)), ("c", "open", utc(29, 12))]


def test_a_turn_that_would_pass_over_every_phase_fails_and_the_gm_hears(tmp_path: Path, db_url: str,
                                                                        game: ThreePhases) -> None:
    app = make_app(tmp_path, db_url, {"a": [2], "b": [2], "c": [2]})
    run_pass(app, utc(21, 12))
    run_pass(app, utc(21, 18))
    app.clock = Clock(utc(22, 12), frozen=True)
    outcome = run_turn(app, "tri")
    assert outcome.status == "failed" and "passes over every phase of turn 2" in outcome.message
    assert phases_of(app, 1)[-1] == ("c", "open", utc(22, 12))  # nothing of it was kept


def body(raw: bytes) -> str:
    message: EmailMessage = email.message_from_bytes(raw, policy=default)  # type: ignore[assignment]
    return str(message.get_content())


def test_a_rerun_of_turns_with_phases_passed_over_gives_the_same_results(tmp_path: Path, db_url: str,
                                                                         game: ThreePhases) -> None:
    app = make_app(tmp_path, db_url, {"a": [2], "b": [1], "c": [2]})
    send(app, "ann", "a 2", utc(21, 9))
    run_pass(app, utc(21, 12))
    send(app, "bob", "c 3", utc(21, 13))
    for when in (utc(21, 13), utc(22, 12), utc(28, 18)):
        run_pass(app, when)
    assert [p[:2] for p in phases_of(app, 1)] == [("a", "done"), ("c", "done")]
    assert [p[:2] for p in phases_of(app, 2)] == [("b", "done")]  # its first and last passed over
    assert [p[:2] for p in phases_of(app, 3)] == [("a", "open")]
    assert [o.status for o in rerun_turn(app, "tri", 1)] == ["same", "same"]

    # Spoil the state stored after every phase that ran: the rerun computes them again, each with its seed and
    # orders; the printouts read as the first ones, so nobody is mailed again (a rerun mails only the printouts
    # that changed: docs/season.md, "A rerun says what changed").
    with app.db.session() as s:
        for row in s.scalars(select(TurnPhase).where(TurnPhase.status == "done")):
            row.state = {**(row.state or {}), "sums": {"ann": -1, "bob": -1}}
    app.clock = Clock(utc(29, 9), frozen=True)
    assert [o.status for o in rerun_turn(app, "tri", 1, mail=True)] == ["changed", "changed"]
    with app.db.session() as s:
        rows = {r.key: r.raw for r in s.scalars(select(OutboundMail).where(OutboundMail.kind == "printout"))}
        after = s.scalar(select(Snapshot.state).where(Snapshot.turn == 3))
    assert sorted(k for k in rows if ":rerun:" not in k) == sorted(
        f"printout:tri:{n}:{p}:{ph}" for n, ph in ((1, "a"), (1, "c"), (2, "b")) for p in PLAYERS)
    assert [k for k in rows if ":rerun:" in k] == []
    assert after is not None and after["sums"] == {"ann": 2, "bob": 3} and after["ran"] == ["1a", "1c", "2b"]
    assert [o.status for o in rerun_turn(app, "tri", 1)] == ["same", "same"]
