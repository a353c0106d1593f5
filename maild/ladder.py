"""The missed-orders ladder ([games.missed]): what befalls a player who misses turns in a row.

After each turn a player missed, a warning; once he has missed `defaults_after` in a row his position plays on
the ruleset's default orders (`Ruleset.default_orders`) whenever he is silent; after `disorder_after`, civil
disorder (the position stays, run by defaults, and is open to a substitute: `open_to_substitute`); after
`remove_after`, removal where the ruleset allows it (`Ruleset.removes_silent_players`; else he stays in civil
disorder). Orders on file for a turn bring him back into play. A turn he misses during a declared absence under
the "defaults" rule does not count (maild/absences.py).

A step is reached when the turn that counted the miss runs; it applies from the next turn on. The standing is
kept in the database (table `standings`), so any daemon sharing it runs the same ladder.

The ladder's mails (one per player a turn, keyed so that no turn mails twice) are not answers to a player's
mail, so the reply limits' per-address caps do not apply; like reminders they are bounded by the turns
themselves: at most one per player per turn.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.config import MissedLadder
from maild.games import players_of, ruleset_named
from maild.models import Game, OrderSetRow, Player, Standing
from maild.outbox import notify_gm, queue_mail
from maild.render import render
from maild.ruleset import PlacedOrder, Ruleset

IN_PLAY, WARNED, DEFAULTS, DISORDER, REMOVED = "", "warned", "defaults", "disorder", "removed"
STEPS = (IN_PLAY, WARNED, DEFAULTS, DISORDER, REMOVED)
# The steps on which a silent position plays on default orders.
ON_DEFAULTS = frozenset({DEFAULTS, DISORDER})


def step_for(missed: int, ladder: MissedLadder, removes: bool) -> str:
    """The step `missed` turns in a row bring a player to."""
    if missed <= 0:
        return IN_PLAY
    if removes and ladder.remove_after and missed >= ladder.remove_after:
        return REMOVED
    if ladder.disorder_after and missed >= ladder.disorder_after:
        return DISORDER
    if ladder.defaults_after and missed >= ladder.defaults_after:
        return DEFAULTS
    return WARNED


class NextStep(NamedTuple):
    step: str
    after: int  # more missed turns before he gets there


def next_step(missed: int, ladder: MissedLadder, removes: bool) -> NextStep | None:
    """The next step up from `missed` turns in a row, and how many more missed turns reach it; None at the top."""
    now = step_for(missed, ladder, removes)
    for more in range(1, max(ladder.defaults_after, ladder.disorder_after, ladder.remove_after, 1) + 1):
        step = step_for(missed + more, ladder, removes)
        if step != now:
            return NextStep(step, more)
    return None


def standings(s: Session, game: Game) -> dict[str, Standing]:
    """Each player's standing by name (only those with a row: who has missed turns)."""
    rows = s.execute(select(Player.name, Standing).join(Standing, Standing.player_id == Player.id)
                     .where(Standing.game_id == game.id)).all()
    return {name: st for name, st in rows}


def on_defaults(s: Session, game: Game) -> set[str]:
    """The players whose positions play on default orders when they are silent."""
    return {name for name, st in standings(s, game).items() if st.step in ON_DEFAULTS}


def open_to_substitute(s: Session, game: Game, player: str) -> bool:
    """Whether `player`'s position is open to a substitute (civil disorder reached on the ladder): what the
    substitutes' TAKEOVER and `maild player replace` read."""
    st = standings(s, game).get(player)
    return st is not None and st.open_to_substitute


def positions_open(s: Session, game: Game) -> list[str]:
    """The players whose positions are open to a substitute, by name."""
    return sorted(name for name, st in standings(s, game).items() if st.open_to_substitute)


def taken_over(s: Session, game: Game, player: str) -> None:
    """A substitute took `player`'s position: he starts on the ladder afresh."""
    st = standings(s, game).get(player)
    if st is not None:
        st.missed, st.step, st.open_to_substitute = 0, IN_PLAY, False


def last_orders(s: Session, ruleset: Ruleset, game: Game, turn: int, player: str) -> list[PlacedOrder]:
    """`player`'s orders in force the last turn before `turn` he had any (none if he never had)."""
    from maild.orderbook import accepted_sets

    last = s.scalar(select(OrderSetRow.turn).join(Player, Player.id == OrderSetRow.player_id)
                    .where(OrderSetRow.game_id == game.id, Player.name == player, OrderSetRow.turn < turn,
                           OrderSetRow.status == "accepted", OrderSetRow.phase.is_(None))
                    .order_by(OrderSetRow.turn.desc()).limit(1))
    if last is None:
        return []
    sets = accepted_sets(s, game, last).get(player, [])
    return ruleset.effective(sets) if sets else []


def place_defaults(s: Session, ruleset: Ruleset, game: Game, turn: int, state: dict[str, object],
                   orders: dict[str, list[PlacedOrder]], names: list[str]) -> None:
    """Give the silent positions `names` the ruleset's default orders for the turn, in `orders`."""
    for name in names:
        if not orders.get(name):
            orders[name] = ruleset.default_orders(state, turn, name, last_orders(s, ruleset, game, turn, name))


def climb(s: Session, app: App, game: Game, ruleset: Ruleset, turn: int, missing: list[str],
          excused: set[str]) -> None:
    """After turn `turn` ran: each player who missed it (and is not `excused`, absent under the "defaults"
    rule) climbs a step and is told so by mail; one who sent orders is back in play."""
    gcfg = app.config.game(game.name)
    ladder = gcfg.missed if gcfg is not None else None
    if ladder is None:
        return
    known = standings(s, game)
    silent = set(missing)
    for player in players_of(s, game):
        st = known.get(player.name)
        if player.name not in silent:
            if st is not None and st.step != REMOVED:
                st.missed, st.step, st.open_to_substitute = 0, IN_PLAY, False
            continue
        if player.name in excused or (st is not None and st.step == REMOVED):
            continue
        if st is None:
            st = Standing(game_id=game.id, player_id=player.id, missed=0, step=IN_PLAY, open_to_substitute=False)
            s.add(st)
        st.missed += 1
        step = step_for(st.missed, ladder, ruleset.removes_silent_players)
        if step != st.step:
            st.step_turn = turn
            if step in (DISORDER, REMOVED):
                notify_gm(s, app, f"ladder:{game.name}:{turn}:{player.name}",
                          f"{game.name}: {player.name} {_SHORT[step]}",
                          f"{player.name} has missed {st.missed} turns in a row (the last, turn {turn}): "
                          f"{_STEP_WORDS[step]}.\n" + ("`maild game show` lists the positions open to a "
                                                       "substitute.\n" if step == DISORDER else ""), game.id)
        st.step = step
        st.open_to_substitute = step == DISORDER
        if step == DISORDER and player.open_to_substitute_at is None:
            # The one "open to a substitute" state a volunteer's TAKEOVER reads (maild/substitutes.py).
            player.open_to_substitute_at = app.now()
        following = next_step(st.missed, ladder, ruleset.removes_silent_players)
        queue_mail(s, app, key=f"missed:{game.name}:{turn}:{player.name}", kind="reminder", to=[player.email],
                   game_id=game.id, subject=f"[{game.name}] you missed turn {turn}",
                   body=render(game.ruleset, "missed.txt.j2", game=game.name, player=player.name, turn=turn,
                               missed=st.missed, step=step, words=_STEP_WORDS[step],
                               next=following, next_words=_STEP_WORDS[following.step] if following else None))


_SHORT = {DISORDER: "in civil disorder", REMOVED: "removed"}
_STEP_WORDS = {
    WARNED: "is warned",
    DEFAULTS: "plays on default orders while silent",
    DISORDER: "is in civil disorder: the position stays, run by default orders, and is open to a substitute",
    REMOVED: "is removed from the game",
}


def ladder_lines(s: Session, app: App, game: Game, silent_now: list[str], ruleset: Ruleset | None = None) -> list[str]:
    """For `game show` and `game list`: who is at which step, and who climbs next if the open turn's deadline
    passes without his orders (`silent_now`: who has nothing on file). `ruleset` is the game's, if the caller
    has it at hand; else it is loaded only for a game with a ladder (`game list` imports no game without one)."""
    gcfg = app.config.game(game.name)
    ladder = gcfg.missed if gcfg is not None else None
    if ladder is None:
        return []
    if ruleset is None:
        ruleset = ruleset_named(game.ruleset)
    known = standings(s, game)
    at = [f"{name} {st.step} ({st.missed} missed)" for name, st in sorted(known.items()) if st.step]
    upcoming = []
    for name in silent_now:
        st = known.get(name)
        if st is not None and st.step == REMOVED:
            continue
        step = step_for((st.missed if st else 0) + 1, ladder, ruleset.removes_silent_players)
        upcoming.append(f"{name} -> {step}")
    return [f"ladder: {_some(at) if at else 'nobody on it'}",
            f"next on the ladder if silent: {_some(upcoming) if upcoming else 'nobody'}"]


# A big game's line stays readable: this many names, then how many more (`game show --json` has them all).
SHOWN = 20


def _some(items: list[str]) -> str:
    more = len(items) - SHOWN
    return ", ".join(items[:SHOWN]) + (f" and {more} more" if more > 0 else "")
