"""`maild turn run NAME`: the GM runs the turn he names, or, asked, the one that is open.

Without `--turn` the command shows the open turn (deadline, who has orders on file) and asks on a terminal;
with no terminal to ask it runs nothing and says the line to type. `--yes` runs whatever turn is open. The
turn (and phase) shown or named is passed on to `run_turn`, which refuses it inside the turn's transaction
unless it is still the open one: a second run after a crash, or a daemon that ran it meanwhile, never makes
the command run the next turn.
"""

from __future__ import annotations

import argparse
import sys

from maild.app import App
from maild.cli import UsageError, turn_outcome
from maild.deadlines import format_deadline, game_timezone
from maild.turn import run_turn
from maild.turnplan import TurnPlan, plan


def describe(app: App, p: TurnPlan) -> list[str]:
    """What the GM reads before he confirms: the turn, its phase and deadline, who has orders on file."""
    phase = f", the {p.phase}" if p.phase else ""
    deadline = format_deadline(p.deadline, game_timezone(app.config, p.game))
    lines = [f"{p.game}: turn {p.turn}{phase}, deadline {deadline}",
             f"  orders on file from: {', '.join(p.with_orders) or 'nobody'}",
             f"  no orders from: {', '.join(p.without_orders) or 'nobody'}"]
    if p.held:
        lines.append(f"  HELD by the safety gate: {p.held} (running it overrides the gate)")
    return lines


def command_line(p: TurnPlan) -> str:
    return f"maild turn run {p.game} --turn {p.turn}" + (f" --phase {p.phase}" if p.phase else "")


def confirmed(app: App, p: TurnPlan) -> bool:
    """The GM's y/N on the terminal; anything but yes is no. The question goes to stderr, as prompts do: it must
    reach the terminal even when stdout is piped (`| tee`) or held back until the command ends."""
    for line in describe(app, p):
        print(line, file=sys.stderr)
    sys.stderr.write(f"run turn {p.turn}{f' ({p.phase})' if p.phase else ''} of {p.game} now? [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline()  # "" at the end of input: no
    return answer.strip().lower() in ("y", "yes")


def cmd_turn_run(app: App, args: argparse.Namespace) -> int:
    with app.db.session() as s:
        p = plan(s, args.name)
    if p.finished:
        print(f"{p.game}: the game is over (finished after turn {p.turn}); nothing to run")
        return 0
    number, phase = args.turn, args.phase
    if number is None:
        if not args.yes:
            if not sys.stdin.isatty():  # a script or cron job: nobody to ask, so nothing runs
                for line in describe(app, p):
                    print(line)
                raise UsageError(f"turn run {p.game}: name the turn to run: {command_line(p)} "
                                 "(or --yes for whatever turn is open)")
            if not confirmed(app, p):
                print(f"nothing was run; {command_line(p)} runs it without asking", file=sys.stderr)
                return 1
        # Bound to what was shown (or is open now): a turn the daemon runs meanwhile is not followed by the next.
        number, phase = p.turn, phase or p.phase
    outcome = run_turn(app, p.game, force=True, number=number, phase=phase)
    status = turn_outcome(app, outcome)
    if outcome.status == "phase_done":
        with app.db.session() as s:
            after = plan(s, p.game)
        if not after.finished and after.phase:
            print(f"the {after.phase} of turn {after.turn} is open now: {command_line(after)} runs it")
    return status
