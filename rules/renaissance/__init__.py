"""Renaissance: the 1493 world, families of personae, orders in code executed in sequence, month by month.

The rules text is /work/shared/rules/renaissance.md; the readings this package makes are in docs/renaissance.md
and docs/renaissance/; the state is described in docs/renaissance-state.md and the codes in
docs/renaissance-codes.md.
"""

from .ruleset import RULESET, Renaissance

__all__ = ["RULESET", "Renaissance"]
