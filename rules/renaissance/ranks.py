"""The one rank table: the feudal hierarchy (THE HIERARCHIES, THE HEREDITARY ARISTOCRACY) and the Islamic titles
(THE ISLAMIC HIERARCHY), and how a persona's rank is read from the state. War's retreat point and duels
(war/ranks.py), the transfers of offices (war/control.py) and feudal elevation (nobility.py) all read it here.

The feudal table as the reader's notes restore it from the flattened text, read in the order of its column heads
("Rights expended to effect elevation to this rank", "Feudal rank value", "Rank", "Elevation rights available each
year"):

| rank | value | rights a year | rights to elevate to it |
|---|---|---|---|
| HRE & Pope (non-hereditary) | 200 | 5 | by election only |
| king | 180 | 3 | 5 |
| grand duke / sovereign prince / sovereign duke / archduke | 160 | 1 | 4 |
| duke / prince | 140 | 0 | 3 |
| marquis / marquess / markgraf | 120 | 0 | 2 |
| count / earl / graf | 100 | 0 | 2 |
| viscount | 80 | 0 | 2 |
| baron | 60 | 0 | 2 |
| baronet / chevalier | 40 | 0 | 1 |
| knight (non-hereditary) | 20 | 0 | 1 |
| bourgeois / burger | 0 | 0 | 0 |

A persona's feudal rank is his `rank` (the word of his highest title; "none" = bourgeois). His Islamic title is his
`islamic_title` (emir, bey, khan, sultan, shah); a `rank` written as one of those words (worlds made before the
hierarchies) counts as his Islamic title and gives him no feudal rank. Plurals are not accepted, but case, blanks,
"." and "_" do not matter ("Grand Duke", "gd.dk.", "grand_duke").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Persona = dict[str, Any]


@dataclass(frozen=True)
class Rank:
    """One row of the feudal table."""

    names: tuple[str, ...]  # the first is the word the game writes
    value: int  # feudal rank value
    rights: int  # elevation rights available each year
    cost: int | None  # rights expended to effect elevation to this rank; None: "by election only"
    hereditary: bool = True

    @property
    def name(self) -> str:
        return self.names[0]


# Top to bottom, as printed.
FEUDAL_TABLE: tuple[Rank, ...] = (
    Rank(("hre", "holy roman emperor", "emperor", "pope"), 200, 5, None, hereditary=False),
    Rank(("king",), 180, 3, 5),
    Rank(("grand duke", "sovereign prince", "sovereign duke", "archduke"), 160, 1, 4),
    Rank(("duke", "prince"), 140, 0, 3),
    Rank(("marquis", "marquess", "markgraf"), 120, 0, 2),
    Rank(("count", "earl", "graf"), 100, 0, 2),
    Rank(("viscount",), 80, 0, 2),
    Rank(("baron",), 60, 0, 2),
    Rank(("baronet", "chevalier"), 40, 0, 1),
    Rank(("knight",), 20, 0, 1, hereditary=False),
    Rank(("bourgeois", "burger", "none"), 0, 0, 0),
)
BOURGEOIS = FEUDAL_TABLE[-1]
KING = FEUDAL_TABLE[1]
GRAND_DUKE = FEUDAL_TABLE[2]
DUKE = FEUDAL_TABLE[3]
ELECTED = FEUDAL_TABLE[0]


@dataclass(frozen=True)
class IslamicTitle:
    """THE ISLAMIC HIERARCHY: "Emirs have a retreat value of 140. Beys and khans have the same characteristics as
    emirs. Sultans have a retreat value of 200. Shahs have the same characteristics as sultans." """

    name: str
    retreat_value: int
    declared: bool  # a persona may declare himself one (emirs, and so beys and khans: RH-OQ-13)
    hereditary: bool  # passes to the replacement persona (sultans, and so shahs: RH-OQ-14)


ISLAMIC_TITLES: dict[str, IslamicTitle] = {t.name: t for t in (
    IslamicTitle("emir", 140, declared=True, hereditary=False),
    IslamicTitle("bey", 140, declared=True, hereditary=False),
    IslamicTitle("khan", 140, declared=True, hereditary=False),
    IslamicTitle("sultan", 200, declared=False, hereditary=True),
    IslamicTitle("shah", 200, declared=False, hereditary=True),
)}

# Other spellings: the table's own abbreviations and the short forms a code may use (codes have no blanks).
ALIASES: dict[str, str] = {"gd dk": "grand duke", "sov prince": "sovereign prince", "sov dk": "sovereign duke",
                           "sovprince": "sovereign prince", "sovduke": "sovereign duke", "burgher": "burger"}
_BY_NAME: dict[str, tuple[str, Rank]] = {}  # squashed spelling -> (the table's name, its row)
for _row in FEUDAL_TABLE:
    for _name in _row.names:
        _BY_NAME[_name.replace(" ", "")] = (_name, _row)
for _alias, _name in ALIASES.items():
    _BY_NAME[_alias.replace(" ", "")] = _BY_NAME[_name.replace(" ", "")]


def word(rank: Any) -> str:
    """A rank as written, lower case, single blanks, no "." or "_"."""
    return " ".join(str(rank or "none").lower().replace("_", " ").replace(".", " ").split())


def _named(rank: Any) -> tuple[str, Rank] | None:
    return _BY_NAME.get(word(rank).replace(" ", ""))


def feudal_row(rank: Any) -> Rank | None:
    """The row a rank word names ("Grand Duke", "grandduke", "gd.dk."), or None for a word that is no feudal rank."""
    named = _named(rank)
    return named[1] if named else None


def row_index(row: Rank) -> int:
    """0 for the HRE's row ... 10 for the bourgeois: the row above `row` is row_index(row) - 1."""
    return FEUDAL_TABLE.index(row)


def feudal_rank(persona: Persona | None) -> Rank:
    """His row of the feudal table: "Feudal rank is based upon a persona's highest title". An unknown word, an
    Islamic title or no rank: the bourgeois."""
    return feudal_row((persona or {}).get("rank")) or BOURGEOIS


def feudal_value(persona: Persona | None) -> int:
    return feudal_rank(persona).value


def islamic_title(persona: Persona | None) -> IslamicTitle | None:
    """His Islamic title: `islamic_title`, or a `rank` that is an Islamic word (older worlds)."""
    p = persona or {}
    for key in ("islamic_title", "rank"):
        title = ISLAMIC_TITLES.get(word(p.get(key)))
        if title is not None:
            return title
    return None


def rank_value(persona: Persona | None) -> int:
    """The value that enters his retreat test (MORALE: "feudal rank value of the persona"): his feudal rank value,
    or the retreat value of his Islamic title when he has one and it is higher (RH-OQ-12: one who holds both counts
    the higher, never both)."""
    title = islamic_title(persona)
    return max(feudal_value(persona), title.retreat_value if title else 0)


def title_rank(title: str) -> Rank | None:
    """The feudal row a title names by its first words ("Duke of Bari" -> duke, "Grand Duke" -> grand duke), or
    None ("Lord of Florence", "Regent of Milan")."""
    return feudal_row(str(title).split(" of ", 1)[0])


def rank_of_titles(titles: list[str]) -> str:
    """The rank his titles give ("Feudal rank is based upon a persona's highest title"): the table's name of the
    highest row a title names, an Islamic title's name when no feudal title is his, else "none". What a setup's
    persona is when it writes his titles and no rank."""
    rows = [row for t in titles if (row := title_rank(t)) not in (None, BOURGEOIS)]
    if rows:
        return min(rows, key=row_index).name
    islamic = [w for t in titles if (w := word(str(t).split(" of ", 1)[0])) in ISLAMIC_TITLES]
    return islamic[0] if islamic else "none"


def canonical_rank(rank: Any) -> str | None:
    """The word a rank is recorded as: the table's name for a feudal rank written in any accepted spelling
    ("grandduke" -> "grand duke"), an Islamic title's name, or None for a word that is neither."""
    w = word(rank)
    if w in ISLAMIC_TITLES:
        return w
    named = _named(w)
    return named[0] if named else None


# FEUDATORIES: "Feudatory status may be transferred to any title (except knight, baronet, chevalier, baron or
# viscount)". SOVEREIGNS: "to any title except a feudal one ranking below that of duke" (the bourgeois row holds no
# feudal title: reading C4 of docs/renaissance/war.md).
_BARRED: dict[str, frozenset[str]] = {
    "feudatory": frozenset({"knight", "baronet", "baron", "viscount"}),
    "sovereign": frozenset(r.name for r in FEUDAL_TABLE if 0 < r.value < DUKE.value),
}


def barred_from(office: str, persona: Persona) -> bool:
    """May `office` (tenant, feudatory, sovereign) not be transferred to him for his titles? He is barred when his
    highest feudal title is of a barred row and he holds no Islamic title: an emir, bey, khan, sultan or shah holds a
    title that is no feudal one, and "qualify[ies] to be sovereigns, feudatories, or tenants" (RH-OQ-11, RH-OQ-12).
    Tenancy goes "to any title": nobody is barred from it."""
    barred = _BARRED.get(office)
    if not barred or islamic_title(persona) is not None:
        return False
    return feudal_rank(persona).name in barred
