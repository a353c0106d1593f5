"""Benchmark (not a test): one `maild run` daemon against two and three on one PostgreSQL database, the same
backlog each time.

    .venv/bin/python bench/bench_daemons.py [--mails 1200] [--games 6] [--players 40] [--daemons 1,2,3]
                                            [--repeat 1] [--db URL]

Each round makes a fresh schema, `maild init`s `--games` Venice games of `--players` players each (the same
players in every game, each game its own address) and drops `--mails` order mails into a Maildir, all arrived
before turn 1's deadline; then it starts K daemons at once (`maild run --now` a minute after the deadline) and
times until every mail is stored, read and answered, every game's turn 1 has run and every printout is sent
(the outbox Maildir). Everything is checked once done (tests/manydaemons.py: each mail once, each turn once).

Printed per K: wall time to drain (from the start of the daemons, so their start-up is in it), the speed-up
against one daemon, and where the time went: CPU seconds of the daemons together, of the PostgreSQL server's
processes (all of them: other work on the machine counts too), and the machine's cores left idle.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from maild.testing import postgres_schema  # noqa: E402
from tests.conftest import PG_URL  # noqa: E402
from tests.manydaemons import Backlog  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    """CPU seconds a process used so far (user and system)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL server process alive now."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in ("postgres", "postmaster"):
                    total += cpu_of(int(entry.name))
            except (FileNotFoundError, ProcessLookupError, PermissionError):
                pass
    return total


def machine_busy() -> float:
    """CPU seconds the whole machine spent busy so far (all cores)."""
    parts = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = parts[3] + parts[4]
    return (sum(parts[:8]) - idle) / TICK


def one_round(url: str, daemons: int, args: argparse.Namespace) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp, postgres_schema(url, prefix="bench") as schema:
        backlog = Backlog(Path(tmp), schema, games=args.games, mails=args.mails, lease="10s", players=args.players)
        backlog.init()
        pg_before, busy_before = postgres_cpu(), machine_busy()
        started = time.monotonic()
        procs = [backlog.start(f"d{i}") for i in range(daemons)]
        try:
            while not backlog.drained():
                if any(p.poll() is not None for p in procs):
                    raise SystemExit(f"a daemon ended: {backlog.log('d0')[-2000:]}")
                time.sleep(0.1)
            took = time.monotonic() - started
            cpu = sum(cpu_of(p.pid) for p in procs)
            pg, busy = postgres_cpu() - pg_before, machine_busy() - busy_before
        finally:
            backlog.kill_all()
        backlog.check_everything_once()
        return {"wall": took, "daemons_cpu": cpu, "pg_cpu": pg, "busy": busy}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=1200)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--daemons", default="1,2,3")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--db", default=PG_URL)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"{args.mails} mails over {args.games} games of {args.players} players; {cores} cores")
    base = None
    for k in (int(v) for v in args.daemons.split(",")):
        runs = [one_round(args.db, k, args) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r["wall"])
        base = base or best["wall"] * (1 if k == 1 else float("nan"))
        idle = cores * best["wall"] - best["busy"]
        walls = ", ".join(f"{r['wall']:.1f}" for r in runs)
        print(f"{k} daemon{'s' if k > 1 else ' '}: {best['wall']:6.1f} s wall (best of {len(runs)}: {walls}), "
              f"x{base / best['wall']:.2f}; "
              f"{args.mails / best['wall']:5.0f} mails/s; CPU: daemons {best['daemons_cpu']:.1f} s, "
              f"PostgreSQL {best['pg_cpu']:.1f} s, cores idle {idle:.1f} s of {cores * best['wall']:.1f}",
              flush=True)


if __name__ == "__main__":
    main()
