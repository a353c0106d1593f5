"""The command line of docs/design.md: every command, its output and its exit status."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from maild.cli import main
from tests.conftest import write_gm_config


@pytest.fixture
def gm(tmp_path: Path) -> Path:
    return write_gm_config(tmp_path, outbox="out")


# The instant a command runs at unless the test gives its own `--now` (given later, it wins): the morning of
# turn 1 of write_gm_config's week, whatever today's date.
NOW = "2026-11-22T09:00+01:00"


def maild(config: Path, *args: str) -> int:
    return main(["--config", str(config), "--now", NOW, *args])


def eml(tmp: Path, name: str, sender: str, body: str) -> Path:
    path = tmp / name
    path.write_text(f"From: {sender}\nTo: gm@example.org\nSubject: bids\nMessage-ID: <{name}@x>\n\n{body}\n")
    return path


def test_init_creates_the_config_games(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert maild(gm, "init") == 0
    assert "created game venice1" in capsys.readouterr().out
    assert maild(gm, "init") == 0  # again: an upgrade that has nothing to do
    assert "created game" not in capsys.readouterr().out


def test_game_list_and_json_export(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert maild(gm, "--now", "2026-11-22T09:00+01:00", "init") == 0
    capsys.readouterr()
    a = eml(gm.parent, "a.eml", "alice@example.org", "bid 5$ for 1 of silk tax")
    assert maild(gm, "--now", "2026-11-22T09:00+01:00", "mail", "ingest", str(a)) == 0
    assert "mail 1: orders" in capsys.readouterr().out
    assert maild(gm, "game", "list") == 0
    line = capsys.readouterr().out
    assert "venice1  venice  turn 1  deadline 2026-11-22T17:15+01:00 Europe/Rome  no orders from: bob, carol" in line
    assert maild(gm, "game", "show", "venice1", "--json") == 0
    export = json.loads(capsys.readouterr().out)
    assert {"game", "ruleset", "turn", "deadline", "players", "state"} <= set(export)
    assert export["game"] == "venice1" and export["ruleset"] == "venice" and export["turn"] == 1
    assert export["deadline"] == "2026-11-22T16:15:00+00:00"
    assert set(export["players"]) == {"alice", "bob", "carol"}
    for figures in export["players"].values():
        assert {"money", "borrowed", "interest_due", "holdings"} <= set(figures)
    assert export["players"]["alice"]["orders_on_file"] is True


def test_turn_run_then_rerun_gives_the_same_result(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    maild(gm, "--now", "2026-11-22T09:00+01:00", "init")
    a = eml(gm.parent, "a.eml", "alice@example.org", "borrow 50$\nbid 5$ for 1 of silk tax")
    maild(gm, "--now", "2026-11-22T09:00+01:00", "mail", "ingest", str(a))
    capsys.readouterr()
    assert maild(gm, "turn", "run", "venice1", "--turn", "1", "--now", "2026-11-22T10:00+01:00") == 0
    assert "venice1 turn 1: done" in capsys.readouterr().out
    assert maild(gm, "turn", "rerun", "venice1", "1") == 0
    assert "venice1 turn 1: same result as before" in capsys.readouterr().out
    assert maild(gm, "game", "show", "venice1", "--json") == 0
    export = json.loads(capsys.readouterr().out)
    assert export["turn"] == 2 and export["players"]["alice"]["money"] == 45  # 50 − 5
    # `state` lists each finished auction's results: alice's bid won the one silk tax she asked for.
    [held] = export["state"]["auctions_held"]
    assert held["turn"] == 1
    assert [(b["player"], b["item"], b["outcome"], b["paid"]) for b in held["bids"]] == [
        ("alice", "silk tax", "won", 5)]
    assert maild(gm, "turn", "rerun", "venice1", "2") == 2  # not processed yet
    assert "turn 2 has not been processed" in capsys.readouterr().err


def test_orders_check_prints_file_line_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.txt"
    good.write_text("borrow 100$\nbid 30$ for 2 of silk tax\n")
    assert main(["orders", "check", "--ruleset", "venice", str(good)]) == 0
    assert capsys.readouterr().out == ""
    bad = tmp_path / "bad.txt"
    bad.write_text("borrow 100$\nbid thirty for silk tax\n\nbid 30$ for 2 of silk tax\nsell everything\n")
    assert main(["orders", "check", "--ruleset", "venice", str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0] for line in lines] == [f"{bad}:2", f"{bad}:5"]


def test_orders_check_against_a_game(gm: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    maild(gm, "init")
    orders = tmp_path / "o.txt"
    orders.write_text("bid 30$ for 3 of silk tax\nbid 10$ for 1 of opera\n")
    # Syntax is fine; against the game, 3 silk tax are more than the 2 offered and opera is not on sale.
    assert main(["orders", "check", "--ruleset", "venice", str(orders)]) == 0
    capsys.readouterr()
    assert maild(gm, "orders", "check", "--ruleset", "venice", "--game", "venice1", str(orders)) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0] for line in out] == [f"{orders}:1", f"{orders}:2"]


@pytest.mark.parametrize("args, reason", [
    (["orders", "check", "--ruleset", "chess", "x.txt"], "unknown ruleset 'chess'"),
    (["orders", "check", "--ruleset", "venice", "/nonexistent/x.txt"], "/nonexistent/x.txt"),
    (["game", "show", "nosuchgame"], "no game named 'nosuchgame'"),
    (["--now", "yesterday", "game", "list"], "--now"),
    (["game", "create", "g2", "--ruleset", "venice", "--setup", "/nonexistent.toml"], "no such setup file"),
])
def test_bad_input_exits_2_with_one_line(gm: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                         reason: str) -> None:
    assert maild(gm, *args) == 2
    err = capsys.readouterr().err
    assert reason in err and err.count("\n") == 1


def test_bad_usage_exits_2(gm: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        maild(gm, "frobnicate")
    assert exc.value.code == 2


def test_game_create_without_config_entry_has_no_deadline(gm: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert maild(gm, "game", "create", "side", "--ruleset", "venice", "--setup", str(gm.parent / "setup.toml")) == 0
    assert "created game side (venice), 3 players" in capsys.readouterr().out
    assert maild(gm, "game", "show", "side", "--json") == 0
    assert json.loads(capsys.readouterr().out)["deadline"] is None
    assert maild(gm, "game", "create", "side", "--ruleset", "venice", "--setup", str(gm.parent / "setup.toml")) == 2


def test_python_dash_m_and_global_options_before_the_command(gm: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "maild", "--config", str(gm), "--now", "2027-03-01T17:16",
                           "run", "--once"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_gm_orders_are_refused_by_a_game_that_takes_none(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert maild(gm, "init") == 0
    capsys.readouterr()
    assert maild(gm, "gm", "pay", "venice1", "alice", "10") == 2
    assert "takes no pay from the GM" in capsys.readouterr().err
    assert maild(gm, "gm", "bulletin", "nogame", "hello") == 2


def test_replies_list_shows_the_answers_held_back(gm: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    files = [eml(tmp_path, f"s{i}.eml", "dave@example.com", "HELP") for i in range(3)]
    files.append(eml(tmp_path, "a.eml", "alice@example.org", "borrow 10$"))
    assert maild(gm, "--now", "2026-11-22T09:00+01:00", "mail", "ingest", *map(str, files)) == 0
    capsys.readouterr()
    assert maild(gm, "replies", "list") == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and all("suppressed  stranger  to dave@example.com" in line for line in out)
    assert "a stranger gets one answer a day" in out[0]
    assert maild(gm, "replies", "list", "--all") == 0
    assert len(capsys.readouterr().out.splitlines()) == 4  # with the stranger's one answer and alice's ack
    assert maild(gm, "mail", "list") == 0
    listed = capsys.readouterr().out
    assert listed.count("not answered: a stranger gets one answer a day") == 2 and "alice" not in listed


def test_orders_check_reads_a_file_as_the_daemon_reads_a_mail(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    # Bullets, bold and a sign-off change nothing; a real mistake is still named with its line in the file.
    orders = tmp_path / "orders.txt"
    orders.write_text("Dear GM,\n\n• **bid 5$ for 1 of silk tax**\n• borrow 50$\n• bid five for silk\n\n"
                      "Thanks!\nAnna\n")
    assert main(["orders", "check", "--ruleset", "venice", str(orders)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith(f"{orders}:5: expected an amount of dollars after 'bid'")
    orders.write_text("Dear GM,\n\n• **bid 5$ for 1 of silk tax**\n• borrow 50$\n\nThanks!\nAnna\n")
    assert main(["orders", "check", "--ruleset", "venice", str(orders)]) == 0
    assert capsys.readouterr().out == ""


def test_rerun_names_the_later_turns_and_stores_only_with_yes(gm: Path, capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    from sqlalchemy import select

    from maild.config import load_config
    from maild.db import Database
    from maild.models import OrderSetRow

    maild(gm, "--now", "2026-11-22T09:00+01:00", "init")
    a = eml(gm.parent, "a.eml", "alice@example.org", "borrow 50$\nbid 5$ for 1 of silk tax")
    maild(gm, "--now", "2026-11-22T09:00+01:00", "mail", "ingest", str(a))
    assert maild(gm, "turn", "run", "venice1", "--turn", "1", "--now", "2026-11-22T10:00+01:00") == 0
    assert maild(gm, "turn", "run", "venice1", "--turn", "2", "--now", "2026-11-22T11:00+01:00") == 0
    capsys.readouterr()
    # The GM corrects alice's turn-1 order set: she meant to borrow 80$.
    db = Database(load_config(gm).database_url)
    with db.session() as s:
        row = s.scalars(select(OrderSetRow)).one()
        row.orders = [{**o, "args": {**o["args"], "amount": 80}} if o["kind"] == "borrow" else o
                      for o in row.orders]
    db.close()
    assert maild(gm, "turn", "rerun", "venice1", "1") == 2
    out, err = capsys.readouterr()
    assert "turn 1 and the turns processed after it (2) are recomputed" in out
    assert "venice1 turn 1: result changed" in out and "venice1 turn 2: result changed" in out
    assert "nothing was stored" in err and "maild turn rerun venice1 1 --yes" in err
    maild(gm, "game", "show", "venice1", "--json")
    assert json.loads(capsys.readouterr().out)["players"]["alice"]["money"] == 45  # unchanged: 50 − 5
    assert maild(gm, "turn", "rerun", "venice1", "1", "--yes") == 0
    capsys.readouterr()
    maild(gm, "game", "show", "venice1", "--json")
    assert json.loads(capsys.readouterr().out)["players"]["alice"]["money"] == 75  # 80 − 5


def test_game_show_reads_as_lines_not_python(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    maild(gm, "--now", "2026-11-22T09:00+01:00", "init")
    a = eml(gm.parent, "a.eml", "alice@example.org", "borrow 50$\nbid 5$ for 1 of silk tax")
    maild(gm, "--now", "2026-11-22T09:00+01:00", "mail", "ingest", str(a))
    capsys.readouterr()
    assert maild(gm, "game", "show", "venice1") == 0
    out = capsys.readouterr().out
    assert out.startswith("venice1 (venice)\nturn 1 of 7, orders due Sunday 22 November 2026, 17:15 CET"
                          " (Europe/Rome)\nno orders yet from: bob, carol\n")
    assert "  alice <alice@example.org>\n    money: 0\n" in out
    assert "{" not in out and "[" not in out and "=" not in out  # no Python dicts, lists or key=value
    for n in range(1, 8):
        maild(gm, "turn", "run", "venice1", "--turn", str(n), "--now", "2026-11-30T10:00+01:00")
    capsys.readouterr()
    assert maild(gm, "game", "show", "venice1") == 0
    assert "venice1 (venice)\nfinished after turn 7\n" in capsys.readouterr().out


def test_a_failing_turn_mails_the_gm_the_reason_and_the_fix(gm: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import email
    from email.policy import default

    from maild_rules.venice import RULESET

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the auction house burned down")

    maild(gm, "--now", "2026-11-22T09:00+01:00", "init")
    monkeypatch.setattr(RULESET, "resolve", broken)
    capsys.readouterr()
    # A failure is no bad usage: exit 1 (the GM was mailed the reason).
    assert maild(gm, "turn", "run", "venice1", "--turn", "1", "--now", "2026-11-22T10:00+01:00") == 1
    out, err = capsys.readouterr()
    assert "venice1 turn 1: failed RuntimeError: the auction house burned down" in out
    assert "gm@example.org was mailed the reason" in err
    assert maild(gm, "turn", "run", "venice1", "--turn", "1", "--now", "2026-11-22T10:05+01:00") == 1  # again
    maild(gm, "--now", "2026-11-22T10:06+01:00", "run", "--once")  # sends the outbox (the turn fails again)
    mails = [email.message_from_bytes(p.read_bytes(), policy=default)
             for p in (gm.parent / "out" / "new").iterdir()]
    notices = [m for m in mails if "turn 1 failed" in str(m["Subject"])]
    assert len(notices) == 1  # once per reason, not once per try
    body = notices[0].get_content()
    assert "Reason: RuntimeError: the auction house burned down" in body
    assert "maild turn run venice1 --turn 1" in body and "No GM order is pending" in body
    assert "Where:  tests/test_cli.py:" in body and "in broken" in body  # the innermost frame
    monkeypatch.undo()
    assert maild(gm, "game", "list") == 0
    assert "turn 1" in capsys.readouterr().out
    assert maild(gm, "turn", "run", "venice1", "--turn", "1", "--now", "2026-11-22T10:10+01:00") == 0


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
             ) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _parsers(sub, (*path, name))
    return found


def test_every_command_help_ends_with_an_example() -> None:
    from maild.cli import build_parser

    for path, parser in _parsers(build_parser()):
        if path[:1] == ("gm",):
            continue  # the GM's orders come from the rulesets, with their own help: read below
        text = parser.format_help()
        assert "example" in text, f"maild {' '.join(path)} --help has no example"
        assert "\n  maild " in text.split("\nexample")[-1], f"maild {' '.join(path)}: the example is no command"


@pytest.mark.parametrize("argv", [["gm", "--help"], ["gm", "list", "--help"], ["gm", "withdraw", "--help"],
                                  ["gm", "pay", "--help"], ["gm", "amend", "--help"]])
def test_the_gm_orders_help_ends_with_an_example(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        main(argv)
    except SystemExit:
        pass
    text = capsys.readouterr().out
    assert "example" in text and "\n  maild gm " in text.split("example")[-1] or "example: maild gm " in text, text
