"""The actions of The Law of the Jungle: the canonical keywords and what the grammar hands each handler.

This table is the contract between the orders (maild_rules.jungle.orders, grammar/jungle.lark), which read
what follows each bold keyword into ``args``, and the handlers (``@handles(keyword)``), which carry the
action out. Names of characters, cities, hexes, units, technologies and items are given as the player wrote
them; handlers resolve them against the world with ``World.character`` and `model.key`.

Every action's args may also hold ``both: True`` (the player spends both actions of the session on it:
Travel without a trade route, an Order with the doubled word limit, Defend twice).
"""

from __future__ import annotations

ATTACK_TYPES = ("duel", "assassinate", "debate", "discredit", "challenge", "overthrow", "steal", "capture",
                "escape")
GIVABLE = ("fame", "food", "gold", "slave", "captaincy", "land", "rulership")
TRAINABLE = ("xp", "wisdom", "craft", "fame")
PURCHASABLE = ("beakers", "hammers", "food")
#: Actions a house may take before the kick-off (JOINING THE GAME: "You may use your gold prior to the start
#: of the game": purchase resources, raise Fame, Wisdom or Craftsmanship, recruit). Each is its own purchase,
#: so several stand in one part of a session. Here, not in the engine: the orders' check reads it too.
PREGAME = frozenset({"purchase", "train", "recruit"})

#: keyword -> its aliases (what players also write in bold), as maild.keywords.Keywords.of takes them.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "sacrifice": (),
    "offering": ("offer", "make offering"),
    "move": (),
    "travel": (),
    "enlist": (),
    "order": ("orders",),
    "desert": (),
    "disband": (),
    "retire": (),
    "toil": (),
    "evict": (),
    "procreate": (),
    "recruit": (),
    "attack": (),
    "defend": (),
    "propose": (),
    "spend": (),
    "research": (),
    "produce": (),
    "give": (),
    "train": (),
    "purchase": ("buy",),
    "join houses": ("join house",),
    "split houses": ("split house",),
    "annex": (),
    "support policy": ("support", "policy"),
    "propose rule": ("rule change", "propose rule change"),
}

#: keyword -> the args the grammar gives (name: meaning). Optional ones may be missing or None.
ARGS: dict[str, dict[str, str]] = {
    "sacrifice": {"victim": "character", "god": "one of model.GODS"},
    "offering": {"god": "one of model.GODS", "amount": "int: XP, Wisdom, Fame or food offered, as the god takes"},
    "move": {"hex": "a workable hex of the actor's city"},
    "travel": {"city": "destination city", "hex": "optional: a workable hex there"},
    "enlist": {"unit": "unit"},
    "order": {"unit": "optional: the unit (the actor's own captaincy if one)", "text": "the orders as written",
              "words": "int: their count against the state (captains.captain_orders, LJ-OQ-51), given when "
                       "the ack reads them (orders.refine); None as parsed, before the state is known"},
    "desert": {"city": "optional: city to go to", "hex": "optional: hex there"},
    "disband": {"unit": "optional: the unit"},
    "retire": {"city": "optional", "hex": "optional"},
    "toil": {},
    "evict": {"tenant": "character", "hex": "the tile he is moved to"},
    "procreate": {"name": "optional: the child's name"},
    "recruit": {"name": "optional: the recruit's name"},
    "attack": {"target": "character", "type": "one of ATTACK_TYPES", "desperate": "bool",
               "joint": "list of the other attackers' names (empty: not joint)",
               "principal": "optional: the principal attacker's name",
               "item": "optional (challenge, overthrow): {'kind': 'city'|'land'|'unit'|'slave', 'name': str}"},
    "defend": {},
    "propose": {"text": "the diplomatic agreement, free text", "nation": "optional"},
    "spend": {"amount": "int gold", "on": "free text: what it buys"},
    "research": {"technology": "technology"},
    "produce": {"item": "building or unit"},
    "give": {"what": "one of GIVABLE", "amount": "int (fame, food, gold) or None",
             "object": "the slave, unit, hex or city given (slave, captaincy, land, rulership)",
             "to": "character"},
    "train": {"attribute": "one of TRAINABLE"},
    "purchase": {"resource": "one of PURCHASABLE", "amount": "int points"},
    "join houses": {"with": "a character of the other house (its highest Fame one)"},
    "split houses": {"leaving": "list of the characters who leave with the new house"},
    "annex": {},
    "support policy": {"policy": "policy", "fame": "int Fame spent"},
    "propose rule": {"text": "the proposal", "offering": "list of {character, attribute, amount} (25 in all)"},
}
