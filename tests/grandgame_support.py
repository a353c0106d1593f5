"""States of the Grand Game for tests: the example setup, and a game whose countries are already taken (so a
test of the allocation or of a season need not play the picking first)."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from typing import Any

from maild_rules.grandgame import start
from maild_rules.grandgame.ruleset import RULESET
from maild_rules.grandgame.state import DEMOCRACY, DICTATORSHIP

#: Who takes what in `started()`: the example's eight players on the eight first countries, regimes alternating.
COUNTRIES = {"alice": "AUR", "bruno": "BOR", "chloe": "CAS", "dmitri": "DRA", "elena": "ELU", "farid": "FER",
             "greta": "GAL", "hugo": "HES"}


def example_setup() -> dict[str, Any]:
    return tomllib.loads(files("maild.examples").joinpath("grand-game/setup.toml").read_text(encoding="utf-8"))


def new_state(**changes: Any) -> dict[str, Any]:
    """The example game as created, before the picking (`changes` replace top-level setup keys)."""
    return RULESET.new_game({**example_setup(), **changes})


def started(countries: dict[str, str] | None = None) -> dict[str, Any]:
    """The example game with every player's country taken (Ilvane and Jorsk unpicked, Nesse and Orrin neutral),
    no units on the board: a test places what it needs with state.add."""
    state = new_state()
    for i, (name, country) in enumerate((countries or COUNTRIES).items()):
        start.take_country(state, name, country, DEMOCRACY if i % 2 == 0 else DICTATORSHIP)
    return state
