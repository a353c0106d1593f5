"""The Law of the Jungle (Aztlan): council sessions by mail, bold actions, word-limited Captains.

docs/law-of-the-jungle.md holds the readings; rules/jungle/ruleset.py the contract's hooks.
"""

from .ruleset import Jungle

RULESET = Jungle()
