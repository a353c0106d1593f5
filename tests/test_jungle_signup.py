"""Sign-up by mail (Ruleset.sign_up_word / sign_up, maild/intake/signup.py) and the GM's report mail
(TurnResult.gm_report), through the harness maild/testing.py on SQLite and PostgreSQL, with the test game of
tests/jungle_signup_fixtures.py ("roster": `join NAME`, `say TEXT`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from maild.cli import game_export, game_line
from maild.config import AuthCheck, parse_config
from maild.errors import ConfigError
from maild.games import get_game, state_before
from maild.intake.read import ReadMail
from maild.intake.signup import sign_up_lines
from maild.models import InboundMail, OrderSetRow, OutboundMail, Player
from maild.ruleset import SIGN_UP_ADDRESS
from maild.testing import Table, maildir_config, text_of
from maild.turn import rerun_turn
from tests.jungle_signup_fixtures import LATE, PHASED, ROSTER, SETUP
from tests.rps_game import EXAMPLE_SETUP

GM = "referee@example.org"  # the harness's daemon.gm


def flat(text: str) -> str:
    """A mail's text with its lines joined, as a sentence the template wrapped reads."""
    return " ".join(text.split())


def to(table: Table, address: str, subject: str = "") -> list[EmailMessage]:
    return [m for m in table.mails() if str(m["To"]) == address and subject in str(m["Subject"])]


def players(table: Table, game: str = "r1") -> dict[str, tuple[str, bool]]:
    """name -> (address, signed up by mail)."""
    with table.app.db.session() as s:
        g = get_game(s, game)
        return {p.name: (p.email, p.joined_at is not None)
                for p in s.scalars(select(Player).where(Player.game_id == g.id))}


def mails_in(table: Table) -> list[tuple[str, str | None]]:
    with table.app.db.session() as s:
        return [(m.status, m.note) for m in s.scalars(select(InboundMail).order_by(InboundMail.id))]


def booked(table: Table, name: str) -> list[tuple[int, str, list[str], str | None]]:
    """(turn, status, order kinds, phase) of `name`'s order sets."""
    with table.app.db.session() as s:
        player = s.scalar(select(Player).where(Player.name == name))
        assert player is not None
        return [(r.turn, r.status, [o["kind"] for o in r.orders], r.phase) for r in s.scalars(
            select(OrderSetRow).where(OrderSetRow.player_id == player.id).order_by(OrderSetRow.id))]


@pytest.fixture
def table(tmp_path: Path, db_url: str) -> Table:
    t = Table(tmp_path, db_url=db_url)
    t.create_game("r1", ROSTER.name, SETUP)
    t.intake()  # the welcomes of ann and bob go out
    return t


def test_a_strangers_join_makes_him_a_player_with_his_orders_on_file(table: Table) -> None:
    table.send("zoe@example.org", "join Zoe\nsay hello all")
    table.intake()

    ack = table.ack("zoe@example.org")
    assert "Hello Zoe," in ack
    assert "this mail signed you up for r1 as Zoe" in ack
    assert "line 1: join as Zoe" in ack and "line 2: say: hello all" in ack
    assert players(table)["Zoe"] == ("zoe@example.org", True)
    assert booked(table, "Zoe") == [(1, "accepted", ["join", "say"], None)]
    assert mails_in(table)[-1][0] == "orders"
    # The GM hears of each sign-up in a notice of its own.
    notice = to(table, GM, "Zoe signed up")
    assert len(notice) == 1 and "zoe@example.org" in text_of(notice[0])
    # The state has no Zoe before the turn; nothing else breaks meanwhile: STATUS, `game list`, the export.
    table.send("zoe@example.org", "STATUS")
    table.intake()
    assert "join as Zoe" in table.ack("zoe@example.org")
    with table.app.db.session() as s:
        game = get_game(s, "r1")
        assert "no orders from: ann, bob" in game_line(s, game)
        assert game_export(s, table.app, game)["players"]["Zoe"] == {"email": "zoe@example.org",
                                                                    "orders_on_file": True}


def test_a_second_join_from_him_is_his_order_not_a_second_sign_up(table: Table) -> None:
    table.send("zoe@example.org", "join Zoe")
    table.send("zoe@example.org", "join Zed")  # the same intake pass, even the same transaction
    table.intake()

    assert players(table) == {"ann": ("ann@example.org", False), "bob": ("bob@example.org", False),
                              "Zoe": ("zoe@example.org", True)}
    assert len(to(table, GM, "signed up")) == 1
    second = table.ack("zoe@example.org")
    assert "Hello Zoe," in second and "signed you up" not in second and "join as Zed" in second
    assert booked(table, "Zoe") == [(1, "accepted", ["join"], None), (1, "accepted", ["join"], None)]
    with table.app.db.session() as s:  # both carry his address: what a mail read again would give too
        assert [r.orders[0]["args"] for r in s.scalars(select(OrderSetRow).order_by(OrderSetRow.id))] == [
            {"name": "Zoe", SIGN_UP_ADDRESS: "zoe@example.org"}, {"name": "Zed", SIGN_UP_ADDRESS: "zoe@example.org"}]

    # Nor with a header line naming a player that is not: his address is already Zoe's.
    table.send("zoe@example.org", "#r1 Zed\njoin Zed")
    table.intake()
    assert "Zed" not in players(table)
    assert "zoe@example.org is already Zoe's address in r1" in (mails_in(table)[-1][1] or "")

    table.run_turn("r1")
    # The first JOIN (the earlier mail) brought him in as Zoe; the second, resolved after it, is void.
    printout = table.printout("r1", 1, "Zoe")
    assert "your join is void: you are in the roster already" in printout
    assert [p["name"] for p in state_of(table)["players"]] == ["ann", "bob", "Zoe"]


def state_of(table: Table, game: str = "r1") -> dict:
    with table.app.db.session() as s:
        g = get_game(s, game)
        return state_before(s, g, g.turn)


def test_a_refused_join_is_answered_once_a_day_and_held(table: Table) -> None:
    table.send("eve@example.org", "join ann")  # the name of a player of the state
    table.intake()
    answer = table.ack("eve@example.org")
    assert "Your sign-up to r1 was refused: the name ann is taken." in " ".join(answer.split())
    assert "A mail with a line starting with JOIN signs you up" not in answer  # no HELP asked, none given
    status, note = mails_in(table)[-1]
    assert status == "unknown_sender"
    assert note is not None and "sign-up refused by the game: the name ann is taken" in note

    table.send("eve@example.org", "join gm")
    table.send("eve@example.org", "say hi")  # no JOIN line: a stranger's mail as before
    table.intake()
    answers = [m for m in to(table, "eve@example.org") if m["Auto-Submitted"] == "auto-replied"]
    assert len(answers) == 1  # one answer a day to a stranger
    statuses = mails_in(table)[-2:]
    assert [s for s, _ in statuses] == ["unknown_sender", "unknown_sender"]
    assert "the name gm is kept for the GM" in (statuses[0][1] or "")
    assert "sign-up" not in (statuses[1][1] or "")
    assert "eve@example.org" not in {a for a, _ in players(table).values()}
    # The GM's held notice lists them with their notes.
    held = [text_of(m) for m in to(table, GM, "held")]
    assert any("the name ann is taken" in h for h in held)


def test_two_strangers_cannot_take_one_name_before_the_turn(table: Table) -> None:
    table.send("yan@example.org", "join Yan")
    table.send("yves@example.org", "join yan\nHELP")  # the state has no Yan yet: the framework's own check
    table.intake()
    assert players(table)["Yan"] == ("yan@example.org", True)
    answer = table.ack("yves@example.org")
    assert "Your sign-up to r1 was refused: the name yan is taken." in " ".join(answer.split())
    # HELP answered with it, saying how to join: the framework's sheet names the game's sign-up word.
    assert "To join, send a JOIN line as HELP shows." in answer
    assert "Not a player yet? A mail with a line starting with JOIN signs you up" in answer


def test_sign_ups_are_capped_per_game_and_day(table: Table) -> None:
    table.app.config = replace(table.app.config, limits=replace(table.app.config.limits, signups_per_day=2))
    for who in ("p1", "p2", "p3"):
        table.send(f"{who}@example.org", f"join {who}")
    table.intake()
    assert sorted(n for n, (_a, mailed) in players(table).items() if mailed) == ["p1", "p2"]
    assert "r1 takes no more sign-ups today; please send your JOIN again tomorrow" in flat(table.ack("p3@example.org"))
    assert "2 sign-ups in 24 hours already (limits.signups_per_day)" in (mails_in(table)[-1][1] or "")

    table.advance(hours=23)  # still within 24 hours of the first two
    table.send("p4@example.org", "join p4")
    table.intake()
    assert "p4" not in players(table)
    table.advance(hours=2)  # 25 hours after them: the window has passed
    table.send("p3@example.org", "join p3")
    table.intake()
    assert players(table)["p3"] == ("p3@example.org", True)


def test_robots_and_games_without_a_sign_up_word_sign_nobody_up(tmp_path: Path, db_url: str) -> None:
    table = Table(tmp_path, db_url=db_url)
    table.create_game("r1", ROSTER.name, SETUP)
    table.create_game("rps1", "rps", EXAMPLE_SETUP, address="rps@example.org")
    table.send("bot@example.org", "join Bot", headers={"Auto-Submitted": "auto-replied"})
    table.send("zoe@example.org", "join zoe", to="rps@example.org")
    table.intake()
    (bot_status, _), (rps_status, rps_note) = mails_in(table)
    assert bot_status == "auto"
    assert rps_status == "unknown_sender" and rps_note is not None and "sign-up" not in rps_note
    assert "zoe@example.org is not the address of a player of rps1" in " ".join(table.ack("zoe@example.org").split())
    assert "Bot" not in players(table) and len(players(table, "rps1")) == 3


def test_the_turn_resolves_with_him_and_welcomes_him_once(table: Table) -> None:
    table.send("zoe@example.org", "join Zoe\nsay hello all")
    table.send("ann@example.org", "say welcome, Zoe")
    table.intake()
    assert not to(table, "zoe@example.org", "welcome")  # no welcome before his JOIN resolved

    table.run_turn("r1")
    state = state_of(table)
    assert state["players"][-1] == {"name": "Zoe", "email": "zoe@example.org"}  # from SIGN_UP_ADDRESS
    assert "Zoe" in table.printout("r1", 1, "Zoe") and "Zoe" in table.printout("r1", 1, "ann")
    assert "Zoe: hello all" in table.newsletter("r1", 1)
    assert len(players(table)) == 3  # add_new_players did not add him a second time
    welcome = to(table, "zoe@example.org", "welcome, Zoe")
    assert len(welcome) == 1 and "Zoe" in text_of(welcome[0])

    table.send("zoe@example.org", "say again")
    table.intake()
    table.run_turn("r1")
    assert len(to(table, "zoe@example.org", "welcome, Zoe")) == 1
    assert len(to(table, "ann@example.org", "welcome")) == 1  # the setup's welcome only


def test_the_gm_gets_a_report_per_turn_and_a_rerun_never_duplicates_it(table: Table) -> None:
    table.send("zoe@example.org", "join Zoe\nsay hello all")
    table.intake()
    table.run_turn("r1")
    reports = to(table, GM, "[r1] turn 1 report for the GM")
    assert len(reports) == 1
    text = text_of(reports[0])
    # The framework's template prints the sections as the printout does.
    assert "r1: turn 1 report for the GM\n\nJoined\n  Zoe\n\nTo read out\n  Zoe: hello all\n" in text
    assert "Next deadline:" in text
    with table.app.db.session() as s:  # a notice to the GM: a failure to deliver it is not reported to him
        assert s.scalar(select(OutboundMail.kind).where(OutboundMail.key == "gm_report:r1:1")) == "gm"

    # A rerun that changes nothing mails nothing; one that changes the result mails one corrected report.
    assert [o.status for o in rerun_turn(table.app, "r1", 1, mail=True)] == ["same"]
    table.intake()
    assert len(to(table, GM, "turn 1 report for the GM")) == 1
    with table.app.db.session() as s:
        row = s.scalar(select(OrderSetRow).where(OrderSetRow.turn == 1))
        assert row is not None
        row.orders = [o if o["kind"] != "say" else {**o, "args": {"text": "hi"}} for o in row.orders]
    assert [o.status for o in rerun_turn(table.app, "r1", 1, mail=True)] == ["changed"]
    table.intake()
    corrected = to(table, GM, "turn 1 report for the GM (corrected)")
    assert len(corrected) == 1 and "Zoe: hi" in text_of(corrected[0])
    assert len(to(table, GM, "turn 1 report for the GM")) == 2


def test_a_sign_up_in_a_game_of_phases(tmp_path: Path, db_url: str) -> None:
    table = Table(tmp_path, db_url=db_url)
    start = table.now()
    table.create_game("p1", PHASED.name, SETUP, schedule={"timezone": "UTC", "phases": {
        "morning": {"at": [(start + timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M")]},
        "afternoon": {"at": [(start + timedelta(hours=8)).strftime("%Y-%m-%dT%H:%M")]}}})
    table.send("zoe@example.org", "join Zoe")
    table.intake()
    assert "this mail signed you up for p1 as Zoe" in table.ack("zoe@example.org")
    assert booked(table, "Zoe") == [(1, "accepted", ["join"], "morning")]

    table.run_turn("p1")  # the morning
    assert [p["name"] for p in phase_state(table)["players"]] == ["ann", "bob", "Zoe"]
    morning = to(table, GM, "[p1] turn 1 report for the GM (morning)")
    assert len(morning) == 1 and "p1: turn 1 (morning) report for the GM" in text_of(morning[0])

    # The afternoon takes no join: signing him up would leave him without the order that brings him in.
    table.send("yan@example.org", "join Yan")
    table.intake()
    assert "Yan" not in players(table, "p1")
    assert "Your sign-up to p1 was refused: join is an order of the morning" in flat(table.ack("yan@example.org"))

    table.run_turn("p1")  # the afternoon: the turn ends, and Zoe is welcomed
    assert len(to(table, GM, "[p1] turn 1 report for the GM (afternoon)")) == 1
    assert len(to(table, "zoe@example.org", "welcome, Zoe")) == 1


def phase_state(table: Table) -> dict:
    from maild.models import TurnPhase

    with table.app.db.session() as s:
        row = s.scalar(select(TurnPhase).where(TurnPhase.status == "done").order_by(TurnPhase.id.desc()))
        assert row is not None and row.state is not None
        return row.state


def test_a_late_join_is_refused_where_late_orders_are(tmp_path: Path, db_url: str) -> None:
    # Where a game refuses late mail, a JOIN after the deadline would make a player with no JOIN on file.
    table = Table(tmp_path, db_url=db_url)
    deadline = table.now() + timedelta(hours=1)
    table.create_game("l1", LATE.name, SETUP, schedule={"timezone": "UTC",
                                                        "at": [deadline.strftime("%Y-%m-%dT%H:%M")]})
    table.advance(hours=2)
    table.send("zoe@example.org", "join Zoe")
    table.intake()  # the pass reads the mail (late), then runs the turn that is due
    assert "Zoe" not in players(table, "l1")
    assert "Your sign-up to l1 was refused: it came after the deadline of turn 1; please send your JOIN again" \
        in flat(table.ack("zoe@example.org"))


def read(text: str) -> ReadMail:
    return ReadMail(from_addr="zoe@example.org", to_addrs=[], subject="", message_id=None, references=[],
                    auto_reason=None, header=None, order_text=text)


def test_a_sign_up_line_starts_with_the_word_whatever_its_emphasis() -> None:
    text = "Hello!\n**Join** Zoe\n- join Zoe\n  JOIN\njoiner Zoe\nI want to join\n> join Zoe"
    assert sign_up_lines(ROSTER, read(text)) == {2, 3, 4, 7}
    assert sign_up_lines(ROSTER, read("")) == set()


def test_signups_per_day_is_a_limit_of_the_config(tmp_path: Path) -> None:
    data = maildir_config(tmp_path, "sqlite://")
    assert parse_config(data, tmp_path, None).limits.signups_per_day == 20
    data["limits"] = {"signups_per_day": 5}
    assert parse_config(data, tmp_path, None).limits.signups_per_day == 5
    data["limits"] = {"signups_per_day": 0}
    with pytest.raises(ConfigError, match="limits.signups_per_day"):
        parse_config(data, tmp_path, None)


def test_with_an_auth_check_only_a_verified_mail_signs_up(table: Table) -> None:
    # [games.auth]: a forged From must not sign its victim up (and have him mailed every turn).
    config = table.app.config
    table.app.config = replace(config, games=tuple(replace(g, auth=AuthCheck("mx.example.org"))
                                                   for g in config.games))
    table.send("zoe@example.org", "join Zoe")
    table.intake()
    assert "Zoe" not in players(table)
    assert "was refused: your mail could not be verified as coming from zoe@example.org" \
        in flat(table.ack("zoe@example.org"))
    table.send("zoe@example.org", "join Zoe", headers={
        "Authentication-Results": "mx.example.org; dmarc=pass header.from=example.org"})
    table.intake()
    assert players(table)["Zoe"] == ("zoe@example.org", True)
