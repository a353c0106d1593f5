"""Errors the command line turns into a one-line reason and exit status 2. Kept apart from the modules that
raise them so that `maild --help` and `orders check` need not import the database layer to catch them."""

from __future__ import annotations


class GameError(ValueError):
    """A request about a game that cannot be done; the message says why."""


class ConfigError(ValueError):
    """A config file maild cannot run with; the message names the key."""
