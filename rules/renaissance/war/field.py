"""FIELD BATLE and Appendix D: a pure function of two Sides (forces.py), no state, no RNG.

Contract (conflict.py calls it):

    fight(attacker: Side, defender: Side) -> BattleResult

- The Sides' contingents carry men (forces.MEN types), cannon, falconet, horses and goods; `Side.dispositions`
  is the commander's arrangement as ordered, a list of (place, item, qty) with place one of forces.DIVISIONS;
  `Side.places` puts personae in divisions (default the Reserves); `Side.held_back` are men omitted from the
  initial arrangement and added to the Reserves at the start of Stage 1 (CROP DESTRUCTION).
- The result's `survivors` give each side's remaining men by type, cannon, falconet, horse and goods (after
  captures); `captured` what the victor takes; `ducats_share` the portion of the loser's ducats taken; `dead`
  the personae killed (never the commander of a Side with `spare`); `stages` the report, stage by stage.

Work in progress: a stand-in until Appendix D is built.
"""

from __future__ import annotations

from .forces import BattleResult, Side


def fight(attacker: Side, defender: Side) -> BattleResult:
    raise NotImplementedError("field battle: being built")
