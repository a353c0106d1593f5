"""ELECTIVE STATES: the rulers Florence and Ragusa elect each December for the year from January 1, and the rulers
the other elective states elect for life; the vote (VR), the count, ties, and the vacancy a ruler's death leaves.

The elected ruler is the location's sovereign (offices.sovereign); his sovereignty is his office's, so it is not
inherited (offices.elective_sovereignty, succession). A location is an elective state when it is Florence or Ragusa
(offices.ELECTIVE_RULERS) or is marked "elective_ruler": true; the ones not named by the rules elect for life.
State kept on the location: "ruler_ballots" {"turn", "votes": {voter: candidate}} (the votes of the election month,
counted as the next month begins), "ruler_election" {"turn"} (a life election's month, set when the ruler dies or
by the GM), "ruler_electors" [family names] (the electors the GM announced; absent: the citizens inside, as in
Florence and Ragusa), "ruler_term" {"from": [year, month], "to": [year, month] | null}.
Readings RH-OQ-36 ... 39: docs/renaissance/hierarchies.md, "Elective states".
"""

from __future__ import annotations

from typing import Any

from .ballots import Bonus, count, tally
from .calendar import month_name
from .context import Ctx, Outcome, Persona, done, fail
from .offices import ELECTIVE_RULERS, elective_sovereignty, holder, set_office
from .setup import find_location

ANNUAL_MONTH = 12  # "Florence and Ragusa elect their rulers each December turn"
BONUS_VOTES = 4  # "the candidate with the highest popularity receives a bonus of four votes"


def _name(ctx: Ctx, pid: str | None) -> str:
    p = ctx.persona(pid or "")
    return f"{p.get('name') or pid} ({pid})" if p else str(pid)


def for_life(name: str, location: dict[str, Any]) -> bool:
    """"The other elective states have rulers elected for life.\""""
    return elective_sovereignty(name, location) and name not in ELECTIVE_RULERS


def election_month(ctx: Ctx, name: str, location: dict[str, Any]) -> bool:
    """Is this month the month of the state's election (votes cast in it)?"""
    if not elective_sovereignty(name, location):
        return False
    if name in ELECTIVE_RULERS:
        return ctx.month == ANNUAL_MONTH
    return (location.get("ruler_election") or {}).get("turn") == ctx.turn


def is_elector(ctx: Ctx, persona: Persona, name: str, location: dict[str, Any]) -> bool:
    """Florence and Ragusa: "Any citizen of the location present inside at the start of the turn". A state for life:
    the families the GM named in "ruler_electors", present (inside or outside) at the start; without that list, as
    Florence (RH-OQ-39)."""
    pid = persona["id"]
    if ctx.start_location.get(pid) != name:
        return False
    electors = location.get("ruler_electors")
    if name not in ELECTIVE_RULERS and electors:
        return str(persona.get("family", "")).upper() in {str(f).upper() for f in electors}
    return find_location(ctx.state, persona.get("citizenship")) == name and bool(ctx.start_inside.get(pid))


def vote_ruler(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """VRnnnn: a vote for the ruler of the elective state where the voter began the month."""
    pid = persona["id"]
    where = ctx.start_location.get(pid)
    location = ctx.location(where)
    if location is None or where is None or not elective_sovereignty(where, location):
        return fail("there is no elective state where he began the month")
    if not election_month(ctx, where, location):
        when = "each December" if where in ELECTIVE_RULERS else "when the Newsletter announces an election"
        return fail(f"{where} elects its ruler {when}; not this month")
    if not is_elector(ctx, persona, where, location):
        return fail(f"he is not an elector of {where}: "
                    + ("one of the families named for its election, present there at the start of the month"
                       if where not in ELECTIVE_RULERS and location.get("ruler_electors")
                       else "a citizen present inside at the start of the month"))
    candidate = str(args.get("candidate", ""))
    c = ctx.persona(candidate)
    if c is None or not c.get("alive", True):
        return fail(f"there is no candidate {candidate!r}: the vote would not be valid")
    if not ctx.once("elections.vote", pid):
        return fail("one vote apiece")
    ballots = location.get("ruler_ballots")
    if not ballots or ballots.get("turn") != ctx.turn:
        ballots = location["ruler_ballots"] = {"turn": ctx.turn, "votes": {}}
    ballots["votes"][pid] = candidate
    return done(f"voted for {candidate} as ruler of {where}")


def _term(ctx: Ctx, name: str) -> dict[str, Any]:
    if name in ELECTIVE_RULERS:
        return {"from": [ctx.year, 1], "to": [ctx.year, 12]}
    return {"from": [ctx.year, ctx.month], "to": None}


def count_state(ctx: Ctx, name: str, location: dict[str, Any]) -> None:
    """The votes of last month. Valid votes are those for a candidate still living; none: the sitting ruler of
    Florence or Ragusa is deemed reelected, a vacant office stays vacant (a state for life votes again next
    month). The most popular vote-getter receives four votes; ties as ballots.count. Loyalty is unchanged (RH-OQ-36)."""
    ballots = location.pop("ruler_ballots", None) or {}
    votes = {v: c for v, c in (ballots.get("votes") or {}).items()
             if ballots.get("turn") == ctx.turn - 1 and (ctx.persona(c) or {}).get("alive", False)}
    sitting = holder(location, "sovereign")
    life = for_life(name, location)
    if not votes:
        if life:
            if sitting is None:
                location["ruler_election"] = {"turn": ctx.turn}
                ctx.publish(f"No valid vote was cast for the ruler of {name}: it votes again this month.")
            return
        if sitting is not None:
            location["ruler_term"] = _term(ctx, name)
            ctx.publish(f"No valid vote was cast at {name}: its ruler, {_name(ctx, sitting)}, is deemed reelected "
                        f"for {ctx.year}.")
        return
    cast = tally(votes)
    popularity = {c: int((ctx.persona(c) or {}).get("popularity", 0)) for c in cast}
    result = count(cast, [Bonus(popularity, BONUS_VOTES, "popularity")], [popularity], ctx.rng)
    set_office(location, "sovereign", result.winner)
    location["ruler_term"] = _term(ctx, name)
    location.pop("ruler_election", None)
    again = " reelected" if result.winner == sitting else " elected"
    span = f"for {ctx.year}" if not life else "for life"
    ctx.publish(f"{_name(ctx, result.winner)} is{again} ruler of {name} {span}, with "
                f"{result.counts[result.winner]} votes.")


def count_elections(ctx: Ctx) -> None:
    """Month step, as the month begins: January counts Florence's and Ragusa's December votes (the term "commencing
    January 1"); a state for life counts the votes of its election month."""
    for name in sorted(ctx.state["locations"]):
        location = ctx.state["locations"][name]
        if not elective_sovereignty(name, location):
            continue
        if name in ELECTIVE_RULERS:
            if ctx.month == 1 and ctx.turn > 1:  # a game begun in January had no December: the setup's ruler sits
                count_state(ctx, name, location)
        elif (location.get("ruler_election") or {}).get("turn") == ctx.turn - 1:
            count_state(ctx, name, location)


def ruler_vacancies(ctx: Ctx) -> None:
    """Before succession: a ruler for life who died this month is succeeded by election next month, announced in
    the Newsletter. Florence's or Ragusa's ruler dead in office leaves it vacant until the December election
    (succession vacates the office; RH-OQ-39)."""
    for name in sorted(ctx.state["locations"]):
        location = ctx.state["locations"][name]
        ruler = ctx.persona(holder(location, "sovereign") or "")
        if ruler is None or ruler.get("alive", True) or not for_life(name, location):
            continue
        location["ruler_election"] = {"turn": ctx.turn + 1}
        ctx.publish(f"The ruler of {name} is dead: his successor will be elected in "
                    f"{month_name(ctx.state, ctx.turn + 1)}.")
