"""Commerce: transfers between personae, sales to the locals' demand, purchases from the locals' supply, tariffs,
and the merchants' advantages of Appendix C (premiums on several types of one class, purchases of sold-out goods).

Sections COMMERCE, ITEMS SUPPLIED/DEMANDED BY THE LOCALS, TARIFFS, TRANSFERS, MAGISTRATES (tariffs to a present
magistrate), APPENDIX C. Readings (numbered C1...): docs/renaissance/commerce.md.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .guild import RANKS, merchant_rank
from .items import ALL_ITEMS, CLASS_CODES, CLASSES, DUCATS, TROOPS, item_by_code
from .walls import has_ingress, trade_refusal
from .war.morale import MORALE_MEN, receive, settle

LOCALS = "9999"
_SCRATCH = "commerce"

# Appendix C, per merchant rank (1 apprentice, 2 journeyman, 3 master):
PREMIUM_STEP = {1: 10, 2: 20, 3: 30}  # percent of the base price per type after the first
SOLD_OUT_SHARE = {1: 1, 2: 2, 3: 3}  # percent of BQ x population he may buy of a sold-out good
SOLD_OUT_PRICE = {1: 10, 2: 5, 3: 2}  # times the normal price

# MERCENARIES: "The initial morale of pikemen is 500. All other mercenaries have an initial morale of 200."
MERCENARY_MORALE = {"pikeman": 500}
MERCENARY_DEFAULT_MORALE = 200


def half_up(num: int | Fraction, den: int = 1) -> int:
    """num/den to the nearest whole ducat, halves up (C9); num, den >= 0."""
    return int(Fraction(num) / den + Fraction(1, 2))


def quota(market: dict[str, Any], population: int) -> Fraction:
    """BQ x population, exactly: BQ is stored as a float such as 0.005, read as the decimal it was written as."""
    return Fraction(str(market.get("bq", 0))) * population


def item_named(name: Any) -> str | None:
    """The canonical item an order writes, as a name or an order code ("saltfish", "heavycav", "qqq")."""
    if not isinstance(name, str):
        return None
    return name if name in ALL_ITEMS else item_by_code(name)


def under_siege(location: dict[str, Any], turn: int) -> bool:
    """A siege is in effect from the turn it takes effect ("since", set the month after the order) while the record
    stands (docs/renaissance-state.md, War); an order not yet in effect besieges nothing (C3)."""
    siege = location.get("siege")
    if not isinstance(siege, dict):
        return False
    since = siege.get("since")
    return since is not None and int(since) <= turn


def _scratch(ctx: Ctx) -> dict[str, Any]:
    return ctx.scratch.setdefault(_SCRATCH, {"sold": {}, "sold_out": {}})


def _place(ctx: Ctx, persona: Persona) -> tuple[Any, ...] | None:
    """Where a persona is, for "at the same location": a location name, or a point of open water. A passenger
    ("with" a ship's owner) is where the owner is."""
    owner = ctx.persona(persona["with"]) if persona.get("with") else None
    where = owner if owner is not None else persona
    if where.get("location"):
        return ("location", where["location"])
    sea = where.get("at_sea")
    if sea:
        return ("sea", sea.get("lat"), sea.get("lon"))
    return None


def _assets(persona: Persona) -> dict[str, int]:
    return persona.setdefault("assets", {})


def take_asset(persona: Persona, item: str, qty: int) -> None:
    """qty of an item out of his assets (an item he has none of left disappears from the list; ducats stay)."""
    assets = _assets(persona)
    assets[item] = assets.get(item, 0) - qty
    if assets[item] == 0 and item != DUCATS:
        del assets[item]


def give_asset(persona: Persona, item: str, qty: int) -> None:
    assets = _assets(persona)
    assets[item] = assets.get(item, 0) + qty


def _at_starting_location(ctx: Ctx, persona: Persona) -> tuple[str, dict[str, Any]] | None:
    """The persona's starting location for the turn, if he is still there (C4)."""
    start = ctx.start_location.get(persona["id"])
    location = ctx.location(start)
    if start is None or location is None or persona.get("location") != start:
        return None
    return start, location


def pay_tariff(ctx: Ctx, name: str, amount: int, what: str) -> str:
    """MAGISTRATES: "All tariffs paid at a location while the magistrate is present are added to his assets."
    Otherwise the tariff leaves the game (C8). Returns a note for the payer's printout."""
    if amount <= 0:
        return ""
    location = ctx.location(name) or {}
    mid = (location.get("offices") or {}).get("magistrate")
    magistrate = ctx.persona(mid) if isinstance(mid, str) else None
    if magistrate is not None and magistrate.get("alive", True) and magistrate.get("location") == name:
        give_asset(magistrate, DUCATS, amount)
        ctx.tell(magistrate["family"], f"{magistrate['name']} received {amount} ducats of {what} tariff at {name}")
        return f", {amount} ducats {what} tariff to the magistrate"
    return f", {amount} ducats {what} tariff"


def transfer(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    item = item_named(args.get("item"))
    qty = int(args.get("qty", 0))
    to = str(args.get("to", ""))
    if item is None:
        return fail(f"no such item {args.get('item')!r}")
    if qty <= 0:
        return fail("nothing to transfer")
    held = _assets(persona).get(item, 0)
    if held < qty:
        # C1: a transfer larger than the holding fails whole; the rules do not correct player errors.
        return fail(f"has only {held} {item}, cannot transfer {qty}")
    if to == LOCALS:
        take_asset(persona, item, qty)
        if item in MORALE_MEN:
            settle(persona)  # "When a persona controls neither troops, nor crew, his morale rating is zero."
        return done(f"gave {qty} {item} to the locals")
    other = ctx.persona(to)
    if other is None or not other.get("alive", True) or to == persona["id"]:
        return fail(f"no persona {to} to receive the transfer")
    if other.get("with"):
        # TRAVEL: 'A persona who is "with" another persona may not ... receive transfers.'
        return fail(f"{other['name']} is aboard another's ship and may not receive transfers")
    here = _place(ctx, persona)
    if here is None or _place(ctx, other) != here:
        return fail(f"{other['name']} is not at the same location")
    if item in TROOPS and other.get("religion") != persona.get("religion"):
        return fail("troops may not be transferred between personae of different religions")
    location = ctx.location(persona.get("location")) if here[0] == "location" else None
    if location is not None and other.get("inside") and not persona.get("inside"):
        # C3: troops (and food) crossing the walls inwards.
        if item in TROOPS and not has_ingress(location, other.get("family", "")):
            return fail(f"{other['name']} is inside the walls without ingress and cannot receive troops from outside")
        if under_siege(location, ctx.turn) and (item in TROOPS or item in CLASSES["food"]):
            return fail(f"{location['name']} is under siege: no troops or food may be passed inside the walls")
    if item in MORALE_MEN:
        # C15: the men bring the giver's morale into the receiver's weighted average (MORALE).
        receive(other, qty, int(persona.get("morale", 0)))
    take_asset(persona, item, qty)
    give_asset(other, item, qty)
    if item in MORALE_MEN:
        settle(persona)
    return done(f"transferred {qty} {item} to {other['name']}")


def sell(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    item = item_named(args.get("item"))
    cls = args.get("cls", "")
    cls = CLASS_CODES.get(cls, cls) if cls not in CLASSES else cls
    qty = int(args.get("qty", 0))
    claimed = max(0, int(args.get("rank", 0)))
    if item is None:
        return fail(f"no such item {args.get('item')!r}")
    if cls not in CLASSES:
        return fail(f"no such class of goods {args.get('cls')!r}")
    if item not in CLASSES[cls]:
        return fail(f"{item} is not in the class {cls}")
    if qty <= 0:
        return fail("nothing to sell")
    here = _at_starting_location(ctx, persona)
    if here is None:
        return fail("sales may be made only at the persona's starting location for the turn")
    name, location = here
    if why := trade_refusal(location, persona):  # C14
        return fail(why)
    market = location.get("demanded", {}).get(cls)
    if market is None or market.get("qty", 0) <= 0:
        return fail(f"no demand for {cls} at {name}")
    held = _assets(persona).get(item, 0)
    if held < qty:
        return fail(f"has only {held} {item}, cannot sell {qty}")
    sold = min(qty, market["qty"])  # C5: the demand takes what it can
    base = market["price"]
    # C6: the premium rank is the player's m, but never more than the number of types of this class he has
    # already sold this turn in quantities at least as large (so listing out of order earns nothing).
    history: dict[str, int] = _scratch(ctx)["sold"].setdefault((persona["id"], cls), {})
    earned = sum(1 for other, n in history.items() if other != item and n >= sold)
    rank = min(claimed, earned)
    step = PREMIUM_STEP.get(merchant_rank(persona), 0)
    gross = half_up(sold * base * (100 + rank * step), 100)
    tariff = half_up(gross * location.get("tariffs", {}).get("import", 0), 100)
    net = gross - tariff
    take_asset(persona, item, sold)
    give_asset(persona, DUCATS, net)
    market["qty"] -= sold
    history[item] = history.get(item, 0) + sold
    if cls == "food" and market["qty"] == 0:
        location["food_satisfied"] = True  # C10
    premium = f" with a {rank * step}% premium" if rank * step else ""
    short = f" (demand was only {sold})" if sold < qty else ""
    return done(f"sold {sold} {item} for {gross} ducats{premium}{short}{pay_tariff(ctx, name, tariff, 'import')}; "
                f"received {net} ducats")


def buy(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    item = item_named(args.get("item"))
    qty = int(args.get("qty", 0))
    if item is None:
        return fail(f"no such item {args.get('item')!r}")
    if qty <= 0:
        return fail("nothing to buy")
    here = _at_starting_location(ctx, persona)
    if here is None:
        return fail("purchases may be made only at the persona's starting location for the turn")
    name, location = here
    if why := trade_refusal(location, persona):  # C14
        return fail(why)
    market = location.get("supplied", {}).get(item)
    if market is None:
        return fail(f"{item} is not supplied at {name}")
    surcharged = market.get("qty", 0) <= 0
    if not surcharged:
        bought = min(qty, market["qty"])  # C5
        unit = market["price"]
    else:
        rank = merchant_rank(persona)
        if not args.get("surcharge"):
            return fail(f"{item} is sold out at {name}")
        if rank == 0:
            return fail(f"{item} is sold out at {name}, and only merchants may buy sold-out goods")
        sold_out: dict[str, tuple[str, int]] = _scratch(ctx)["sold_out"]
        prior_item, prior_qty = sold_out.get(persona["id"], (item, 0))
        if prior_item != item:
            return fail(f"has already bought a sold-out good ({prior_item}) this turn")
        # C7: the cap is per merchant per turn, over all his orders for that good.
        cap = int(quota(market, location.get("population", 0)) * SOLD_OUT_SHARE[rank] / 100)
        bought = min(qty, cap - prior_qty)
        if bought <= 0:
            return fail(f"may buy no more sold-out {item} this turn (limit {cap} for a {RANKS[rank - 1]})")
        unit = market["price"] * SOLD_OUT_PRICE[rank]
    cost = bought * unit
    tariff = half_up(cost * location.get("tariffs", {}).get("export", 0), 100)
    if _assets(persona).get(DUCATS, 0) < cost + tariff:
        return fail(f"cannot afford {bought} {item}: {cost + tariff} ducats needed")
    take_asset(persona, DUCATS, cost + tariff)
    if item in TROOPS:
        # C16, MERCENARIES: bought soldiers join at their starting morale by weighted average (RW-OQ-12).
        receive(persona, bought, MERCENARY_MORALE.get(item, MERCENARY_DEFAULT_MORALE))
    give_asset(persona, item, bought)
    if surcharged:
        _scratch(ctx)["sold_out"][persona["id"]] = (item, prior_qty + bought)
    else:
        market["qty"] -= bought
    note = f" at {unit} ducats (sold out, surcharged)" if surcharged else ""
    short = "" if bought == qty else " (all he may buy this turn)" if surcharged else f" (only {bought} available)"
    return done(f"bought {bought} {item}{note}{short} for {cost} ducats{pay_tariff(ctx, name, tariff, 'export')}")
