"""Benchmark (not a test): one `maild run` daemon against two and three on one PostgreSQL database, the same
backlog each time.

    .venv/bin/python bench/bench_daemons.py [--mails 1200] [--games 6] [--players 40] [--daemons 1,2,3]
                                            [--repeat 3] [--db URL]

Each round makes a fresh schema, `maild init`s `--games` Venice games of `--players` players each (the same
players in every game, each game its own address) and drops `--mails` order mails into a Maildir, all arrived
before turn 1's deadline; then it starts K daemons at once (`maild run --now` a minute after the deadline) and
times until every mail is stored, read and answered, every game's turn 1 has run and every printout is sent
(the outbox Maildir). Everything is checked once done (tests/manydaemons.py: each mail once, each turn once).

The counts are run in turn, `--repeat` rounds of each, interleaved (a machine busy with other work weighs on
each alike). Printed per K, medians: wall time to drain (from the start of the daemons, so their start-up, about
a second of CPU each, is in it; and from the moment the first daemon is up), the speed-up against one daemon,
and where the time went: CPU seconds of the daemons together (and each, in the first round), of the PostgreSQL
server's processes (all of them: other work on the machine counts too), and the machine's cores left idle.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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


def one_round(url: str, daemons: int, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, postgres_schema(url, prefix="bench") as schema:
        backlog = Backlog(Path(tmp), schema, games=args.games, mails=args.mails, lease="10s", players=args.players)
        backlog.init()
        pg_before, busy_before = postgres_cpu(), machine_busy()
        started = time.monotonic()
        procs = [backlog.start(f"d{i}") for i in range(daemons)]
        first_up = None
        try:
            while not backlog.drained():
                if any(p.poll() is not None for p in procs):
                    raise SystemExit(f"a daemon ended: {backlog.log('d0')[-2000:]}")
                if first_up is None and backlog.query("SELECT 1 FROM leases WHERE name LIKE 'daemon:%'"):
                    first_up = time.monotonic()
                time.sleep(0.05)
            took = time.monotonic() - started
            cpus = [cpu_of(p.pid) for p in procs]
            pg, busy = postgres_cpu() - pg_before, machine_busy() - busy_before
        finally:
            backlog.kill_all()
        backlog.check_everything_once()
        return {"wall": took, "work": time.monotonic() - (first_up or started) - (time.monotonic() - started - took),
                "daemons_cpu": sum(cpus), "each": cpus, "pg_cpu": pg, "busy": busy}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=1200)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--daemons", default="1,2,3")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--db", default=PG_URL)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    counts = [int(v) for v in args.daemons.split(",")]
    print(f"{args.mails} mails over {args.games} games of {args.players} players; {cores} cores; load average "
          f"{os.getloadavg()[0]:.1f} before")
    runs: dict[int, list[dict[str, Any]]] = {k: [] for k in counts}
    for _ in range(args.repeat):  # rounds interleaved: a machine busy with other work weighs on every count alike
        for k in counts:
            runs[k].append(one_round(args.db, k, args))
    base = statistics.median(r["wall"] for r in runs[counts[0]]) if counts[0] == 1 else float("nan")
    for k in counts:
        wall = statistics.median(r["wall"] for r in runs[k])
        work = statistics.median(r["work"] for r in runs[k])
        cpu = statistics.median(r["daemons_cpu"] for r in runs[k])
        pg = statistics.median(r["pg_cpu"] for r in runs[k])
        idle = statistics.median(cores * r["wall"] - r["busy"] for r in runs[k])
        each = " + ".join(f"{c:.1f}" for c in runs[k][0]["each"])
        walls = ", ".join(f"{r['wall']:.1f}" for r in runs[k])
        print(f"{k} daemon{'s' if k > 1 else ' '}: median {wall:5.1f} s wall ({walls}), x{base / wall:.2f}, "
              f"{args.mails / wall:4.0f} mails/s; from the first daemon up {work:.1f} s; CPU: daemons {cpu:.1f} s "
              f"(first round: {each}), PostgreSQL {pg:.1f} s, cores idle {idle:.1f} s", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} after")

if __name__ == "__main__":
    main()
