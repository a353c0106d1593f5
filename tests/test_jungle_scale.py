"""The Law of the Jungle at scale (issue 27): a session is linear in the houses because characters are found through
`World.roster()` (by house; the slave, tenant and owner titles by whom they name) and joined houses through
`houses.group`'s index, not by a scan of every character at each attack or death. The indexes must change nothing:
a seeded session gives the same results, byte for byte, as before them; and they keep up with characters added,
titles given and houses joined after they were built."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from maild_rules.jungle import chart
from maild_rules.jungle.deaths import kill
from maild_rules.jungle.houses import characters_of, group
from maild_rules.jungle.model import Title
from tests.jungle_fixtures import council_of, person, small_world

BENCH = Path(__file__).resolve().parent.parent / "bench" / "jungle_session.py"

# sha256 of `session_digest`'s JSON for each (houses, characters, cities, seed), computed with this very function
# on the code before the indexes (main at 385a7f0, 2026-12-06), under PYTHONHASHSEED 0, 9 and 123 alike.
BEFORE = {
    (60, 240, 8, 7): "907694f6a45fc7b86dce1c527cf91d11a65656dbc91ab76b7a9d05b87bdb3bd1",
    (60, 240, 25, 1): "42121146bc09d024b558164bee7cca3b92cde25bd81097e9a9a1be00a5f3877e",
    (150, 600, 10, 3): "a8b9efb46f6940ff56a5c5abd77b07f554aa9075b251aa5e549fe8a0b3742b53",
}


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("jungle_session", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def session_digest(houses: int, characters: int, cities: int, seed: int) -> str:
    """The benchmark's generated world and actions (bench/jungle_session.py), its Morning and Afternoon (with the
    Evening) resolved: the state, every printout's and the newsletter's context, the events, all of it hashed."""
    js = bench()
    rng = random.Random(seed)
    world = js.generate(houses, characters, cities, rng)
    state = world.dump()
    morning = js.RULESET.resolve_phase(state, 1, "morning", js.orders_for(world, "morning", rng),
                                       random.Random(seed + 1))
    afternoon_orders = js.orders_for(js.World.load(morning.state), "afternoon", rng)
    afternoon = js.RULESET.resolve_phase(morning.state, 1, "afternoon", afternoon_orders, random.Random(seed + 2))
    out = {part: {"state": r.state, "printouts": r.printouts, "newsletter": r.newsletter, "events": r.events,
                  "finished": r.finished, "gm_report": r.gm_report, "open_phase": repr(r.open_phase)}
           for part, r in (("m", morning), ("a", afternoon))}
    return hashlib.sha256(json.dumps(out, sort_keys=True, default=repr).encode()).hexdigest()


@pytest.mark.parametrize("size", sorted(BEFORE))
def test_a_seeded_session_gives_what_it_gave_before_the_indexes(size: tuple[int, int, int, int]) -> None:
    assert session_digest(*size) == BEFORE[size]


def test_the_roster_keeps_up_with_characters_added_after_it_was_built() -> None:
    w = small_world()
    person(w, "Ana1", "ana")
    assert [c.name for c in w.members("ana")] == ["Ana1"]  # the roster is built here
    person(w, "Ben1", "ben")
    person(w, "Ana2", "ana")
    assert [c.name for c in w.members("ana")] == ["Ana1", "Ana2"]
    assert [c.name for c in characters_of(w, "ben")] == ["Ben1"]
    assert w.character("  ana2 ") is w.characters["Ana2"]  # names compared by `key`, the newcomer's too
    person(w, "Cal 1", "cal")
    assert w.character("cal   1") is w.characters["Cal 1"]


def test_a_bond_given_after_the_roster_was_built_is_undone_by_a_death() -> None:
    w = small_world()
    owner, slave = person(w, "Ana1", "ana"), person(w, "Ben1", "ben")
    w.roster()
    slave.titles.append(Title("Slave", owner.name))
    owner.titles.append(Title("Owner", slave.name))
    kill(council_of(w, random.Random(1)), owner, "tested")
    assert slave.owner is None and slave.title("Slave") is None
    # A title list made anew (drop_title) still tells the roster of the bonds given after.
    tenant = person(w, "Cal1", "cal")
    landlord = person(w, "Ana2", "ana")
    tenant.drop_title("Slave")
    tenant.titles.append(Title("Tenant", landlord.name))
    kill(council_of(w, random.Random(1)), landlord, "tested")
    assert tenant.landlord is None


def test_houses_joined_after_the_index_was_made_are_one_group() -> None:
    w = small_world()
    assert group(w, "ben") == ["ben"]
    w.houses["ben"].joined = "ana"
    assert group(w, "ben") == group(w, "ana") == ["ana", "ben"]
    w.houses["ben"].joined = None
    assert group(w, "ana") == ["ana"]


def test_the_state_is_dumped_as_asdict_dumps_it() -> None:
    js = bench()
    world = js.generate(40, 160, 6, random.Random(5))
    world.both["Char1"] = {"kind": "travel", "args": {"to": ("City 1", 2)}}
    dumped = world.dump()
    assert dumped == dataclasses.asdict(world)
    assert json.dumps(dumped, sort_keys=True) == json.dumps(dataclasses.asdict(world), sort_keys=True)
    assert type(dumped["characters"]["Char1"]["titles"]) is list  # not the roster's Titles


def greedy(line: str, width: int) -> list[str]:
    """The wrapping `chart.wrap` promises, one word at a time: a word goes on the line if it is the line's first or
    fits with a blank before it; else the line ends and the next begins indented 4 more."""
    if len(line) <= width:
        return [line]
    lead = line[:len(line) - len(line.lstrip())]
    out, words = [], []
    indent = lead
    for word in line.split():
        if words and len(indent) + len(" ".join([*words, word])) > width:
            out.append(indent + " ".join(words))
            indent, words = lead + "    ", []
        words.append(word)
    return [*out, indent + " ".join(words)]


def test_lines_are_wrapped_greedily_at_blanks() -> None:
    rng = random.Random(27)
    for _ in range(5000):
        width = rng.choice([76, 12, 5, 1, 0])
        words = ["x" * rng.choice([0, 1, 3, 8, 20, 80]) + rng.choice([" ", "  ", "\t"])
                 for _ in range(rng.randint(0, 25))]
        line = rng.choice(["", " ", "\t", " " * 90]) + "".join(words)
        assert chart.wrap([line], width) == greedy(line, width), (line, width)
