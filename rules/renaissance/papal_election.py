"""The papal election (THE ECCLESIASTICAL OFFICES): "The Pope is elected by a plurality of the Cardinals present in
Rome at the start of the turn in which the election is held. The candidate with the highest piety rating from among
those who receive at least one Cardinal's vote also receives half of the non-player-controlled votes. The candidate
with the highest sermonizing rating from among those who receive at least one Cardinal's vote receives the other
half of the non-player-controlled votes."

The conclave is `state["conclave"]` ({"opened": the first turn of voting, "elect": the pope-elect awaiting his
acceptance, or null}), opened when the throne falls vacant (church_offices.leave_papacy). Votes (`VPnnnn`) are the
month's; the count is a step after every order; the elected is offered the throne (church_offices) and has until
the end of the next turn to accept. Readings RH-OQ-15, RH-OQ-16 in docs/renaissance/hierarchies.md.
"""

from __future__ import annotations

from typing import Any

from .church_offices import PAPAL_SEE, accepted_hat_this_turn, faith, is_cardinal, make_offer, unfit
from .context import Ctx, Outcome, Persona, done, fail

# RH-OQ-15: the non-player-controlled votes are the cardinals of the College whom no player directs; the GM sets
# their number (setup [game] papal_npc_votes, state["papal_npc_votes"]); 20 when he does not.
DEFAULT_NPC_VOTES = 20
_VOTES = "papal_election.votes"  # voter -> candidate, this month


def _name(p: Persona) -> str:
    return f"{p.get('name', p['id'])} ({p['id']})"


def npc_votes(state: dict[str, Any]) -> int:
    return int(state.get("papal_npc_votes", DEFAULT_NPC_VOTES))


def papal_vote(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """VPnnnn: a cardinal present in Rome at the start of the turn votes for the next Pope."""
    pid = persona["id"]
    conclave = ctx.state.get("conclave")
    if not conclave or int(conclave.get("opened", 0)) > ctx.turn:
        return fail("no conclave sits this month: the papal throne is not vacant, or fell vacant this month")
    if conclave.get("elect"):
        elect = ctx.persona(conclave["elect"])
        return fail(f"the conclave has elected {_name(elect) if elect else conclave['elect']}, who may accept until "
                    "the end of this month")
    if not is_cardinal(persona) or accepted_hat_this_turn(ctx, pid):
        return fail("only cardinals vote in the conclave")
    if ctx.start_location.get(pid) != PAPAL_SEE:
        return fail(f"only the cardinals present in {PAPAL_SEE} at the start of the turn vote")
    candidate = ctx.persona(str(args.get("candidate", "")))
    if candidate is None or (why := unfit(candidate, "catholic")):
        return fail(why if candidate else f"there is no persona {args.get('candidate')!r}")
    votes: dict[str, str] = ctx.scratch.setdefault(_VOTES, {})
    if pid in votes:
        return fail("he has voted in this month's conclave already")
    votes[pid] = candidate["id"]
    return done(f"voted for {_name(candidate)} in the conclave")


def _best(ctx: Ctx, among: list[str], key: Any, cardinal_votes: dict[str, int]) -> str:
    """The highest by `key`; a tie goes to the one with more cardinals' votes, then by lot (RH-OQ-15)."""
    top = max(key(c) for c in among)
    tied = [c for c in among if key(c) == top]
    most = max(cardinal_votes[c] for c in tied)
    tied = sorted(c for c in tied if cardinal_votes[c] == most)
    return tied[0] if len(tied) == 1 else ctx.rng.choice(tied)


def tally(ctx: Ctx, votes: dict[str, str]) -> tuple[dict[str, int], dict[str, int]]:
    """(cardinals' votes, all votes) per candidate. The non-player votes are halved with the odd vote to the
    candidate of the highest piety, the half the rules name first (RH-OQ-15)."""
    cardinal_votes: dict[str, int] = {}
    for candidate in votes.values():
        if (ctx.persona(candidate) or {}).get("alive", True) and faith(ctx.persona(candidate)) == "catholic":
            cardinal_votes[candidate] = cardinal_votes.get(candidate, 0) + 1
    total = dict(cardinal_votes)
    if not cardinal_votes:
        return cardinal_votes, total
    among = sorted(cardinal_votes)
    npc = npc_votes(ctx.state)

    def rating(key: str) -> Any:
        if key == "piety":
            return lambda c: int(ctx.state["personae"][c].get("piety", 0))
        return lambda c: int((ctx.state["personae"][c].get("skills") or {}).get("sermonizing", 0))

    pious = _best(ctx, among, rating("piety"), cardinal_votes)
    preacher = _best(ctx, among, rating("sermonizing"), cardinal_votes)
    total[pious] += (npc + 1) // 2
    total[preacher] += npc // 2
    return cardinal_votes, total


def count_papal_votes(ctx: Ctx) -> None:
    """After every order: the month's conclave is counted; the plurality is elected and offered the throne (a tie:
    more cardinals' votes, then by lot)."""
    votes = ctx.scratch.get(_VOTES)
    conclave = ctx.state.get("conclave")
    if not votes or not conclave:
        return
    cardinal_votes, total = tally(ctx, votes)
    if not total:
        return
    winner = _best(ctx, sorted(total), lambda c: total[c], cardinal_votes)
    conclave["elect"] = winner
    make_offer(ctx, "pope", winner, None, None)
    elect = ctx.state["personae"][winner]
    counted = ", ".join(f"{_name(ctx.state['personae'][c])} {total[c]}" for c in sorted(total, key=lambda c: -total[c]))
    ctx.publish(f"The conclave has elected {_name(elect)} Pope ({counted}); he may accept the papal throne until the "
                "end of next month.")
    ctx.tell(elect["family"], f"{_name(elect)} is elected Pope: accept the papal throne by the end of next month "
                              "(OApope).")
