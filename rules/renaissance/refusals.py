"""Orders understood but refused by a rule: the Diagnostic names the rule (maild.ruleset.Diagnostic.rule), so the
ack lists the order with the rule that refuses it, not among the lines it could not read."""

from __future__ import annotations

import re

from maild.parsing import OrderError


class RuleRefused(OrderError):
    """An order read as written that a rule of the game forbids on its face; `rule` is the rules' section."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


# A section of the rules cited in a message the way every Renaissance message cites one: its upper-case name in
# parentheses, alone or before a colon or a semicolon ("(CROP DESTRUCTION)", "(MORALE: the order states ...)").
_CITED = re.compile(r"\(([A-Z][A-Z ,'-]*[A-Z])(?:[:;][^)]*)?\)")


def rule_cited(message: str) -> str | None:
    """The rules' section a refusal cites, or None (a reading such as RW-OQ-09 is not a rule's name)."""
    found = _CITED.search(message)
    return found.group(1) if found else None
