"""tenancy, feudatory and sovereignty transfers (simultaneous orders), de facto control and its transfer, looting,
towers (transfer, combining, staying out of them, their garrisons).

Work in progress: every function below is a stand-in until its rules are built."""

from __future__ import annotations

from typing import Any

from ..engine import Ctx, Outcome, Persona, fail

NOT_YET = "not carried out yet: this part of the war rules is being built"


def transfer_office(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def transfer_control(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def transfer_tower(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def loot(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def towers(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail(NOT_YET)


def settle_office_transfers(ctx: Ctx) -> None:
    return None
