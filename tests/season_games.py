"""The tiny game of the tests (tests/rps_game.py) with the season's ruleset hooks set: a silent player's
default orders (his last throw, else rock) and, for one of them, removal at the top of the ladder."""

from __future__ import annotations

from typing import Any

from maild.ruleset import Order, PlacedOrder, register
from tests.rps_game import EXAMPLE_SETUP, RockPaperScissors

ROCK = PlacedOrder(Order(0, "throw rock", "throw", {"throw": "rock"}, "throw rock"), 0)


class StandingThrows(RockPaperScissors):
    """rps whose silent positions throw again what they last threw (rock if they never threw)."""

    name = "rps_standing"

    def default_orders(self, state: dict[str, Any], turn: int, player: str,
                       last: list[PlacedOrder]) -> list[PlacedOrder]:
        throws = [p for p in last if p.order.kind == "throw"]
        return throws[-1:] or [ROCK]


class Removing(StandingThrows):
    """The same game, whose rules allow a silent player to be removed."""

    name = "rps_removing"
    removes_silent_players = True


register(StandingThrows())
register(Removing())


def season_setup(rounds: int = 8) -> dict[str, Any]:
    return {**EXAMPLE_SETUP, "rounds": rounds}


def daily(first: str = "2027-01-05T12:00:00", days: int = 8) -> dict[str, Any]:
    """A schedule of one deadline a day at noon UTC from `first` (the Table's clock starts 2027-01-04 09:00)."""
    from datetime import datetime, timedelta

    start = datetime.fromisoformat(first)
    return {"timezone": "UTC", "at": [(start + timedelta(days=n)).isoformat() for n in range(days)]}
