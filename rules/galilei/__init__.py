"""Galilei: a reduced-luck Age of Renaissance by mail (rules "Game GALILEI Rules", 1 to 3.12).

docs/galilei.md holds the readings; rules/galilei/ruleset.py the contract's hooks.
"""

from .ruleset import Galilei

RULESET = Galilei()
