"""The command line starts fast: `maild --help`, `--version` and `orders check` import no database layer,
template engine, mail transport or scheduler (they cost most of a start), `game list` no migration tool,
template engine or game, and the order grammar's built parser is kept in the user's own cache folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from maild.parsing import parser_cache

HEAVY = ("sqlalchemy", "alembic", "jinja2", "aioimaplib", "aiosmtplib", "apscheduler")

# Runs the CLI in a fresh interpreter and prints which of the heavy packages it imported.
PROBE = """
import json, sys
watched, sys.argv = sys.argv[1], sys.argv[1:]
from maild.cli import main
try:
    status = main(sys.argv[1:])
except SystemExit as exc:
    status = exc.code
watched = (*watched.split(","), "lark")
print(json.dumps({"status": status, "loaded": sorted(m for m in watched if m in sys.modules)}))
"""


def probe(tmp_path: Path, *args: str) -> dict:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", PROBE, ",".join(HEAVY), *args], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=60)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["orders", "--help"]])
def test_help_and_version_import_nothing_heavy(tmp_path: Path, args: list[str]) -> None:
    result = probe(tmp_path, *args)
    assert result == {"status": 0, "loaded": []}


def test_orders_check_imports_only_the_parser(tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("borrow 100$\nbid 20$ for 1 of silk tax\n")
    result = probe(tmp_path, "orders", "check", "--ruleset", "venice", str(orders))
    assert result == {"status": 0, "loaded": ["lark"]}
    orders.write_text("bid lots\n")
    assert probe(tmp_path, "orders", "check", "--ruleset", "venice", str(orders))["status"] == 1


def test_orders_check_names_an_unknown_ruleset(tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("bid 20$ for 1 of silk tax\n")
    done = subprocess.run([sys.executable, "-m", "maild", "orders", "check", "--ruleset", "chess", str(orders)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == "maild: unknown ruleset 'chess'"


def test_the_built_parser_is_cached_in_the_users_cache_folder(tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("bid 20$ for 1 of silk tax\n")
    probe(tmp_path, "orders", "check", "--ruleset", "venice", str(orders))
    folder = tmp_path / "cache" / "maild"
    cached = [p.name for p in folder.iterdir()]
    assert len(cached) == 1 and cached[0].startswith("venice-start-lark")
    assert folder.stat().st_mode & 0o777 == 0o700
    # A second start reads it (and gives the same answer).
    assert probe(tmp_path, "orders", "check", "--ruleset", "venice", str(orders))["status"] == 0


def test_a_cache_folder_others_may_write_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What is in the folder gets unpickled: one that another user could write to is a way in.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "maild").mkdir(mode=0o700)
    assert parser_cache("venice-start") is not None
    os.chmod(tmp_path / "maild", 0o777)
    assert parser_cache("venice-start") is None


def test_game_list_imports_no_migration_tool_template_engine_or_game(tmp_path: Path) -> None:
    # The schema's version is read with one query (maild/schema_version.py), not by Alembic; the games' rules,
    # Jinja and the calendar and bounce readers are for commands that run turns, write mail or read bounces.
    # A config naming no game: each game a config names has its rules loaded to check its schedule.
    (tmp_path / "maild.toml").write_text('[database]\nurl = "sqlite:///maild.db"\n[mail.inbound]\nkind = "maildir"\n'
                                         'path = "in"\n[mail.outbound]\nkind = "maildir"\npath = "out"\n')
    (tmp_path / "maild.toml").chmod(0o600)
    now = ("--now", "2027-03-01T12:00")
    assert subprocess.run([sys.executable, "-m", "maild", *now, "init"], cwd=tmp_path, capture_output=True,
                          timeout=120).returncode == 0
    assert subprocess.run([sys.executable, "-m", "maild", *now, "game", "create", "ren", "--ruleset", "renaissance"],
                          cwd=tmp_path, capture_output=True, timeout=120).returncode == 0
    watched = ("alembic", "jinja2", "icalendar", "flufl.bounce", "maild_rules.renaissance", "maild_rules.venice")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", PROBE, ",".join(watched), *now, "game", "list"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=60)
    *listed, result = done.stdout.strip().splitlines()
    assert json.loads(result) == {"status": 0, "loaded": []}
    assert [row.split()[0] for row in listed] == ["ren"]  # it did read the database
