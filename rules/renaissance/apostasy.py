"""APOSTASY: a family changes religion (the family-level order HRrrrr, docs/renaissance-codes.md).

"Personae may change religion, but all personae under the control of a given player must convert to the same
religion in the same turn. Families which include a hereditary, elective, or appointive, sovereign may not change
religion. No player may order a family to change religion prior to his thirteenth turn as player for that family.
When a family changes religion, the popularity of each of its members is reduced by 90%, their troops' morale is
reduced by 50% and their piety is reduced to zero."

Readings RH-OQ-40 to RH-OQ-45 in docs/renaissance/hierarchies.md, "Apostasy". In short: one order converts every
family of the player, or none (RH-OQ-42); each must have been his for twelve months before (RH-OQ-44) and none may
hold a sovereignty of any kind (RH-OQ-45); the cuts round down (RH-OQ-40) and the troops' morale is the persona's
one morale rating, troops and crew (RH-OQ-41); offices of a church the converts leave fall vacant (RH-OQ-43).
"""

from __future__ import annotations

from typing import Any

from .church_offices import faith_lost, is_pope
from .context import Ctx, Outcome, Persona, State, done, fail
from .offices import elected_sovereignties, hereditary_sovereignties
from .orderkinds import CONVERTIBLE
from .ranks import ELECTED, feudal_rank, title_rank
from .war.morale import halved

RELIGIONS = CONVERTIBLE  # any religion the rules name (RH-OQ-43)
FIRST_TURN = 13  # "prior to his thirteenth turn as player for that family"
POPULARITY_KEPT = 10  # "reduced by 90%": a tenth is kept, rounded down (RH-OQ-40)


def players_families(state: State, player: str) -> list[str]:
    """Every family the player directs, by name (RH-OQ-42: the rule binds them all)."""
    return sorted(name for name, fam in state.get("families", {}).items() if fam.get("player") == player)


def turns_as_player(state: State, family: str, turn: int) -> int:
    """Which of his turns as player for the family `turn` is (RH-OQ-44): game months counted from the turn he
    took it (`player_since`, set when a GM's amendment adds a family; turn 1 for the setup's families)."""
    since = int(state["families"][family].get("player_since", 1))
    return turn - since + 1


def sovereignties(state: State, family: str) -> list[str]:
    """What makes the family's personae sovereigns (RH-OQ-45): every sovereignty of a location, hereditary (held by
    his titles) or elective (an elective state's ruler, a grandmaster whose order exercises it: RH-OQ-34), as
    offices.py tells them apart, and the elected sovereigns of the feudal table (the Pope, the Holy Roman Emperor:
    "by election only"), by his rank or a title of that row."""
    members = sorted(state["families"][family].get("personae", []))
    found: list[str] = []
    for pid in members:
        found += [f"{pid} is sovereign of {where}" for where in hereditary_sovereignties(state, pid)]
        found += [f"{pid} is elected sovereign of {where}" for where in elected_sovereignties(state, pid)]
    for pid in members:
        p = state["personae"].get(pid) or {}
        if is_pope(state, pid) or str(p.get("rank") or "").lower() == "pope":
            found.append(f"{pid} is the Pope")
        elif feudal_rank(p) is ELECTED or any(title_rank(str(t)) is ELECTED for t in p.get("titles", [])):
            found.append(f"{pid} is the Holy Roman Emperor")
    return found


def why_not(state: State, player: str, religion: str, turn: int) -> str | None:
    """Why the player's families may not convert to `religion` this turn, or None when they may."""
    if religion not in RELIGIONS:
        return f"{religion} is not a religion of the rules ({', '.join(RELIGIONS)})"
    families = players_families(state, player)
    for family in families:
        if state["families"][family].get("religion") == religion:
            continue
        nth = turns_as_player(state, family, turn)
        if nth < FIRST_TURN:
            return (f"this is your turn {nth} as player for {family}: no family changes religion before its "
                    f"player's thirteenth turn (APOSTASY)")
        if sov := sovereignties(state, family):
            return f"the {family} family includes a sovereign ({'; '.join(sov)}): it may not change religion (APOSTASY)"
    if all(state["families"][f].get("religion") == religion for f in families):
        return f"your families are {religion} already"
    return None


def apostasy_cut(persona: Persona) -> tuple[int, int]:
    """The cuts on a member of a family that changes religion (RH-OQ-40, 41): popularity to a tenth, rounded
    down; the morale of his troops and crew (his one morale rating) halved as war/morale.halved does; piety to
    zero. Returns (popularity, morale) after the cut."""
    persona["popularity"] = int(persona.get("popularity", 0)) // POPULARITY_KEPT
    persona["morale"] = halved(int(persona.get("morale", 0)))
    persona["piety"] = 0
    return persona["popularity"], persona["morale"]


def convert_family(ctx: Ctx, family: str, religion: str) -> list[str]:
    """Turn a family to `religion`: every member cut (the dead awaiting their successor keep their final ratings:
    the successor takes the new religion, RH-OQ-48), church positions of the old religion vacated. Returns what
    the family is told."""
    state = ctx.state
    lines: list[str] = []
    fam = state["families"][family]
    fam["religion"] = religion
    fam["converted"] = ctx.turn
    for pid in fam.get("personae", []):
        persona = state["personae"].get(pid)
        if persona is None:
            continue
        persona["religion"] = religion
        lost = faith_lost(ctx, pid)  # RH-OQ-43: the offices of the church he leaves, at once
        if not persona.get("alive", True):
            continue
        popularity, morale = apostasy_cut(persona)
        lines.append(f"{pid}: now {religion}; popularity {popularity}, morale {morale}, piety 0"
                     + (f"; no longer {', '.join(lost)}" if lost else ""))
    return lines


def convert(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """HRrrrr, a family-level order: the family, and with it every family of the same player, changes religion."""
    state = ctx.state
    family = str(args.get("family") or persona.get("family") or "").upper()
    if family not in state.get("families", {}):
        return fail(f"there is no family {family}")
    religion = str(args.get("religion", "")).lower()
    player = state["families"][family]["player"]
    done_this_turn = ctx.scratch.setdefault("apostasy", {})
    if player in done_this_turn:
        if done_this_turn[player] == religion:
            return done(f"the {family} family became {religion} earlier this month with your other families")
        return fail(f"your families became {done_this_turn[player]} this month: all personae of a player convert "
                    "to the same religion in the same turn (APOSTASY)")
    if (why := why_not(state, player, religion, ctx.turn)) is not None:
        return fail(why)
    converted = [f for f in players_families(state, player) if state["families"][f].get("religion") != religion]
    for name in converted:
        for line in convert_family(ctx, name, religion):
            ctx.tell(name, line)
        ctx.publish(f"The {name} family has embraced the {religion} faith.")
    done_this_turn[player] = religion
    return done(f"the {', '.join(converted)} {'family has' if len(converted) == 1 else 'families have'} changed "
                f"religion to {religion}: popularity cut by 90%, troops' morale by 50%, piety to zero")
