"""MAGISTRATES: tariffs, appointment and resignation, the method of selection, and the October elections.

Readings (numbered rulings) are in docs/renaissance/offices.md. Votes are cast by October's orders and kept in
the location's "ballots"; they are counted at the start of the November turn, when the elected term begins
("Terms of office for elective magistrates run from November 1 to October 31").
"""

from __future__ import annotations

from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .loyalty import add_loyalty
from .offices import (
    SELECTION_METHODS,
    SELECTION_OFFICE,
    holds,
    magistracy_of,
    office_location,
    set_office,
)
from .ratings import spend_popularity
from .setup import find_location

MAX_TARIFF_STEP = 5  # "up to five percentage points each"
MAX_TARIFF = 99  # "Tariffs may not be raised above 99%."
BONUS_VOTES = 4  # the most popular candidate with at least one vote


def _name(ctx: Ctx, pid: str) -> str:
    p = ctx.persona(pid)
    return f"{p.get('name') or pid} ({pid})" if p else pid


def _citizen_of(ctx: Ctx, persona: Persona, where: str) -> bool:
    return find_location(ctx.state, persona.get("citizenship")) == where


def appointment_cost(appointee_popularity: int, citizen: bool) -> int:
    """MAGISTRATES: "1% of the difference between the appointee's popularity rating and 1100", "doubled when
    the appointee is not a citizen of the town"; doubled before the fraction is dropped (ruling 6)."""
    return (1100 - appointee_popularity) * (1 if citizen else 2) // 100


def _vacate(ctx: Ctx, where: str, why: str) -> None:
    loc = ctx.state["locations"][where]
    set_office(loc, "magistrate", None)
    loc.pop("magistrate_term", None)
    ctx.publish(f"The magistracy of {where} is vacant: {why}.")


def tariff(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    which, change = args.get("which"), args.get("change")
    if which not in ("import", "export") or not isinstance(change, int) or change == 0:
        return fail("a tariff order names import or export and the points of change")
    if abs(change) > MAX_TARIFF_STEP:
        return fail(f"a tariff may change by up to {MAX_TARIFF_STEP} percentage points a turn, not {abs(change)}")
    where = magistracy_of(ctx.state, pid)
    if where is None:
        return fail("only a location's magistrate may change its tariffs")
    if ctx.start_location.get(pid) != where:
        return fail(f"the magistrate changes the tariffs of {where} only in a turn he starts there")
    # "up to five percentage points each" per turn: a second order would let him step past five (ruling 7).
    if not ctx.once("magistracy.tariff", where, which):
        return fail(f"the {which} tariff of {where} has already been changed this turn")
    tariffs = ctx.state["locations"][where].setdefault("tariffs", {})
    old = tariffs.get(which, 0)
    new = max(0, min(MAX_TARIFF, old + change))
    if new == old:
        return fail(f"the {which} tariff of {where} is already {old}%")
    increase = max(0, new - old)
    # POPULARITY: "by one point per percentage point of increase".
    if not spend_popularity(persona, increase):
        return fail(f"raising the {which} tariff by {increase} would cost {increase} popularity, more than he has")
    tariffs[which] = new
    cost = f" (popularity -{increase})" if increase else ""
    return done(f"{which} tariff of {where} {old}% -> {new}%{cost}")


def appoint_magistrate(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    where = persona.get("location")
    loc = ctx.location(where)
    if loc is None:
        return fail("a magistrate is appointed at the appointer's location; he is at none")
    method = loc.get("magistrate_selection", "e")
    office = SELECTION_OFFICE.get(method)
    if office is None:
        return fail(f"{where} elects its magistrates")
    if not holds(ctx.state, loc, office, pid):
        return fail(f"the magistrate of {where} is appointed by its {office}")
    target = str(args.get("appointee", ""))
    appointee = ctx.persona(target)
    if appointee is None or not appointee.get("alive", True):
        return fail(f"there is no persona {target!r} to appoint")
    if target == pid:
        return fail("no persona may appoint himself to a magistracy")
    if not (appointee.get("location") == where and appointee.get("inside")
            and ctx.start_location.get(target) == where and ctx.start_inside.get(target)):
        return fail(f"the appointee must be inside {where} and have begun the turn inside it")
    elsewhere = magistracy_of(ctx.state, target)
    if elsewhere == where:
        return fail(f"{target} is already magistrate of {where}")
    if elsewhere is not None:
        return fail(f"{target} is magistrate of {elsewhere}; a persona may be magistrate of only one location")
    cost = appointment_cost(appointee.get("popularity", 0), _citizen_of(ctx, appointee, where))
    if not spend_popularity(persona, cost):
        return fail(f"the appointment would cost {cost} popularity, more than he has")
    set_office(loc, "magistrate", target)
    loc.pop("magistrate_term", None)
    ctx.publish(f"{_name(ctx, target)} is appointed magistrate of {where} by its {office}.")
    return done(f"appointed {target} magistrate of {where} (popularity -{cost})")


def resign_magistracy(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    where = magistracy_of(ctx.state, persona["id"])
    if where is None:
        return fail("not a magistrate")
    _vacate(ctx, where, f"{_name(ctx, persona['id'])} resigned")
    return done(f"resigned the magistracy of {where}")


def magistrate_selection(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    method = str(args.get("method", "")).lower()
    if method not in SELECTION_METHODS:
        return fail(f"unknown method of selection {args.get('method')!r} (e, s, f, t, b or a)")
    where, why = office_location(ctx.state, persona, "dfc")
    if where is None:
        return fail(f"only the de facto controller may change how magistrates are selected: {why}")
    loc = ctx.state["locations"][where]
    old = loc.get("magistrate_selection", "e")
    if method == old:
        return fail(f"{where} already selects its magistrates that way ({method})")
    loss = 300 if old == "e" else 100  # "a change away from an elective system reduces loyalty by 300 points"
    add_loyalty(loc, -loss)
    loc["magistrate_selection"] = method
    if method != "e":
        loc.pop("ballots", None)
    how = "by election" if method == "e" else f"by its {SELECTION_OFFICE[method]}"
    ctx.publish(f"{where} will henceforth select its magistrates {how}.")
    return done(f"{where} now selects its magistrates {how} (loyalty -{loss})")


def vote(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    if ctx.month != 10:
        return fail("magistrates are elected in October")
    where = ctx.start_location.get(pid)
    loc = ctx.location(where)
    if loc is None or loc.get("magistrate_selection", "e") != "e":
        return fail("there is no election of a magistrate where he began the turn")
    if not (_citizen_of(ctx, persona, where) and ctx.start_inside.get(pid)):
        return fail(f"only citizens of {where} inside its walls at the start of the month may vote")
    candidate = str(args.get("candidate", ""))
    c = ctx.persona(candidate)
    if c is None or not c.get("alive", True):
        return fail(f"there is no candidate {candidate!r}")
    if not ctx.once("magistracy.vote", pid):
        return fail("one vote apiece")
    ballots = loc.get("ballots")
    if not ballots or ballots.get("turn") != ctx.turn:
        ballots = loc["ballots"] = {"turn": ctx.turn, "votes": {}}
    ballots["votes"][pid] = candidate
    return done(f"voted for {candidate} as magistrate of {where}")


def tally(popularity: dict[str, int], votes: dict[str, int], rng: Any) -> tuple[str, dict[str, int]]:
    """The winner and the final counts. "Among the candidates receiving at least one vote, the candidate with
    the highest popularity rating receives a bonus of four votes." Ties (ruling 8): for the bonus, equal
    popularity goes to the one with more votes, then by lot; for the office, more votes wins, then higher
    popularity, then by lot. Lots are drawn from the ids in sorted order, so a seeded rng repeats."""
    counts = dict(votes)
    ids = sorted(counts)
    best_pop = max(popularity[c] for c in ids)
    top = [c for c in ids if popularity[c] == best_pop]
    most = max(counts[c] for c in top)
    top = [c for c in top if counts[c] == most]
    counts[top[0] if len(top) == 1 else rng.choice(top)] += BONUS_VOTES
    high = max(counts.values())
    leaders = [c for c in ids if counts[c] == high]
    best_pop = max(popularity[c] for c in leaders)
    leaders = [c for c in leaders if popularity[c] == best_pop]
    return (leaders[0] if len(leaders) == 1 else rng.choice(leaders)), counts


def elections(ctx: Ctx) -> None:
    """Count October's votes at the start of November, when the new term begins."""
    if ctx.month != 11:
        return
    year = ctx.year
    for where in sorted(ctx.state["locations"]):
        loc = ctx.state["locations"][where]
        ballots = loc.pop("ballots", None)
        if loc.get("magistrate_selection", "e") != "e":
            continue
        votes: dict[str, int] = {}
        if ballots and ballots.get("turn") == ctx.turn - 1:
            for candidate in ballots["votes"].values():
                c = ctx.persona(candidate)
                if c is not None and c.get("alive", True):  # a candidate dead since voting cannot serve
                    votes[candidate] = votes.get(candidate, 0) + 1
        term = {"from": [year, 11], "to": [year + 1, 10]}
        sitting = loc.get("offices", {}).get("magistrate")
        if not votes:
            if sitting:
                # "when no one receives any votes ... sitting magistrates remain in office an additional year"
                loc["magistrate_term"] = term
                ctx.publish(f"No votes were cast at {where}: its magistrate remains in office another year.")
            continue
        popularity = {c: ctx.persona(c).get("popularity", 0) for c in votes}  # type: ignore[union-attr]
        winner, counts = tally(popularity, votes, ctx.rng)
        elsewhere = magistracy_of(ctx.state, winner)
        if elsewhere is not None and elsewhere != where:
            # "magistrate of only one location at a time": the new office replaces the old one (ruling 10).
            _vacate(ctx, elsewhere, f"{_name(ctx, winner)} was elected magistrate of {where}")
        set_office(loc, "magistrate", winner)
        loc["magistrate_term"] = term
        ctx.publish(f"{_name(ctx, winner)} is elected magistrate of {where} with {counts[winner]} votes, "
                    f"for November {year} to October {year + 1}.")
