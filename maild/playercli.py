"""`maild player replace|open|address|standby` (arguments: maild/playerargs.py; the work: maild/substitutes.py)."""

from __future__ import annotations

import argparse

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.games import get_game, players_of
from maild.models import Game, Substitute
from maild.replylimits import Gate, held_back_lines
from maild.substitutes import (
    TOOK_OVER,
    change_address,
    hand_over,
    open_position,
    player_named,
    standby_list,
)


def run_player_command(app: App, args: argparse.Namespace) -> int:
    gate = Gate()
    with app.db.session() as s:
        game = get_game(s, args.game, lock=True)
        if args.player_cmd == "standby":
            _show_standby(s, game)
            return 0
        player = player_named(s, game, args.player)
        if args.player_cmd == "replace":
            done = hand_over(s, app, gate, game, player, args.address)
            print(f"{game.name}: {done.player} is now played from {done.address} (was {done.previous}); "
                  f"the open deadline is now {done.deadline}")
        elif args.player_cmd == "open":
            if open_position(s, app, game, player):
                print(f"{game.name}: {player.name}'s position is open to a substitute "
                      f"({len(standby_list(s, game))} on the standby list)")
            else:
                print(f"{game.name}: {player.name}'s position was open to a substitute already")
        else:
            old = change_address(s, app, gate, game, player, args.new)
            print(f"{game.name}: {player.name}'s address is now {player.email} (was {old}); both were told")
        s.commit()
    for line in held_back_lines(gate):
        print(f"held back by the reply limits: {line}")
    return 0


def _show_standby(s: Session, game: Game) -> None:
    waiting = standby_list(s, game)
    print(f"standby list of {game.name}: " + (", ".join(w.email for w in waiting) or "nobody"))
    opened = [p.name for p in players_of(s, game) if p.open_to_substitute_at is not None]
    print("open to a substitute: " + (", ".join(opened) or "none"))
    for row in s.scalars(select(Substitute).where(Substitute.game_id == game.id, Substitute.status == TOOK_OVER)
                         .order_by(Substitute.id)):
        print(f"turn {row.turn}: {row.player} handed from {row.previous_email} to {row.email}")
