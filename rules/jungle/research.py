"""Research and production: the Research and Produce actions, and the Evening's weighted draws over the ten
gameturns played between two council sessions (GAME DECISIONS: DETERMINING RESEARCH, DETERMINING PRODUCTION).

A Research or Produce action only enters the character in the session's draw (`World.research`,
`World.production`); `run_draws` makes the picks in the Evening. Each gameturn, one research action is drawn
among all of them, weighted by (Beakers)*(Wisdom), and one production action per city among that city's,
weighted by (Hammers)*(Craftsmanship). A pick backed by a beaker (hammer) uses it and earns the character 1
Wisdom (Craftsmanship), and the weights of the next gameturn see both at once (LJ-OQ-19). Once no action
left has any weight the picks are uniform among the actions, and a pick without a beaker (hammer) behind it
earns nothing (LJ-OQ-20, 21). Nobody researching (producing in a city): the technology (item) of each
gameturn is drawn uniformly among those the GM listed, and nobody gains anything (NPC research).

The RNG is used in this order: for gameturn 1 to 10, the research pick, then one production pick per city in
the order of `World.cities`; then the policy draw (maild_rules.jungle.policies). Each pick is one
`rng.randrange` (maild.draws.weighted_choice) and none is taken for a city with nothing to produce.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from maild.draws import weighted_choice

from . import policies
from .council import Action, Council, Void, handles
from .model import Character, World, find_name

GAMETURNS = 10  # BASIC GAME STRUCTURE: "ten gameturns will be played in between each council session"


def weight(points: int, skill: int) -> int:
    """The strength of one researcher's (producer's) action: (Beakers)*(Wisdom), (Hammers)*(Craftsmanship)."""
    return max(points, 0) * max(skill, 0)


# -- the actions ---------------------------------------------------------------------------------------------

@handles("research")
def research(council: Council, actor: Character, action: Action) -> None:
    """RESEARCH X: "Any character with one or more science beakers may attempt to research a technology"."""
    world = council.world
    if actor.beakers < 1:
        raise Void(f"{actor.name} has no science beakers to research with")
    technology = find_name(world.empire.technologies, str(action.args.get("technology") or ""))
    if technology is None:
        raise Void(f"{action.args.get('technology')!s} is not a technology the empire can research now "
                   f"(it can research {_listing(world.empire.technologies)})")
    # LJ-OQ-22: one research action per character and session; Research as both actions is one entry.
    earlier = first_entry(world, world.research, actor.name)
    if earlier is not None:
        raise Void(f"{actor.name} already researches {earlier['technology']} this session")
    world.research.append({"character": actor.name, "technology": technology, "part": council.part})
    council.tell(action.house, f"{actor.name} researches {technology}: in each of the ten gameturns the pick is "
                               f"weighted by beakers x Wisdom (now {actor.beakers} x {actor.wisdom}), "
                               "with the beakers held in the Evening.")


@handles("produce")
def produce(council: Council, actor: Character, action: Action) -> None:
    """PRODUCE X: "Any character with one or more production hammers may attempt to produce a building or
    unit within their city"."""
    world = council.world
    if actor.hammers < 1:
        raise Void(f"{actor.name} has no production hammers to produce with")
    city = world.cities.get(actor.city) if actor.city else None
    if city is None:
        raise Void(f"{actor.name} is not in a city: one produces within one's city")
    item = find_name(city.builds, str(action.args.get("item") or ""))
    if item is None:
        raise Void(f"{action.args.get('item')!s} cannot be produced in {city.name} now "
                   f"({city.name} can produce {_listing(city.builds)})")
    earlier = first_entry(world, world.production, actor.name)
    if earlier is not None:
        raise Void(f"{actor.name} already produces {earlier['item']} in {earlier['city']} this session")
    world.production.append({"character": actor.name, "city": city.name, "item": item, "part": council.part})
    council.tell(action.house, f"{actor.name} produces {item} in {city.name}: in each of the ten gameturns the "
                               f"pick is weighted by hammers x Craftsmanship (now {actor.hammers} x {actor.craft}), "
                               "with the hammers held in the Evening.")


def first_entry(world: World, entries: list[dict[str, Any]], character: str) -> dict[str, Any] | None:
    """The first of this session's `entries` (World.research or World.production) of `character`, found in an
    index by character kept beside the list and extended as it grows (entries are only appended in a session),
    not by reading the list through at each of thousands of actions."""
    indexes = world.__dict__.setdefault("_entries_by_character", {})
    found = indexes.get(id(entries))
    if found is None or found[0] is not entries or found[1] > len(entries):
        found = (entries, 0, {})
    _, seen, by_character = found
    for e in entries[seen:]:
        by_character.setdefault(e["character"], e)
    indexes[id(entries)] = (entries, len(entries), by_character)
    return by_character.get(character)


def _listing(names: dict[str, Any]) -> str:
    return ", ".join(names) if names else "nothing"


# -- the draws -----------------------------------------------------------------------------------------------

def pick_action(world: World, entries: list[dict[str, Any]], points: str, skill: str,
                rng: random.Random) -> tuple[dict[str, Any], bool, bool]:
    """One gameturn's pick among `entries` (research or production actions): weighted by
    `points` x `skill` of each entry's character ("beakers"/"wisdom", "hammers"/"craft"), uniform when every
    weight is zero. Returns the entry, whether the draw was weighted, and whether the pick was backed by a
    point (then the character has used it and gained 1 `skill`)."""
    characters = [world.characters[e["character"]] for e in entries]
    weights = [weight(getattr(c, points), getattr(c, skill)) for c in characters]
    weighted = any(weights)
    i = weighted_choice(range(len(entries)), weights, rng)
    chosen = characters[i]
    backed = getattr(chosen, points) > 0
    if backed:
        setattr(chosen, points, getattr(chosen, points) - 1)
        setattr(chosen, skill, getattr(chosen, skill) + 1)
    return entries[i], weighted, backed


def npc_pick(names: list[str], rng: random.Random) -> str | None:
    """The NPCs' project of one gameturn: uniform among `names`, None when there are none (no draw taken)."""
    return weighted_choice(names, [1] * len(names), rng) if names else None


def run_draws(council: Council) -> list[dict[str, Any]]:
    """The Evening's draws: research and production over the ten gameturns, then the policy when one is due.
    Changes Wisdom, Craftsmanship, beakers and hammers, tells each house what its characters earned, keeps
    the picks in `World.draws` for the GM's update and returns them as the GM's to-do entries:

    - ``{"kind": "research", "gameturn": t, "technology": str, "character": str | None, "house": str | None,
      "weighted": bool, "earned": bool}`` one per gameturn (character None: NPCs), none at all when nobody
      researches and the GM listed nothing researchable;
    - ``{"kind": "production", "gameturn": t, "city": str, "item": str, "character", "house", "weighted",
      "earned"}`` one per gameturn and city that has something to produce;
    - the policy entry of `policies.draw_policy` when a policy is due.
    """
    world = council.world
    rng = council.rng
    research = [e for e in world.research if _alive(world, e["character"])
                and _still(council, e, e["technology"], world.empire.technologies)]
    production: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in world.production:
        city = world.cities.get(e["city"])
        if _alive(world, e["character"]) and _still(council, e, e["item"], city.builds if city else {}):
            production[e["city"]].append(e)
    world.research, world.production = research, [e for actions in production.values() for e in actions]
    technologies = list(world.empire.technologies)
    entries: list[dict[str, Any]] = []
    for turn in range(1, GAMETURNS + 1):
        if research:
            chosen, weighted, earned = pick_action(world, research, "beakers", "wisdom", rng)
            entries.append(_entry("research", turn, chosen["character"], world, weighted, earned,
                                  technology=chosen["technology"]))
        elif technologies:
            entries.append(_entry("research", turn, None, world, False, False,
                                  technology=npc_pick(technologies, rng)))
        for name, city in world.cities.items():
            actions = production.get(name)
            if actions:
                chosen, weighted, earned = pick_action(world, actions, "hammers", "craft", rng)
                entries.append(_entry("production", turn, chosen["character"], world, weighted, earned,
                                      city=name, item=chosen["item"]))
            elif city.builds:
                entries.append(_entry("production", turn, None, world, False, False, city=name,
                                      item=npc_pick(list(city.builds), rng)))
    policy = policies.draw_policy(council)
    if policy is not None:
        entries.append(policy)
    _report(council, entries)
    world.research = []
    world.production = []
    world.draws = entries
    return entries


def _still(council: Council, entry: dict[str, Any], project: str, offered: dict[str, int]) -> bool:
    """Whether the project of a Research (Produce) action is still on offer in the Evening: a GM's update
    applied at the Afternoon's start may have taken it off (discovered, or no longer buildable there)."""
    if project in offered:
        return True
    c = council.world.characters[entry["character"]]
    council.tell(c.house, f"{c.name}'s {'research' if 'technology' in entry else 'production'} of {project} "
                          "lapsed: the GM's update took it off the list.")
    return False


def _alive(world: World, name: str) -> bool:
    c = world.characters.get(name)
    return c is not None and c.alive


def _entry(kind: str, turn: int, name: str | None, world: World, weighted: bool, earned: bool,
           **what: Any) -> dict[str, Any]:
    house = world.characters[name].house if name is not None else None
    return {"kind": kind, "gameturn": turn, **what, "character": name, "house": house, "weighted": weighted,
            "earned": earned}


def _report(council: Council, entries: list[dict[str, Any]]) -> None:
    """Each house hears what its characters' picks were and earned; the newsletter what the ten gameturns
    went to."""
    world = council.world
    picks: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for e in entries:
        if e["kind"] in ("research", "production") and e["character"] is not None:
            project = e["technology"] if e["kind"] == "research" else f"{e['item']} in {e['city']}"
            picks[(e["character"], e["kind"], project)].append(e)
    for (name, kind, project), mine in picks.items():
        c = world.characters[name]
        turns = ", ".join(str(e["gameturn"]) for e in mine)
        earned = sum(1 for e in mine if e["earned"])
        skill, points = ("Wisdom", "beakers") if kind == "research" else ("Craftsmanship", "hammers")
        now = c.wisdom if kind == "research" else c.craft
        text = f"{name}'s {kind} of {project} was picked in gameturn{'s' if len(mine) > 1 else ''} {turns}"
        text += f": +{earned} {skill} (now {now})" if earned else f": no {skill} (no {points} left to use)"
        if earned < len(mine) and earned:
            text += f"; {len(mine) - earned} pick{'s' if len(mine) - earned > 1 else ''} without {points} earned none"
        council.tell(c.house, text + ".")
    for e in world.research:
        if e["character"] in world.characters and (e["character"], "research", e["technology"]) not in picks:
            c = world.characters[e["character"]]
            if c.alive:
                council.tell(c.house, f"{c.name}'s research of {e['technology']} was not picked this session.")
    for e in world.production:
        project = f"{e['item']} in {e['city']}"
        if e["character"] in world.characters and (e["character"], "production", project) not in picks:
            c = world.characters[e["character"]]
            if c.alive:
                council.tell(c.house, f"{c.name}'s production of {project} was not picked this session.")
    research = _summary([e for e in entries if e["kind"] == "research"], "technology")
    if research:
        council.announce(f"Research in the ten gameturns: {research}.")
    for city in world.cities:
        made = _summary([e for e in entries if e["kind"] == "production" and e["city"] == city], "item")
        if made:
            council.announce(f"Production in {city}: {made}.")


def _summary(entries: list[dict[str, Any]], what: str) -> str:
    """"Bronze Working 7 (Itzel 5, NPCs 2), Writing 3 (Coyotl 3)": gameturns per project and by whom."""
    projects: dict[str, dict[str, int]] = {}
    for e in entries:
        if e[what] is None:
            continue
        who = projects.setdefault(e[what], {})
        name = e["character"] or "NPCs"
        who[name] = who.get(name, 0) + 1
    return ", ".join(f"{p} {sum(who.values())} ({', '.join(f'{n} {k}' for n, k in who.items())})"
                     for p, who in projects.items())
