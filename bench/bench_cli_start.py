"""Benchmark (not a test): how long `maild game list` takes from the shell, start to exit.

    .venv/bin/python bench/bench_cli_start.py [--runs 15] [--games 4] [--db URL]

A config with Maildirs and a SQLite database (or, with `--db postgresql+psycopg://...`, a fresh schema on that
PostgreSQL database, dropped afterwards) is written to a temp folder, `maild init` runs and `--games` games are
made (Venice, the Renaissance, the Jungle, in turn, from their shipped examples). Then `maild game list` runs
`--runs` times as a subprocess and the median and least wall and CPU times are printed, beside the floor
every run pays whatever maild does: an interpreter that only imports SQLAlchemy's ORM (`game list` reads the
games through it) and a bare interpreter. The runs write and read compiled bytecode, as an installed maild has
it, even where PYTHONDONTWRITEBYTECODE is set (a checkout's modules would else be compiled at every start).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

RULESETS = ("venice", "renaissance", "jungle")
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def config_text(root: Path, url: str) -> str:
    return (f'[database]\nurl = "{url}"\n\n'
            f'[mail.inbound]\nkind = "maildir"\npath = "{root / "in"}"\n\n'
            f'[mail.outbound]\nkind = "maildir"\npath = "{root / "out"}"\nfrom = "gm@example.org"\n')


def maild(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "maild", "--config", str(config), *args], capture_output=True,
                          text=True, check=True, cwd=config.parent, env=ENV)


def times(command: list[str], runs: int, cwd: Path) -> tuple[list[float], list[float]]:
    """Each run's wall time and CPU time (user + system). The CPU time is what to compare on a machine shared
    with other work: the wall time also counts the waits for a core."""
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True, cwd=cwd, env=ENV)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def line(what: str, command: list[str], runs: int, cwd: Path) -> str:
    wall, cpu = times(command, runs, cwd)
    return (f"{what:<42} median wall {statistics.median(wall):.3f} s (fastest {min(wall):.3f}), "
            f"CPU {statistics.median(cpu):.3f} s (least {min(cpu):.3f})")


@contextlib.contextmanager
def database(root: Path, db: str | None) -> Iterator[str]:
    if db is None:
        yield f"sqlite:///{root / 'maild.db'}"
        return
    from maild.testing import postgres_schema

    with postgres_schema(db, prefix="bench_cli") as url:
        yield url


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--db", default=None, help="PostgreSQL URL (default: SQLite in the temp folder)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, database(Path(tmp), args.db) as url:
        root = Path(tmp)
        config = root / "maild.toml"
        config.write_text(config_text(root, url))
        config.chmod(0o600)
        maild(config, "init")
        for i in range(args.games):
            ruleset = RULESETS[i % len(RULESETS)]
            maild(config, "game", "create", f"{ruleset}{i}", "--ruleset", ruleset)
        listed = maild(config, "game", "list").stdout.splitlines()
        assert len(listed) == args.games, listed
        print(f"database: {'PostgreSQL' if args.db else 'SQLite'}; {args.games} games; {args.runs} runs each")
        print(line("maild game list", [sys.executable, "-m", "maild", "--config", str(config), "game", "list"],
                   args.runs, root))
        print(line("floor: python -c 'import sqlalchemy.orm'", [sys.executable, "-c", "import sqlalchemy.orm"],
                   args.runs, root))
        print(line("floor: python -c pass", [sys.executable, "-c", "pass"], args.runs, root))


if __name__ == "__main__":
    main()
