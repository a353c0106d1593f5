"""Checks every game's setup file needs (TOML, already loaded into a dict): each finds what is wrong, notes it and
returns a usable value, so that checking goes on and the GM gets every problem of the file in one message.

A game's own setup module says what its tables hold; what a table, a whole number, a player's address or
password must look like is said here once, in the same words for every game.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from maild.ruleset import SetupError

# Any one word with an @ inside: maild answers to the address as written, so it needs no more than that.
EMAIL = re.compile(r"[^@\s]+@[^@\s]+")


class Problems:
    """What is wrong with a setup file, in the order found. `limit`: how many a SetupError lists (a generated
    world gone wrong could report thousands; the first ones are enough to fix the generator)."""

    def __init__(self, limit: int | None = None) -> None:
        self.found: list[str] = []
        self.limit = limit

    def add(self, message: str) -> None:
        self.found.append(message)

    def raise_any(self) -> None:
        if not self.found:
            return
        shown = self.found if self.limit is None else self.found[:self.limit]
        more = len(self.found) - len(shown)
        raise SetupError("; ".join(shown) + (f"; ... and {more} more" if more else ""))


def unknown_keys(problems: Problems, where: str, table: Mapping[str, Any], known: set[str]) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        problems.add(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")


def whole(problems: Problems, where: str, value: Any, minimum: int = 0, maximum: int | None = None) -> int:
    # bool is an int to Python, but `population = true` in a setup is a mistake.
    ok = isinstance(value, int) and not isinstance(value, bool)
    if ok and value >= minimum and (maximum is None or value <= maximum):
        return value
    span = f"from {minimum} to {maximum}" if maximum is not None else f">= {minimum}"
    problems.add(f"{where} must be a whole number {span}, found {value!r}")
    return minimum


def array_of_tables(problems: Problems, doc: Mapping[str, Any], key: str,
                    required: bool = False) -> list[dict[str, Any]]:
    """The array of tables `[[key]]`; without any, an empty list, or a problem if the game needs them."""
    value = doc.get(key)
    if value is None:
        if required:
            problems.add(f"{key}: missing (write one [[{key}]] table for each)")
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        problems.add(f"{key}: must be a list of tables ([[{key}]])")
        return []
    return value


def entries(problems: Problems, key: str, tables: list[dict[str, Any]], known: set[str], id_key: str,
            pattern: re.Pattern[str], rule: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Each table of `[[key]]` whose `id_key` (the name or code it is known by) matches `pattern`, as (that id,
    where it is for messages: "players #2 (alice)", the table). Unknown keys are reported; a table whose id is
    missing or wrong is reported ("players #2: name must be RULE, found ...") and left out."""
    for i, t in enumerate(tables, start=1):
        where = f"{key} #{i}"
        unknown_keys(problems, where, t, known)
        ident = t.get(id_key)
        if not isinstance(ident, str) or not pattern.fullmatch(ident):
            problems.add(f"{where}: {id_key} must be {rule}, found {ident!r}")
            continue
        yield ident, f"{where} ({ident})", t


def email(problems: Problems, where: str, value: Any, example: str) -> str | None:
    """A player's registered address; `example` is the local part the message suggests (the player's name)."""
    if isinstance(value, str) and EMAIL.fullmatch(value):
        return value
    problems.add(f"{where}: email must be an address like {example}@example.org, found {value!r}")
    return None


def password(problems: Problems, where: str, value: Any) -> str | None:
    """A player's password as the game's state keeps it: its argon2 hash (maild.passwords), or None for none.
    The setup gives one word, since it is the third word of the `#GAME PLAYER PASSWORD` header line, or a
    hash made before (kept as it is)."""
    if value is None:
        return None
    if isinstance(value, str) and value and not any(c.isspace() for c in value):
        from maild.passwords import stored  # argon2 is loaded only for a setup that gives passwords

        return stored(value)
    problems.add(f"{where}: password must be one word without blanks")
    return None
