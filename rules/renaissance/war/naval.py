"""NAVAL BATTLES and Appendix F; NAVAL BOMBARDMENT.

Work in progress: every function below is a stand-in until its rules are built."""

from __future__ import annotations

from typing import Any

from ..engine import Ctx, Outcome, Persona, fail


def naval_bombardment(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return fail("not carried out yet: this part of the war rules is being built")


def naval_bombardments(ctx: Ctx) -> None:
    return None


# Contract (conflict.py calls it):
#
#     fight(a: Side, b: Side) -> BattleResult
#
# `a` is the attacker (the one whose order or interception made the battle). The side with the initiative is
# decided inside (NAVAL BATTLES). Contingents carry ships, men (troops, crew, slaves), goods, falconets and cannons;
# `Side.dispositions` the ships by division ((place, ship, qty), place one of forces.NAVAL_DIVISIONS).
def fight(a, b):  # type: ignore[no-untyped-def]
    raise NotImplementedError("naval battle: being built")
