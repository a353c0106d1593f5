"""Who stands on each side of a battle, and how its Sides are built from the state: ALLIANCE (allies fought in turn),
THE SWORD GARRISONS (the garrison's morale, its support of the tenant's family, KO), URBAN BATTLE's home side, the Z
orders of the month that draw a side up, the Sides of an attack order's battle; a `Battle` is what the engine is
given and what applying its result needs (battle.py).

Readings: docs/renaissance/war.md, section "conflict" (RW-OQ-06, 27; K4, K5, K8, K9, K14).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..calendar import MONTHS
from ..context import Ctx, Persona, State
from ..offices import Location, holder
from . import control, ranks, reports, siege
from . import forces as fo
from . import morale as mo
from .forces import ATTACKER, DEFENDER, Contingent, Side
from .presence import alive, in_tower, present, started_here, tower_controlled, troops

HOME_OFFICES = ("tenant", "bishop", "feudatory", "sovereign")  # URBAN BATTLE, after "a citizen's"
KIND_WORDS = {"field": "field battle", "urban": "urban battle", "naval": "naval battle", "assault": "assault",
              "tower": "tower assault"}

# Z places: FIELD BATLE's six divisions, the four walls of ASSAULT, NAVAL BATTLES' Left, Center, Right, Reserve.
FIELD_PLACES = {str(n): d for n, d in enumerate(fo.DIVISIONS, start=1)}
WALL_PLACES = {w[0].upper(): w for w in fo.WALLS}
NAVAL_PLACES = {"2": "left", "3": "center", "4": "right", "6": "reserves"}

_Z = "war.z"  # pid -> {"dispositions": [(place code, item, qty)], "post": place code | None}
_NO_SUPPORT = "war.no_support"  # pids who ordered KO this month


# ---- the Z and KO orders of the month ----------------------------------------------------------------------------

def z_orders(ctx: Ctx, pid: str) -> dict[str, Any]:
    return ctx.scratch.setdefault(_Z, {}).setdefault(pid, {"dispositions": [], "post": None})


def note_no_support(ctx: Ctx, pid: str) -> None:
    ctx.scratch.setdefault(_NO_SUPPORT, set()).add(pid)


def refused_support(ctx: Ctx, pid: str) -> bool:
    return pid in ctx.scratch.get(_NO_SUPPORT, set())


def place_code(written: Any) -> str | None:
    """A Z place as the code writes it (1 to 6, N, E, S, W), or a division's or wall's name."""
    text = str(written or "").strip().lower().removesuffix(" wall")
    for code, word in (*FIELD_PLACES.items(), *WALL_PLACES.items()):
        if text in (code.lower(), word):
            return code
    return "6" if text == "reserve" else None


def place_for(code: str | None, kind: str) -> str | None:
    """A Z place in the battle being fought: a division of a field battle, a wall of an assault, a division of a
    naval battle; None where it has no meaning there (it is then ignored, FIELD BATLE: "they are ignored")."""
    if code is None:
        return None
    if kind == "field":
        return FIELD_PLACES.get(code)
    if kind == "assault":
        return WALL_PLACES.get(code)
    if kind == "naval":
        return NAVAL_PLACES.get(code)
    return None


# ---- who stands on each side --------------------------------------------------------------------------------------

def allied(a: Persona, b: Persona) -> bool:
    """ALLIANCE: "two personae each allied to the other's family"."""
    return b.get("family") in (a.get("allies") or []) and a.get("family") in (b.get("allies") or [])


def defenders_in_turn(ctx: Ctx, victim: Persona, attacker: Persona | None, where: str | None,
                      inside: bool) -> list[Persona]:
    """The personae the attacker must fight, one battle each, to reach `victim` (RW-OQ-06): his mutual allies at
    the same location and on the same side of its walls, all having started the turn there, who have more troops
    than he has, the strongest first; then the victim. ALLIANCE: "the one with the greater number of troops will
    fight any attacker before his ally will. Alliances do not work across walls. For an alliance to be effective,
    the allies must be at, and have started the turn at, the same location and on the same side of all walls."
    At sea there is no location to have started at: no alliance works there (K4). An ally in his tower is not
    brought out (K5)."""
    if where is None or not started_here(ctx, victim, where, inside):
        return [victim]
    allies = [p for p in present(ctx, where, inside)
              if p["id"] != victim["id"] and (attacker is None or p["id"] != attacker["id"]) and allied(victim, p)
              and started_here(ctx, p, where, inside) and not (inside and in_tower(ctx.state, p) is not None)]
    order = sorted([victim, *allies], key=lambda p: (-troops(p), p["id"] != victim["id"], p["id"]))
    return order[: order.index(victim) + 1]


def tenant_of(ctx: Ctx, location: Location) -> Persona | None:
    tenant = ctx.persona(holder(location, "tenant") or "")
    return tenant if alive(tenant) else None


def tenant_with_garrison(ctx: Ctx, location: Location) -> bool:
    """"When accompanied by their tenant": he is inside the walls, where the garrison is."""
    tenant = tenant_of(ctx, location)
    return tenant is not None and tenant.get("location") == location["name"] and bool(tenant.get("inside")) \
        and not tenant.get("at_sea")


def garrison_morale(ctx: Ctx, location: Location) -> int:
    """THE SWORD GARRISONS: "When accompanied by their tenant, the morale of town garrison troops is their tenant's.
    When he is not present, their morale is equal to the town's loyalty" (a copy: RW-OQ-18)."""
    if tenant_with_garrison(ctx, location):
        tenant = tenant_of(ctx, location)
        assert tenant is not None
        return int(tenant.get("morale", 0))
    return int(location.get("loyalty", 0))


def garrison_contingent(ctx: Ctx, location: Location) -> Contingent | None:
    if int(location.get("garrison", 0)) <= 0:
        return None
    return fo.of_garrison(location, garrison_morale(ctx, location))


def support_group(ctx: Ctx, location: Location, defender: Persona, attacker: Persona | None,
                  fought: set[str]) -> tuple[list[Persona], bool]:
    """RW-OQ-06: when `defender` is of the tenant's family, inside the walls, the garrison and every member of that
    family inside the walls (not in a tower) fight as one side with him, unless one of them (or the tenant, for the
    garrison) ordered KO this month. THE SWORD GARRISONS: "Garrison troops and forces attached to members of the
    family of the tenant automatically support each other unless otherwise ordered that turn (prior to the
    battle), but they only support one another when they are on the same side of all walls." Returns the other
    members and whether the garrison joins."""
    tenant_id = holder(location, "tenant")
    tenant = ctx.persona(tenant_id or "")
    if tenant is None or tenant.get("family") != defender.get("family") or not defender.get("inside") \
            or refused_support(ctx, defender["id"]):
        return [], False
    garrison = int(location.get("garrison", 0)) > 0 and not refused_support(ctx, tenant["id"])
    members = [p for p in present(ctx, location["name"], True)
               if p.get("family") == defender.get("family") and p["id"] != defender["id"] and p["id"] not in fought
               and (attacker is None or p["id"] != attacker["id"]) and in_tower(ctx.state, p) is None
               and not refused_support(ctx, p["id"])]
    return members, garrison


def home_rank(state: State, p: Persona, location: Location) -> int | None:
    """URBAN BATTLE's list, "a citizen's, the tenant's, the bishop's, the feudatory's, the sovereign's": 0 for a
    citizen of the location himself (RW-OQ-27), then 1 to 4 for a member of the office holder's family; None."""
    if p.get("citizenship") == location["name"]:
        return 0
    for rank, office in enumerate(HOME_OFFICES, start=1):
        holder_p = state["personae"].get(holder(location, office) or "")
        if holder_p is not None and holder_p.get("family") == p.get("family"):
            return rank
    return None


def home_side(state: State, location: Location, attacker: Persona | None, defender: Persona | None) -> str:
    """URBAN BATTLE: "the home side is that of the persona who is a member of the first of the following families
    ... Should neither participant be a member of any of these families, or should both participants be citizens,
    then the defender is given the home advantage. Exception: Garrisons not commanded by a persona are always the
    home side." Two of the same rank (both citizens, or of the same family): the defender."""
    if attacker is None:
        return ATTACKER
    if defender is None:
        return DEFENDER
    a, d = home_rank(state, attacker, location), home_rank(state, defender, location)
    if a is not None and (d is None or a < d):
        return ATTACKER
    return DEFENDER


# ---- a battle: its Sides ------------------------------------------------------------------------------------------

@dataclass
class Battle:
    """One battle about to be fought: what the engine is given, and what applying its result needs."""

    kind: str  # "field" | "urban" | "naval" | "assault" | "tower"
    where: str | None  # the location (None at sea)
    sides: dict[str, Side]
    personae: dict[str, Persona]  # every persona with a contingent, by id
    initiator: Persona | None  # pays the fee, counts the stages (BATTLE; RW-OQ-05)
    attacker: str | None  # the persona who attacks (None for a garrison alone), for DE FACTO CONTROL
    defender: str | None  # the persona attacked (None for a garrison alone)
    title: str
    engine_args: dict[str, Any] = field(default_factory=dict)
    tower: int | None = None  # the tower assaulted
    halved: set[str] = field(default_factory=set)  # Confucian personae whose troops fight at half morale
    morale_before: dict[str, int] = field(default_factory=dict)  # pid -> his morale before the battle
    sortie: bool = False

    @staticmethod
    def between(ctx: Ctx, kind: str, attacker: Persona, defender: Persona, *, where: str | None,
                initiator: Persona | None, spare: bool) -> Battle:
        """A battle of one persona against another (no allies, no garrison): interceptions."""
        b = Battle(kind=kind, where=where, sides={}, personae={}, initiator=initiator, attacker=attacker["id"],
                   defender=defender["id"], title="")
        b.sides[ATTACKER] = b.side(ctx, ATTACKER, [attacker], attacker, defender)
        b.sides[DEFENDER] = b.side(ctx, DEFENDER, [defender], defender, attacker, spare=spare)
        b.title = battle_title(ctx, b)
        return b

    def contingent(self, ctx: Ctx, p: Persona) -> Contingent:
        """His forces; MORALE: "Troops attached to a Confucian persona have their morale reduced by 50% (with the
        result rounded down) at the start of any battle fought in a location not initially set up as having the
        Emperor of China as sovereign"."""
        c = fo.of_persona(p)
        self.personae[p["id"]] = p
        self.morale_before[p["id"]] = int(p.get("morale", 0))
        if mo.confucian_battle(p, ctx.location(self.where)):
            self.halved.add(p["id"])
            c.morale = mo.confucian_start(c.morale)
        return c

    def side(self, ctx: Ctx, role: str, members: list[Persona], commander: Persona | None,
             enemy: Persona | None, *, spare: bool = False, garrison: Contingent | None = None,
             extra: list[Contingent] | None = None, all_dispositions: bool = False) -> Side:
        contingents = [self.contingent(ctx, p) for p in members]
        if garrison is not None:
            contingents.append(garrison)
        contingents += extra or []
        s = Side(role=role, contingents=contingents, commander=commander["id"] if commander else None,
                 retreat_value=ranks.retreat_value(commander), spare=spare)
        s.factor = mo.inflict_factor(ctx.state, commander, enemy)
        own = mo.inflict_factor(ctx.state, commander, enemy, same_division_as_commander=True)
        if own != s.factor:
            s.commander_factor = own
        self.orders(ctx, s, members, commander, all_dispositions)
        return s

    def orders(self, ctx: Ctx, s: Side, members: list[Persona], commander: Persona | None,
               all_dispositions: bool) -> None:
        """The Z orders issued earlier this month: each persona's post; the commander's dispositions (every
        defender's, in an assault: "Unless the persona controlling them has issued contrary orders earlier in
        the same turn"); the troops destroying crops held back from a field battle (CROP DESTRUCTION)."""
        kind = "assault" if self.kind == "tower" else self.kind
        for p in members:
            z = z_orders(ctx, p["id"])
            if (place := place_for(z["post"], kind)) is not None:
                s.places[p["id"]] = place
            if all_dispositions or (commander is not None and p["id"] == commander["id"]):
                s.dispositions += [(place, item, qty) for code, item, qty in z["dispositions"]
                                   if (place := place_for(code, kind)) is not None]
            if self.kind == "field":
                for t, n in siege.crop_troops(ctx, p).items():
                    s.held_back[t] = s.held_back.get(t, 0) + n


def battle_title(ctx: Ctx, b: Battle) -> str:
    place = f"at {b.where}" if b.where else "at sea"
    if b.kind == "field" and b.where:
        place += ", outside the walls"
    elif b.kind == "urban":
        place += ", inside the walls"
    elif b.kind == "tower" and b.tower is not None:
        place = f"on tower {b.tower} {place}"
    who = {role: reports.commander_name(s) for role, s in b.sides.items()}
    month = f"{MONTHS[ctx.month - 1]} {ctx.year}"
    return f"{KIND_WORDS[b.kind].upper()} {place} ({month}): {who[ATTACKER]} against {who[DEFENDER]}"


# ---- the Sides of an attack order's battle --------------------------------------------------------------------------

def attack_battle(ctx: Ctx, persona: Persona | None, defender: Persona, kind: str, *, where: str | None,
                  spare: bool, go_on: bool, sortie: bool, garrison_only: Location | None,
                  initiator: Persona, fought: set[str]) -> Battle:
    location = ctx.location(where)
    b = Battle(kind=kind, where=where, sides={}, personae={}, initiator=initiator,
               attacker=persona["id"] if persona and not garrison_only else None, defender=defender["id"],
               title="", sortie=sortie)
    if garrison_only is not None:
        garrison = garrison_contingent(ctx, garrison_only)
        b.sides[ATTACKER] = Side(role=ATTACKER, contingents=[garrison] if garrison else [], commander=None)
    else:
        assert persona is not None
        with_garrison = garrison_contingent(ctx, location) if sortie and location is not None else None
        if sortie and location is not None and refused_support(ctx, persona["id"]):
            with_garrison = None
        b.sides[ATTACKER] = b.side(ctx, ATTACKER, [persona], persona, defender, garrison=with_garrison)
    members: list[Persona] = []
    garrison_joins = False
    if kind == "urban" and location is not None and garrison_only is None:
        members, garrison_joins = support_group(ctx, location, defender, persona, fought)
    own_garrison = garrison_contingent(ctx, location) if garrison_joins and location is not None else None
    enemy = persona if garrison_only is None else None
    b.sides[DEFENDER] = b.side(ctx, DEFENDER, [defender, *members], defender, enemy, spare=spare,
                               garrison=own_garrison)
    if kind == "urban" and location is not None:
        b.engine_args = urban_args(ctx, b, location, go_on=go_on)
    b.title = battle_title(ctx, b)
    return b


def urban_args(ctx: Ctx, b: Battle, location: Location, *, go_on: bool) -> dict[str, Any]:
    """The urban engine's arguments: the home side (RW-OQ-27), the withdrawal of a home attacker who controls a
    tower unless he ordered the battle continued (C), each side's tower room, the non-home side's egress."""
    state = ctx.state
    commanders = {role: ctx.persona(s.commander or "") for role, s in b.sides.items()}
    home = home_side(state, location, commanders[ATTACKER], commanders[DEFENDER])
    rooms: dict[str, int | None] = {}
    for role, p in commanders.items():
        n = tower_controlled(state, p) if p is not None else None
        rooms[role] = control.tower_room(location, n) if n is not None else None
    away = commanders[ATTACKER if home == DEFENDER else DEFENDER]
    denied = away is not None and away.get("family") in (location.get("egress_denied") or [])
    withdraw = home == ATTACKER and rooms[ATTACKER] is not None and not go_on
    return {"home": home, "withdraw": withdraw, "tower_room": rooms, "egress_denied": denied}
