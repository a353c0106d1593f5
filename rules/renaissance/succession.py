"""THE PERSONAE FAMILIES: a dead persona is replaced by a new one under the same id and player.

"New personae, however, do not inherit their predecessor's offices, skills, popularity, reputation for piety or
personal assets. When a persona dies, his replacement is given the deceased's final popularity rating, but never
more than 200. All other ratings start at zero. The new persona normally starts outside the town of which he is a
citizen." and (THE HIERARCHIES) "When a persona dies, his successor receives all of his hereditary titles."

THE ISLAMIC HIERARCHY: "As primogeniture was not practiced in Islam, the death of a sultan leads to the immediate
succession to his throne of a member of the same family".

Other modules kill by setting persona["alive"] = False and persona["died"] = "<cause>"; the end-of-month step here
(registry.MONTH) kills the passengers of a dead ship owner (TRAVEL), and for each dead persona makes his replacement
(`successor`) and passes on his hereditary positions (`pass_on_positions`, the one place they move: to the
replacement, or for a Shia or Sunni to the member of the family he named with OHnnnn, `position_taker`), vacating the
rest. Readings: docs/renaissance/upkeep.md, "Succession"; docs/renaissance/hierarchies.md, "Death and succession"
(RH-OQ-46 to RH-OQ-49).
"""

from __future__ import annotations

import random
from typing import Any

from . import nobility
from .context import Ctx, Outcome, Persona, State, done, fail
from .grandmasters import holds_office
from .offices import elective_sovereignty

POPULARITY_CAP = 200
HEIR_AGE = 20

# Sovereignty, feudatory status and tenancy are held by titles ("Tenancy may be transferred to any title"), which
# are hereditary: they pass to the successor. Every other office of a location is personal and falls vacant.
HEREDITARY_OFFICES = ("sovereign", "feudatory", "tenant")
# THE ISLAMIC HIERARCHY: no primogeniture; the positions go to "a member of the same family" (RH-OQ-47).
ISLAM = ("shia", "sunni")

GIVEN_NAMES = ("Alessandro", "Alfonso", "Antonio", "Bernardo", "Carlo", "Cosimo", "Ercole", "Federico", "Ferrante",
               "Filippo", "Francesco", "Galeazzo", "Giovanni", "Giuliano", "Guido", "Jacopo", "Lorenzo", "Ludovico",
               "Matteo", "Niccolo", "Ottaviano", "Pietro", "Raffaele", "Rodrigo", "Sigismondo", "Tommaso", "Ugo")
# RH-OQ-49: the replacement's given name fits his religion where the rules' world has a tradition of names for it;
# the others draw from the Italian list above.
GIVEN_NAMES_BY_RELIGION = {
    "islam": ("Ahmed", "Ali", "Bayezid", "Cem", "Hasan", "Husayn", "Ismail", "Korkut", "Mehmed", "Murad", "Mustafa",
              "Selim", "Suleiman", "Yusuf"),
    "orthodox": ("Andronikos", "Demetrios", "Georgios", "Ioannes", "Konstantinos", "Manuel", "Michael", "Nikolaos",
                 "Theodoros", "Thomas"),
    "jewish": ("Abraham", "David", "Isaac", "Jacob", "Joseph", "Judah", "Moses", "Samuel", "Solomon"),
}
NAME_TRADITION = {"sunni": "islam", "shia": "islam", "druse": "islam", "orthodox": "orthodox",
                  "monophysite": "orthodox", "jewish": "jewish"}


def _name(state: State, dead: Persona, rng: random.Random | None) -> str:
    """A generated name: a given name drawn with the turn's rng, the predecessor's surname. Without an rng (or when
    every name is taken) "Heir of <name>"."""
    name = dead.get("name") or dead["id"]
    words = name.split(" ", 1)
    surname = words[1] if len(words) == 2 else f"of {dead.get('family', '').title()}".rstrip()
    family = state.get("families", {}).get(dead.get("family"), {})
    taken = {(state["personae"].get(p) or {}).get("name", "").split(" ", 1)[0] for p in family.get("personae", [])}
    taken.add(words[0])
    tradition = NAME_TRADITION.get(str(dead.get("religion", "")).lower())
    names = GIVEN_NAMES_BY_RELIGION[tradition] if tradition else GIVEN_NAMES
    choices = [g for g in names if g not in taken]
    if rng is None or not choices:
        return f"Heir of {name}"
    return f"{rng.choice(choices)} {surname}"


def _start(state: State, dead: Persona) -> tuple[str | None, dict[str, Any] | None]:
    """Outside the town of which he is a citizen; a citizen of nowhere known starts where his predecessor died (or
    at sea, where he was)."""
    town = dead.get("citizenship")
    if town and town in state.get("locations", {}):
        return town, None
    if dead.get("location"):
        return dead["location"], None
    return None, dead.get("at_sea")


def successor(state: State, pid: str, rng: random.Random | None = None, turn: int = 0) -> Persona:
    """The persona that replaces dead `pid` (not yet put into the state): same id, family, player, religion,
    origin and citizenship; no titles or rank yet (pass_on_positions gives them); popularity min(final, 200);
    every other rating zero; no skills, offices, guild rank, permits or assets."""
    dead = state["personae"][pid]
    location, at_sea = _start(state, dead)
    return {
        "id": pid, "name": _name(state, dead, rng), "family": dead.get("family"), "female": False,
        "religion": dead.get("religion"), "origin": dead.get("origin"), "alive": True, "age": HEIR_AGE,
        "popularity": max(0, min(int(dead.get("popularity", 0)), POPULARITY_CAP)), "piety": 0, "morale": 0,
        "skills": {}, "guild": None,
        "titles": [], "rank": "none",  # his positions come from pass_on_positions
        "assets": {}, "location": location, "at_sea": at_sea, "inside": False, "with": None,
        "citizenship": dead.get("citizenship"), "boarding_permits": [], "alms_year": {}, "collector": [],
        "predecessors": [*dead.get("predecessors", []),
                         {"name": dead.get("name"), "died": dead.get("died", "unknown causes"), "turn": turn}],
    }


def _drown_passengers(state: State) -> None:
    """TRAVEL: passengers aboard ("with") a dead owner's ships "all die with him"; repeated until none is left."""
    changed = True
    while changed:
        changed = False
        for p in state["personae"].values():
            owner = state["personae"].get(p.get("with") or "")
            if p.get("alive", True) and owner is not None and not owner.get("alive", True):
                p["alive"] = False
                p["died"] = f"died aboard the ship of {owner.get('name', owner['id'])}"
                changed = True


def _held(state: State, dead: set[str]) -> dict[str, list[tuple[str, str]]]:
    """dead persona -> (location, office) he held, in location then office order: one pass over the world for
    all the month's deaths, not one per death."""
    held: dict[str, list[tuple[str, str]]] = {}
    for where, loc in sorted(state.get("locations", {}).items()):
        for office, who in sorted((loc.get("offices") or {}).items()):
            if who in dead:
                held.setdefault(who, []).append((where, office))
    return held


def position_taker(state: State, dead: Persona) -> str:
    """Who takes the dead persona's hereditary positions: his replacement (same id), or, when he was Shia or
    Sunni, the living member of his family he named with OHnnnn (RH-OQ-47: "a member of the same family"; the
    succession is "immediate", so the choice is the one on file at the death; without one, the replacement)."""
    named = dead.get("successor_named")
    member = state["personae"].get(named or "")
    if (str(dead.get("religion", "")).lower() in ISLAM and member is not None and member.get("alive", True)
            and member.get("family") == dead.get("family") and named != dead["id"]):
        return str(named)
    return str(dead["id"])


def _elected(state: State, where: str, office: str) -> bool:
    """An office held by election, not by title: an elective state's sovereignty (offices.elective_sovereignty), or an
    office a military order holds (its grandmaster's, which military_orders.py vacates before this step)."""
    return (office == "sovereign" and elective_sovereignty(where, state["locations"][where])) or holds_office(
        state, where, office)


def pass_on_positions(ctx: Ctx, dead: Persona, taker: Persona, held: list[tuple[str, str]]) -> list[str]:
    """THE place where a dead persona's hereditary positions are passed on (RH-OQ-47), to `taker` (his
    replacement, or the member of the family a Shia or Sunni named). Passed on: his hereditary titles
    (`nobility.hereditary_title`; the rank they give is nobility.succeed's), and of the offices he `held`
    (location, office) the sovereignty (not an elective one), the feudatory status and the tenancy, which are held
    by title. Vacated: every other office (magistrate, bishop, archbishop, the de facto control...), an elective
    sovereignty, the papacy. Returns the offices vacated."""
    state = ctx.state
    pid = dead["id"]
    titles = [t for t in dead.get("titles", []) if nobility.hereditary_title(t)]
    taker["titles"] = [*taker.get("titles", []), *titles]
    vacated: list[str] = []
    for where, office in held:
        offices = state["locations"][where]["offices"]
        if office in HEREDITARY_OFFICES and not _elected(state, where, office):
            offices[office] = taker["id"]
            continue
        offices[office] = None
        vacated.append(f"{office} of {where}")
    if state.get("pope") == pid:  # "HRE & Pope (non-hereditary)": the papacy is elected anew
        state["pope"] = None
        vacated.append("the papal throne")
    return vacated


def name_successor(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OHnnnn: a Shia or Sunni persona names the member of his family who is to take his hereditary positions at
    his death (THE ISLAMIC HIERARCHY: "a member of the same family"). Standing until he names another."""
    named = str(args.get("member", ""))
    member = ctx.persona(named)
    if str(persona.get("religion", "")).lower() not in ISLAM:
        return fail("only a Shia or Sunni names who succeeds him: his replacement takes over his hereditary "
                    "positions (THE PERSONAE FAMILIES)")
    if member is None or member.get("family") != persona.get("family") or named == persona["id"]:
        return fail(f"{named} is not another member of the {persona.get('family')} family")
    if not member.get("alive", True):
        return fail(f"{member.get('name', named)} is dead")
    persona["successor_named"] = named
    return done(f"{member.get('name', named)} ({named}) is to succeed to his hereditary positions at his death")


def succession(ctx: Ctx) -> None:
    state = ctx.state
    _drown_passengers(state)
    dead = [pid for pid, p in sorted(state["personae"].items()) if not p.get("alive", True)]
    held = _held(state, set(dead)) if dead else {}
    takers = {pid: position_taker(state, state["personae"][pid]) for pid in dead}  # before anyone is replaced
    for p in state["personae"].values():  # a member named to succeed who died: the choice lapses with him
        if p.get("successor_named") in takers:
            del p["successor_named"]
    for pid in dead:
        old = state["personae"][pid]
        name = old.get("name") or pid
        heir = successor(state, pid, ctx.rng, ctx.turn)
        taker_id = takers[pid]
        state["personae"][pid] = heir
        taker = state["personae"][taker_id]
        vacated = pass_on_positions(ctx, old, taker, held.get(pid, []))
        sovereign_of = [where for where, office in held.get(pid, [])  # the sultanate that passed (RH-OQ-14)
                        if office == "sovereign" and state["locations"][where]["offices"][office] == taker_id]
        for line in nobility.succeed(ctx, old, taker, sovereign_of):  # the rank his titles give; a sultan's throne
            ctx.tell(str(taker.get("family", "")), line[0].upper() + line[1:] + ".")
        if vacated:
            ctx.publish(f"On the death of {name}, vacant: {', '.join(vacated)}.")
        if taker_id != pid:
            ctx.publish(f"{taker.get('name', taker_id)} ({taker_id}) succeeds {name} in his hereditary positions.")
        for other in state["personae"].values():  # a permit was granted to the dead man, not to his heir
            if pid in other.get("boarding_permits", []):
                other["boarding_permits"] = [x for x in other["boarding_permits"] if x != pid]
        family = old.get("family", "")
        ctx.publish(f"{name} ({pid}) of the {family} family has died ({old.get('died', 'unknown causes')}). "
                    f"{heir['name']} succeeds him.")
        lost = {k: v for k, v in old.get("assets", {}).items() if v}
        if lost:
            ctx.tell(family, f"{pid}: {name}'s personal assets are lost with him: "
                     + ", ".join(f"{v:,} {k}" for k, v in lost.items()) + ".")
        where = f"outside {heir['location']}" if heir.get("location") else "at sea"
        ctx.tell(family, f"{pid}: {heir['name']} replaces {name} and starts next month {where}; his orders are "
                 f"written under .{pid} from next month's on (RH-OQ-48).")
