"""THE HEREDITARY ARISTOCRACY: feudal elevation each February, and what a successor receives.

"Feudal rank is based upon a persona's highest title. When a persona dies, his successor receives all of his
hereditary titles. The Holy Roman Emperor (HRE), the Pope, kings, grand dukes, archdukes, sovereign princes and
sovereign dukes may elevate personae each February in accordance with the table below. Elevation rights may not be
accumulated from one year to the next. No single persona may benefit from the elevation rights of more than one
persona per year. A persona may be elevated only one rank per year. No persona may be elevated to the rank of grand
duke, or king, unless he is a hereditary sovereign at the time of his elevation."

The table (values, rights, costs) is ranks.py's. The order is `OEnnnnrank[/llll]`: elevate nnnn to the rank, his new
title named for llll if given ("Duke of Bari"); `OE<his own number>emir` declares an emir (islamic_titles.py).
Elevations happen in one month a year, so the year's bookkeeping (rights spent, who was elevated) lives in the
month's scratch and nothing is stored. Readings RH-OQ-02 ... RH-OQ-10: docs/renaissance/hierarchies.md.

For succession.py: `succeed(ctx, dead, heir)` gives the heir what passes with the hereditary titles (call it once the
heir is built, before he takes the dead man's place).
"""

from __future__ import annotations

from typing import Any

from . import islamic_titles
from .context import Ctx, Outcome, Persona, State, done, fail
from .offices import hereditary_sovereignties
from .ranks import (
    BOURGEOIS,
    ELECTED,
    FEUDAL_TABLE,
    GRAND_DUKE,
    ISLAMIC_TITLES,
    KING,
    Rank,
    canonical_rank,
    feudal_rank,
    feudal_row,
    islamic_title,
    row_index,
    title_rank,
)
from .setup import find_location

FEBRUARY = 2  # "may elevate personae each February"
POPE_RIGHTS = ELECTED.rights  # the row of the HRE and the Pope: 5 a year
# "No persona may be elevated to the rank of grand duke, or king, unless he is a hereditary sovereign": the two rows,
# every name in them (RH-OQ-04).
SOVEREIGN_ROWS = (KING, GRAND_DUKE)

_SPENT = "nobility.spent"  # elevator pid -> rights spent this February
_ELEVATED = "nobility.elevated"  # elevated pid -> (elevator pid, the row he held before)


def _name(p: Persona) -> str:
    return str(p.get("name") or p.get("id"))


def start_rank(ctx: Ctx, persona: Persona) -> Rank:
    """His feudal rank as the month began: a persona elevated this February uses the rights of his new rank only
    next February (RH-OQ-06)."""
    before = ctx.scratch.get(_ELEVATED, {}).get(persona["id"])
    return before[1] if before else feudal_rank(persona)


def elevation_rights(ctx: Ctx, persona: Persona) -> int:
    """The rights he has this year, by the table ("Elevation rights available each year"): the HRE 5, kings 3, the
    grand-duke row 1, others none; the Pope 5 (he is the Pope when the state names him, whatever his rank word)."""
    rights = start_rank(ctx, persona).rights
    if ctx.state.get("pope") == persona["id"]:
        rights = max(rights, POPE_RIGHTS)
    return rights


def rights_left(ctx: Ctx, persona: Persona) -> int:
    return elevation_rights(ctx, persona) - ctx.scratch.get(_SPENT, {}).get(persona["id"], 0)


def hereditary_sovereign(state: State, pid: str) -> bool:
    """RH-OQ-03: he is sovereign of a location through his titles (however the sovereignty came to him), not as an
    elected ruler."""
    return bool(hereditary_sovereignties(state, pid))


def title_text(rank: str, place: str | None) -> str:
    """The title an elevation gives, as the printout lists it: the rank word, and the place the elevator named
    ("Duke of Bari"); RH-OQ-02."""
    words = " ".join(w.capitalize() for w in rank.split())
    return f"{words} of {place}" if place else words


def _refusal(ctx: Ctx, elevator: Persona, target: Persona, row: Rank) -> str | None:
    """Why this elevation may not be made, or None."""
    if ctx.month != FEBRUARY:
        return "personae are elevated each February only (THE HIERARCHIES)"
    if row.cost is None:
        return (f"the rank of {row.name.upper() if row.name == 'hre' else row.name} is reached by election only "
                "(THE HIERARCHIES)")
    if row is BOURGEOIS:
        return "that is no elevation"
    if target["id"] == elevator["id"]:
        return "a persona is elevated by another, never by himself"
    if elevation_rights(ctx, elevator) == 0:
        return ("only the HRE, the Pope, kings, grand dukes, archdukes, sovereign princes and sovereign dukes may "
                f"elevate personae; he is {start_rank(ctx, elevator).name}")
    before = ctx.scratch.get(_ELEVATED, {}).get(target["id"])
    if before is not None:
        by = ctx.persona(before[0]) or {"id": before[0]}
        return (f"{_name(target)} has been elevated this year already, with the rights of {_name(by)}: a persona may "
                "be elevated only one rank per year, and benefit from the rights of one persona a year")
    current = feudal_rank(target)
    if row_index(row) >= row_index(current):
        return f"{_name(target)} is already {current.name}: an elevation raises him to a higher rank"
    if row_index(row) != row_index(current) - 1:
        above = FEUDAL_TABLE[row_index(current) - 1]
        return (f"a persona may be elevated only one rank per year: {_name(target)}, {current.name}, may be made "
                f"{' or '.join(n for n in above.names)}")
    if row in SOVEREIGN_ROWS and not hereditary_sovereign(ctx.state, target["id"]):
        return (f"no persona may be elevated to the rank of grand duke, or king, unless he is a hereditary sovereign "
                f"at the time of his elevation: {_name(target)} is sovereign of no location through his titles")
    left = rights_left(ctx, elevator)
    if row.cost > left:
        return (f"elevation to {row.name} expends {row.cost} rights and he has {left} left this year "
                f"({elevation_rights(ctx, elevator)} a year; they may not be accumulated)")
    return None


def elevate(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OEnnnnrank[/llll]: elevate nnnn one rank, with the rights of the persona giving the order. An Islamic title
    is declared by the persona himself (islamic_titles.declare)."""
    target = ctx.persona(str(args.get("target", "")))
    if target is None or not target.get("alive", True):
        return fail(f"there is no living persona {args.get('target')!r} to elevate")
    word = canonical_rank(args.get("rank"))
    if word in ISLAMIC_TITLES:
        return islamic_titles.declare(ctx, persona, target, word)
    row = feudal_row(word)
    if word is None or row is None:
        return fail(f"no rank {args.get('rank')!r} in the feudal hierarchy")
    place = args.get("place")
    if place:
        found = find_location(ctx.state, place)
        if found is None:
            return fail(f"there is no location {place!r} to name the title for")
        place = found
    if (why := _refusal(ctx, persona, target, row)) is not None:
        return fail(why)
    assert row.cost is not None
    spent = ctx.scratch.setdefault(_SPENT, {})
    spent[persona["id"]] = spent.get(persona["id"], 0) + row.cost
    ctx.scratch.setdefault(_ELEVATED, {})[target["id"]] = (persona["id"], feudal_rank(target))
    title = title_text(word, place)
    held = islamic_title(target)
    if held is not None:  # an Islamic title written as his rank (an older world) stays his, apart from his new rank
        target["islamic_title"] = held.name
    target["rank"] = word
    target.setdefault("titles", []).append(title)
    ctx.publish(f"{_name(persona)} has elevated {_name(target)} to the rank of {word}: {title}.")
    return done(f"elevated {_name(target)} to {word} ({title}), expending {row.cost} of his rights "
                f"({rights_left(ctx, persona)} left this year)")


# ---- succession ------------------------------------------------------------------------------------------------

# Dignities that are offices of a person, not titles of the feudal table: elected (the cardinal's hat, a
# grandmastership, a Pope named by his papal name: RH-OQ-47) or a knight's "Sir". The table's own non-hereditary
# rows (knight, HRE & Pope) and the Islamic titles a persona declares himself (emir, bey, khan) are ranks.py's.
_PERSONAL_DIGNITIES = ("cardinal", "pope", "grandmaster", "grand master", "sir ")


def hereditary_title(title: str) -> bool:
    """Does the title pass to whoever takes the dead man's positions (THE HIERARCHIES: "his successor receives all
    of his hereditary titles")? Not knighthood ("knight (non-hereditary)"), the HRE's and the Pope's dignity ("HRE &
    Pope (non-hereditary)"), an emir's, bey's or khan's title (RH-OQ-13), a cardinal's hat or a grandmastership. The
    one test: succession.pass_on_positions hands over the titles it passes."""
    low = title.lower()
    if low.startswith(_PERSONAL_DIGNITIES):
        return False
    row = title_rank(title)
    if row is not None:
        return row.hereditary
    islamic = ISLAMIC_TITLES.get(low.split(" of ", 1)[0].strip())
    return islamic is None or islamic.hereditary


def succeed(ctx: Ctx, dead: Persona, heir: Persona, sovereign_of: list[str] | None = None) -> list[str]:
    """What passes with the hereditary titles (RH-OQ-02, RH-OQ-14), on the heir built by succession.successor:

    - his feudal rank is that of his highest hereditary title ("When a persona dies, his successor receives all of
      his hereditary titles"; knighthood, the HRE's and the Pope's dignity do not pass): a titled HRE's heir is the
      king his titles make him;
    - a sultan's or shah's title passes ("the immediate succession to his throne of a member of the same family":
      the replacement persona), with the civil strife of islamic_titles.civil_strife; an emir's, bey's or khan's,
      declared by himself, dies with him.

    The sovereignties, feudatory status and tenancies he held are the heir's already (pass_on_positions);
    `sovereign_of` names the locations he was sovereign of at his death, the sultanate of the civil strife (else
    read from the state, where the replacement under the same id holds them). Returns what the family is told."""
    said: list[str] = []
    own = islamic_title(heir)  # a member of the family who takes the positions may hold a title of his own
    if own is not None:
        heir["islamic_title"] = own.name
    # His titles are his own and the hereditary ones pass_on_positions handed him (hereditary_title); his rank is the
    # highest of his own (a member of the family keeps a higher one), his titles' and the dead man's hereditary rank.
    ranks = [r for t in heir.get("titles", []) if (r := title_rank(t)) is not None]
    dead_row = feudal_rank(dead)
    inherited = dead_row if dead_row.hereditary else BOURGEOIS
    best = min([inherited, feudal_rank(heir), *ranks], key=row_index)
    heir["rank"] = best.name if best is not BOURGEOIS else "none"
    title = islamic_title(dead)
    # A member of the family who takes the positions (the Islamic succession, succession.py) keeps his own title.
    if title is not None and title.hereditary:
        heir["islamic_title"] = title.name
        said.append(f"{_name(heir)} succeeds to the throne as {title.name}")
        struck = islamic_titles.civil_strife(ctx, dead, sovereign_of)
        if struck:
            said.append(f"civil strife: the loyalty of {', '.join(struck)} falls to zero")
    if heir["rank"] != "none":
        said.append(f"{_name(heir)} is {heir['rank']} by his inherited titles")
    return said
