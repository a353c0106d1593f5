"""A character's death and what it undoes wherever it comes from (an attack, hunger, a sacrifice, a unit's
losses): "A character with 0 XP immediately dies" (CHARACTER ATTRIBUTES).

`kill` is the one way a character dies; what a death changes beyond the character (his slaves freed, a unit's
Captain succeeded, a citizen's or a Tlatoani's place filled) is done here or called from here, so every cause
of death has the same consequences.
"""

from __future__ import annotations

from . import captaincy, cities
from .council import Council
from .model import Character


def kill(council: Council, character: Character, cause: str) -> None:
    """`character` dies of `cause` ("starved", "killed in a duel by Xolotl" ...)."""
    if not character.alive:
        return
    character.alive = False
    character.xp = 0
    world = council.world
    # "If a slave's owner is killed, or if the slave escapes, the title of slave is removed." (SLAVE OF CHARACTER X)
    # Only those whose titles name him (`Roster.bound_to`), in the world's order: a session with thousands of
    # deaths among thousands of characters stays linear (bench/jungle_session.py).
    for other in world.roster().bound_to(character.name):
        if not other.alive:
            continue
        for t in other.titles:
            if t.subject == character.name and t.kind in ("Slave", "Tenant", "Owner"):
                break
        else:
            continue
        other.drop_title("Owner", character.name)  # his slave is dead: OWNER OF CHARACTER X goes with him
        if other.owner == character.name:
            other.drop_title("Slave")
            council.tell(other.house, f"{other.name} is free: his owner {character.name} is dead.")
        if other.landlord == character.name:
            other.drop_title("Tenant")
    council.tell(character.house, f"{character.name} died: {cause}.")
    council.announce(f"{character.name} of the house of {character.house} died: {cause}.")
    council.event("death", character=character.name, cause=cause)
    # The places he leaves are filled: a unit's Captain, a city's throne, a citizen's land.
    captaincy.after_death(council, character)
    cities.after_death(council, character)
