"""Battle reports: what the families who fought read in their printouts, stage by stage, and the public line of the
newsletter (THE PRINTOUT: "a newsletter containing news of general interest including a summary of the prior turn's
chief events ... a printout showing the assets ... of each of his personae").

battle.py calls `record` once per battle, after the result has been applied to the state, with what applying
it did (`Applied`). The record is kept in ctx.scratch["war.reports"] for the month's printouts (rules/renaissance/
reports.py, `battles_for`) and its public line is published. Nothing here changes the state or draws from the RNG:
the same battle gives the same report under any seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..context import Ctx
from .forces import ATTACKER, DEFENDER, FIGHTERS, ROLES, BattleResult, Contingent, Side
from .words import describe

REPORTS = "war.reports"  # ctx.scratch: the month's battle records, in the order fought
ROLE_WORDS = {ATTACKER: "the attacker", DEFENDER: "the defender"}


@dataclass
class Applied:
    """What applying a BattleResult did to the state, for the report."""

    losses: dict[str, dict[str, int]] = field(default_factory=dict)  # contingent key -> item -> lost (captures in)
    names: dict[str, str] = field(default_factory=dict)  # contingent key -> name
    morale: dict[str, tuple[int, int]] = field(default_factory=dict)  # persona id -> (before, after)
    receiver: str | None = None  # who took the captured assets (a name), None when they ceased to be game factors
    captured: dict[str, int] = field(default_factory=dict)
    dead: list[str] = field(default_factory=list)  # names
    after: list[str] = field(default_factory=list)  # where the survivors stand, control, what else followed


def round_figure(n: int) -> str:
    """A loss for the newsletter, in round figures: to the nearest ten under a hundred, the nearest hundred under a
    thousand, and so on (a half rounds up)."""
    if n <= 0:
        return "none"
    if n < 10:
        return "a few"
    step = 10 ** (len(str(n)) - 1)
    return f"about {(n + step // 2) // step * step:,}"


def contingent_lines(c: Contingent) -> str:
    guns = {"cannon": c.cannon, "falconet": c.falconet}
    held = {**c.men, **guns, **c.ships}
    return f"{c.name}: {describe(held)}; morale {c.morale}"


def side_lines(side: Side) -> list[str]:
    who = next((c.name for c in side.contingents if c.persona == side.commander), None)
    head = f"{ROLE_WORDS[side.role].capitalize()}: commander {who or 'none (a garrison alone)'}"
    head += f", retreat value {side.retreat_value}" if side.commander else ""
    lines = [head + (", not to be killed" if side.spare else "")]
    lines += [f"  {contingent_lines(c)}" for c in side.contingents]
    return lines




def stage_lines(result: BattleResult, sides: dict[str, Side]) -> list[str]:
    out: list[str] = []
    for stage in result.stages:
        out.append(f"Stage {stage.number} ({stage.name}):")
        out += [f"  {line}" for line in stage.lines]
        for role in ROLES:
            lost = stage.losses.get(role, {})
            if lost:
                out.append(f"  {ROLE_WORDS[role].capitalize()} lost {describe(lost)}.")
        # Whether a side retreats is each battle's own rule, in the engine's lines (its retreat value is the
        # commander's while he lives: RW-OQ-16).
        standings = [f"{ROLE_WORDS[role]} {stage.morale[role]}" for role in ROLES if role in stage.morale]
        if standings:
            out.append(f"  Morale after the stage: {', '.join(standings)}.")
    return out


def outcome_line(result: BattleResult) -> str:
    victor = f" Victor: {ROLE_WORDS[result.victor]}." if result.victor else " No victor."
    return f"Outcome: {result.outcome or 'undecided'}.{victor}"


def battle_lines(title: str, sides: dict[str, Side], result: BattleResult, applied: Applied) -> list[str]:
    lines = [title]
    for role in ROLES:
        lines += side_lines(sides[role])
    lines += [f"  {note}" for note in result.notes]
    lines += stage_lines(result, sides)
    lines.append(outcome_line(result))
    if applied.captured:
        share = ""
        if result.ducats_share:
            share = f" (the share of ducats taken: {float(Fraction(result.ducats_share)):.1%})"
        lines.append(f"Taken by {applied.receiver or 'no one (they cease to be game factors)'}: "
                     f"{describe(applied.captured)}{share}.")
    for key, lost in applied.losses.items():
        if lost:
            lines.append(f"{applied.names.get(key, key)} lost {describe(lost)}.")
    for pid, (before, after) in applied.morale.items():
        lines.append(f"Morale of {applied.names.get(pid, pid)}: {before} -> {after}.")
    lines += [f"Killed: {name}." for name in applied.dead]
    lines += applied.after
    return lines


def commander_name(side: Side) -> str:
    for c in side.contingents:
        if c.persona is not None and c.persona == side.commander:
            return c.name
    return side.contingents[0].name if side.contingents else "no one"


def men_lost(result: BattleResult, role: str) -> int:
    return sum(n for item, n in result.losses(role).items() if item in FIGHTERS)


def public_line(place: str, kind: str, sides: dict[str, Side], result: BattleResult, applied: Applied) -> str:
    """Who fought whom where, the outcome, the losses in round figures: nothing of the figures of each stage."""
    words = (f"{kind.capitalize()} at {place}: {commander_name(sides[ATTACKER])} attacked "
             f"{commander_name(sides[DEFENDER])}; {result.outcome or 'undecided'}. Men lost: the attacker "
             f"{round_figure(men_lost(result, ATTACKER))}, the defender {round_figure(men_lost(result, DEFENDER))}.")
    if applied.dead:
        words += f" Killed: {', '.join(applied.dead)}."
    return words


def record(ctx: Ctx, *, title: str, place: str, kind: str, sides: dict[str, Side], result: BattleResult,
           applied: Applied, families: list[str]) -> dict[str, Any]:
    """Keep the battle's report for the printouts of `families` and publish its public line."""
    entry = {"title": title, "families": sorted(set(families)),
             "lines": battle_lines(title, sides, result, applied),
             "public": public_line(place, kind, sides, result, applied)}
    ctx.scratch.setdefault(REPORTS, []).append(entry)
    ctx.publish(entry["public"])
    return entry


def records_for(ctx: Ctx, family: str) -> list[dict[str, Any]]:
    """The month's battle reports a family's printout shows: those of every battle one of its personae (or its
    tenant's garrison) fought in."""
    return [r for r in ctx.scratch.get(REPORTS, []) if family in r["families"]]
