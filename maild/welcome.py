"""Welcome mails: what a player is mailed when he joins a game (Ruleset.welcome), queued in the transaction that
creates the game or applies the GM's order that brought him in. Keyed by game, player and what the welcome is for,
so a rerun, a second sync or a turn that changes nothing for him never mails twice."""

from __future__ import annotations

import bisect
import hashlib
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.models import Game, OutboundMail, Player
from maild.outbox import insert_rows, outbound_row
from maild.render import render
from maild.ruleset import Ruleset

if TYPE_CHECKING:
    from maild.app import App

# The outbox key has 300 characters; a long `welcome_for` (a player of many families) is shortened to a digest.
_LONGEST_FOR = 120


def welcome_key(game: str, player: str, welcome_for: str) -> str:
    if len(welcome_for) > _LONGEST_FOR:
        welcome_for = hashlib.sha256(welcome_for.encode()).hexdigest()
    return f"welcome:{game}:{player}:{welcome_for}"


def queue_welcomes(s: Session, app: App, game: Game, ruleset: Ruleset, state: dict[str, Any],
                   players: list[Player], turn: int, deadline: str) -> list[str]:
    """Queue the welcome owed to each of `players` (those the ruleset welcomes and not welcomed before for the
    same thing). Returns the names welcomed."""
    sent = set(s.scalars(select(OutboundMail.key).where(OutboundMail.game_id == game.id,
                                                        OutboundMail.kind == "welcome")))
    rows, welcomed = [], []
    for player in players:
        context = ruleset.welcome(state, player.name, turn=turn)
        if context is None:
            continue
        key = welcome_key(game.name, player.name, str(context.get("welcome_for", "")))
        if key in sent:
            continue
        body = render(game.ruleset, "welcome.txt.j2", **context, game=game.name, player=player.name, turn=turn,
                      deadline=deadline)
        rows.append(outbound_row(app, key=key, kind="welcome", to=[player.email], game_id=game.id, body=body,
                                 subject=f"[{game.name}] welcome, {player.name}: your position and how to send "
                                         f"orders"))
        sent.add(key)
        welcomed.append(player.name)
    insert_rows(s, rows)
    return welcomed


def signed_up_unwelcomed(s: Session, game: Game, players: list[Player]) -> list[Player]:
    """Those of `players` who signed up by mail (see maild/intake/signup.py) and have had no welcome yet: a
    turn offers them one once the ruleset has brought them into the state (their JOIN resolved)."""
    newcomers = [p for p in players if p.joined_at is not None]
    if not newcomers:
        return []
    keys = sorted(s.scalars(select(OutboundMail.key).where(OutboundMail.game_id == game.id,
                                                           OutboundMail.kind == "welcome")))

    def welcomed(player: Player) -> bool:  # a key of his is the first at or after his prefix, if any is
        prefix = welcome_key(game.name, player.name, "")
        at = bisect.bisect_left(keys, prefix)
        return at < len(keys) and keys[at].startswith(prefix)

    return [p for p in newcomers if not welcomed(p)]
