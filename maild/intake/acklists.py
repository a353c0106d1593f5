"""The ack's lists of diagnostics, so that no line is said two contradicting things.

A ruleset's diagnostics for one mail fall into three lists of the ack:

- **not understood**: the line could not be read as an order (a syntax error, a name no game knows);
- **refused by the rules**: the order was understood but a rule of the game refuses it (`Diagnostic.rule`
  names the rule); the ack lists it with that rule, so the player does not rewrite a line that was right;
- **please note**: warnings; the line's orders were accepted all the same.

A line that is in one of the first two lists is not also "accepted all the same": a warning about such a line
is said in the line's entry there ("note: ..."), never under "Please note".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from maild.ruleset import Diagnostic


@dataclass
class AckLists:
    errors: list[Diagnostic] = field(default_factory=list)  # not understood
    refused: list[Diagnostic] = field(default_factory=list)  # understood, refused by a rule (`rule` set)
    warnings: list[Diagnostic] = field(default_factory=list)  # accepted all the same


def ack_lists(diagnostics: Iterable[Diagnostic]) -> AckLists:
    diagnostics = list(diagnostics)
    out = AckLists()
    for d in diagnostics:
        if d.warning:
            continue
        (out.refused if d.rule else out.errors).append(d)
    listed = {d.line for d in out.errors} | {d.line for d in out.refused}
    notes: dict[int, list[str]] = {}
    for d in diagnostics:
        if d.warning:
            if d.line in listed:
                notes.setdefault(d.line, []).append(d.message)
            else:
                out.warnings.append(d)
    if notes:
        # Said once, on the line's first entry.
        for items in (out.errors, out.refused):
            for k, d in enumerate(items):
                if d.line in notes:
                    extra = "; ".join(notes.pop(d.line))
                    items[k] = replace(d, message=f"{d.message} (note: {extra})")
    return out
