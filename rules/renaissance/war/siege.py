"""SIEGE, SIEGE BOMBARDMENT, siege attrition, the September rule, CROP DESTRUCTION, RAZING OF FORTIFICATIONS.

Work in progress: every function below is a stand-in until its rules are built."""

from __future__ import annotations

from typing import Any

from ..engine import Ctx, Outcome, Persona, fail

NOT_YET = "not carried out yet: this part of the war rules is being built"


def siege(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def bombard(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def crops(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def raze(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def sieges_take_effect(ctx: Ctx) -> None:
    return None


def siege_attrition(ctx: Ctx) -> None:
    return None
