"""The largest Renaissance game (docs/renaissance.md, "How big a game can be"): four-digit persona numbers less 0000
and the locals' 9999 hold 9,998 personae, so 1,999 families of five; one family more is refused, saying so."""

from __future__ import annotations

import pytest

from maild_rules.renaissance.ruleset import RULESET
from maild_rules.renaissance.setup import PERSONA_IDS
from maild_rules.renaissance.worldgen import generate


def test_the_largest_game_fits() -> None:
    assert PERSONA_IDS == 9998
    state = RULESET.new_game(generate(locations=60, families=1999))
    assert len(state["families"]) == 1999
    assert len(state["personae"]) == 9995
    assert not {"0000", "9999"} & set(state["personae"])


def test_one_family_more_is_refused_with_the_largest_that_fits() -> None:
    with pytest.raises(ValueError) as refused:
        generate(locations=60, families=2000)
    assert str(refused.value) == ("10000 personae do not fit in 4-digit persona ids: at most 1,999 families of 5 "
                                  "(9,998 personae, 0001 to 9998; 0000 is refused and 9999 is the locals)")


def test_at_one_persona_a_family_the_largest_is_9998_families() -> None:
    assert len(generate(locations=60, families=9998, personae_per_family=1)["families"]) == 9998
    with pytest.raises(ValueError, match="at most 9,998 families of 1"):
        generate(locations=60, families=9999, personae_per_family=1)
