"""Grace at a deadline (per game `grace = "24h"`) and deadlines that wait for an absent player.

When a turn's deadline (in a game of phases, its open phase's) passes with players missing, the turn does not
run at once: the late get a reminder, everyone else is told who is late (names, never addresses, one
undisclosed mail), and the deadline moves to the end of the grace. The turn then runs at that moment, or as
soon as everyone has sent (`complete_in_grace`, read by `maild.turn.due_turns`). A deadline gets one grace; the
safety gate still judges the turn when it runs. The GM's `maild turn run` runs at once, grace or not.

The grace is kept in the database (table `graces`), so any daemon sharing it sees the same deadline.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.absences import announce_moved, excused, moved_deadline
from maild.app import App
from maild.deadlines import format_deadline, format_deadline_for, game_timezone
from maild.games import players_of
from maild.ladder import DISORDER, REMOVED, standings
from maild.models import Game, Grace, Player, Turn
from maild.orderbook import players_without_orders
from maild.outbox import queue_mail, queue_to_many
from maild.phases import open_row
from maild.render import render


def wait_at_deadline(s: Session, app: App, game: Game, turn: Turn) -> str | None:
    """At the passed deadline of `turn` (or of its open phase), with players missing: move the deadline for
    an absent player (the "move_deadline" absence rule) or give the game's grace, once. Returns what was done
    (the turn waits), or None (the turn runs now)."""
    assert turn.deadline is not None
    late = awaited(s, app, game, turn)
    if not late:
        return None
    names = [p.name for p in late]
    row = open_row(s, game.id, turn.number)
    phase = row.name if row is not None else ""
    found = moved_deadline(s, app, game, turn.deadline, names)
    if found is not None and found[0] > turn.deadline:
        moved, away = found
        s.add(Grace(game_id=game.id, turn=turn.number, phase=phase, kind="absence", deadline=turn.deadline,
                    until=moved, late=away))
        _set_deadline(turn, row, moved)
        announce_moved(s, app, game, turn.number, away, moved)
        return f"the deadline waits for an absent player: {moved.isoformat()}"
    gcfg = app.config.game(game.name)
    if gcfg is None or gcfg.grace is None:
        return None
    if s.scalar(select(Grace.id).where(Grace.game_id == game.id, Grace.turn == turn.number,
                                       Grace.phase == phase, Grace.kind == "grace")) is not None:
        return None  # the grace is over
    until = turn.deadline + gcfg.grace
    s.add(Grace(game_id=game.id, turn=turn.number, phase=phase, kind="grace", deadline=turn.deadline, until=until,
                late=names))
    _set_deadline(turn, row, until)
    _tell(s, app, game, turn.number, phase, names, late, until)
    return f"grace until {until.isoformat()} for {', '.join(names)}"


def awaited(s: Session, app: App, game: Game, turn: Turn) -> list[Player]:
    """Who has nothing on file and is waited for: not a position in civil disorder or removed (the ladder),
    nor a player away under the "defaults" absence rule (his position plays on default orders)."""
    gone = {name for name, st in standings(s, game).items() if st.step in (DISORDER, REMOVED)}
    gone |= excused(s, app, game, turn.deadline or app.now())
    return [p for p in players_without_orders(s, game, turn.number) if p.name not in gone]


def _set_deadline(turn: Turn, row: object, when: datetime) -> None:
    turn.deadline = when
    if row is not None:
        row.deadline = when  # type: ignore[attr-defined]


def _tell(s: Session, app: App, game: Game, number: int, phase: str, names: list[str], late: list[Player],
          until: datetime) -> None:
    tz = game_timezone(app.config, game.name)
    deadline = format_deadline(until, tz)
    which = f"the {phase} of turn {number}" if phase else f"turn {number}"
    for player in late:  # a reminder of his own: in his own time zone too (TIMEZONE)
        queue_mail(s, app, key=f"grace:{game.name}:{number}:{phase}:{player.name}", kind="reminder",
                   to=[player.email], game_id=game.id, subject=f"[{game.name}] late for {which}",
                   body=render(game.ruleset, "grace_late.txt.j2", game=game.name, player=player.name,
                               which=which, deadline=format_deadline_for(until, tz, player.timezone)))
    others = [p.email for p in players_of(s, game) if p.name not in names]
    queue_to_many(s, app, key=f"grace-others:{game.name}:{number}:{phase}", kind="reminder", to=others,
                  game_id=game.id, subject=f"[{game.name}] {which} waits for late players",
                  body=render(game.ruleset, "grace_others.txt.j2", game=game.name, which=which, late=names,
                              deadline=deadline))


def complete_in_grace(s: Session, app: App) -> list[tuple[str, int]]:
    """(game, turn) of open turns in their grace whose every late player has sent since: they run now."""
    now = app.now()
    rows = s.execute(select(Game, Turn, Grace.phase).join(Grace, Grace.game_id == Game.id)
                     .join(Turn, (Turn.game_id == Game.id) & (Turn.number == Game.turn))
                     .where(Game.finished.is_(False), Grace.turn == Game.turn, Grace.until > now,
                            Grace.kind == "grace", Turn.status == "open")).all()
    due = []
    for game, turn, phase in rows:
        row = open_row(s, game.id, game.turn)
        if (row.name if row is not None else "") != phase:
            continue  # the grace was of a phase that is over
        if not awaited(s, app, game, turn):
            due.append((game.name, game.turn))
    return due


def grace_lines(s: Session, game: Game) -> list[str]:
    """For `game show` and `game list`: the open turn's grace, if it has one."""
    grace = s.scalar(select(Grace).where(Grace.game_id == game.id, Grace.turn == game.turn, Grace.kind == "grace")
                     .order_by(Grace.id.desc()).limit(1))
    if grace is None:
        return []
    return [f"in grace until {grace.until.isoformat()} (deadline was {grace.deadline.isoformat()}; late: "
            f"{', '.join(grace.late)})"]
