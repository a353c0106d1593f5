"""who fights whom: attack orders, interception, alliances, dispositions, the 20-to-1 rule, the twenty stages, applying
a battle's result to the state, conflict fees and CREDIT.

Work in progress: every function below is a stand-in until its rules are built."""

from __future__ import annotations

from typing import Any

from ..engine import Ctx, Outcome, Persona, fail

NOT_YET = "not carried out yet: this part of the war rules is being built"


def intercept(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def attack(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def garrison_attack(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def assault(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def alliance(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def no_support(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def dispose(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def post(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def naval_bombardment(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)
