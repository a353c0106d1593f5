"""HELP's examples in this game's own names (`Galilei.help_examples`): its capitals, the other players, cards of
its deck; the order kinds' own examples (orders.ORDER_KINDS) name the demo game's, which another setup lacks."""

from __future__ import annotations

from typing import Any


def help_examples(state: dict[str, Any], player: str | None) -> dict[str, str]:
    players = list(state.get("order") or state.get("players") or [])
    capitals = list(state.get("capitals") or [])
    # Cards of the epochs that may be drawn now (the GM opens later ones).
    deck = [c for c in state.get("deck") or [] if c.get("epoch", 1) <= state.get("epoch", 1)]
    if not players or len(capitals) < 2 or not deck:
        return {}
    others = [p for p in players if p != player] or players
    rival = others[0]
    # A battle is fought for a capital (3.4): a rival's, once the draft gave them, else one of the game's.
    mine = (state.get("players", {}).get(player) or {}).get("capital")
    held = [(state["players"][p].get("capital") or "") for p in others]
    target = next((c for c in held if c), next(c for c in capitals if c != mine))
    events = [c["id"] for c in deck if c.get("kind") == "event"] or [deck[0]["id"]]
    goods = [c["id"] for c in deck if c.get("kind") == "commodity"] or [deck[-1]["id"]]
    own_cards = list((state.get("held") or {}).get(player or "", []))
    return {
        "prefer": f"prefer cards: {events[0]}, {goods[0]}; capitals: {capitals[0]}, {capitals[1]}",
        "battle": f"battle: attack {target} at position 2 with military advantage, 4 tokens",
        "war": f"war against {rival}, my modifier +2, cities 3 2 1",
        "mill": f"mill against {rival}, need 3",
        "card": f"card {events[-1]}",
        "discard": f"discard {(own_cards or goods)[0]}",
    }
