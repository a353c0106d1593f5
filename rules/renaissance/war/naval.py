"""NAVAL BATTLES and Appendix F; NAVAL BOMBARDMENT.

Work in progress: every function below is a stand-in until its rules are built."""

from __future__ import annotations

from ..engine import Ctx


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
