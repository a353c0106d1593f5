"""ASSASSINATION and DUELING (Appendix A): the orders record the attempts and challenges as they run; the month's
steps after every order decide them (RW-OQ-46, RW-OQ-47; readings C14-C16 in docs/renaissance/war.md,
"control").

The order of the popularity movements of dueling (reading C16):
1. each challenge, when its order runs: the challenged loses 12 points at once (what he has, if fewer), and the
   challenger gains half of the points actually lost, rounded down; a challenge to a higher-ranking persona is held
   and moves nothing;
2. after every order (`settle_duels`), each pair that challenged each other fights one duel: the loser loses 20% of
   the disparity of their dueling ratings, rounded up (a loss), and the winner gains half of the points the loser
   actually lost, rounded down (a gain). Equal ratings: no winner, nothing moves.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..context import Ctx, Outcome, Persona, State, done, fail
from ..offices import held_by
from ..ratings import add_rating
from . import fees, limits
from .arith import gain, loss
from .control import tower_of, troops_of
from .ranks import outranks

_ATTEMPTS = "war.intrigue.attempts"  # victim pid -> [assassin pids], in the order the attempts ran
_ASSASSINS = "war.intrigue.assassins"  # pids who attempted an assassination this month (one a month)
_CHALLENGES = "war.intrigue.challenges"  # [(challenger, challenged, held)], in the order given

CHALLENGE_COST = 12  # "Each challenged persona immediately loses twelve points of popularity."
MIN_CHALLENGER_POPULARITY = 200  # "a popularity rating over 199"
DUEL_LOSS = Fraction(20, 100)  # "20% of the disparity in their dueling ratings"


def _name(p: Persona) -> str:
    return f"{p.get('name', p['id'])} ({p['id']})"


def _skill(p: Persona, skill: str) -> int:
    return int((p.get("skills") or {}).get(skill, 0))


def _prelate(state: State, pid: str) -> str | None:
    """"bishop" or "archbishop" if he is one anywhere, else None."""
    for office in ("bishop", "archbishop"):
        if held_by(state, office, pid):
            return office
    return None


def _target(ctx: Ctx, persona: Persona, args: dict[str, Any], what: str) -> Persona | str:
    target = ctx.persona(str(args.get("target", "")))
    if target is None or not target.get("alive", True):
        return f"there is no persona {args.get('target')!r} to {what}"
    if target["id"] == persona["id"]:
        return f"he cannot {what} himself"
    start = ctx.start_location.get(persona["id"])
    if start is None or ctx.start_location.get(target["id"]) != start:
        return f"{_name(target)} did not start the month at his location"
    return target


# ---- assassination ---------------------------------------------------------------------------------------------

def assassinate(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KKnnnn. ASSASSINATION: "Any persona who remains at a location for an entire turn may attempt to assassinate any
    other persona sharing his starting location who is not on the opposite side of any wall and remains at the
    location at the time the assassination order is executed ... A persona may attempt no more than one
    assassination per turn." The attempt is recorded and decided after every order (RW-OQ-46); the assassin may
    not move this month."""
    pid = persona["id"]
    if why := fees.credit_refusal(ctx, persona):
        return fail(why)
    target = _target(ctx, persona, args, "assassinate")
    if isinstance(target, str):
        return fail(target)
    where = persona.get("location")
    if where is None or where != ctx.start_location.get(pid):
        return fail("he has left his starting location: an assassin remains at his location the whole month")
    if target.get("location") != where:
        return fail(f"{_name(target)} is no longer at {where}")
    if bool(target.get("inside")) != bool(persona.get("inside")):
        return fail(f"{_name(target)} is on the other side of the walls of {where}")
    if tower_of(ctx.state, target) != tower_of(ctx.state, persona):
        return fail(f"{_name(target)} is on the other side of a tower's wall at {where}")
    assassins: set[str] = ctx.scratch.setdefault(_ASSASSINS, set())
    if pid in assassins:
        return fail("a persona may attempt no more than one assassination a month")
    assassins.add(pid)
    ctx.scratch.setdefault(_ATTEMPTS, {}).setdefault(target["id"], []).append(pid)
    limits.pin(ctx, pid, f"he is attempting an assassination and remains at {where} the whole month")
    return done(f"an attempt on the life of {_name(target)} at {where}: decided when the month's orders are done")


def assassination_defence(victim: Persona) -> int:
    """His assassination rating plus the troops under his control (RW-OQ-46: garrison troops excluded, crew are
    not troops, troops in a tower count)."""
    return _skill(victim, "assassination") + troops_of(victim)


def settle_assassinations(ctx: Ctx) -> None:
    """After every order: "When two, or more, personae attempt to assassinate the same victim in the same turn, their
    ratings are added together". An attempt succeeds when the assassins' ratings (those alive and still at their
    location) exceed the victim's defence. The victim dies; his assets are lost with him at succession (reading
    C14); each assassin's player pays the conflict fee (CONFLICT ORDERS: "an assassination order leading to the
    death of the victim")."""
    state = ctx.state
    for victim_id, tried in ctx.scratch.get(_ATTEMPTS, {}).items():
        victim = state["personae"].get(victim_id)
        if victim is None or not victim.get("alive", True):
            continue
        assassins = [state["personae"][a] for a in tried if a in state["personae"]]
        assassins = [a for a in assassins if a.get("alive", True) and a.get("location") == ctx.start_location.get(
            a["id"])]
        rating = sum(_skill(a, "assassination") for a in assassins)
        defence = assassination_defence(victim)
        where = victim.get("location") or "sea"
        if assassins and rating > defence:
            victim["alive"] = False
            victim["died"] = f"assassinated at {where}"
            for a in assassins:
                fees.charge(ctx, a, f"assassination of {victim_id}")
                ctx.tell(a.get("family", ""), f"{_name(a)}: the assassination of {_name(victim)} succeeded "
                         f"(assassination ratings {rating} against {defence}).")
            ctx.publish(f"{_name(victim)} has been assassinated at {where}.")
        else:
            for a in assassins:
                ctx.tell(a.get("family", ""), f"{_name(a)}: the attempt on the life of {_name(victim)} failed "
                         f"(assassination ratings {rating} against {defence}).")
            ctx.tell(victim.get("family", ""), f"{_name(victim)} survived an attempt on his life at {where}.")


# ---- dueling ---------------------------------------------------------------------------------------------------

def _challenger_refusal(ctx: Ctx, persona: Persona) -> str | None:
    if int(persona.get("popularity", 0)) < MIN_CHALLENGER_POPULARITY:
        return f"only a persona with a popularity over 199 may challenge to a duel (his is {persona.get('popularity')})"
    if persona.get("female"):
        return "a female persona may not challenge to a duel"
    if office := _prelate(ctx.state, persona["id"]):
        return f"a {office} may not challenge to a duel"
    return None


def _challenged_refusal(ctx: Ctx, target: Persona) -> str | None:
    if target.get("female"):
        return f"{_name(target)} is female and may not be challenged"
    if office := _prelate(ctx.state, target["id"]):
        return f"{_name(target)} is a {office} and may not be challenged"
    return None


def duel(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KDnnnn. DUELING: a challenge to a persona "sharing his starting location (regardless of whether they are on the
    same side of walls)". "Each challenged persona immediately loses twelve points of popularity. Half of the lost
    points are added to the challenger's popularity. A persona who has issued a challenge may not move in the same
    month." A challenge to a higher-ranking persona is held: it costs nothing and makes a duel only if he challenges
    back this month (RW-OQ-47)."""
    pid = persona["id"]
    if why := _challenger_refusal(ctx, persona):
        return fail(why)
    target = _target(ctx, persona, args, "challenge")
    if isinstance(target, str):
        return fail(target)
    if why := _challenged_refusal(ctx, target):
        return fail(why)
    challenges: list[tuple[str, str, bool]] = ctx.scratch.setdefault(_CHALLENGES, [])
    if any(c == pid and t == target["id"] for c, t, _ in challenges):
        return fail(f"he has already challenged {_name(target)} this month")
    held = outranks(target, persona)
    challenges.append((pid, target["id"], held))
    limits.pin(ctx, pid, "he issued a challenge to a duel this month")
    if held:
        return done(f"challenged {_name(target)}, who outranks him: the challenge stands only if {_name(target)} "
                    "challenges him this month; until then it costs no one anything")
    lost = -add_rating(target, "popularity", -CHALLENGE_COST)
    won = add_rating(persona, "popularity", gain(Fraction(lost, 2)))
    ctx.tell(target.get("family", ""), f"{_name(target)} was challenged to a duel by {_name(persona)}: popularity "
             f"-{lost}.")
    return done(f"challenged {_name(target)} to a duel: he loses {lost} popularity, {_name(persona)} gains {won}")


def settle_duels(ctx: Ctx) -> None:
    """After every order: "When two personae challenge each other in the same month, a duel ensues. The winner is
    the persona with the higher dueling rating. His popularity is increased by half the points lost by the loser.
    The loser has his popularity reduced by a number of points equal to 20% of the disparity in their dueling
    ratings." Equal ratings: no winner (RW-OQ-47)."""
    state = ctx.state
    challenges: list[tuple[str, str, bool]] = ctx.scratch.get(_CHALLENGES, [])
    given = {(c, t) for c, t, _ in challenges}
    fought: set[frozenset[str]] = set()
    for challenger, challenged, _held in challenges:
        pair = frozenset((challenger, challenged))
        if (challenged, challenger) not in given or pair in fought:
            continue
        fought.add(pair)
        a, b = state["personae"].get(challenger), state["personae"].get(challenged)
        if a is None or b is None or not a.get("alive", True) or not b.get("alive", True):
            continue
        _duel(ctx, a, b)


def _duel(ctx: Ctx, a: Persona, b: Persona) -> None:
    da, db = _skill(a, "dueling"), _skill(b, "dueling")
    if da == db:
        text = f"{_name(a)} and {_name(b)} fought a duel with equal dueling ratings ({da}): neither won."
    else:
        winner, loser = (a, b) if da > db else (b, a)
        disparity = abs(da - db)
        lost = -add_rating(loser, "popularity", -loss(DUEL_LOSS * disparity))
        won = add_rating(winner, "popularity", gain(Fraction(lost, 2)))
        text = (f"{_name(winner)} won a duel against {_name(loser)} (dueling {max(da, db)} against {min(da, db)}): "
                f"popularity +{won} and -{lost}.")
    ctx.publish(text)
    for family in sorted({a.get("family", ""), b.get("family", "")}):
        ctx.tell(family, text)
