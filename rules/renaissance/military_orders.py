"""MILITARY ORDERS: electing a grandmaster (VG) and his acceptance (OGA), the free heavy cavalry (OGC), the Pope's
founding of an order each June (OGF) with the tenancy of its seat transferred to the grandmaster's office (OGT; OGV
for a sovereignty the order exercises), and
the month's step that settles foundings, counts elections and finds vacancies.

The orders' records and who holds what are grandmasters.py's; the doubled morale against Moslems is war/morale.py's,
which asks grandmasters.is_grandmaster. Readings RH-OQ-31 ... 35: docs/renaissance/hierarchies.md, "Military orders".
"""

from __future__ import annotations

from typing import Any

from .ballots import Bonus, count, tally
from .calendar import month_name
from .church_offices import pope_acts, pope_may_act, resign_others, unfit
from .commerce import give_asset, take_asset
from .context import Ctx, Outcome, Persona, done, fail
from .grandmaster_vacancy import call_election, pass_offices, vacate
from .grandmasters import (
    find_order,
    free_cavalry,
    grandmastership_of,
    held_offices,
    order_key,
    order_name,
    orders,
    title_of,
)
from .items import DUCATS
from .offices import dfc, holder, set_office
from .setup import find_location
from .war.control import ORDERERS, halve_loyalty
from .war.morale import receive
from .war.raising import SOLDIER_MORALE

FOUNDING_MONTH = 6  # "Each June, in lieu of appointing an archbishop, the Pope may create a new military order."
FOUNDING_COST = 100_000  # "he must disburse 100,000 ducats"
SEAT_POPULATION = 10_000  # "tenancy of a location with a population of at least 10,000"
PIETY_VOTES = 2  # "an additional two votes are given to the candidate with the highest piety rating"
SERMON_VOTES = 2  # "and two more votes are given to the candidate with the highest sermonizing rating"
CAVALRY = "heavy cavalry"
CATHOLIC = "catholic"

_FOUNDING = "military_orders.founding"  # order key -> {"name", "seat", "pope"}: this month's founding
_TENANCY = "military_orders.offices"  # (location, office, order key) -> [pids who ordered it to the order]


def _name(ctx: Ctx, pid: str | None) -> str:
    p = ctx.persona(pid or "")
    return f"{p.get('name') or pid} ({pid})" if p else str(pid)


def may_serve(persona: Persona | None) -> bool:
    """A living male Catholic: who may vote for a grandmaster ("Each male Catholic persona"), and who may be one
    (RH-OQ-31: the voters' own bar; RH-OQ-29: a grandmastership is an ecclesiastical position, so the church's one
    test of who may hold one, church_offices.unfit)."""
    return unfit(persona, CATHOLIC) is None


# ---- the election -----------------------------------------------------------------------------------------------

def vote_grandmaster(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """VGnnnn[/order]: one vote, cast at the election site (the order's seat) where the voter began the month."""
    pid = persona["id"]
    if not may_serve(persona):
        return fail("only male Catholic personae vote for a grandmaster")
    site = ctx.start_location.get(pid)
    if site is None:
        return fail("he began the month at sea: a grandmaster is elected by those at the order's seat")
    held = {k: o for k, o in orders(ctx.state).items()
            if (o.get("election") or {}).get("turn") == ctx.turn and o.get("seat") == site}
    if args.get("order"):
        key = find_order(ctx.state, args["order"])
        if key is None or key not in held:
            return fail(f"no election of the grandmaster of {args['order']} is held at {site} this month")
    elif len(held) == 1:
        key = next(iter(held))
    elif not held:
        return fail(f"no grandmaster is elected at {site}, where he began the month")
    else:
        return fail(f"several grandmasters are elected at {site}: name the order (VG{args.get('candidate')}/order)")
    candidate = str(args.get("candidate", ""))
    if not may_serve(ctx.persona(candidate)):
        return fail(f"{candidate} may not be grandmaster: a living male Catholic persona is elected")
    if not ctx.once("military_orders.vote", pid, key):
        return fail("one vote apiece")
    held[key]["election"]["votes"][pid] = candidate
    return done(f"voted for {candidate} as grandmaster of {order_name(ctx.state, key)}")


def _sermonizing(p: Persona) -> int | None:
    rating = (p.get("skills") or {}).get("sermonizing")
    return int(rating) if rating else None


def count_election(ctx: Ctx, key: str) -> None:
    """End of the election month. Votes for a candidate who died or may no longer serve are void; the two bonuses go
    among the vote-getters; the most votes is elected (RH-OQ-31, RH-OQ-37). No valid vote: elected next month."""
    order = orders(ctx.state)[key]
    votes = {v: c for v, c in (order["election"].get("votes") or {}).items() if may_serve(ctx.persona(c))}
    if not votes:
        call_election(ctx, key, f"No valid vote was cast for the grandmaster of {order_name(ctx.state, key)}")
        return
    cast = tally(votes)
    people = {c: ctx.persona(c) or {} for c in cast}
    piety = {c: int(p.get("piety", 0)) for c, p in people.items()}
    sermons = {c: s for c, p in people.items() if (s := _sermonizing(p)) is not None}
    result = count(cast, [Bonus(piety, PIETY_VOTES, "piety"), Bonus(sermons, SERMON_VOTES, "sermonizing")],
                   [piety, sermons], ctx.rng)
    order["election"] = None
    order["elected"] = {"persona": result.winner, "turn": ctx.turn}
    winner = ctx.persona(result.winner) or {}
    ctx.tell(winner.get("family", ""), f"{result.winner}: elected grandmaster of {order_name(ctx.state, key)}; "
             f"accept with OGA in {month_name(ctx.state, ctx.turn + 1)}, or the election is void.")
    bonus = "; ".join(f"+{n} for the highest {what} to {c}" for what, c, n in result.bonuses)
    bonus = f" ({bonus})" if bonus else ""
    ctx.publish(f"{_name(ctx, result.winner)} is elected grandmaster of {order_name(ctx.state, key)} with "
                f"{result.counts[result.winner]} votes{bonus}; he must accept by the end of "
                f"{month_name(ctx.state, ctx.turn + 1)}.")


# ---- acceptance ------------------------------------------------------------------------------------------------

def install(ctx: Ctx, key: str, persona: Persona) -> list[str]:
    """He becomes grandmaster: the order's offices are his, with its title; his other church positions end."""
    order = orders(ctx.state)[key]
    left = resign_others(ctx, persona["id"], keep_order=key)  # RH-OQ-18 and RH-OQ-29: the church's one rule
    order["grandmaster"] = persona["id"]
    order["elected"] = None
    order["election"] = None
    pass_offices(ctx, key, {None, order_name(ctx.state, key)}, persona["id"])
    title = title_of(ctx.state, key)
    if title not in (persona.get("titles") or []):
        persona["titles"] = [*(persona.get("titles") or []), title]
    return left


def accept_grandmastership(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OGA[/order]: "must accept his election no later than the end of the subsequent turn"."""
    pid = persona["id"]
    mine = [k for k, o in orders(ctx.state).items() if (o.get("elected") or {}).get("persona") == pid]
    if args.get("order"):
        mine = [k for k in mine if k == find_order(ctx.state, args["order"])]
    if not mine:
        return fail("he has not been elected to a grandmastership awaiting his acceptance")
    key = mine[0]
    left = install(ctx, key, persona)
    holds = ", ".join(f"{office} of {where}" for where, office in held_offices(orders(ctx.state)[key]))
    ctx.publish(f"{_name(ctx, pid)} accepts the grandmastership of {order_name(ctx.state, key)}"
                + (f" and resigns {', '.join(left)}" if left else "") + ".")
    return done(f"accepted: {title_of(ctx.state, key)}" + (f" ({holds})" if holds else "")
                + (f"; resigned {', '.join(left)}" if left else ""))


# ---- the free heavy cavalry -----------------------------------------------------------------------------------

def claim_cavalry(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OGC: "A grandmaster present at the start of the turn at the seat of the order may claim to have recruited free
    of charge ten heavy cavalry" (twenty, fifty for the orders named): once a month, every month (RH-OQ-32), with
    the professional soldiers' initial morale, "fully equipped, but not mounted"."""
    pid = persona["id"]
    key = grandmastership_of(ctx.state, pid)
    if key is None:
        return fail("only a grandmaster claims the order's free heavy cavalry")
    seat = orders(ctx.state)[key].get("seat")
    if ctx.start_location.get(pid) != seat:
        return fail(f"the grandmaster claims them in a month he starts at the seat of the order, {seat}")
    if not ctx.once("military_orders.cavalry", key):
        return fail("the order's heavy cavalry have been claimed this month")
    n = free_cavalry(key)
    morale = min(SOLDIER_MORALE, int(persona.get("popularity", 0)))
    receive(persona, n, morale)
    give_asset(persona, CAVALRY, n)
    return done(f"recruited {n} heavy cavalry free of charge at {seat} (equipped, not mounted; their morale "
                f"{morale}); morale now {persona['morale']}")


# ---- founding an order ------------------------------------------------------------------------------------------

def found_order(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OGFname/seat: the Pope, in June, for 100,000 ducats. The order is created at the end of the month if the
    tenancy of its seat has then been transferred to its grandmaster's office; else nothing happens (RH-OQ-33)."""
    pid = persona["id"]
    if ctx.month != FOUNDING_MONTH:
        return fail("the Pope creates a military order in June")
    # "Each June, in lieu of appointing an archbishop": the Pope's one act of the month (church_offices.POPE_ACT),
    # which an investiture made first has spent, and which this founding spends (one order a June).
    if why := pope_may_act(ctx, persona):
        return fail(why)
    name = str(args.get("order") or "").strip()
    key = order_key(name)
    if not key:
        return fail("name the new order")
    if find_order(ctx.state, name) is not None:
        return fail(f"there is already an order of {name}")
    seat = find_location(ctx.state, args.get("seat"))
    if seat is None:
        return fail(f"there is no location {args.get('seat')!r}")
    population = int(ctx.state["locations"][seat].get("population", 0))
    if population < SEAT_POPULATION:
        return fail(f"the seat's tenancy must be of a location of at least {SEAT_POPULATION:,} people; {seat} has "
                    f"{population:,}")
    if int((persona.get("assets") or {}).get(DUCATS, 0)) < FOUNDING_COST:
        return fail(f"creating an order takes {FOUNDING_COST:,} ducats")
    pope_acts(ctx, persona, "created a military order")
    ctx.scratch.setdefault(_FOUNDING, {})[key] = {"name": name, "seat": seat, "pope": pid}
    return done(f"creates the order of {name} with its seat at {seat}, if the tenancy of {seat} is transferred to "
                "its grandmaster's office this month (OGT by its sovereign, feudatory and de facto controller); "
                f"{FOUNDING_COST:,} ducats are then disbursed")


OFFICE_WORDS = {"tenant": "tenancy", "sovereign": "sovereignty"}


def order_office(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OGTorder/location, OGVorder/location: a location's tenancy or sovereignty ordered to the office of grandmaster
    of an order, by the holders the rules name (TENANTS: "Tenancy may be transferred to any title through the
    simultaneous order of the location's sovereign, feudatory and de facto controller"; SOVEREIGNS: by "its de facto
    controller to any title except a feudal one ranking below that of duke": a grandmastership is no feudal title, and
    "Military orders may exercise rights of sovereignty"). Settled at the end of the month, all orders in."""
    office = args.get("office", "tenant")
    if office not in OFFICE_WORDS:
        return fail("an order receives a location's tenancy (OGT) or sovereignty (OGV)")
    where = find_location(ctx.state, args.get("location"))
    if where is None:
        return fail(f"there is no location {args.get('location')!r}")
    location = ctx.state["locations"][where]
    roles = [role for role in ORDERERS[office] if _role_holder(location, role) == persona["id"]]
    if not roles:
        needed = ", ".join(ORDERERS[office]).replace("dfc", "de facto controller")
        return fail(f"only the {needed} of {where} orders its {OFFICE_WORDS[office]} transferred")
    key = order_key(args.get("order"))
    given = ctx.scratch.setdefault(_TENANCY, {}).setdefault((where, office, key), [])
    if persona["id"] in given:
        return fail("he has already ordered it this month")
    given.append(persona["id"])
    return done(f"ordered, as {' and '.join(roles).replace('dfc', 'de facto controller')} of {where}, its "
                f"{OFFICE_WORDS[office]} transferred to the grandmaster of {args.get('order')}: carried out at the end "
                "of the month if every order it needs is in")


def _role_holder(location: dict[str, Any], role: str) -> str | None:
    return dfc(location) if role == "dfc" else holder(location, role)


def _missing(ctx: Ctx, where: str, office: str, given: list[str]) -> str | None:
    """Why the office of `where` may not pass: an orderer's order wanting (a non-player holder gives none)."""
    location = ctx.state["locations"][where]
    roles = [(role, who) for role in ORDERERS[office] if (who := _role_holder(location, role))]
    if not roles:
        return f"no one holds the offices of {where} that would order its {OFFICE_WORDS[office]} transferred"
    wanting = [f"the {role.replace('dfc', 'de facto controller')} ({_name(ctx, who)})"
               for role, who in roles if who not in given]
    return f"the order of {' and '.join(wanting)} was not given" if wanting else None


def _transfer(ctx: Ctx, key: str, where: str, office: str) -> str:
    """The office passes to the order's grandmaster (or to the order, vacant). TENANTS: "Such an action reduces
    loyalty by 50% and disbands the garrison"; SOVEREIGNS: "Changing the sovereign of a location reduces its loyalty
    by 50%"."""
    order = orders(ctx.state)[key]
    location = ctx.state["locations"][where]
    if [where, office] not in order.setdefault("holds", []):
        order["holds"].append([where, office])
    set_office(location, office, order.get("grandmaster") or order_name(ctx.state, key))
    before = int(location.get("loyalty", 0))
    halve_loyalty(location)
    said = f"loyalty {before} -> {location['loyalty']}"
    if office == "tenant":
        if holder(location, "dfc") == holder(location, "tenant"):
            set_office(location, "dfc", None)
        location["garrison"] = 0
        said += ", the garrison disbanded"
    return said


def settle_foundings(ctx: Ctx) -> None:
    """The month's foundings, and the offices ordered to an order, once every family's orders have run: sovereignty
    first, then tenancy, one transfer of a location's offices a month ("Tenancy may not be transferred in the same
    turn as the transferral of feudatory, or sovereign, status")."""
    foundings: dict[str, dict[str, Any]] = ctx.scratch.get(_FOUNDING, {})
    transfers: dict[tuple[str, str, str], list[str]] = ctx.scratch.get(_TENANCY, {})
    moved: set[str] = set()
    for key, f in foundings.items():
        pope = ctx.persona(f["pope"]) or {}
        given = [*transfers.pop((f["seat"], "tenant", key), []), f["pope"]]
        why = _missing(ctx, f["seat"], "tenant", given)
        if why is None and not pope.get("alive", True):
            why = "the Pope died"
        if why is None and int((pope.get("assets") or {}).get(DUCATS, 0)) < FOUNDING_COST:
            why = f"the Pope no longer has {FOUNDING_COST:,} ducats"
        if why is not None:
            ctx.tell(pope.get("family", ""), f"The order of {f['name']} was not created: {why}; nothing was spent.")
            continue
        take_asset(pope, DUCATS, FOUNDING_COST)
        ctx.state.setdefault("military_orders", {})[key] = {
            "name": f["name"], "seat": f["seat"], "grandmaster": None, "holds": [], "founded": ctx.turn,
            "election": None, "elected": None}
        said = _transfer(ctx, key, f["seat"], "tenant")
        moved.add(f["seat"])
        ctx.publish(f"The Pope creates the military order of {f['name']}; the tenancy of {f['seat']} passes to its "
                    f"grandmaster's office ({said}).")
        call_election(ctx, key, f"The order of {f['name']} has no grandmaster")
    for (where, office, key), given in sorted(transfers.items(), key=lambda kv: kv[0][1] != "sovereign"):
        families = sorted({(ctx.persona(p) or {}).get("family", "") for p in given} - {""})
        what = f"The {OFFICE_WORDS[office]} of {where}"
        if key not in orders(ctx.state):
            why: str | None = f"there is no military order {key!r}"
        elif where in moved:
            why = f"an office of {where} was transferred this month"
        else:
            why = _missing(ctx, where, office, given)
        if why is not None:
            for family in families:
                ctx.tell(family, f"{what} did not pass to the order of {key}: {why}.")
            continue
        said = _transfer(ctx, key, where, office)
        moved.add(where)
        ctx.publish(f"{what} passes to the grandmaster of {order_name(ctx.state, key)} ({said}).")


# ---- the month's step ------------------------------------------------------------------------------------------

def military_orders(ctx: Ctx) -> None:
    """After every order and battle of the month, before succession: foundings settle; an election unaccepted by
    the end of the month after it is void and held again; this month's elections are counted; a dead grandmaster's
    (or grandmaster-elect's) office falls vacant, so that his heir never receives it."""
    settle_foundings(ctx)
    for key in sorted(orders(ctx.state)):
        order = orders(ctx.state)[key]
        elected = order.get("elected")
        if elected and elected.get("turn", 0) + 1 <= ctx.turn:
            call_election(ctx, key, f"{_name(ctx, elected['persona'])} did not accept the grandmastership of "
                                    f"{order_name(ctx.state, key)}")
        elif (order.get("election") or {}).get("turn") == ctx.turn:
            count_election(ctx, key)
        gm = ctx.persona(order.get("grandmaster") or "")
        if gm is not None and not gm.get("alive", True):
            vacate(ctx, key)
        elected = order.get("elected")
        if elected and not (ctx.persona(elected["persona"]) or {}).get("alive", True):
            call_election(ctx, key, f"The grandmaster-elect of {order_name(ctx.state, key)} died")
