"""What every part of maild needs at hand: the config, the database and the clock."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from maild.clock import Clock
from maild.config import Config
from maild.db import Database


@dataclass
class App:
    config: Config
    db: Database
    clock: Clock
    created: list[str] = field(default_factory=list)  # games the config named that this start created

    def now(self) -> datetime:
        return self.clock.now()
