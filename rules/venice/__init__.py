"""Venice: seven sealed-bid auctions of agendas and assets, then agendas realized and loans repaid.

The rules are Venice (the README of scvalex/venice); the readings this package makes are in docs/venice.md.
"""

from .ruleset import RULESET, Venice

__all__ = ["RULESET", "Venice"]
