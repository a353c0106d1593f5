"""`maild game show`: a game as a GM reads it, one fact a line (the JSON export is `--json`)."""

from __future__ import annotations

from typing import Any

INDENT = "  "


def label(key: str) -> str:
    """'interest_due' -> 'interest due': the export's keys are for scripts, the summary is for people."""
    return key.replace("_", " ")


def value_lines(value: Any, depth: int) -> list[str]:
    """A figure below its label: scalars inline, lists one item a line, tables one key a line."""
    pad = INDENT * depth
    if isinstance(value, dict):
        if not value:
            return [f"{pad}none"]
        out: list[str] = []
        for k, v in value.items():
            if isinstance(v, dict | list) and v:
                out += [f"{pad}{label(str(k))}:", *value_lines(v, depth + 1)]
            else:
                out.append(f"{pad}{label(str(k))}: {scalar(v)}")
        return out
    if isinstance(value, list):
        if not value:
            return [f"{pad}none"]
        out = []
        for item in value:
            if isinstance(item, dict | list) and item:
                out += [f"{pad}-", *value_lines(item, depth + 1)]
            else:
                out.append(f"{pad}- {scalar(item)}")
        return out
    return [f"{pad}{scalar(value)}"]


def scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, dict | list):  # only ever empty here
        return "none"
    if isinstance(value, float) and value.is_integer():
        return f"{value:.2f}"
    return str(value)


def summary(export: dict[str, Any], deadline: str | None, total_turns: int | None) -> str:
    """The readable `game show`: the game's line, its turn and deadline, then each player's figures."""
    lines = [f"{export['game']} ({export['ruleset']})"]
    if export["finished"]:
        lines.append(f"finished after turn {export['turn'] - 1}")
    else:
        of = f" of {total_turns}" if total_turns else ""
        due = f"orders due {deadline}" if deadline else \
            f"no deadline: `maild turn run {export['game']} --turn {export['turn']}` runs the turn"
        lines.append(f"turn {export['turn']}{of}, {due}")
        if export.get("turn_status") == "held":
            lines.append("the turn is HELD by the safety gate: `maild turn release "
                         f"{export['game']}` runs it")
        waiting = [name for name, p in export["players"].items() if not p.get("orders_on_file")]
        lines.append(f"no orders yet from: {', '.join(waiting) if waiting else 'nobody'}")
        lost = export.get("unreachable") or {}
        if lost:
            lines.append("unreachable (their mail bounced): " + ", ".join(
                f"{name} ({u['reason'][:100]}, {u['since'][:10]})" for name, u in lost.items()))
    lines.append("")
    lines.append(f"players ({len(export['players'])}):")
    for name, figures in export["players"].items():
        lines.append(f"{INDENT}{name} <{figures.get('email', '?')}>")
        shown = {k: v for k, v in figures.items() if k not in ("email", "orders_on_file")}
        lines += value_lines(shown, 2) if shown else []
    return "\n".join(lines)
