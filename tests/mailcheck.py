"""What a player sees in a mail we send, checked the way he reads it (no tests here): prose lines within 78
columns for terminal mail programs (tables may stay wide: a row of aligned columns does not wrap) and no line
said twice where a list must name each thing once.

Every game's whole-game-by-mail test calls these on each printout, newsletter and ack it receives."""

from __future__ import annotations

import re
from collections import Counter

WIDTH = 78

# A table row: at least two gaps of two or more spaces between cells, or a row drawn with '|'.
_CELL_GAP = re.compile(r"\S {2,}(?=\S)")


def is_table_row(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("|") or len(_CELL_GAP.findall(stripped)) >= 2


def long_prose_lines(text: str, width: int = WIDTH) -> list[str]:
    """Lines over `width` columns that are not table rows: what a terminal mail program would wrap badly."""
    return [line for line in text.splitlines() if len(line) > width and not is_table_row(line)]


def _worth_counting(line: str) -> bool:
    stripped = line.strip()
    # Rules, blank lines and one-word labels repeat by design (a heading per section, "none").
    return len(stripped.split()) >= 3 and not re.fullmatch(r"[-=_*~. ]+", stripped)


def repeated_lines(text: str) -> dict[str, int]:
    """Lines of three words or more said more than once (compared without leading spaces)."""
    counts = Counter(line.strip() for line in text.splitlines() if _worth_counting(line))
    return {line: n for line, n in counts.items() if n > 1}


def section(text: str, heading: str) -> str:
    """The lines after the first line that starts with `heading`, up to the next blank line followed by an
    unindented line (the next section), or the end."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith(heading):
            out: list[str] = []
            for j in range(i + 1, len(lines)):
                if not lines[j].strip() and j + 1 < len(lines) and lines[j + 1][:1] not in ("", " ", "\t"):
                    break
                out.append(lines[j])
            return "\n".join(out)
    return ""


# A list's heading with its count: "Understood (2):", "Please note (1) - these orders were accepted all the same:".
_COUNTED_HEADING = re.compile(r"^\S.*\((\d+)\)[^()]*:$")


def empty_headings(text: str) -> list[str]:
    """Headings that announce a count of items and have none under them (the next line blank or the end)."""
    lines = text.splitlines()
    return [line for i, line in enumerate(lines)
            if _COUNTED_HEADING.match(line) and (i + 1 == len(lines) or not lines[i + 1].strip())]
