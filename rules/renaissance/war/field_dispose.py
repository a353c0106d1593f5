"""The field battle before the first shot (FIELD BATLE): horses allotted, the divisions arranged, legal or standard.

Horses (FIELD BATLE: "Horses will be allocated first to heavy cavalry, then to transforming auxiliaries into light
cavalry, then to cannon and falconets, then to the transportation of trade goods"; the figures are URBAN BATTLE's
retreat, RW-OQ-23): one a heavy cavalryman, one an auxiliary, 20 a cannon, 1/2 a falconet, one per two cargo of
goods (TRAVEL: "Horses may carry two cargos each"); only whole allocations count. Goods that walk or weigh nothing
(TRAVEL's walkers: horses, slaves, troops, cattle, sheep; ducats "equal zero cargo") need no horse. Slaves carry
nothing in a field battle (RW-OQ-23). Garrison troops are not mounted: they are the town's, "treated as
auxiliaries" for the losses they take and inflict, not for the horses of a persona.

Arrangement (FIELD BATLE): the commander's own (Side.dispositions: (division, item, qty) as ordered), checked whole;
what it leaves unplaced, and all of it when it is illegal or impossible, gets the standard dispositions ("each type
will be divided equally among the legal alternatives"; remainders RW-OQ-22). Items name the forms men fight in:
"heavy cavalry" takes the horsed ones first (then the unhorsed, who stand as pikemen), "light cavalry" the
persona's own light cavalry, then the auxiliaries given horses; "auxiliary" the auxiliaries on foot first; a
"pikeman" request may take unhorsed heavy cavalry once the pikemen are placed. Requests for the wings, where only
cavalry may stand, are met first, from the horsed. Men held back (CROP DESTRUCTION: "omitted from the initial
arrangement for battle, then added to the Reserves at the start of Stage 1") are taken out before any of this,
from the unhorsed first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..items import WALKERS, cargo_weight, item_by_code
from .arith import share
from .field_army import (
    ARCHER,
    ARQUEBUSIER,
    AUXILIARY,
    CREW,
    DIVISIONS,
    GARRISON,
    HEAVY,
    INFANTRY,
    LEFT_WING,
    LIGHT,
    LINE,
    PIKE,
    REMAINDER_ORDER,
    RESERVES,
    RIDER,
    RIGHT_WING,
    UNHORSED,
    Division,
    describe,
    legal_places,
    men,
    new_division,
    plural,
)
from .forces import Side

HORSES_PER_CANNON = 20
FALCONETS_PER_HORSE = 2
CARGO_PER_HORSE = 2


@dataclass
class Mounts:
    """What the side's horses went to."""
    heavy: int = 0  # heavy cavalrymen given a horse
    riders: int = 0  # auxiliaries made light cavalry
    cannon: int = 0  # cannons with their 20 horses
    falconet: int = 0  # falconets with their half horse
    goods: dict[str, int] = field(default_factory=dict)  # units of each good carried (or needing no horse)
    spare: int = 0  # horses left over


def carried_by_itself(item: str) -> bool:
    return item in WALKERS or cargo_weight(item) == 0


def allot_horses(side: Side) -> Mounts:
    left = side.total("horse")
    m = Mounts()
    m.heavy = min(side.total(HEAVY), left)
    left -= m.heavy
    m.riders = min(side.total(AUXILIARY), left)
    left -= m.riders
    m.cannon = min(side.total("cannon"), left // HORSES_PER_CANNON)
    left -= m.cannon * HORSES_PER_CANNON
    m.falconet = min(side.total("falconet"), left * FALCONETS_PER_HORSE)
    left -= math.ceil(m.falconet / FALCONETS_PER_HORSE)
    goods = {i: side.total(i) for c in side.contingents for i in c.goods}
    m.goods = {i: q for i, q in goods.items() if carried_by_itself(i)}
    loads = {i: q * cargo_weight(i) for i, q in goods.items() if not carried_by_itself(i) and q > 0}
    capacity = left * CARGO_PER_HORSE
    if sum(loads.values()) <= capacity:
        carried = {i: goods[i] for i in loads}
    else:  # "allocated proportionately among all other trade goods", whole loads only
        carried = {i: min(goods[i], c // cargo_weight(i)) for i, c in share(capacity, loads).items()}
    m.goods.update(carried)
    left -= math.ceil(sum(q * cargo_weight(i) for i, q in carried.items()) / CARGO_PER_HORSE)
    m.spare = left
    return m


def fighting_force(side: Side, mounts: Mounts) -> Division:
    """The side's men by the kinds they fight as."""
    force = new_division()
    force[HEAVY] = mounts.heavy
    force[UNHORSED] = side.total(HEAVY) - mounts.heavy
    force[LIGHT] = side.total(LIGHT)
    force[RIDER] = mounts.riders
    force[AUXILIARY] = side.total(AUXILIARY) - mounts.riders
    for kind in (PIKE, ARCHER, ARQUEBUSIER, GARRISON, CREW):
        force[kind] = side.total(kind)
    return force


# Held-back men, and arranged men, are drawn from these kinds in this order.
HELD_BACK_DRAW: dict[str, tuple[str, ...]] = {HEAVY: (UNHORSED, HEAVY), AUXILIARY: (AUXILIARY, RIDER)}
ARRANGE_DRAW: dict[str, tuple[str, ...]] = {HEAVY: (HEAVY, UNHORSED), LIGHT: (LIGHT, RIDER), PIKE: (PIKE, UNHORSED),
                                            AUXILIARY: (AUXILIARY, RIDER), ARCHER: (ARCHER,),
                                            ARQUEBUSIER: (ARQUEBUSIER,), CREW: (CREW,), GARRISON: (GARRISON,)}
GUN_ITEMS = ("cannon", "falconet")


def hold_back(force: Division, held: dict[str, int]) -> Division:
    """Takes the held-back men out of `force` (in place) and returns them."""
    out = new_division()
    for item, qty in held.items():
        for kind in HELD_BACK_DRAW.get(item, (item,) if item in force else ()):
            q = min(max(0, qty), force[kind])
            force[kind] -= q
            out[kind] += q
            qty -= q
    return out


def standard(force: Division) -> dict[str, Division]:
    """"each type will be divided equally among the legal alternatives"; a remainder one by one to the Center,
    Left, Right, Reserves, Left Wing, Right Wing, those legal for the type (RW-OQ-22)."""
    divs = {d: new_division() for d in DIVISIONS}
    for kind, n in force.items():
        places = legal_places(kind)
        each, rest = divmod(n, len(places))
        for d in places:
            divs[d][kind] += each
        for d in [d for d in REMAINDER_ORDER if d in places][:rest]:
            divs[d][kind] += 1
    return divs


class Refused(Exception):
    """The commander's arrangement is illegal or impossible (the reason is the message)."""


_PLACE_NUMBERS = {str(i + 1): d for i, d in enumerate(DIVISIONS)}


def place_of(word: str) -> str | None:
    w = " ".join(str(word).lower().replace("_", " ").split())
    w = _PLACE_NUMBERS.get(w, w)
    if w in ("reserve", "the reserves"):
        w = RESERVES
    return w if w in DIVISIONS else None


_PLURAL_ITEMS = {"pikemen": PIKE, "arquebusiers": ARQUEBUSIER, "auxiliaries": AUXILIARY, "archers": ARCHER,
                 "cannons": "cannon", "falconets": "falconet"}


def item_of(word: str) -> str | None:
    w = " ".join(str(word).lower().split())
    w = _PLURAL_ITEMS.get(w, w)
    if w in ARRANGE_DRAW or w in GUN_ITEMS:
        return w
    if w.startswith(GARRISON):
        return GARRISON
    found = item_by_code(w)
    return found if found in ARRANGE_DRAW or found in GUN_ITEMS else None


def ordered(entries: list[tuple[str, str, int]], force: Division, guns: dict[str, int]) -> dict[str, Division]:
    """The commander's arrangement, completed by the standard one for what it leaves out; raises Refused."""
    parsed: list[tuple[str, str, int]] = []
    for place, item, qty in entries:
        d, it = place_of(place), item_of(item)
        if d is None:
            raise Refused(f"there is no division {place!r}")
        if it is None:
            raise Refused(f"{item!r} cannot be arranged for battle")
        if int(qty) <= 0:
            raise Refused(f"{qty} {item} is no number to arrange")
        parsed.append((d, it, int(qty)))
    for gun in GUN_ITEMS:
        wanted = sum(q for _, it, q in parsed if it == gun)
        if any(d != RESERVES for d, it, _ in parsed if it == gun):
            raise Refused("cannons and falconets must all be assigned to the Reserves")
        if wanted > guns.get(gun, 0):
            raise Refused(f"{wanted} {plural(gun)} arranged, {guns.get(gun, 0)} there")
    left = dict(force)
    divs = {d: new_division() for d in DIVISIONS}
    troops = [e for e in parsed if e[1] not in GUN_ITEMS]
    wings_first = sorted(troops, key=lambda e: e[0] not in (LEFT_WING, RIGHT_WING))
    for d, it, qty in wings_first:
        draws = [k for k in ARRANGE_DRAW[it] if d in legal_places(k)]
        if not draws:
            raise Refused(f"{plural(it)} may not stand in the {d.title()}")
        if sum(left[k] for k in draws) < qty:
            mounted = " with horses" if d in (LEFT_WING, RIGHT_WING) else ""
            raise Refused(f"{qty} {plural(it)} for the {d.title()}, only {sum(left[k] for k in draws)}{mounted} left")
        for k in draws:
            q = min(left[k], qty)
            divs[d][k] += q
            left[k] -= q
            qty -= q
    for d, div in standard(left).items():
        for k, q in div.items():
            divs[d][k] += q
    check_legal(divs)
    return divs


def check_legal(divs: dict[str, Division]) -> None:
    """FIELD BATLE: "At least 20% of a commander's infantry must be assigned to each of his Left, Center and
    Right. At least 15% of his total force must be assigned to each of the Left, Center and Right." (Infantry in
    the wings cannot happen here: the draws refuse it.)"""
    infantry = sum(div[k] for div in divs.values() for k in INFANTRY)
    total = sum(men(div) for div in divs.values())
    for d in LINE:
        inf = sum(divs[d][k] for k in INFANTRY)
        if 5 * inf < infantry:
            raise Refused(f"the {d.title()} has {inf} of {infantry} infantry, under 20%")
        if 20 * men(divs[d]) < 3 * total:
            raise Refused(f"the {d.title()} has {men(divs[d])} of {total} men, under 15%")


def arrange(side: Side, force: Division) -> tuple[dict[str, Division], str]:
    """The divisions the side starts with, and a sentence for the report saying whose arrangement it is."""
    if not side.dispositions:
        return standard(force), "standard dispositions (none ordered)"
    guns = {g: side.total(g) for g in GUN_ITEMS}
    try:
        return ordered(side.dispositions, force, guns), "dispositions as ordered"
    except Refused as why:
        return standard(force), f"dispositions ordered ignored ({why}): standard dispositions"


def arrangement_text(divs: dict[str, Division]) -> str:
    return "; ".join(f"{d.title()}: {describe(divs[d])}" for d in DIVISIONS if men(divs[d]))
