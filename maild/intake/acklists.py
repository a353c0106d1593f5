"""The ack's lists of diagnostics, so that no line is said two contradicting things.

A ruleset's diagnostics for one mail fall into three lists of the ack:

- **not understood**: the line could not be read as an order (a syntax error, a name no game knows);
- **refused by the rules**: the order was understood but a rule of the game refuses it (`Diagnostic.rule`
  names the rule); the ack lists it with that rule, so the player does not rewrite a line that was right;
- **please note**: warnings; the line's orders were accepted all the same.

Each line is listed once in a list (two messages of one line are one entry). A line in one of the first two
lists is never also "accepted all the same". A warning about such a line is
dropped when nothing of the line is on file (a note on a 0$ bid that was refused says nothing the player can
use), and said in the line's entry ("note: ...") when an order of the line still is (a Renaissance line of
several codes, one of them wrong).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from maild.ruleset import Diagnostic, Order


@dataclass
class AckLists:
    errors: list[Diagnostic] = field(default_factory=list)  # not understood
    refused: list[Diagnostic] = field(default_factory=list)  # understood, refused by a rule (`rule` set)
    warnings: list[Diagnostic] = field(default_factory=list)  # accepted all the same
    notes: dict[int, list[str]] = field(default_factory=dict)  # line -> warnings said with its entry above


def ack_lists(diagnostics: Iterable[Diagnostic], orders: Iterable[Order] = ()) -> AckLists:
    """The lists of the module docstring; `orders` are those on file from this mail (after the checks)."""
    diagnostics = list(diagnostics)
    out = AckLists()
    for d in diagnostics:
        if not d.warning:
            (out.refused if d.rule else out.errors).append(d)
    listed = {d.line for d in out.errors} | {d.line for d in out.refused}
    on_file = {o.line for o in orders}
    for d in diagnostics:
        if not d.warning:
            continue
        if d.line not in listed:
            out.warnings.append(d)
        elif d.line in on_file and d.message not in out.notes.get(d.line, []):
            out.notes.setdefault(d.line, []).append(d.message)
    out.errors, out.refused, out.warnings = _once(out.errors), _once(out.refused), _once(out.warnings)
    return out


def _once(items: list[Diagnostic]) -> list[Diagnostic]:
    """Each line once: two diagnostics of one line (a game that finds two things wrong with it) are one entry
    with both messages, so the ack does not repeat the player's line."""
    out: list[Diagnostic] = []
    where: dict[tuple[int, str], int] = {}
    for d in items:
        k = where.get((d.line, d.text))
        if k is None:
            where[(d.line, d.text)] = len(out)
            out.append(d)
        elif d.message not in out[k].message:
            out[k] = replace(out[k], message=f"{out[k].message}; {d.message}")
    return out
