"""SKILLS: one persona trains another. "When two, or more, personae start the turn at the same location and
are both present at that location at the time of the training, they may train each other in skills, but no
persona may train a given other persona more than once per turn. If the trainer has a higher rating in the
skill than does the trainee, the trainee's skill rating will be increased by the square root of the difference
between their ratings." Readings: docs/renaissance/skills.md."""

from __future__ import annotations

import math
from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .orderkinds import SKILL_LETTERS, SKILLS
from .ratings import add_skill

# THE PERSONAE FAMILIES: "Each persona has ratings for popularity, reputation for piety, troop morale and up to 20
# skills." The code sheet knows 21 skills, so the cap can bite.
MAX_SKILLS = 20


def skills_held(persona: Persona) -> list[str]:
    """The skills he holds: a rating above zero (a rating of 0 is the same as not having the skill)."""
    return sorted(s for s, rating in (persona.get("skills") or {}).items() if rating > 0)


def new_skill_refusal(persona: Persona, skill: str) -> str | None:
    """Why he cannot gain `skill`, or None: a skill he holds may rise, a new one only while he has fewer than 20
    (S13)."""
    held = skills_held(persona)
    if skill in held or len(held) < MAX_SKILLS:
        return None
    return (f"{persona.get('name', persona.get('id'))} already has {len(held)} skills and may not learn {skill}, a "
            f"{MAX_SKILLS + 1}st (THE PERSONAE FAMILIES: \"up to 20 skills\")")


def skill_named(written: str) -> str | None:
    """The skill an order names: its Instruct letter ("m") or its name, any case."""
    w = (written or "").strip().lower()
    if w in SKILL_LETTERS:
        return SKILL_LETTERS[w]
    return w if w in SKILLS else None


def training_gain(trainer_rating: int, trainee_rating: int) -> int:
    """The square root of the difference, fraction dropped (S10): a difference of 99 gives 9, not 9.95."""
    if trainer_rating <= trainee_rating:
        return 0
    return math.isqrt(trainer_rating - trainee_rating)


def _present(persona: Persona) -> str | None:
    """Where he is now, if at a location (not at sea)."""
    return None if persona.get("at_sea") else persona.get("location")


def instruct(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    tid = str(args.get("trainee", ""))
    skill = skill_named(str(args.get("skill", "")))
    if skill is None:
        return fail(f"there is no skill {args.get('skill')!r}")
    trainee = ctx.persona(tid)
    if trainee is None or not trainee.get("alive", True):
        return fail(f"there is no persona {tid}")
    if tid == pid:
        return fail("he cannot train himself")
    start = ctx.start_location.get(pid)
    if start is None or ctx.start_location.get(tid) != start:
        return fail(f"{trainee['name']} did not start the turn at the same location as he")
    if _present(persona) != start or _present(trainee) != start:
        return fail(f"{trainee['name']} and he are not both at {start}")
    # TRAVEL: 'A persona who is "with" another persona may not train, be trained, ...' (S11).
    if persona.get("with"):
        return fail(f"he is aboard {persona['with']}'s ship and may not train anyone")
    if trainee.get("with"):
        return fail(f"{trainee['name']} is aboard another persona's ship")
    mine = int(persona.get("skills", {}).get(skill, 0))
    theirs = int(trainee.get("skills", {}).get(skill, 0))
    if mine <= theirs:
        return fail(f"his {skill} ({mine}) is not higher than {trainee['name']}'s ({theirs})")
    if why := new_skill_refusal(trainee, skill):
        return fail(why)
    # A persona trains a given other once per turn, whatever the skill; an order that fails does not count.
    if not ctx.once("instruct", pid, tid):
        return fail(f"he has already trained {trainee['name']} this turn")
    gained = add_skill(trainee, skill, training_gain(mine, theirs))
    if trainee["family"] != persona["family"]:
        ctx.tell(trainee["family"], f"{trainee['name']} ({tid}) was trained in {skill} by {persona['name']}: "
                                    f"+{gained}")
    return done(f"trained {trainee['name']} in {skill}: {theirs} -> {theirs + gained}")
