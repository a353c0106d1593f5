"""What a phase tells: the newsletter's sections (everyone), each player's own sections, the arrows of the
picture and the machine-readable events. Every part of the engine writes into one Report; the ruleset turns
it into the framework's printouts and newsletter (ruleset.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Report:
    public: dict[str, list[str]] = field(default_factory=dict)  # section title -> lines, in the order written
    private: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # player -> title -> lines
    attacks: list[tuple[str, str]] = field(default_factory=list)  # (from, to): the picture's arrows
    destroyed: list[str] = field(default_factory=list)  # railroads broken this phase, drawn broken
    events: list[dict[str, Any]] = field(default_factory=list)

    def say(self, title: str, line: str) -> None:
        """A line everyone reads (the newsletter; the printouts show it too)."""
        self.public.setdefault(title, []).append(line)

    def tell(self, player: str, title: str, line: str) -> None:
        """A line only `player` reads (his printout)."""
        self.private.setdefault(player, {}).setdefault(title, []).append(line)

    def event(self, kind: str, **fields: Any) -> None:
        self.events.append({"kind": kind, **fields})

    def arrow(self, source: str, target: str) -> None:
        if (source, target) not in self.attacks:
            self.attacks.append((source, target))
