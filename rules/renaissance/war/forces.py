"""What a battle is fought with and what it gives back: the contract between the battle engines (field.py,
urban.py, assault.py, naval.py), which are pure functions of two Sides, and sides.py, which builds the Sides
from the state, and battle.py, which applies the result to it.

A **Contingent** is what one party brings: a persona's troops, crew, slaves, guns, horses, goods and ships; or a
town's garrison; or a tower's garrison. A **Side** is the contingents fighting together under one commander (the
persona whose order or whose person made the battle; his rank and popularity set the side's retreat point). The
engines fight with the side's totals: the side's morale is the weighted average of its contingents' (MORALE, "a
weighted average"; Appendix E, "the overall original morale of the combined force is the weighted average of
their respective original morales"), the gunnery of its guns the weighted average of their owners' (by cannons,
a falconet a tenth), its navigation its commander's. After the battle each contingent loses, of each thing, its
share of the side's loss in proportion to what it brought (arith.share), and "the change in the overall morale
... becomes the change in morale for each" of its personae.

Troop types in a battle: the six of items.TROOPS, "crew", "slave", and "garrison" (town or tower garrison troops:
"treated as auxiliaries", and "When there is a choice, garrison troops always take losses first").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..items import DUCATS, SHIPS, TROOPS
from . import morale as mo
from .arith import share

ATTACKER = "attacker"
DEFENDER = "defender"
ROLES = (ATTACKER, DEFENDER)

GARRISON = "garrison"
FIGHTERS: tuple[str, ...] = (*TROOPS, "crew", GARRISON)  # men who fight (slaves do not)
MEN: tuple[str, ...] = (*FIGHTERS, "slave")
GUNS: tuple[str, ...] = ("cannon", "falconet")

# Field battle divisions (FIELD BATLE) and their Z-order places; naval battles use left, center, right, reserves
# (NAVAL BATTLES); assaults use the four walls (SIEGE BOMBARDMENT ... ASSAULT).
DIVISIONS: tuple[str, ...] = ("left wing", "left", "center", "right", "right wing", "reserves")
NAVAL_DIVISIONS: tuple[str, ...] = ("left", "center", "right", "reserves")
WALLS: tuple[str, ...] = ("north", "east", "south", "west")


def other(role: str) -> str:
    return DEFENDER if role == ATTACKER else ATTACKER


@dataclass
class Contingent:
    key: str  # a persona id, "garrison:<location>" or "tower:<location>:<n>"
    name: str  # for the reports: "Piero de' Medici (0101)", "the garrison of Pisa"
    persona: str | None  # the persona whose assets these are; None for a garrison
    men: dict[str, int] = field(default_factory=dict)  # MEN types -> count
    morale: int = 0
    cannon: int = 0
    falconet: int = 0
    horses: int = 0
    ships: dict[str, int] = field(default_factory=dict)
    goods: dict[str, int] = field(default_factory=dict)  # every other mobile asset, ducats included
    gunnery: int = 0
    navigation: int = 0

    def fighters(self) -> int:
        return sum(self.men.get(t, 0) for t in FIGHTERS)

    def count(self, item: str) -> int:
        if item == "cannon":
            return self.cannon
        if item == "falconet":
            return self.falconet
        if item == "horse":
            return self.horses
        if item in SHIPS:
            return self.ships.get(item, 0)
        if item in MEN:
            return self.men.get(item, 0)
        return self.goods.get(item, 0)


@dataclass
class Side:
    role: str  # ATTACKER or DEFENDER
    contingents: list[Contingent]
    commander: str | None = None  # persona id; None for a garrison fighting alone
    retreat_value: int = 0  # ranks.retreat_value of the commander
    factor: Fraction = Fraction(1)  # morale.inflict_factor of the side
    commander_factor: Fraction | None = None  # the factor in the commander's own division, when it differs
    spare: bool = False  # MORALE/BATTLE: "the persona being attacked is not to be killed"
    places: dict[str, str] = field(default_factory=dict)  # persona id -> division or wall (default by engine)
    dispositions: list[tuple[str, str, int]] = field(default_factory=list)  # (place, item, qty) as ordered
    held_back: dict[str, int] = field(default_factory=dict)  # men left out of the first arrangement (crops)
    can_retreat: bool = True

    def total(self, item: str) -> int:
        return sum(c.count(item) for c in self.contingents)

    def men(self) -> dict[str, int]:
        return {t: n for t in MEN if (n := self.total(t))}

    def fighters(self) -> int:
        return sum(c.fighters() for c in self.contingents)

    def morale(self) -> int:
        return mo.combine((c.fighters(), c.morale) for c in self.contingents)

    def gunnery(self) -> int:
        """The weighted average of the gunners' ratings, by guns (a falconet a tenth of a cannon)."""
        weights = [(Fraction(c.cannon) + Fraction(c.falconet, 10), c.gunnery) for c in self.contingents]
        total = sum(w for w, _ in weights)
        if total == 0:
            return max((c.gunnery for c in self.contingents), default=0)
        return int(sum(w * g for w, g in weights) / total)

    def navigation(self) -> int:
        lead = self.lead()
        return lead.navigation if lead is not None else 0

    def lead(self) -> Contingent | None:
        """The commander's contingent, or the largest one."""
        for c in self.contingents:
            if c.persona is not None and c.persona == self.commander:
                return c
        return max(self.contingents, key=lambda c: c.fighters(), default=None)

    def personae(self) -> list[str]:
        return [c.persona for c in self.contingents if c.persona is not None]


@dataclass
class StageReport:
    number: int  # 1, 2, ...; the retreat stage is numbered after the last
    name: str  # "cannon", "archery", "arquebus", "melee", "retreat", "urban melee", "assault", "ramming", ...
    lines: list[str] = field(default_factory=list)  # what happened, with the figures, for the printout
    losses: dict[str, dict[str, int]] = field(default_factory=dict)  # role -> item -> lost in this stage
    morale: dict[str, int] = field(default_factory=dict)  # role -> morale after the stage's adjustment


@dataclass
class BattleResult:
    kind: str  # "field" | "urban" | "assault" | "tower" | "naval" | "bombardment"
    stages: list[StageReport] = field(default_factory=list)
    outcome: str = ""  # e.g. "the defender retreated", "the attacker was eliminated", "the attacker withdrew"
    victor: str | None = None  # ATTACKER, DEFENDER or None
    retreated: str | None = None  # the role that retreated (or withdrew), if any
    eliminated: list[str] = field(default_factory=list)  # roles eliminated
    # What is left of each side, by item (men by type, cannon, falconet, horse, ships by type, goods): the
    # contingents' losses are the differences.
    survivors: dict[str, dict[str, int]] = field(default_factory=dict)
    # What the victor takes from the loser, by item (already deducted from the loser's survivors).
    captured: dict[str, int] = field(default_factory=dict)
    # Fraction of the loser's ducats captured (field retreat stage), in [0, 1].
    ducats_share: Fraction = Fraction(0)
    dead: list[str] = field(default_factory=list)  # persona ids killed
    morale: dict[str, int] = field(default_factory=dict)  # role -> final morale
    morale_start: dict[str, int] = field(default_factory=dict)  # role -> morale the side started with
    stages_fought: int = 0  # counts toward the twenty stages of the initiator (BATTLE)
    notes: list[str] = field(default_factory=list)
    # Assaults: an entirely eliminated assaulter's assets go to the de facto controller when present, else to
    # "the defending persona with the greatest number of troops under his control" (Appendix E): that persona
    # (alive, troops after the battle), or None ("the assets cease to be game factors"). battle.py decides.
    receiver: str | None = None

    def losses(self, role: str) -> dict[str, int]:
        """Everything a side lost over the whole battle (captured items included)."""
        out: dict[str, int] = {}
        for stage in self.stages:
            for item, n in stage.losses.get(role, {}).items():
                out[item] = out.get(item, 0) + n
        return out

    def men_lost(self, role: str) -> int:
        return sum(n for item, n in self.losses(role).items() if item in MEN)


# ---- from the state ---------------------------------------------------------------------------------------

State = dict[str, Any]


def persona_name(persona: dict[str, Any]) -> str:
    return f"{persona.get('name', persona['id'])} ({persona['id']})"


def of_persona(persona: dict[str, Any]) -> Contingent:
    """Everything a persona has with him, as a battle sees it."""
    assets = persona.get("assets") or {}
    skills = persona.get("skills") or {}
    men = {t: int(assets.get(t, 0)) for t in MEN if int(assets.get(t, 0)) > 0 and t != GARRISON}
    ships = {s: int(assets[s]) for s in SHIPS if int(assets.get(s, 0)) > 0}
    skip = {*MEN, *SHIPS, "cannon", "falconet", "horse"}
    goods = {i: int(q) for i, q in assets.items() if i not in skip and int(q) > 0}
    return Contingent(key=persona["id"], name=persona_name(persona), persona=persona["id"], men=men,
                      morale=int(persona.get("morale", 0)), cannon=int(assets.get("cannon", 0)),
                      falconet=int(assets.get("falconet", 0)), horses=int(assets.get("horse", 0)), ships=ships,
                      goods=goods, gunnery=int(skills.get("gunnery", 0)), navigation=int(skills.get("navigation", 0)))


def of_garrison(location: dict[str, Any], morale: int) -> Contingent:
    """A town's garrison: "When accompanied by their tenant, the morale of town garrison troops is their tenant's.
    When he is not present, their morale is equal to the town's loyalty" (the caller says which)."""
    return Contingent(key=f"garrison:{location['name']}", name=f"the garrison of {location['name']}", persona=None,
                      men={GARRISON: int(location.get("garrison", 0))}, morale=morale)


TOWER_MORALE = 500


def of_tower_garrison(location: dict[str, Any], number: int, men: int) -> Contingent:
    """TOWERS: "Towers always start the turn with a tower garrison equal to 10% (rounded down) of their FAS ... They
    always fight with an initial morale of 500." `men` is what is left of it this month."""
    tower = (location.get("towers") or [])[number - 1]
    return Contingent(key=f"tower:{location['name']}:{number}",
                      name=f"the garrison of {tower.get('name') or f'tower {number}'} at {location['name']}",
                      persona=None, men={GARRISON: men}, morale=TOWER_MORALE)


# ---- back to the state --------------------------------------------------------------------------------------

def split_losses(side: Side, survivors: dict[str, int]) -> dict[str, dict[str, int]]:
    """Each contingent's loss of each item: the side's loss shared in proportion to what each brought."""
    out: dict[str, dict[str, int]] = {c.key: {} for c in side.contingents}
    items = {i for c in side.contingents for i in (*c.men, *c.ships, *c.goods)} | {*GUNS, "horse"}
    for item in sorted(items):
        lost = side.total(item) - survivors.get(item, 0)
        if lost <= 0:
            continue
        for key, n in share(lost, {c.key: c.count(item) for c in side.contingents}).items():
            if n:
                out[key][item] = n
    return out


def asset_key(item: str) -> str:
    return {"horse": "horse", "cannon": "cannon", "falconet": "falconet"}.get(item, item)


__all__ = ["ATTACKER", "DEFENDER", "DIVISIONS", "DUCATS", "FIGHTERS", "GARRISON", "GUNS", "MEN", "NAVAL_DIVISIONS",
           "ROLES", "WALLS", "BattleResult", "Contingent", "Side", "StageReport", "of_garrison", "of_persona",
           "of_tower_garrison", "other", "persona_name", "split_losses"]
