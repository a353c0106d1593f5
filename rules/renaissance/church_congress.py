"""The Orthodox and Monophysite congresses (THE ECCLESIASTICAL OFFICES): "Orthodox patriarchs and metropolitans
function as archbishops. They are elected by open congresses of Orthodox prelates, who must be present at the
election site at the start of the turn of the election, but need not be subject to the office they are filling";
"The Monophysite hierarchy functions in the same way as the Orthodox hierarchy."

A congress sits at a vacant Orthodox or Monophysite archbishopric, in its own city, every month it stays vacant
and no election awaits an acceptance. Its voters are the prelates of that hierarchy (its bishops and archbishops,
of any see) present there at the start of the turn; they vote with `VSnnnnllll`; the count is a step after every
order; the elected has, as an archbishop, until the end of the next turn to accept (church_offices). Reading
RH-OQ-23 in docs/renaissance/hierarchies.md.
"""

from __future__ import annotations

from typing import Any

from .church_offices import archbishoprics, hierarchy, make_offer, pending, sees_held, unfit
from .context import Ctx, Outcome, Persona, done, fail
from .offices import holder
from .setup import find_location

CONGRESS_CHURCHES = ("orthodox", "monophysite")
_VOTES = "church_congress.votes"  # see -> {voter: candidate}, this month


def _name(p: Persona) -> str:
    return f"{p.get('name', p['id'])} ({p['id']})"


def _prelate_of(ctx: Ctx, pid: str, church: str) -> bool:
    sees = sees_held(ctx.state, pid, "bishop") + sees_held(ctx.state, pid, "archbishop")
    return any(_church_of_see(ctx, s) == church for s in sees)


def _church_of_see(ctx: Ctx, where: str) -> str | None:
    loc = ctx.state["locations"][where]
    return hierarchy(ctx.state["locations"].get(loc.get("see") or "") or loc)


def congress_vote(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """VSnnnnllll: an Orthodox (Monophysite) prelate present at the vacant see at the start of the turn votes for
    its patriarch or metropolitan."""
    pid = persona["id"]
    where = find_location(ctx.state, args.get("location"))
    if where is None:
        return fail(f"there is no location {args.get('location')!r}")
    loc = ctx.state["locations"][where]
    church = hierarchy(loc)
    if where not in archbishoprics(ctx.state) or church not in CONGRESS_CHURCHES:
        return fail(f"{where} is no Orthodox or Monophysite patriarchate or metropolitanate")
    if holder(loc, "archbishop"):
        return fail(f"the see of {where} is not vacant")
    if pending(ctx.state, "archbishop", where):
        return fail(f"the congress at {where} has elected already: the elected may accept until the end of this month")
    if not _prelate_of(ctx, pid, church):
        return fail(f"only {church} prelates (bishops, metropolitans, patriarchs) vote in the congress")
    if ctx.start_location.get(pid) != where:
        return fail(f"the congress's voters are present at {where} at the start of the turn")
    candidate = ctx.persona(str(args.get("candidate", "")))
    if candidate is None or (why := unfit(candidate, church)):
        return fail(why if candidate else f"there is no persona {args.get('candidate')!r}")
    votes: dict[str, str] = ctx.scratch.setdefault(_VOTES, {}).setdefault(where, {})
    if pid in votes:
        return fail(f"he has voted in the congress at {where} already this month")
    votes[pid] = candidate["id"]
    return done(f"voted for {_name(candidate)} in the congress at {where}")


def count_congress_votes(ctx: Ctx) -> None:
    """After every order: each congress's plurality is elected and offered the see. A tie goes to the more popular,
    then by lot; no bonus of four votes (that is ELECTIVE STATES', RH-OQ-23)."""
    for where, votes in sorted(ctx.scratch.get(_VOTES, {}).items()):
        count: dict[str, int] = {}
        for candidate in votes.values():
            if (ctx.persona(candidate) or {}).get("alive", True):
                count[candidate] = count.get(candidate, 0) + 1
        if not count:
            continue
        top = max(count.values())
        tied = [c for c in sorted(count) if count[c] == top]
        best = max(int(ctx.state["personae"][c].get("popularity", 0)) for c in tied)
        tied = [c for c in tied if int(ctx.state["personae"][c].get("popularity", 0)) == best]
        winner = tied[0] if len(tied) == 1 else ctx.rng.choice(tied)
        make_offer(ctx, "archbishop", winner, where, None)
        elect = ctx.state["personae"][winner]
        ctx.publish(f"The congress at {where} has elected {_name(elect)} ({top} of {len(votes)} votes).")
        ctx.tell(elect["family"], f"{_name(elect)} is elected to the see of {where}: accept it by the end of next "
                                  f"month (OA{where.replace(' ', '')}).")
