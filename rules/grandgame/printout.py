"""What each player and the newsletter show after a phase: the Report's sections, then the lists a player needs
to write his next orders. STUB: being written."""

from __future__ import annotations

from typing import Any

from .report import Report
from .state import State, country_name, player


def _sections(titled: dict[str, list[str]]) -> list[dict[str, Any]]:
    return [{"title": title, "lines": lines} for title, lines in titled.items() if lines]


def printouts(state: State, turn: int, phase: str, report: Report) -> dict[str, dict[str, Any]]:
    return {p["name"]: {"sections": _sections(report.private.get(p["name"], {})) + _sections(report.public)}
            for p in state["players"]}


def newsletter(state: State, turn: int, phase: str, report: Report) -> dict[str, Any]:
    return {"sections": _sections(report.public)}


def status(state: State, name: str) -> dict[str, Any]:
    p = player(state, name)
    if p["country"] is None:
        return {"Country": "not picked yet"}
    return {"Country": f"{country_name(state, name)} ({p['regime']})", "GDP": p["gdp"], "Francs": p["francs"],
            "Atomic research": p["research"]}
