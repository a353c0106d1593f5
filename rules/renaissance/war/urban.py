"""URBAN BATTLE: a pure function of two Sides (forces.py), no state, no RNG.

Contract (conflict.py and assault.py call it):

    fight(attacker: Side, defender: Side, *, home: str, withdraw: bool = False,
          tower_room: dict[str, int | None] | None = None, egress_denied: bool = False) -> BattleResult

- `home` is the role (forces.ATTACKER or DEFENDER) of the home side, which conflict.py decides from the families
  (URBAN BATTLE: "a citizen's, the tenant's, the bishop's, the feudatory's, the sovereign's").
- `withdraw`: the attacker is the home side, controls a tower and did not order the battle continued to its
  normal termination: it withdraws at the end of the first half of the first stage.
- `tower_room[role]`: the troops and crew the tower that side controls can hold (None: it controls no tower). A
  side with a tower withdraws into it at its retreat point (once it fits); the home side without one never
  retreats; the other side without one leaves town, unless `egress_denied` (then it fights to elimination).

Work in progress: a stand-in until the rules are built.
"""

from __future__ import annotations

from .forces import BattleResult, Side


def fight(attacker: Side, defender: Side, *, home: str, withdraw: bool = False,
          tower_room: dict[str, int | None] | None = None, egress_denied: bool = False) -> BattleResult:
    raise NotImplementedError("urban battle: being built")
