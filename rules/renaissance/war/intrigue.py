"""ASSASSINATION and DUELING (Appendix A).

Work in progress: every function below is a stand-in until its rules are built."""

from __future__ import annotations

from typing import Any

from ..engine import Ctx, Outcome, Persona, fail

NOT_YET = "not carried out yet: this part of the war rules is being built"


def assassinate(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def duel(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def settle_assassinations(ctx: Ctx) -> None:
    return None


def settle_duels(ctx: Ctx) -> None:
    return None
