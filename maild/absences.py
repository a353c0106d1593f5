"""Declared absences: `ABSENT 2027-03-01 TO 2027-03-14` by mail, and `BACK` (both days included).

What an absence does is the game's rule ([games.absence] rule): "move_deadline" (a small game waits: a
deadline that passes with an absent player missing moves to the day after his absence ends, same time of day,
and everyone is told) or "defaults" (a large game goes on: his position plays on default orders and the turns
he misses do not count on the missed-orders ladder). A player may declare at most `max_days` days of absence
in a game (a game is a season); an absence is announced as `announce` says ("players": every player is told
who is away and until when, never an address; "gm": the GM only; "none").
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.config import AbsenceRule
from maild.deadlines import format_deadline, game_timezone
from maild.games import players_of
from maild.models import Absence, Game, Player
from maild.outbox import notify_gm, queue_to_many

ABSENT = re.compile(r"^\s*ABSENT\s+(\d{4}-\d{2}-\d{2})\s+(?:TO|-)\s+(\d{4}-\d{2}-\d{2})\s*$", re.IGNORECASE)
BACK = re.compile(r"^\s*BACK[.!]?\s*$", re.IGNORECASE)
# An absence may be declared this far ahead at most: a typo of a year must not block a season.
FURTHEST_AHEAD = timedelta(days=366)


def take_lines(s: Session, app: App, game: Game, player: Player, text: str) -> tuple[str | None, str]:
    """A player's mail's ABSENT and BACK lines carried out: what the ack says of them (None if there were
    none), and the text with those lines left blank (so the orders' line numbers stay the mail's)."""
    said = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        found = ABSENT.match(line)
        if found is not None:
            try:
                starts, ends = date.fromisoformat(found.group(1)), date.fromisoformat(found.group(2))
            except ValueError:
                said.append(f"{line.strip()}: not a date (write ABSENT 2027-03-01 TO 2027-03-14)")
            else:
                said.append(declare(s, app, game, player, starts, ends))
            lines[i] = ""
        elif BACK.match(line):
            said.append(come_back(s, app, game, player))
            lines[i] = ""
    return ("; ".join(said) if said else None), "\n".join(lines)


def rule_of(app: App, game: Game) -> AbsenceRule:
    gcfg = app.config.game(game.name)
    return gcfg.absence if gcfg is not None else AbsenceRule()


def absences_of(s: Session, game: Game, player: Player | None = None) -> list[tuple[str, Absence]]:
    q = (select(Player.name, Absence).join(Player, Player.id == Absence.player_id)
         .where(Absence.game_id == game.id).order_by(Absence.starts))
    if player is not None:
        q = q.where(Absence.player_id == player.id)
    return [(name, a) for name, a in s.execute(q).all()]


def days_of(a: Absence) -> int:
    return max(0, (a.ends - a.starts).days + 1)


def absent_on(s: Session, game: Game, day: date) -> dict[str, Absence]:
    """Who is away on `day`, with his absence."""
    return {name: a for name, a in absences_of(s, game) if a.starts <= day <= a.ends}


def local_day(app: App, game: Game, when: datetime) -> date:
    return when.astimezone(game_timezone(app.config, game.name)).date()


def declare(s: Session, app: App, game: Game, player: Player, starts: date, ends: date) -> str:
    """Record `player`'s absence if the game's cap allows it and announce it; what the ack says."""
    rule = rule_of(app, game)
    today = local_day(app, game, app.now())
    if ends < starts:
        return f"not recorded: the absence ends ({ends}) before it starts ({starts})"
    if ends < today:
        return f"not recorded: the absence ended before today ({today})"
    if starts > today + FURTHEST_AHEAD:
        return f"not recorded: an absence may start at most {FURTHEST_AHEAD.days} days ahead"
    starts = max(starts, today)
    mine = absences_of(s, game, player)
    if any(a.starts <= starts and ends <= a.ends for _name, a in mine):  # a mail read again, or sent twice
        return f"your absence from {starts} to {ends} is on record already"
    taken = sum(days_of(a) for _name, a in mine)
    asked = (ends - starts).days + 1
    if taken + asked > rule.max_days:
        return (f"not recorded: {game.name} allows {rule.max_days} days of absence a player in the game; you "
                f"have declared {taken}, and this absence is {asked}")
    s.add(Absence(game_id=game.id, player_id=player.id, starts=starts, ends=ends, declared_at=app.now()))
    _announce(s, app, game, player, f"{player.name} is away from {starts} to {ends}", f"absent:{starts}")
    what = ("deadlines that fall in it wait for you" if rule.rule == "move_deadline" else
            "your position plays on default orders, and the turns you miss do not count against you")
    return (f"absence recorded, {starts} to {ends} ({asked} days; {taken + asked} of the {rule.max_days} the "
            f"game allows): {what}. Mail BACK to end it early.")


def come_back(s: Session, app: App, game: Game, player: Player) -> str:
    """BACK: the player's absence going on (or to come) ends yesterday; the days not taken are his again."""
    today = local_day(app, game, app.now())
    ended = []
    for _name, a in absences_of(s, game, player):
        if a.ends >= today:
            if a.starts >= today:
                s.delete(a)
            else:
                a.ends = today - timedelta(days=1)
            ended.append(a)
    if not ended:
        return "you had no absence declared from today on"
    _announce(s, app, game, player, f"{player.name} is back", f"back:{today}")
    return "welcome back: your absence is over"


def _announce(s: Session, app: App, game: Game, player: Player, line: str, key: str) -> None:
    rule = rule_of(app, game)
    if rule.announce == "none":
        return
    if rule.announce == "gm":
        notify_gm(s, app, f"absence:{game.name}:{player.name}:{key}", f"{game.name}: {line}", line + "\n",
                  game.id)
        return
    others = [p.email for p in players_of(s, game) if p.id != player.id]
    queue_to_many(s, app, key=f"absence:{game.name}:{player.name}:{key}", kind="reminder", to=others,
                  game_id=game.id, subject=f"[{game.name}] {line}", body=f"{line}.\n")


def excused(s: Session, app: App, game: Game, when: datetime) -> set[str]:
    """Players away at `when` under the "defaults" rule: on default orders, not counted on the ladder."""
    if rule_of(app, game).rule != "defaults":
        return set()
    return set(absent_on(s, game, local_day(app, game, when)))


def moved_deadline(s: Session, app: App, game: Game, deadline: datetime, missing: list[str]
                   ) -> tuple[datetime, list[str]] | None:
    """Under the "move_deadline" rule: the deadline a passed `deadline` moves to because missing players are
    away on its day (the day after the longest such absence ends, at the same time of day), and who they are;
    None if it stays."""
    if rule_of(app, game).rule != "move_deadline":
        return None
    tz = game_timezone(app.config, game.name)
    away = {name: a for name, a in absent_on(s, game, local_day(app, game, deadline)).items() if name in missing}
    if not away:
        return None
    local = deadline.astimezone(tz)
    day = max(a.ends for a in away.values()) + timedelta(days=1)
    moved = datetime.combine(day, time(local.hour, local.minute), tzinfo=tz).astimezone(deadline.tzinfo)
    return moved, sorted(away)


def announce_moved(s: Session, app: App, game: Game, turn: int, away: list[str], to: datetime) -> None:
    text = format_deadline(to, game_timezone(app.config, game.name))
    players = players_of(s, game)
    line = f"the deadline of turn {turn} moves to {text}: {', '.join(away)} {'is' if len(away) == 1 else 'are'} away"
    queue_to_many(s, app, key=f"absence-moved:{game.name}:{turn}:{to.isoformat()}", kind="reminder",
                  to=[p.email for p in players], game_id=game.id, subject=f"[{game.name}] deadline moved",
                  body=line + ".\n")


def absence_lines(s: Session, app: App, game: Game) -> list[str]:
    """For `game show`: every absence declared, and the days each player has used."""
    rule = rule_of(app, game)
    rows = absences_of(s, game)
    if not rows:
        return []
    used: dict[str, int] = {}
    for name, a in rows:
        used[name] = used.get(name, 0) + days_of(a)
    return [f"absences ({rule.rule}, at most {rule.max_days} days each): "
            + ", ".join(f"{name} {a.starts} to {a.ends}" for name, a in rows),
            "absent days used: " + ", ".join(f"{n} {d}" for n, d in sorted(used.items()))]
