"""What every part of maild needs at hand: the config, the database and the clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from maild.clock import Clock
from maild.config import Config
from maild.db import Database


@dataclass
class App:
    config: Config
    db: Database
    clock: Clock

    def now(self) -> datetime:
        return self.clock.now()
