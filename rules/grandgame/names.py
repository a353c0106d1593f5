"""What a player writes for a territory, a zone or a player, as the game spells it: ids in any case, and a
territory's name when it is one word."""

from __future__ import annotations

from .state import State, board


class Names:
    """Ids as the map writes them, from what a player wrote (any case), and players' names."""

    def __init__(self, state: State) -> None:
        b = board(state)
        # Ids, and the names of one word a player may write instead ("Falstead" for D4), ids first.
        self.territories = {**{t.name.lower(): t.id for t in b.territories.values() if " " not in t.name},
                            **{t.lower(): t for t in b.territories}}
        self.zones = {z.lower(): z for z in b.zones}
        self.players = {p["name"].lower(): p["name"] for p in state["players"]}

    def t(self, written: str | None) -> str | None:
        return None if written is None else self.territories.get(written.lower())

    def z(self, written: str) -> str | None:
        return self.zones.get(written.lower())

    def p(self, written: str) -> str | None:
        return self.players.get(written.lower())
