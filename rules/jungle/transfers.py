"""Who holds what: land, a city's rulership, a unit's captaincy, a slave, and the tenancy that follows from land.

Everything that changes hands in The Law of the Jungle changes hands here, whether it is given (GIVE X),
won (CHALLENGE, OVERTHROW) or taken by a revolt, so the titles and the world's bookkeeping always agree:

- land: `Hex.citizen` names the citizen owning a land tile; the city hex (`City.centre`) is the Tlatoani's
  ("A peasant residing in the city hex will be a tenant of the Tlatoani.");
- tenancy: "A peasant that lives on a hex owned by a Citizen receives the title of Tenant of Character X." The
  title is never set by hand: `retenant` works it out from where the character lives, and everything that
  moves a character or changes a tile's owner calls it (docs/law-of-the-jungle.md, "Houses, characters and
  the simple actions", LJ-OQ-60);
- the titles "Slave of X" / "Owner of X" and "Captain of Unit X" mirror `Unit.captain` and the Slave title.

These functions do not check whether a transfer is allowed (same location, the giver holds the thing): the
action that calls them does, and voids the action with a reason when it is not.
"""

from __future__ import annotations

from .model import Character, Title, World, key


def landlord_of(world: World, city: str | None, hex_name: str | None) -> str | None:
    """The living citizen (or Tlatoani, on the city hex) who owns the tile `hex_name` of `city`, if any."""
    if city is None or hex_name is None:
        return None
    c = world.cities.get(city)
    if c is None:
        return None
    tile = c.hexes.get(hex_name)
    owner = tile.citizen if tile is not None else None
    if owner is None and hex_name == c.centre:
        owner = c.tlatoani
    if owner is None:
        return None
    holder = world.character(owner)
    # "The title of Tenant is immediately lost if either the peasant or the citizen move from the hex": a
    # citizen (or Tlatoani) away in a unit keeps his land and his rank, but has no tenants while he is away.
    return holder.name if holder is not None and holder.alive and holder.unit is None else None


def lands_of(world: World, character: Character) -> list[tuple[str, str]]:
    """The (city, hex) land tiles `character` owns as a citizen (the city hex of a Tlatoani not included)."""
    return [(c.name, h.name) for c in world.cities.values() for h in c.hexes.values()
            if h.citizen is not None and key(h.citizen) == key(character.name)]


def is_tenant_material(character: Character) -> bool:
    """Only peasants are tenants: "A peasant that lives on a hex owned by a Citizen ..." A soldier lives in
    his unit, not on a tile."""
    return character.alive and character.role == "peasant" and character.unit is None


def retenant(world: World, character: Character) -> None:
    """Give `character` the title "Tenant of X" if he is a peasant living on X's land, and take it away if not.

    "The title of Tenant is immediately lost if either the peasant or the citizen move from the hex.": call this
    after every move of a character and every change of a tile's owner (`retenant_tile`)."""
    landlord = landlord_of(world, character.city, character.hex) if is_tenant_material(character) else None
    if landlord is not None and key(landlord) == key(character.name):
        landlord = None
    current = character.landlord
    if current == landlord:
        return
    character.drop_title("Tenant")
    if landlord is not None:
        character.titles.append(Title("Tenant", landlord))


def retenant_tile(world: World, city: str, hex_name: str) -> None:
    """Work out the tenancy of everybody living on one tile (its owner changed)."""
    for ch in world.living():
        if ch.city == city and ch.hex == hex_name:
            retenant(world, ch)


def retenant_landlord(world: World, landlord: Character) -> None:
    """Work out the tenancy of everybody on `landlord`'s land and, for a Tlatoani, his city hex: he joined or
    left a unit, so he is off his hex or back on it."""
    tiles = lands_of(world, landlord)
    tiles += [(c.name, c.centre) for c in world.cities.values()
              if c.tlatoani is not None and key(c.tlatoani) == key(landlord.name)]
    for city, hex_name in tiles:
        retenant_tile(world, city, hex_name)


def retenant_all(world: World) -> None:
    """Work out every character's tenancy (after the GM's update changed the map or the owners)."""
    for ch in world.living():
        retenant(world, ch)


def _leave_unit(world: World, character: Character, city: str) -> None:
    """A soldier given land or a throne leaves his unit to live in the city; a Captain gives up his unit."""
    if character.unit is None:
        return
    unit = world.units.get(character.unit)
    if unit is not None and unit.captain is not None and key(unit.captain) == key(character.name):
        unit.captain = None
    character.drop_title("Captain", character.unit)
    character.unit = None
    character.city = city
    retenant_landlord(world, character)


def _still_citizen(world: World, character: Character) -> bool:
    return bool(lands_of(world, character))


def transfer_land(world: World, hex_name: str, city: str, to: Character) -> None:
    """Citizenship over the land tile `hex_name` of `city` passes to `to` (GIVE, CHALLENGE, OVERTHROW).

    LJ-OQ-60: the receiver becomes a citizen if he was not ("Citizenship over a tile of land"); a soldier
    leaves his unit for his land; a receiver who lives on no land of his own moves onto the tile. The old
    citizen keeps his role only if he still owns land (or is the Tlatoani); otherwise he becomes a peasant
    where he lives, which on the lost tile makes him the new owner's tenant. The peasants on the tile become
    `to`'s tenants."""
    c = world.cities[city]
    tile = c.hexes[hex_name]
    old = world.character(tile.citizen) if tile.citizen else None
    tile.citizen = to.name
    if to.unit is not None:
        _leave_unit(world, to, city)
        to.hex = None
    if to.role != "tlatoani":
        lives_on_own = (to.city is not None and to.hex is not None
                        and landlord_of(world, to.city, to.hex) == to.name)
        if not lives_on_own:
            to.city, to.hex = city, hex_name
        to.role = "citizen"
    to.drop_title("Tenant")
    if old is not None and old is not to and old.role == "citizen" and not _still_citizen(world, old):
        old.role = "peasant"
        retenant(world, old)
    retenant_tile(world, city, hex_name)
    retenant(world, to)


def transfer_rulership(world: World, city: str, to: Character) -> None:
    """`to` becomes Tlatoani of `city` (GIVE rulership, CHALLENGE, OVERTHROW, a revolt).

    The new Tlatoani moves to the city hex, leaving any unit; the land tiles he owned stay his (he is their
    citizen still). The old Tlatoani, as in the revolt rule "The overthrown Tlatoani becomes a peasant on
    the hex the new Tlatoani came from" (LJ-OQ-14), becomes a peasant on the new one's former hex; if the new
    one came from a unit (no hex), the old one stays a peasant on the city hex, the new Tlatoani's tenant."""
    c = world.cities[city]
    old = world.character(c.tlatoani) if c.tlatoani else None
    came_from = to.hex if to.unit is None and to.city == city else None
    if to.unit is not None:
        _leave_unit(world, to, city)
    c.tlatoani = to.name
    to.role = "tlatoani"
    to.city, to.hex = city, c.centre
    to.drop_title("Tenant")
    if old is not None and old is not to and old.alive:
        old.role = "citizen" if _still_citizen(world, old) else "peasant"
        old.city = city
        old.hex = came_from if came_from is not None else c.centre
        retenant(world, old)
    retenant_tile(world, city, c.centre)
    if came_from is not None:
        retenant_tile(world, city, came_from)


def transfer_captaincy(world: World, unit: str, to: Character) -> None:
    """`to` becomes Captain of `unit` ("The title of Captain may be given to another character.").

    A new Captain not in the unit joins it (like an Enlist that never fails: the Captain displaces an NPC; a
    peasant becomes a soldier, a citizen or Tlatoani keeps his rank); his land, if any, stays his. The old
    Captain stays in the unit as a plain soldier."""
    u = world.units[unit]
    old = world.character(u.captain) if u.captain else None
    if old is not None:
        old.drop_title("Captain", u.name)
    u.captain = to.name
    if to.unit != u.name:
        if to.unit is not None:
            _leave_unit(world, to, u.city or to.city or "")
        to.unit = u.name
        if to.role == "peasant":  # as an Enlist does: a citizen or a Tlatoani in a unit keeps his rank
            to.role = "soldier"
        to.city = u.city
        to.hex = None
        to.drop_title("Tenant")
        retenant_landlord(world, to)
    if to.title("Captain", u.name) is None:
        to.titles.append(Title("Captain", u.name))


def transfer_slave(world: World, slave: Character, to: Character) -> None:
    """Ownership of `slave` passes to `to` (titles "Slave of X" on the slave, "Owner of X" on his owner).

    Works for enslaving a free character too (a Capture): he simply had no owner before."""
    if key(slave.name) == key(to.name):
        raise ValueError(f"{slave.name} cannot own himself")
    old = world.character(slave.owner) if slave.owner else None
    if old is not None:
        old.drop_title("Owner", slave.name)
    slave.drop_title("Slave")
    slave.titles.append(Title("Slave", to.name))
    if to.title("Owner", slave.name) is None:
        to.titles.append(Title("Owner", slave.name))


def free_slave(world: World, slave: Character) -> None:
    """The slave is free (Escape, his owner's death): both titles go."""
    old = world.character(slave.owner) if slave.owner else None
    if old is not None:
        old.drop_title("Owner", slave.name)
    slave.drop_title("Slave")
