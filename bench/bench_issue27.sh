#!/usr/bin/env bash
# Issue 27's benchmarks one after another (docs/performance.md, "Issue 27 at a glance"); run it on a quiet
# machine: .venv/bin/... from the checkout, PostgreSQL at $MAILD_BENCH_PG (default: the tests' database).
set -u
cd "$(dirname "$0")/.."
PG=${MAILD_BENCH_PG:-postgresql+psycopg://postgres@127.0.0.1:5432/test}
PY=.venv/bin/python
echo "## $(date -u) load: $(cat /proc/loadavg)"
echo "### bench_pass sqlite 0";          $PY bench/bench_pass.py --mails 2000
echo "### bench_pass pg 0";              $PY bench/bench_pass.py --mails 2000 --db "$PG"
echo "### bench_pass sqlite 50000 open"; $PY bench/bench_pass.py --mails 2000 --stored 50000
echo "### bench_pass pg 50000 open";     $PY bench/bench_pass.py --mails 2000 --stored 50000 --db "$PG"
echo "### bench_pass sqlite 50000/50";   $PY bench/bench_pass.py --mails 2000 --stored 50000 --stored-turns 50
echo "### bench_pass pg 50000/50";       $PY bench/bench_pass.py --mails 2000 --stored 50000 --stored-turns 50 --db "$PG"
for h in 500 1000 2000; do
  echo "### jungle $h"; $PY bench/jungle_session.py --houses "$h" --characters $((h * 4))
done
echo "### cli start sqlite"; $PY bench/bench_cli_start.py --runs 15
echo "### cli start pg";     $PY bench/bench_cli_start.py --runs 15 --db "$PG"
echo "### daemons 3000";     $PY bench/bench_daemons.py --mails 3000 --repeat 2 --db "$PG"
echo "## done $(date -u)"
