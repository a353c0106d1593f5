"""The merchants' guild (Appendix A, MERCHANTRY): apprentices, journeymen and masters.

A persona's guild rank is the higher of his sanctioned status (`persona["guild"]`) and the rank his merchantry
rating earns (200 apprentice, 500 journeyman, 900 master). Sanctioned members have their rating raised to their
rank's floor. Masters admit apprentices in December (one GA order), approve journeymen in November (five GJ orders
from five masters) and masters in October (ten GM orders); approvals are counted at the end of the turn.
Readings: docs/renaissance/commerce.md (G1-G7).
"""

from __future__ import annotations

from typing import Any

from .calendar import MONTHS
from .context import Ctx, Outcome, Persona, done, fail
from .ratings import add_skill
from .training import new_skill_refusal

RANKS: tuple[str, ...] = ("apprentice", "journeyman", "master")  # index + 1 = rank number
FLOORS: dict[str, int] = {"apprentice": 200, "journeyman": 500, "master": 900}
# Step -> (the month it may be taken, the masters whose approval it needs).
STEPS: dict[str, tuple[int, int]] = {"apprentice": (12, 1), "journeyman": (11, 5), "master": (10, 10)}

_SCRATCH = "guild"


def rank_by_rating(persona: Persona) -> int:
    rating = persona.get("skills", {}).get("merchantry", 0)
    return sum(1 for name in RANKS if rating >= FLOORS[name])


def merchant_rank(persona: Persona) -> int:
    """0 = not a merchant, 1 apprentice, 2 journeyman, 3 master: the better of guild status and rating."""
    status = persona.get("guild")
    by_status = RANKS.index(status) + 1 if status in RANKS else 0
    return max(by_status, rank_by_rating(persona))


def set_rank(persona: Persona, rank: int) -> None:
    """Sanction `rank` (never lowers one) and raise the merchantry rating to its floor."""
    if rank <= 0:
        return
    name = RANKS[max(rank, merchant_rank(persona)) - 1]
    persona["guild"] = name
    floor = FLOORS[name]
    current = persona.get("skills", {}).get("merchantry", 0)
    if current < floor:
        add_skill(persona, "merchantry", floor - current)


def _scratch(ctx: Ctx) -> dict[str, Any]:
    return ctx.scratch.setdefault(_SCRATCH, {"contributed": {}, "approvals": {}})


def guild_order(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    step_name = args.get("step")
    if step_name not in STEPS:
        return fail(f"no such guild step {step_name!r}")
    month, _needed = STEPS[step_name]
    if ctx.month != month:
        return fail(f"guild {step_name}s are approved only in {MONTHS[month - 1]}")
    if merchant_rank(persona) < 3:
        return fail("only a master merchant may sponsor guild promotions")
    cid = str(args.get("candidate", ""))
    candidate = ctx.persona(cid)
    if candidate is None or not candidate.get("alive", True):
        return fail(f"no persona {cid}")
    if cid == persona["id"]:
        return fail("a master cannot sponsor himself")
    here = ctx.start_location.get(persona["id"])
    if here is None or ctx.start_location.get(cid) != here:
        return fail(f"{candidate['name']} did not start the turn where this master did")
    wanted = RANKS.index(step_name) + 1
    if merchant_rank(candidate) >= wanted:
        return fail(f"{candidate['name']} is already {RANKS[merchant_rank(candidate) - 1]}")
    if merchant_rank(candidate) != wanted - 1:
        # G3: the guild is climbed one rung at a time.
        return fail(f"{candidate['name']} must first be {'an apprentice' if wanted == 2 else 'a journeyman'}")
    # A guild membership is a skill (SKILLS: "skills, organizational knowledge or guild memberships"), and it
    # brings the merchantry rating: an apprentice with 20 other skills would hold a 21st (S13).
    if step_name == "apprentice" and (why := new_skill_refusal(candidate, "merchantry")):
        return fail(why)
    scratch = _scratch(ctx)
    already = scratch["contributed"].get(persona["id"])
    if already is not None:
        # "A single master may contribute ... to the promotion of only one persona per turn."
        return fail("this master has already sponsored a guild promotion this turn")
    scratch["contributed"][persona["id"]] = cid
    if step_name == "apprentice":
        set_rank(candidate, 1)
        return done(f"accepted {candidate['name']} in apprenticeship")
    scratch["approvals"].setdefault((cid, step_name), set()).add(persona["id"])
    return done(f"approved {candidate['name']} as {step_name}")


def guild_ranks(ctx: Ctx) -> None:
    """Count the masters' approvals, then give every persona the rank his rating earns and every sanctioned
    member his rating floor."""
    approvals = ctx.scratch.get(_SCRATCH, {}).get("approvals", {})
    for (cid, step_name), masters in sorted(approvals.items()):
        candidate = ctx.persona(cid)
        if candidate is None or not candidate.get("alive", True):
            continue
        if len(masters) >= STEPS[step_name][1]:
            set_rank(candidate, RANKS.index(step_name) + 1)
            ctx.tell(candidate["family"], f"{candidate['name']} is made a {step_name} of the merchants' guild")
    for persona in ctx.state["personae"].values():
        if not persona.get("alive", True):
            continue
        before = persona.get("guild")
        set_rank(persona, merchant_rank(persona))
        if persona.get("guild") != before and persona.get("guild") in RANKS:
            ctx.tell(persona["family"], f"{persona['name']} is now {'an' if persona['guild'][0] in 'aeiou' else 'a'} "
                     f"{persona['guild']} of the merchants' guild")
