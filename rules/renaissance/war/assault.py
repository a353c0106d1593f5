"""Assaults of fortifications (SIEGE BOMBARDMENT ... ASSAULT, TOWERS, Appendix E): pure functions of two Sides
(forces.py), no state, no RNG.

Contract (conflict.py calls them):

    walls(attacker: Side, defender: Side, *, far: int, fas: int, retreat_room: int | None = None) -> BattleResult
    tower(attacker: Side, defender: Side, *, fas: int, room: int) -> BattleResult

- `walls`: an assault of a location's four walls. `Side.dispositions` holds the assaulter's and the defenders'
  allocations to walls ((place, item, qty), place one of forces.WALLS); `Side.places` posts personae (defenders'
  default: the North wall). The defenders' cannons (their contingents' cannon and falconet) fire in Stage 1 when
  FAR > 0. `retreat_room`: the troops and crew the defenders' tower can hold (Appendix E: "Defenders never retreat
  unless they own a tower with enough space to hold all of their troops"), None when they have none.
- `tower`: the assault of a tower of `fas` (one wall), preceded by the urban prelude against the men who do not fit
  in its `room` (TOWERS). The defender's Side includes the tower garrison's contingent.
- The result's `victor` is ATTACKER when the fortification falls (its defenders eliminated or the last of them
  retreated into a tower); `survivors`, `dead` and `stages` as for every battle; the morale bonus of a successful
  assault (one point per hundred defenders eliminated) is in the attacker's final morale.

Work in progress: a stand-in until Appendix E is built.
"""

from __future__ import annotations

from .forces import BattleResult, Side


def walls(attacker: Side, defender: Side, *, far: int, fas: int, retreat_room: int | None = None) -> BattleResult:
    raise NotImplementedError("assault: being built")


def tower(attacker: Side, defender: Side, *, fas: int, room: int) -> BattleResult:
    raise NotImplementedError("tower assault: being built")
