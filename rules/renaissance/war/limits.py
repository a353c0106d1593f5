"""What a persona may still do this month once a war order has bound him: one place for the limits several rules
put on the rest of a month.

- Staying put. Feudal levy: "in any turn which he spends entirely at that location"; ASSASSINATION: "Any persona
  who remains at a location for an entire turn"; DUELING: "A persona who has issued a challenge may not move in
  the same month"; looting and crop destruction: troops that "may not move" or "may receive no other orders".
  `pin` records it; travel.move and the conflict orders that take the place of a move ask `pinned`.
- Battle. "A persona may not execute other orders subsequently in the same turn after having executed battle
  orders"; "A persona who has initiated battles lasting twenty, or more, stages may initiate no further battles
  that turn" (RW-OQ-03). conflict.py records a battle order executed with `fought`, battle.py the stages initiated
  with `add_stages`; families.run_order asks conflict.after_battle before every later order of the persona.
"""

from __future__ import annotations

from ..context import Ctx

_PINNED = "war.pinned"  # pid -> why he may not move this month
_FOUGHT = "war.fought"  # pid -> True once he has executed a battle order
_STAGES = "war.stages"  # pid -> stages of the battles he initiated this month
_ASSAULTED = "war.assaulted"  # pids who executed an assault order this month
STAGE_LIMIT = 20


def pin(ctx: Ctx, pid: str, why: str) -> None:
    """He may not move for the rest of the month; the first reason given is the one told."""
    ctx.scratch.setdefault(_PINNED, {}).setdefault(pid, why)


def pinned(ctx: Ctx, pid: str) -> str | None:
    """Why he may not move this month, or None."""
    return ctx.scratch.get(_PINNED, {}).get(pid)


def fought(ctx: Ctx, pid: str) -> None:
    ctx.scratch.setdefault(_FOUGHT, {})[pid] = True


def has_fought(ctx: Ctx, pid: str) -> bool:
    return bool(ctx.scratch.get(_FOUGHT, {}).get(pid))


def add_stages(ctx: Ctx, pid: str, stages: int) -> int:
    """Count stages of battles he initiated; returns his month's total."""
    counts = ctx.scratch.setdefault(_STAGES, {})
    counts[pid] = counts.get(pid, 0) + stages
    return int(counts[pid])


def stages(ctx: Ctx, pid: str) -> int:
    return int(ctx.scratch.get(_STAGES, {}).get(pid, 0))


def may_initiate(ctx: Ctx, pid: str) -> str | None:
    """Why he may initiate no further battle this month (the twenty stages), or None."""
    n = stages(ctx, pid)
    if n >= STAGE_LIMIT:
        return f"he has initiated battles lasting {n} stages this month; at twenty a persona may initiate no more"
    return None


def assaulted(ctx: Ctx, pid: str) -> None:
    ctx.scratch.setdefault(_ASSAULTED, set()).add(pid)


def has_assaulted(ctx: Ctx, pid: str) -> bool:
    return pid in ctx.scratch.get(_ASSAULTED, set())
