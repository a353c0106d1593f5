"""The Grand Game: Politics, Development, and War (J. Andrew Sinclair), played by mail.

The rules are `rules/grand-game.md` of the project's shared material; the readings this package makes, and a
map of its modules, are in docs/grand-game.md.
"""

from .ruleset import RULESET

__all__ = ["RULESET"]
