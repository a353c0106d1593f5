"""The arguments of `maild player ...` (the GM's commands about one player's position: docs/season.md,
"Substitutes"). Light: `maild --help` imports it; the work is maild/playercli.py's."""

from __future__ import annotations

import argparse
from typing import Any


def _example(*lines: str) -> dict[str, Any]:
    text = "example" + ("s" if len(lines) > 1 else "") + ":\n" + "\n".join(f"  {line}" for line in lines)
    return {"epilog": text, "formatter_class": argparse.RawDescriptionHelpFormatter}


def add_player_parser(sub: Any) -> None:
    player = sub.add_parser("player", help="a player's position: substitutes and addresses", **_example(
        "maild player replace venice1 alice carol@example.org", "maild player standby venice1")
                            ).add_subparsers(dest="player_cmd", required=True)
    replace = player.add_parser(
        "replace", help="hand PLAYER's position to a new player at ADDRESS: the open deadline moves on by "
                        "[games.substitutes] extension (default 2d), announced; the new player gets the last "
                        "printout, the orders on file, the rules and a new password line",
        **_example("maild player replace venice1 alice carol@example.org"))
    replace.add_argument("game")
    replace.add_argument("player")
    replace.add_argument("address")
    opened = player.add_parser(
        "open", help="open PLAYER's position to a substitute: a volunteer of the standby list may then take it "
                     "by mailing TAKEOVER GAME PLAYER", **_example("maild player open venice1 alice"))
    opened.add_argument("game")
    opened.add_argument("player")
    address = player.add_parser(
        "address", help="change PLAYER's address to NEW; both addresses are told by mail",
        **_example("maild player address venice1 alice alice@new.example.org"))
    address.add_argument("game")
    address.add_argument("player")
    address.add_argument("new")
    standby = player.add_parser("standby", help="the game's standby list, the positions open to a substitute and "
                                                "the handovers so far", **_example("maild player standby venice1"))
    standby.add_argument("game")
