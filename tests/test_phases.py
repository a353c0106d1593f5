"""Turns of several phases (maild/phases.py), driven through the daemon's pass (Maildir in and out, the real
intake and turn code) with the two-phase test game of tests/phasegame on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from maild.app import App
from maild.cli import main
from maild.clock import Clock
from maild.config import parse_config
from maild.db import Database, upgrade
from maild.errors import ConfigError
from maild.games import get_game, sync_games
from maild.models import OrderSetRow, OutboundMail, Snapshot, Turn, TurnPhase
from maild.phases import is_phased
from maild.ruleset import Phase, Ruleset, load_ruleset
from maild.turn import due_turns, rerun_turn
from tests.conftest import config_dict
from tests.mailflow import run_pass, sent
from tests.phasegame.flow import AFTERNOON, AT, MORNING, SETUP, START, game_entry, mails_to, make_phase_app, send
from tests.phasegame.game import installed


@pytest.fixture(autouse=True)
def twophase() -> Iterator[None]:
    with installed():
        yield


def last_ack(app: App, who: str) -> str:
    return mails_to(app, who, "Re: orders")[-1].get_content()


def phases_of(app: App, turn: int = 1) -> list[tuple[str, str, datetime | None]]:
    with app.db.session() as s:
        game = get_game(s, "duo")
        return [(r.name, r.status, r.deadline) for r in s.scalars(
            select(TurnPhase).where(TurnPhase.game_id == game.id, TurnPhase.turn == turn)
            .order_by(TurnPhase.position))]


def test_orders_of_the_wrong_phase_are_named_and_the_right_ones_booked(tmp_path: Path, db_url: str) -> None:
    app = make_phase_app(tmp_path, db_url)
    at = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    send(app, "alice", "pick 3\nguess bob 4", at)
    send(app, "bob", "HELP", at)
    run_pass(app, at)

    ack = last_ack(app, "alice")
    assert "line 1: pick 3" in ack
    said = " ".join(ack.split())  # the ack wraps a long message within 78 columns
    assert "guess is an order of the afternoon; it is now the morning: send it during the afternoon" in said
    # The ack names the phase its orders count for and that phase's deadline (the morning's `at` of turn 1).
    assert "Deadline for the morning of turn 1: Saturday 21 November 2026, 12:00 UTC (UTC)." in ack
    assert "Now open: the morning of turn 1, until Saturday 21 November 2026, 12:00 UTC (UTC)." in last_ack(app, "bob")
    with app.db.session() as s:
        rows = list(s.scalars(select(OrderSetRow)))
    assert [(r.phase, r.status, [o["kind"] for o in r.orders]) for r in rows] == [("morning", "accepted", ["pick"])]


def test_a_phase_closes_early_and_its_results_go_out_before_the_next_deadline(tmp_path: Path, db_url: str
                                                                               ) -> None:
    app = make_phase_app(tmp_path, db_url)
    at = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    send(app, "alice", "pick 3", at)
    send(app, "bob", "pick 5", at)
    run_pass(app, at)
    assert phases_of(app) == [("morning", "open", MORNING)]  # carol has not sent: the morning stays open
    send(app, "carol", "pick 7", at)
    run_pass(app, at)

    # Everyone who must send has: the morning closed at 09:00, three hours before its deadline, and its
    # printouts went out in that pass, long before the afternoon's deadline (18:00).
    assert phases_of(app) == [("morning", "done", MORNING), ("afternoon", "open", AFTERNOON)]
    morning = mails_to(app, "alice", "(morning)")
    assert len(morning) == 1 and "you picked 3" in morning[0].get_content()
    assert "turn 1 printout for alice (morning)" in str(morning[0]["Subject"])
    assert "Next deadline: Saturday 21 November 2026, 18:00 UTC (UTC)" in morning[0].get_content()
    with app.db.session() as s:
        assert s.scalar(select(Turn.deadline).where(Turn.number == 1)) == AFTERNOON

    later = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
    send(app, "alice", "guess bob 5\npick 4", later)
    send(app, "bob", "guess carol 1\nguess alice 5", later)
    send(app, "carol", "guess alice 3", later)
    run_pass(app, later)
    assert "pick is an order of the morning; it is now the afternoon" in last_ack(app, "alice")
    # Orders are checked against the state after the morning, where bob's pick is 5.
    assert "line 2: guess alice 5\n      5 is your own pick" in last_ack(app, "bob")
    # The afternoon does not close early (the game says so): it waits for its deadline.
    assert phases_of(app)[-1] == ("afternoon", "open", AFTERNOON)
    assert due_turns(app) == []

    run_pass(app, AFTERNOON)
    assert [p[:2] for p in phases_of(app)] == [("morning", "done"), ("afternoon", "done")]
    # alice guessed bob's 5 and carol alice's 3, right; bob guessed carol's 7 as 1, wrong.
    assert "your score is 1" in mails_to(app, "alice", "(afternoon)")[0].get_content()
    assert "your score is 0" in mails_to(app, "bob", "(afternoon)")[0].get_content()
    with app.db.session() as s:
        game = get_game(s, "duo")
        assert game.turn == 2
        after = s.scalar(select(Snapshot.state).where(Snapshot.turn == 2))
        assert after is not None and after["scores"] == {"alice": 1, "bob": 0, "carol": 1}
    # Turn 2 opens with its morning, timed by the morning's second `at`.
    assert phases_of(app, 2) == [("morning", "open", datetime(2026, 11, 28, 12, 0, tzinfo=UTC))]


def test_reminders_go_before_each_phase_to_who_has_not_sent_for_it(tmp_path: Path, db_url: str) -> None:
    # Four hours before each phase, but seven before the afternoon.
    app = make_phase_app(tmp_path, db_url, {**AT, "afternoon": {**AT["afternoon"], "remind_before": "7h"}},
                         remind_before="4h")
    at = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    send(app, "alice", "pick 3", at)
    run_pass(app, at)  # 09:00 is within 4 hours of the morning's noon deadline
    assert sorted(str(m["To"]) for m in sent(app) if "no orders on file for the morning of turn 1" in
                  str(m["Subject"])) == ["bob@example.org", "carol@example.org"]
    send(app, "bob", "pick 5", at)
    send(app, "carol", "pick 7", at)
    run_pass(app, at)  # the morning closes early
    ten = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
    send(app, "alice", "guess bob 5", ten)
    run_pass(app, ten)  # the afternoon's deadline (18:00) is not yet 7 hours off: no reminder yet
    assert not [m for m in sent(app) if "afternoon of turn 1" in str(m["Subject"])]
    run_pass(app, datetime(2026, 11, 21, 11, 30, tzinfo=UTC))
    # alice has a guess on file for the afternoon; her morning pick does not count for it.
    assert sorted(str(m["To"]) for m in sent(app) if "no orders on file for the afternoon of turn 1" in
                  str(m["Subject"])) == ["bob@example.org", "carol@example.org"]


def test_a_mail_after_a_phase_deadline_counts_for_the_next_phase(tmp_path: Path, db_url: str) -> None:
    app = make_phase_app(tmp_path, db_url)
    for player, number in (("alice", 3), ("bob", 5), ("carol", 7)):  # no two alike: no vote
        send(app, player, f"pick {number}", datetime(2026, 11, 21, 9, 0, tzinfo=UTC))
    # Received at 12:30, after the morning's deadline, before any pass resolved the morning. The pass reads what
    # came by the morning's deadline, resolves the morning, and then this mail, with the afternoon open.
    send(app, "bob", "guess alice 3", datetime(2026, 11, 21, 12, 30, tzinfo=UTC))
    run_pass(app, datetime(2026, 11, 21, 13, 0, tzinfo=UTC))

    ack = last_ack(app, "bob")
    assert "it came after the deadline of the morning of turn 1, so it counts for the afternoon" in \
        " ".join(ack.split())
    assert "Deadline for the afternoon of turn 1: Saturday 21 November 2026, 18:00 UTC (UTC)." in ack
    with app.db.session() as s:
        assert s.scalars(select(OrderSetRow.phase).order_by(OrderSetRow.seq)).all() == ["morning"] * 3 + \
            ["afternoon"]
    run_pass(app, AFTERNOON)
    # bob's guess counted in the afternoon: alice picked 3.
    assert "your score is 1" in mails_to(app, "bob", "(afternoon)")[0].get_content()


def test_a_mail_late_for_a_phase_that_opened_a_vote_counts_for_the_phase_after(tmp_path: Path, db_url: str
                                                                                ) -> None:
    """The morning's results open a vote of alice and bob, after carol's mail came: it was late for the morning,
    and counts for the afternoon, not refused from a vote that did not exist when she sent it."""
    app = make_phase_app(tmp_path, db_url)
    for player, number in (("alice", 3), ("bob", 3), ("carol", 7)):
        send(app, player, f"pick {number}", datetime(2026, 11, 21, 9, 0, tzinfo=UTC))
    send(app, "carol", "guess alice 3", datetime(2026, 11, 21, 12, 30, tzinfo=UTC))
    run_pass(app, datetime(2026, 11, 21, 13, 0, tzinfo=UTC))

    ack = last_ack(app, "carol")
    assert "it came after the deadline of the morning of turn 1, so it counts for the afternoon" in \
        " ".join(ack.split())
    assert "Deadline for the afternoon of turn 1: not set yet: the afternoon opens once the vote is resolved" in ack
    with app.db.session() as s:
        assert s.scalars(select(OrderSetRow.phase).where(OrderSetRow.status == "accepted")
                         .order_by(OrderSetRow.seq)).all() == ["morning"] * 3 + ["afternoon"]


def play_turn_with_vote(app: App) -> None:
    """alice and bob pick the same number: the morning opens a vote between them; they both vote redraw."""
    at = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    send(app, "alice", "pick 3", at)
    send(app, "bob", "pick 3", at)
    send(app, "carol", "pick 7", at)
    run_pass(app, at)
    # The vote is open two hours (its duration in the config) from when the morning was resolved.
    assert phases_of(app) == [("morning", "done", MORNING),
                              ("vote", "open", datetime(2026, 11, 21, 11, 0, tzinfo=UTC))]
    send(app, "carol", "vote keep", at)
    send(app, "alice", "vote redraw", at)
    send(app, "bob", "vote redraw", at)
    run_pass(app, at)


def test_an_extra_vote_is_opened_by_the_ruleset_and_the_turn_resumes(tmp_path: Path, db_url: str) -> None:
    app = make_phase_app(tmp_path, db_url)
    play_turn_with_vote(app)

    ack = " ".join(last_ack(app, "carol").split())  # the reason is wrapped to the mail's width
    assert "Read but NOT ACCEPTED (1)" in ack and "Reason: only alice, bob answer in the vote now open" in ack
    # Both who had to answer did: the vote closed at once, the ruleset resumed with the votes, and the
    # afternoon opened with its own deadline.
    assert phases_of(app) == [("morning", "done", MORNING),
                              ("vote", "done", datetime(2026, 11, 21, 11, 0, tzinfo=UTC)),
                              ("afternoon", "open", AFTERNOON)]
    with app.db.session() as s:
        vote = s.scalar(select(TurnPhase).where(TurnPhase.name == "vote"))
        assert vote is not None and vote.must_send == ["alice", "bob"] and vote.state is not None
        picks = vote.state["picks"]
    # Two redraws to none: the tied picks are drawn again from 11 to 20; carol's 7 stays.
    assert 11 <= picks["alice"] <= 20 and 11 <= picks["bob"] <= 20 and picks["carol"] == 7
    assert f"the vote: redraw; you have {picks['alice']}" in mails_to(app, "alice", "(vote)")[0].get_content()
    assert mails_to(app, "carol", "(vote)") == []  # no printout for carol in the vote


def test_a_rerun_of_a_turn_of_phases_gives_the_same_printouts(tmp_path: Path, db_url: str) -> None:
    app = make_phase_app(tmp_path, db_url)
    play_turn_with_vote(app)
    run_pass(app, AFTERNOON)
    app.clock = Clock(datetime(2026, 11, 22, 9, 0, tzinfo=UTC), frozen=True)
    assert [o.status for o in rerun_turn(app, "duo", 1)] == ["same"]

    # Spoil the stored state after the vote: the rerun recomputes it (same seed, same orders); the vote
    # printouts it renders read exactly as the first ones, so nobody is mailed again (maild/corrections.py
    # compares each with the one mailed).
    with app.db.session() as s:
        vote = s.scalar(select(TurnPhase).where(TurnPhase.name == "vote"))
        assert vote is not None and vote.state is not None
        vote.state = {**vote.state, "picks": {"alice": 0, "bob": 0, "carol": 0}}
    (outcome,) = rerun_turn(app, "duo", 1, mail=True)
    assert outcome.status == "changed" and outcome.mailed is not None
    assert outcome.mailed.mailed == {} and outcome.mailed.unchanged == ["alice (vote)", "bob (vote)"]
    with app.db.session() as s:
        keys = list(s.scalars(select(OutboundMail.key).where(OutboundMail.kind == "printout")))
    assert keys and not [k for k in keys if ":rerun:" in k]
    assert [o.status for o in rerun_turn(app, "duo", 1)] == ["same"]


def test_phase_deadlines_come_from_cron_rules(tmp_path: Path, db_url: str) -> None:
    app = make_phase_app(tmp_path, db_url, {"morning": {"cron": "0 12 * * sat"}, "afternoon": {"cron": "0 18 * * sat"}})
    at = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    for who, n in (("alice", 1), ("bob", 2), ("carol", 3)):
        send(app, who, f"pick {n}", at)
    run_pass(app, at)
    # The first Saturday noon after the start; then the first Saturday 18:00 after the morning's deadline.
    assert phases_of(app) == [("morning", "done", MORNING), ("afternoon", "open", AFTERNOON)]
    run_pass(app, AFTERNOON)
    # Turn 2's morning: the first Saturday noon after the afternoon's deadline, a week on.
    assert phases_of(app, 2) == [("morning", "open", datetime(2026, 11, 28, 12, 0, tzinfo=UTC))]


def test_a_config_naming_an_unknown_phase_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'maild.db'}"

    def start(phases: dict[str, Any], ruleset: str = "twophase") -> None:
        data = config_dict(tmp_path, url)
        data["games"].append({**game_entry(tmp_path, phases), "ruleset": ruleset})
        config = parse_config(data, tmp_path, None)
        db = Database(config.database_url)
        upgrade(db.engine)
        with db.session() as s:
            sync_games(s, config, START)

    with pytest.raises(ConfigError, match=r"schedule.phases.evening: ruleset twophase has no phase 'evening' "
                                          r"\(its phases: morning, afternoon; extra: vote\)"):
        start({**AT, "evening": {"cron": "0 20 * * sat"}})
    with pytest.raises(ConfigError, match="give the phases of ruleset twophase in their order morning, afternoon"):
        start({"afternoon": {"cron": "0 18 * * sat"}, "morning": {"cron": "0 12 * * sat"}})
    with pytest.raises(ConfigError, match=r"missing afternoon"):
        start({"morning": AT["morning"]})
    with pytest.raises(ConfigError, match="an extra phase opens during a turn: give its 'duration'"):
        start({**AT, "vote": {"cron": "0 20 * * sat"}})
    with pytest.raises(ConfigError, match="ruleset venice has one deadline a turn"):
        start(AT, ruleset="venice")


def test_the_config_checks_phase_tables(tmp_path: Path) -> None:
    def parse(schedule: dict[str, Any]) -> None:
        data = config_dict(tmp_path, "sqlite:///x.db")
        data["games"].append({**game_entry(tmp_path, {}), "schedule": {"timezone": "UTC", **schedule}})
        parse_config(data, tmp_path, None)

    with pytest.raises(ConfigError, match="give either 'at'/'cron'"):
        parse({"cron": "0 12 * * sat", "phases": AT})
    with pytest.raises(ConfigError, match="give exactly one of 'at', 'cron' or 'duration'"):
        parse({"phases": {"morning": {"cron": "0 12 * * sat", "duration": "1h"}}})
    with pytest.raises(ConfigError, match="phases.morning.when: unknown key"):
        parse({"phases": {"morning": {"when": "noon"}}})
    # The afternoon of turn 1 closing before its morning:
    with pytest.raises(ConfigError, match=r"phases.afternoon.at: the deadline of turn 1 .* is not after that of "
                                          r"morning"):
        parse({"phases": {"morning": {"at": ["2026-11-21T12:00"]}, "afternoon": {"at": ["2026-11-21T11:00"]}}})
    # Turn 2's morning before turn 1's afternoon:
    with pytest.raises(ConfigError, match=r"phases.morning.at: the deadline of turn 2 .* is not after the last "
                                          r"phase of turn 1"):
        parse({"phases": {"morning": {"at": ["2026-11-21T12:00", "2026-11-21T13:00"]},
                          "afternoon": {"at": ["2026-11-21T18:00", "2026-11-28T18:00"]}}})


def test_maild_refuses_to_start_with_an_unknown_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "duo.toml").write_text(SETUP)
    config = tmp_path / "maild.toml"
    config.write_text("""
[database]
url = "sqlite:///maild.db"
[[games]]
name = "duo"
ruleset = "twophase"
setup = "duo.toml"
[games.schedule]
timezone = "UTC"
[games.schedule.phases.morning]
cron = "0 12 * * sat"
[games.schedule.phases.noon]
cron = "0 13 * * sat"
[games.schedule.phases.afternoon]
cron = "0 18 * * sat"
""")
    assert main(["--config", str(config), "--now", START.isoformat(), "init"]) == 2
    assert capsys.readouterr().err == (f"maild: {config}: games 'duo': schedule.phases.noon: ruleset twophase has "
                                       "no phase 'noon' (its phases: morning, afternoon; extra: vote)\n")


def test_only_a_ruleset_that_declares_phases_runs_them() -> None:
    class OnePhaseOfItsOwn(Ruleset):
        def phases(self) -> tuple[Phase, ...]:
            return (Phase("orders", frozenset({"bid"})),)

    # Venice keeps the default, and so its turns run as before; a single phase of one's own, with its kinds,
    # is a phase like any other.
    assert not is_phased(load_ruleset("venice")) and not is_phased(load_ruleset("renaissance"))
    assert is_phased(OnePhaseOfItsOwn()) and is_phased(load_ruleset("twophase"))
