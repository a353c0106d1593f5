"""The missed-orders ladder ([games.missed], maild/ladder.py) through the daemon, on SQLite and PostgreSQL:
a silent player is warned, then plays on default orders, then falls into civil disorder (open to a
substitute), then is removed where the rules allow; orders bring him back. Figures by hand from the config."""

from __future__ import annotations

from pathlib import Path

from maild.cli import game_line, season_lines
from maild.config import MissedLadder
from maild.games import get_game
from maild.ladder import (
    DEFAULTS,
    DISORDER,
    IN_PLAY,
    REMOVED,
    WARNED,
    next_step,
    open_to_substitute,
    positions_open,
    step_for,
)
from maild.models import OutboundMail
from maild.testing import Table, text_of
from tests.season_games import daily, season_setup

LADDER = {"defaults_after": 2, "disorder_after": 3, "remove_after": 4}


def test_the_steps_by_hand() -> None:
    ladder = MissedLadder(**LADDER)
    # 1 missed: warned; 2: defaults; 3: disorder; 4: removed only where the rules allow it.
    assert [step_for(n, ladder, False) for n in range(6)] == [IN_PLAY, WARNED, DEFAULTS, DISORDER, DISORDER,
                                                              DISORDER]
    assert [step_for(n, ladder, True) for n in range(6)] == [IN_PLAY, WARNED, DEFAULTS, DISORDER, REMOVED,
                                                             REMOVED]
    assert next_step(1, ladder, False) == (DEFAULTS, 1)
    assert next_step(3, ladder, False) is None  # civil disorder is the top where no one is removed
    assert next_step(3, ladder, True) == (REMOVED, 1)
    # A step left out (0) is jumped: warned straight to civil disorder after 2.
    assert [step_for(n, MissedLadder(0, 2, 0), False) for n in range(4)] == [IN_PLAY, WARNED, DISORDER, DISORDER]


def _play_day(table: Table, senders: dict[str, str]) -> list:
    """Everyone in `senders` throws, then the clock passes the day's noon deadline and the daemon runs."""
    for address, body in senders.items():
        table.send(address, body)
    table.intake()
    table.advance(days=1)
    return table.intake()


def _mail_to(mails: list, address: str, subject_part: str) -> str:
    found = [m for m in mails if str(m["To"]) == address and subject_part in str(m["Subject"])]
    assert len(found) == 1, [(str(m["To"]), str(m["Subject"])) for m in mails]
    return text_of(found[0])


def test_a_silent_player_climbs_the_ladder_and_comes_back(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps_standing", season_setup(), schedule=daily(),
                          options={"missed": LADDER})
        table.intake()  # the welcomes
        table.advance(hours=3)  # 2027-01-04 12:00, the day before the first deadline
        talkers = {"ann@example.org": "throw paper", "bob@example.org": "#rps1 bob sesame\nthrow scissors"}

        mails = _play_day(table, {**talkers, "cat@example.org": "throw paper"})  # turn 1: cat threw paper
        assert not [m for m in mails if "you missed" in str(m["Subject"])]

        mails = _play_day(table, talkers)  # turn 2: cat silent, 1 in a row
        warning = _mail_to(mails, "cat@example.org", "you missed turn 2")
        assert "that is 1 turn in a row" in warning and "Your position is warned." in warning
        assert "If you miss 1 more turn, your position plays on default orders while silent." in warning
        assert not [m for m in mails if "you missed" in str(m["Subject"]) and str(m["To"]) != "cat@example.org"]
        assert "(by lot)" in table.newsletter("rps1", 2).split("cat: ")[1].splitlines()[0]  # only warned: the lot

        mails = _play_day(table, talkers)  # turn 3: 2 in a row -> default orders from turn 4 on
        assert "Your position plays on default orders while silent." in \
            _mail_to(mails, "cat@example.org", "you missed turn 3")

        mails = _play_day(table, talkers)  # turn 4: on defaults, his last throw (paper, turn 1) stands
        assert "cat: paper\n" in table.newsletter("rps1", 4)
        disorder = _mail_to(mails, "cat@example.org", "you missed turn 4")
        assert "3 turns in a row" in disorder and "civil disorder" in disorder
        assert "If you miss" not in disorder  # rps_standing removes no one: civil disorder is the top
        gm = _mail_to(mails, "referee@example.org", "rps1: cat in civil disorder")
        assert "missed 3 turns in a row (the last, turn 4)" in gm
        with table.app.db.session() as s:
            game = get_game(s, "rps1")
            assert open_to_substitute(s, game, "cat") and not open_to_substitute(s, game, "ann")
            assert positions_open(s, game) == ["cat"]
            lines = season_lines(s, table.app, game)
            assert "ladder: cat disorder (3 missed)" in lines
            assert "next on the ladder if silent: ann -> warned, bob -> warned, cat -> disorder" in lines
            assert "ladder: cat disorder (3 missed)" in game_line(s, game) + "  " + "  ".join(lines)
        assert "cat: paper\n" in table.newsletter("rps1", 4)

        _play_day(table, {**talkers, "cat@example.org": "throw scissors"})  # turn 5: cat is back
        with table.app.db.session() as s:
            game = get_game(s, "rps1")
            assert not open_to_substitute(s, game, "cat")
            assert "ladder: nobody on it" in season_lines(s, table.app, game)
        # Every ladder mail went to its one player: none names another's address.
        with table.app.db.session() as s:
            rows = s.query(OutboundMail).filter(OutboundMail.key.like("missed:%")).all()
        assert {tuple(r.recipients) for r in rows} == {("cat@example.org",)} and len(rows) == 3


def test_removal_where_the_rules_allow_it(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps_removing", season_setup(), schedule=daily(),
                          options={"missed": {"defaults_after": 0, "disorder_after": 1, "remove_after": 2}})
        table.intake()
        table.advance(hours=3)
        talkers = {"ann@example.org": "throw paper", "bob@example.org": "#rps1 bob sesame\nthrow scissors"}
        _play_day(table, talkers)
        mails = _play_day(table, talkers)  # cat: 1 missed -> disorder, 2 -> removed
        assert "Your position is removed from the game." in _mail_to(mails, "cat@example.org", "you missed turn 2")
        _mail_to(mails, "referee@example.org", "rps1: cat removed")
        mails = _play_day(table, talkers)  # removed: no more ladder mail
        assert not [m for m in mails if "you missed" in str(m["Subject"])]


def test_no_ladder_without_the_table(tmp_path: Path) -> None:
    # A game without [games.missed] treats a silent player as before: no warning, the lot throws for him.
    with Table(tmp_path) as table:
        table.create_game("rps1", "rps_standing", season_setup(), schedule=daily())
        table.intake()
        table.advance(hours=3)
        mails = _play_day(table, {"ann@example.org": "throw paper", "bob@example.org": "#rps1 bob sesame\nthrow rock"})
        assert not [m for m in mails if "you missed" in str(m["Subject"])]
        assert "cat: " in table.newsletter("rps1", 1) and "(by lot)" in table.newsletter("rps1", 1)


def test_the_example_configs_season_keys_load_uncommented(tmp_path: Path) -> None:
    import re
    from datetime import timedelta

    from maild.config import AbsenceRule, load_config

    text = (Path(__file__).parent.parent / "config.example.toml").read_text()
    for key in ("grace", r"\[games.missed\]", "defaults_after", "disorder_after", "remove_after",
                r"\[games.absence\]", "rule", "max_days", "announce"):
        text = re.sub(rf"^# ({key})(?=\s)", r"\1", text, count=1, flags=re.MULTILINE)
    path = tmp_path / "gm.toml"
    path.write_text(text)
    path.chmod(0o600)
    venice = load_config(path).games[0]
    assert venice.grace == timedelta(hours=24)
    assert venice.missed == MissedLadder(defaults_after=1, disorder_after=3, remove_after=0)
    assert venice.absence == AbsenceRule(rule="defaults", max_days=21, announce="players")


def test_bad_season_keys_are_refused(tmp_path: Path) -> None:
    import pytest

    from maild.config import load_config
    from maild.errors import ConfigError

    head = '[[games]]\nname = "v"\nruleset = "venice"\nsetup = "s.toml"\n'
    for extra, message in (
            ('[games.missed]\ndefaults_after = 3\ndisorder_after = 2\n', "the steps must come in order"),
            ('[games.missed]\ndisorder_after = -1\n', "missed.disorder_after: expected a whole number"),
            ('[games.misssed]\n', "did you mean missed"),
            ('[games.absence]\nrule = "wait"\n', "absence.rule: expected one of move_deadline, defaults"),
            ('grace = "a day"\n', "grace: expected a duration")):
        path = tmp_path / "gm.toml"
        path.write_text(head + extra)
        with pytest.raises(ConfigError, match=message):
            load_config(path)


def test_a_game_of_phases_counts_who_sent_in_no_phase_of_the_turn(tmp_path: Path, db_url: str) -> None:
    from tests.phasegame.flow import AT, SETUP, START
    from tests.phasegame.game import installed

    (tmp_path / "duo.toml").write_text(SETUP)
    with installed(), Table(tmp_path, db_url=db_url, now=START) as table:
        table.create_game("duo", "twophase", tmp_path / "duo.toml", schedule={"timezone": "UTC", "phases": AT},
                          options={"missed": {"defaults_after": 0, "disorder_after": 2}})
        table.intake()
        table.send("alice@example.org", "pick 3")
        table.send("bob@example.org", "pick 5")
        table.intake()
        table.run_turn("duo")  # the morning
        table.send("bob@example.org", "guess alice 3")  # alice sends nothing in the afternoon: she sent this turn
        table.intake()
        mails = table.run_whole_turn("duo")  # the afternoon (and a vote, if it opens one): the turn ends
        assert [(str(m["To"]), str(m["Subject"])) for m in mails if "you missed" in str(m["Subject"])] == \
            [("carol@example.org", "[duo] you missed turn 1")]


def test_a_rerun_gives_the_silent_positions_the_same_default_orders(tmp_path: Path, db_url: str) -> None:
    from maild.turn import rerun_turn

    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps_standing", season_setup(), schedule=daily(),
                          options={"missed": {"defaults_after": 1, "disorder_after": 0}})
        table.intake()
        table.advance(hours=3)
        talkers = {"ann@example.org": "throw paper", "bob@example.org": "#rps1 bob sesame\nthrow scissors"}
        _play_day(table, {**talkers, "cat@example.org": "throw scissors"})
        _play_day(table, talkers)  # turn 2: cat warned and on defaults from turn 3
        _play_day(table, talkers)  # turn 3: cat's scissors again
        assert "cat: scissors\n" in table.newsletter("rps1", 3)
        printouts, newsletter = table.replay("rps1", 3)
        assert newsletter == table.newsletter("rps1", 3)
        assert [o.status for o in rerun_turn(table.app, "rps1", 3, store=False)] == ["same"]
