"""THE ISLAMIC HIERARCHY: emirs, beys and khans declare themselves; a sultan's (or shah's) death brings civil strife.

"Any Shia, or Sunni, who controls over 1,000 troops (crew and garrison not included) and has combined ratings for
morale, popularity and piety totalling at least 2,400, may declare himself an emir. Emirs have a retreat value of
140. Beys and khans have the same characteristics as emirs. Sultans have a retreat value of 200. Shahs have the same
characteristics as sultans. As primogeniture was not practiced in Islam, the death of a sultan leads to the immediate
succession to his throne of a member of the same family and to the creation of a number of pretenders. These
pretenders are assumed to be immediately defeated, but the ensuing civil strife is deemed to reduce to zero the
loyalty of the sultanate's three most populous cities."

The titles and their values are ranks.py's. A persona's Islamic title is kept in `islamic_title` and named in his
`titles`. Readings RH-OQ-11 ... RH-OQ-14 in docs/renaissance/hierarchies.md.
"""

from __future__ import annotations

from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .offices import holder
from .ranks import ISLAMIC_TITLES, islamic_title
from .war.morale import ISLAM, troops

TROOPS_OVER = 1000  # "controls over 1,000 troops (crew and garrison not included)"
RATINGS_AT_LEAST = 2400  # "combined ratings for morale, popularity and piety totalling at least 2,400"
STRIFE_CITIES = 3  # "the sultanate's three most populous cities"


def _name(p: Persona) -> str:
    return str(p.get("name") or p.get("id"))


def declare(ctx: Ctx, persona: Persona, target: Persona, title_word: str) -> Outcome:
    """OE<his own number>emir (or bey, khan): he declares himself. Any month, when the order runs (RH-OQ-13). The
    title stays his until his death, whatever befalls his troops or his ratings later: the rules take it away on no
    condition. Sultans and shahs are made by no order: the rules give no way to become one (the GM's world or an
    amendment names them)."""
    title = ISLAMIC_TITLES[title_word]
    if not title.declared:
        return fail(f"no order makes a persona {title.name}: the rules say how one becomes an emir, and that beys "
                    f"and khans are like emirs, but give no way to become a sultan or shah (THE ISLAMIC HIERARCHY)")
    if target["id"] != persona["id"]:
        return fail(f"a persona may declare only himself {title.name} (THE ISLAMIC HIERARCHY: \"may declare himself "
                    "an emir\")")
    if str(persona.get("religion", "")).lower() not in ISLAM:
        return fail(f"only a Shia or Sunni may declare himself {title.name}; he is "
                    f"{persona.get('religion') or 'of no religion'}")
    held = islamic_title(persona)
    if held is not None:
        return fail(f"he is already {held.name}")
    men = troops(persona.get("assets") or {})
    if men <= TROOPS_OVER:
        return fail(f"he controls {men:,} troops (crew and garrison not counted): over {TROOPS_OVER:,} are needed")
    ratings = {k: int(persona.get(k, 0)) for k in ("morale", "popularity", "piety")}
    total = sum(ratings.values())
    if total < RATINGS_AT_LEAST:
        return fail(f"his morale, popularity and piety come to {total:,} ({ratings['morale']} + "
                    f"{ratings['popularity']} + {ratings['piety']}): at least {RATINGS_AT_LEAST:,} are needed")
    persona["islamic_title"] = title.name
    persona.setdefault("titles", []).append(title.name.capitalize())
    ctx.publish(f"{_name(persona)} has declared himself {title.name}.")
    return done(f"declared himself {title.name} ({men:,} troops; morale, popularity and piety {total:,}): his "
                f"retreat value is now {title.retreat_value}")


def sultanate_cities(state: dict[str, Any], pid: str, sovereign_of: list[str] | None = None) -> list[str]:
    """The sultanate's cities, most populous first: the locations of which he is sovereign (RH-OQ-14), or was at
    his death (`sovereign_of`: succession has passed them on by then, to a member of the family he named perhaps,
    RH-OQ-47). Equal populations in name order."""
    if sovereign_of is None:
        held = [(name, loc) for name, loc in state["locations"].items() if holder(loc, "sovereign") == pid]
    else:
        held = [(name, state["locations"][name]) for name in sovereign_of if name in state["locations"]]
    held.sort(key=lambda kv: (-int(kv[1].get("population", 0)), kv[0]))
    return [name for name, _ in held]


def civil_strife(ctx: Ctx, dead: Persona, sovereign_of: list[str] | None = None) -> list[str]:
    """A dead sultan (or shah, "the same characteristics as sultans"): the loyalty of his sultanate's three most
    populous cities falls to zero (all of them, when it has fewer). The throne passes to his replacement persona,
    who keeps his sovereignties (nobility.succeed). Returns the cities struck; nothing for any other persona."""
    title = islamic_title(dead)
    if title is None or not title.hereditary:
        return []
    struck = sultanate_cities(ctx.state, dead["id"], sovereign_of)[:STRIFE_CITIES]
    for name in struck:
        ctx.state["locations"][name]["loyalty"] = 0
    if struck:
        ctx.publish(f"The death of the {title.name} {_name(dead)} raises pretenders, who are defeated at once; the "
                    f"civil strife brings the loyalty of {', '.join(struck)} to zero.")
    return struck
