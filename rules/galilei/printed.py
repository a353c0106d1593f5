"""What a Galilei player reads after a phase, as the sections of his printout and of the newsletter: prose
wrapped for a terminal's mail program, and the table of the players (turn order, capital, luck, cards) that
every order of the next phase names.

Sections print their lines indented by two spaces (templates/sections.txt.j2), so prose is wrapped at 76
columns, a continued line indented two more; a table keeps its rows whole (aligned columns do not wrap)."""

from __future__ import annotations

import textwrap
from typing import Any

from maild.ledger import display

from . import state as st

#: 78 columns less the two of the section's indent.
WIDTH = 76


def wrap(lines: list[str]) -> list[str]:
    """Each line within WIDTH, a continued line indented; words (card ids, figures) are never cut. A line
    is broken before its last parenthesis that starts within the width, when there is one past the middle:
    the reason in it ("(after bob by the first mail received)") then stays whole, with the name that makes
    it this line's own, and no two continued lines read alike."""
    out: list[str] = []
    for line in lines:
        lead = line[:len(line) - len(line.lstrip())]
        rest = line
        if len(line) > WIDTH and (cut := line.rfind(" (", 0, WIDTH)) > WIDTH // 2:
            out.append(line[:cut])
            rest = lead + "  " + line[cut + 1:]
        out += textwrap.wrap(rest, WIDTH, subsequent_indent=lead + "  ", break_long_words=False,
                             break_on_hyphens=False) or [rest]
    return out


def players_table(state: dict[str, Any]) -> list[str]:
    """One row a player in turn order: his place, name, capital (battles and wars name either), luck score
    (four digits, 3.10) and the cards he holds (3.1: public)."""
    ledger = st.luck_ledger(state)
    rows = [("", "player", "capital", "luck", "cards held")]
    for n, name in enumerate(st.order(state), 1):
        rows.append((str(n), name, state["players"][name]["capital"] or "-",
                     display(ledger.balance(name, st.LUCK)), ", ".join(state["held"][name]) or "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return [f"{r[0]:>{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]:>{widths[3]}}  {r[4]}".rstrip()
            for r in rows]
