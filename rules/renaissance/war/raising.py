"""garrisons, feudal levies, professional soldiers, mercenaries' morale, and the orders that raise morale (bonuses,
alcohol, the Shia/Sunni bonus city). Owner: the raising helper.

Work in progress: every function below is a stand-in until its rules are built."""

from __future__ import annotations

from typing import Any

from ..engine import Ctx, Outcome, Persona, fail

NOT_YET = "not carried out yet: this part of the war rules is being built"


def recruit_garrison(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def levy(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def recruit_soldiers(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def morale_bonus(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def alcohol(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def bonus_city(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def recruit_pools(ctx: Ctx) -> None:
    return None
