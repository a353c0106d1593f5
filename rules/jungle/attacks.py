"""CHARACTER ATTACKS and DEFEND: the Attack and Defend actions, joint and desperate attacks, the nine types'
losses and gains, the combat titles, slaves taken and freed.

The arithmetic is in `maild_rules.jungle.strength`, the places in `maild_rules.jungle.places`; this module
decides who is on each side, draws the random numbers in a fixed order and changes the world. The readings
(LJ-OQ-03, 31 to 39) are in docs/law-of-the-jungle.md, section "Attacks".

Order of the draws in one attack: the result's Random Number (none when D + L = 0), then per type: the losers'
losses one by one (principal first), then the gain's Random Number and, when the attacker wins a type that
names it, the "Random Number if Attacker Wins"; a successful Steal draws the food's and the gold's share
before the losses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import strength as st
from . import transfers
from .actions import ATTACK_TYPES
from .council import Action, Council, Void, handles
from .deaths import kill
from .houses import group, highest_fame, pool
from .model import Character, House, Title, World, key
from .places import location_strength, same_location

#: type -> (attribute lost, attribute gained by the winners, whether the gain takes the "Random Number if
#: Attacker Wins"), from the TYPES OF ATTACKS sections.
LOSS_AND_GAIN: dict[str, tuple[str, str, bool]] = {
    "duel": ("xp", "xp", False),
    "assassinate": ("xp", "wisdom", True),
    "debate": ("wisdom", "wisdom", False),
    "discredit": ("wisdom", "fame", True),
    "challenge": ("fame", "fame", False),
    "overthrow": ("fame", "xp", True),
}
ATTRIBUTE_NAMES = {"xp": "XP", "wisdom": "Wisdom", "fame": "Fame", "craft": "Craftsmanship"}


@dataclass
class Side:
    """One side of an attack: its characters (the principal first) and each one's strength as it fought."""

    members: list[Character]
    strengths: list[float]

    @property
    def total(self) -> float:
        return sum(self.strengths)

    @property
    def principal(self) -> Character:
        return self.members[0]


@dataclass
class Outcome:
    """What an attack did, for the reports and the tests."""

    attack_type: str
    attackers: Side
    defenders: Side
    location: int
    result: Any  # the result number (Fraction) or None for an infinite one
    band: str
    lines: list[str] = field(default_factory=list)

    @property
    def attacker_won(self) -> bool:
        return self.band in st.ATTACKER_WINS


# -- the two actions ------------------------------------------------------------------------------------------

@handles("defend")
def defend(council: Council, actor: Character, action: Action) -> None:
    """"When defending, a character's attributes are doubled for the purpose of defense strength calculations"
    from the moment this action resolves to the end of the session (Character.defend, reset by the engine);
    each Defend doubles again ("2x * 2x = 4x")."""
    actor.defend += 1
    council.tell(action.house, f"{actor.name} stands ready to defend (attributes x{2 ** actor.defend} in defence).")


@handles("attack")
def attack(council: Council, actor: Character, action: Action) -> None:
    """Carry out an Attack action, or wait for the slowest participant of a joint attack."""
    world = council.world
    attack_type = str(action.args.get("type") or "").lower()
    if attack_type not in ATTACK_TYPES:
        raise Void(f"{attack_type or 'no type'} is not a type of attack ({', '.join(ATTACK_TYPES)})")
    target = _character(world, action.args.get("target"), "target")
    plan = _joint_plan(council, actor, action, target)
    if plan is None:
        council.tell(action.house, f"{actor.name}'s part in the joint {attack_type} on {target.name} waits for "
                                   "the slowest participant.")
        return
    attackers = _attackers(council, actor, plan, target)
    _check_type(world, attack_type, attackers, target, action.args.get("item"))
    principal_name = action.args.get("principal")
    principal = next((c for c in attackers if principal_name and key(c.name) == key(principal_name)), actor)
    attackers = [principal] + [c for c in attackers if c is not principal]
    desperate = {c.name for c, a in plan if a.args.get("desperate") and c in attackers}
    houses = {c.name: a.house for c, a in plan}
    outcome = resolve(council, attack_type, attackers, target, desperate, houses, action.args.get("item"))
    _report(council, outcome, houses)


# -- who takes part -------------------------------------------------------------------------------------------

def _character(world: World, name: Any, what: str) -> Character:
    c = world.character(str(name)) if name else None
    if c is None:
        raise Void(f"there is no character {name!r} ({what})" if name else f"no {what} named")
    if not c.alive:
        raise Void(f"{c.name} is dead")
    return c


def _participants(world: World, actor: Character, action: Action) -> set[str]:
    names = {key(actor.name)}
    for n in action.args.get("joint") or []:
        names.add(key(_character(world, n, "joint attacker").name))
    return names


def _mismatch(world: World, mine: Action, theirs: Action, people: set[str]) -> str | None:
    """How `theirs` fails to be a matching action for the joint attack `mine` of `people`, in a player's words
    ("Ixchel's attack names no joint attackers"), None when it matches: "All characters participating in the
    joint attack must indicate it is a joint attack, and submit a matching action", each naming all the others,
    with the same principal."""
    who = theirs.character
    if theirs.keyword != "attack":
        return f"{who}'s action is not an attack"
    a, b = mine.args, theirs.args
    other = world.character(who)
    if other is None:
        return f"there is no character {who}"
    if key(str(a.get("target"))) != key(str(b.get("target"))):
        return f"{who} attacks {b.get('target')}, not {a.get('target')}"
    try:
        their_people = _participants(world, other, theirs)
    except Void as why:
        return f"{who}'s attack is not valid: {why}"
    if their_people != people:
        partners = [str(n) for n in b.get("joint") or []]
        if not partners:
            return f"{who}'s attack names no joint attackers"
        return f"{who}'s attack names {' and '.join(partners)} as joint attacker{'s' if len(partners) > 1 else ''}"
    if str(a.get("type")).lower() != str(b.get("type")).lower():
        return f"{who}'s attack is a {b.get('type')}, not a {a.get('type')}"
    if key(str(a.get("principal") or "")) != key(str(b.get("principal") or "")):
        return (f"{who}'s attack names {b.get('principal') or 'no'} principal attacker, "
                f"not {a.get('principal') or 'none'}")
    if _item_key(a.get("item")) != _item_key(b.get("item")):
        return f"{who}'s attack is not for the same item"
    return None


def _item_key(item: dict[str, Any] | None) -> tuple[str, str] | None:
    if not item:
        return None
    return str(item.get("kind") or "").lower(), key(str(item.get("name") or ""))


MISCOORDINATION = "the joint attack fails amid the confusion of miscoordination"


def _joint_plan(council: Council, actor: Character, action: Action,
                target: Character) -> list[tuple[Character, Action]] | None:
    """The participants and their actions when this action is the one the attack resolves on, None when a
    slower participant is still to come; Void on miscoordination (every participant's action fails alike,
    his own attack included when another names him as a partner and his does not match)."""
    world = council.world
    people = _participants(world, actor, action)
    if len(people) == 1:
        _named_by_another(council, actor, action)
        return [(actor, action)]
    if key(target.name) in people:
        raise Void("a joint attack cannot name its own target among the attackers")
    found: dict[str, tuple[int, Action]] = {key(actor.name): (council.position, action)}
    why: list[str] = []
    for name in sorted(people - {key(actor.name)}):
        theirs = [(i, a) for i, a in enumerate(council.actions) if a is not action and key(a.character) == name]
        matching = [(i, a) for i, a in theirs if _mismatch(world, action, a, people) is None]
        if matching:
            found[name] = matching[0]
            continue
        said = [m for _, a in theirs if (m := _mismatch(world, action, a, people))]
        who = world.character(name).name if world.character(name) else name
        why.append(said[0] if said else f"no attack from {who} this {council.part}")
    if why:
        raise Void(f"{MISCOORDINATION}: {'; '.join(why)}")
    principal = action.args.get("principal")
    if principal and key(principal) not in people:
        raise Void(f"the principal attacker {principal} is not one of the joint attackers")
    slowest = max(pos for pos, _ in found.values())
    if slowest != council.position:
        return None
    plan = sorted(found.values(), key=lambda pa: pa[0])
    return [(world.character(a.character), a) for _, a in plan]


def _named_by_another(council: Council, actor: Character, action: Action) -> None:
    """JOINT ATTACKS: "All characters participating in the joint attack must indicate it is a joint attack, and
    submit a matching action ... Otherwise the joint attack fails to happen (action voided)". A character whom
    another's attack on the same target names as a partner takes part in that joint attack: when his own
    attack on that target names nobody, both actions are void, his as well."""
    namer = _partners_named(council).get((key(str(action.args.get("target"))), key(actor.name)))
    if namer is not None:
        raise Void(f"{MISCOORDINATION}: {namer}'s attack names {actor.name} as a joint attacker, "
                   f"and {actor.name}'s names no joint attackers")


def _partners_named(council: Council) -> dict[tuple[str, str], str]:
    """(target, partner) -> the first character whose attack of this part on that target names that partner;
    worked out once per part (a session of thousands of actions asks it for every lone attack)."""
    cached = council.scratch.get("attacks.partners")
    if cached is not None and cached[0] is council.actions:
        return cached[1]
    named: dict[tuple[str, str], str] = {}
    for a in council.actions:
        if a.keyword == "attack":
            for n in a.args.get("joint") or []:
                if key(str(n)) != key(a.character):
                    named.setdefault((key(str(a.args.get("target"))), key(str(n))), a.character)
    council.scratch["attacks.partners"] = (council.actions, named)
    return named


def _attackers(council: Council, actor: Character, plan: list[tuple[Character, Action]],
               target: Character) -> list[Character]:
    """The attackers able to attack now; the one acting must be, the others drop out with a word."""
    world = council.world
    able: list[Character] = []
    for c, a in plan:
        reason = None
        if c is None or not c.alive:
            reason = "is dead"
        elif c is target:
            reason = "cannot attack himself"
        elif not same_location(world, c, target):
            reason = f"is not in the same location as {target.name}"
        if reason is None:
            able.append(c)
        elif c is actor:
            raise Void(f"{actor.name} {reason}")
        else:
            council.tell(a.house, f"{a.character} drops out of the joint attack on {target.name}: he {reason}.")
    return able


def _check_type(world: World, attack_type: str, attackers: list[Character], target: Character,
                item: dict[str, Any] | None) -> None:
    if attack_type == "steal":
        # "A stealing attack may only be targeted against the highest Fame member of a house." (ties: any;
        # joined houses are one house)
        if target not in highest_fame(world, target.house):
            raise Void(f"{target.name} is not the highest Fame member of the house of {target.house}")
    if attack_type == "escape":
        for c in attackers:
            if c.owner is None or key(c.owner) != key(target.name):
                raise Void(f"{c.name} is not a slave of {target.name}: only a slave escapes from his owner")
    if attack_type in ("challenge", "overthrow"):
        kind, name, _ = holder_of(world, item, target)
        if kind == "slave" and any(key(c.name) == key(name) for c in attackers):
            raise Void(f"{name} cannot seize himself: a slave escapes from his owner")


def holder_of(world: World, item: dict[str, Any] | None, target: Character) -> tuple[str, str, str | None]:
    """Check that `target` holds the item of a Challenge or Overthrow; returns (kind, name, city) as the world
    spells them (city: the city of a piece of land)."""
    if not item or not item.get("name"):
        raise Void("a challenge or overthrow names what it seizes: a city, a piece of land, a unit or a slave")
    name = str(item["name"])
    if not item.get("kind"):  # "challenge Itzel for Texcoco": whatever of that name the target holds
        for kind in ("city", "unit", "land", "slave"):
            try:
                return holder_of(world, {"kind": kind, "name": name}, target)
            except Void:
                continue
        raise Void(f"{target.name} holds no city, unit, land or slave named {name}")
    kind = str(item["kind"]).lower()
    if kind == "city":
        city = world.city(name)
        if city is None or not city.tlatoani or key(city.tlatoani) != key(target.name):
            raise Void(f"{target.name} does not rule {name}")
        return kind, city.name, city.name
    if kind == "land":
        for city in world.cities.values():
            for hname, h in city.hexes.items():
                if key(hname) == key(name) and h.citizen and key(h.citizen) == key(target.name):
                    return kind, hname, city.name
        raise Void(f"{target.name} does not own the land {name}")
    if kind == "unit":
        unit = world.unit(name)
        if unit is None or not unit.captain or key(unit.captain) != key(target.name):
            raise Void(f"{target.name} is not the Captain of {name}")
        return kind, unit.name, None
    if kind == "slave":
        slave = world.character(name)
        if slave is None or not slave.alive or slave.owner is None or key(slave.owner) != key(target.name):
            raise Void(f"{target.name} does not own a slave {name}")
        return kind, slave.name, None
    raise Void(f"{kind} cannot be seized: a city, a piece of land, a unit or a slave can")


def defenders_of(world: World, target: Character, attackers: list[Character]) -> list[Character]:
    """The defending side, principal defender (the target) first (LJ-OQ-35): the citizen whose tenant is
    attacked ("automatic - no action required"), then every character whose Defend has resolved this session,
    in the same location, of the target's house or of the house of the target's landlord ("a tenant of a
    member of their house"); by name."""
    out = [target]
    names = {c.name for c in attackers} | {target.name}
    landlord = world.character(target.landlord) if target.landlord else None
    if (landlord is not None and landlord.alive and landlord.name not in names
            and same_location(world, landlord, target)):
        out.append(landlord)
        names.add(landlord.name)
    houses = set(group(world, target.house)) | (set(group(world, landlord.house)) if landlord is not None else set())
    # Through the houses' own characters (`World.members`), not every character of the game: each attack of a
    # session of thousands would scan them all.
    joiners = [c for h in houses for c in world.members(h)
               if c.defend > 0 and c.name not in names and same_location(world, c, target)]
    return out + sorted(joiners, key=lambda c: c.name)


# -- the attack itself ----------------------------------------------------------------------------------------

def resolve(council: Council, attack_type: str, attackers: list[Character], target: Character,
            desperate: set[str] | None = None, houses: dict[str, str] | None = None,
            item: dict[str, Any] | None = None) -> Outcome:
    """Resolve an attack of `attackers` (principal first) on `target`: sides, strengths, the result, the
    type's losses and gains, titles, the desperate attackers' halving, deaths. `houses` maps an attacker to
    the house his action was given for (a slave's dictated action gains for his owner's house)."""
    world = council.world
    desperate = desperate or set()
    houses = houses or {}
    defenders = defenders_of(world, target, attackers)
    att = Side(attackers, [st.character_strength(c, attack_type, True, 2 if c.name in desperate else 1)
                           for c in attackers])
    dfn = Side(defenders, [st.character_strength(c, attack_type, False, 2 ** c.defend) for c in defenders])
    loc = location_strength(world, target)
    skilled_defender = any(st.combat_title(c, attack_type) in ("Skilled", "Master") for c in defenders)
    if att.total > 0 and dfn.total + loc == 0:
        result = None
    else:
        result = st.result_number(council.random(), att.total, dfn.total, loc)
    outcome = Outcome(attack_type, att, dfn, loc, result, st.band(result))
    losers, winners = _losers_and_winners(outcome)
    if losers or attack_type in WHATEVER_THE_RESULT:
        EFFECTS[attack_type](council, outcome, losers, winners, houses, item)
    if outcome.attacker_won:
        kind = st.earned_title(att.total, dfn.total, skilled_defender)
        for c in attackers:
            if c.alive and st.raise_title(c, attack_type, kind):
                outcome.lines.append(f"{c.name} is now {Title(kind, st.subject(attack_type)).label()}.")
    for c in attackers:
        if c.name in desperate and c.alive:
            for attr in st.STRENGTH_ATTRIBUTES[attack_type][0]:
                setattr(c, attr, st.halved(getattr(c, attr)))
            outcome.lines.append(f"{c.name} over-extended himself in a desperate attack: "
                                 + ", ".join(f"{ATTRIBUTE_NAMES[a]} {getattr(c, a)}"
                                             for a in st.STRENGTH_ATTRIBUTES[attack_type][0]) + ".")
    for c in attackers + defenders:
        if c.alive and c.xp <= 0:
            foes = defenders if c in attackers else attackers
            kill(council, c, f"lost all his XP in a {attack_type} with {foes[0].name}")
    council.event("attack", type=attack_type, attackers=[c.name for c in attackers],
                  defenders=[c.name for c in defenders], band=outcome.band,
                  result=None if result is None else str(result))
    return outcome


def _losers_and_winners(o: Outcome) -> tuple[list[Character], Side]:
    if o.band == st.ALL_ATTACKERS_FAIL:
        return list(o.attackers.members), o.defenders
    if o.band == st.PRINCIPAL_ATTACKER_FAILS:
        return [o.attackers.principal], o.defenders
    if o.band == st.PRINCIPAL_DEFENDER_LOSES:
        return [o.defenders.principal], o.attackers
    if o.band == st.ALL_DEFENDERS_LOSE:
        return list(o.defenders.members), o.attackers
    return [], o.attackers


def _lose(council: Council, o: Outcome, losers: list[Character], attr: str) -> int:
    """Each loser loses his own (Random Number)*(value)*(1.5), rounded down and capped; the total lost."""
    total = 0
    for c in losers:
        lost = st.loss(council.random(), getattr(c, attr))
        setattr(c, attr, getattr(c, attr) - lost)
        total += lost
        o.lines.append(f"{c.name} loses {lost} {ATTRIBUTE_NAMES[attr]}.")
    return total


def _share(o: Outcome, winners: Side, attr: str, total: int) -> None:
    for c, part in zip(winners.members, st.split_by_strength(total, winners.strengths), strict=True):
        setattr(c, attr, getattr(c, attr) + part)
        o.lines.append(f"{c.name} gains {part} {ATTRIBUTE_NAMES[attr]}.")


def _attribute_contest(council: Council, o: Outcome, losers: list[Character], winners: Side,
                       houses: dict[str, str], item: dict[str, Any] | None) -> None:
    """Duel, Assassinate, Debate, Discredit, Challenge, Overthrow: the losers lose, the winners share the gain;
    a won Challenge or Overthrow seizes the item."""
    lost_attr, gained_attr, second = LOSS_AND_GAIN[o.attack_type]
    lost = _lose(council, o, losers, lost_attr)
    rnd = council.random()
    rnd2 = council.random() if second and o.attacker_won else None
    _share(o, winners, gained_attr, st.gain(rnd, lost, rnd2))
    if o.attack_type in ("challenge", "overthrow"):
        if o.attacker_won:
            seize(council, item, o.defenders.principal, o.attackers.principal, o)
        else:
            o.lines.append(f"{o.defenders.principal.name} keeps control of {item.get('name') if item else 'it'}.")


def _steal(council: Council, o: Outcome, losers: list[Character], winners: Side, houses: dict[str, str],
           item: dict[str, Any] | None) -> None:
    """"If the attack is successful, the attackers steal food equal to (Food Stores)*(Random Number) and gold
    equal to (Gold Stores)*(Random Number)", shared by strength among the thieves' houses; the losing side
    loses XP; each of the winning side gains 1 Fame (LJ-OQ-38)."""
    world = council.world
    if o.attacker_won:
        victim = _store(world, o.defenders.principal.house)
        for store in ("food", "gold"):
            rnd = council.random()
            have = getattr(victim, store) if victim is not None else 0
            taken = st.gain(rnd, have)
            if victim is not None:
                setattr(victim, store, have - taken)
            for c, part in zip(winners.members, st.split_by_strength(taken, winners.strengths), strict=True):
                house = _store(world, houses.get(c.name, c.house))
                if house is not None:
                    setattr(house, store, getattr(house, store) + part)
                o.lines.append(f"{c.name} steals {part} {store} from the house of {o.defenders.principal.house}.")
    _lose(council, o, losers, "xp")
    for c in winners.members:
        c.fame += 1
        o.lines.append(f"{c.name} gains 1 Fame.")


def _store(world: World, house: str) -> House | None:
    """The House record holding `house`'s food and gold (joined houses share one), None for no such house."""
    return pool(world, house) if house in world.houses else None


def _capture(council: Council, o: Outcome, losers: list[Character], winners: Side, houses: dict[str, str],
             item: dict[str, Any] | None) -> None:
    """"The losing side is taken as slaves", whichever side loses, by the winning side's principal (LJ-OQ-37);
    "The winning side gains 1 pt of XP, Wisdom and Fame" each."""
    owner = winners.principal
    for c in losers:
        enslave(council.world, c, owner)
        o.lines.append(f"{c.name} is taken as a slave by {owner.name}.")
    _each_gains_one(o, winners.members)


def _escape(council: Council, o: Outcome, losers: list[Character], winners: Side, houses: dict[str, str],
            item: dict[str, Any] | None) -> None:
    """"The attacker (escaping character) gains 1 pt of XP, Wisdom and Fame." whatever the result, the only
    sentence of the three without a condition; "If the attack is successful, the slave escapes"; "If the
    attack fails, the defender gains 1 pt of XP, Wisdom and Fame", each defender (LJ-OQ-39)."""
    if o.attacker_won:
        for c in o.attackers.members:
            free(council.world, c)
            o.lines.append(f"{c.name} escapes from slavery.")
    _each_gains_one(o, o.attackers.members)
    if losers and not o.attacker_won:
        _each_gains_one(o, o.defenders.members)


def _each_gains_one(o: Outcome, who: list[Character]) -> None:
    for c in who:
        c.xp += 1
        c.wisdom += 1
        c.fame += 1
        o.lines.append(f"{c.name} gains 1 XP, 1 Wisdom and 1 Fame.")


#: The types whose effects come on a draw as well: an escaping slave's gain has no condition (LJ-OQ-39).
WHATEVER_THE_RESULT = frozenset({"escape"})
EFFECTS = {t: _attribute_contest for t in LOSS_AND_GAIN} | {"steal": _steal, "capture": _capture,
                                                            "escape": _escape}


# -- slaves and seized items ----------------------------------------------------------------------------------

def enslave(world: World, slave: Character, owner: Character) -> None:
    """`slave` becomes the slave of `owner` ("Slave of" on him, "Owner of" on the owner); a slave already owned
    changes owner. "The title of slave is not removed just because the slave's owner becomes a slave." """
    if slave is owner:
        return
    transfers.transfer_slave(world, slave, owner)


def free(world: World, slave: Character) -> None:
    """`slave` is no longer a slave; his owner loses the "Owner of" title. Defiant Slave stays (LJ-OQ-48)."""
    transfers.free_slave(world, slave)


def seize(council: Council, item: dict[str, Any] | None, loser: Character, winner: Character,
          o: Outcome | None = None) -> None:
    """The winner of a Challenge or Overthrow "gains ... control of the item in question". City, land and unit
    change hands through `maild_rules.jungle.transfers`; a slave's ownership is changed here."""
    world = council.world
    try:
        kind, name, city = holder_of(world, item, loser)
    except Void as gone:  # the item left the loser's hands during the attack (he died, ...)
        if o is not None:
            o.lines.append(f"Nothing changes hands: {gone}.")
        return
    if kind == "slave":
        enslave(world, world.character(name), winner)
    elif kind == "city":
        transfers.transfer_rulership(world, name, winner)
    elif kind == "land":
        transfers.transfer_land(world, name, city, winner)
    else:
        transfers.transfer_captaincy(world, name, winner)
    if o is not None:
        o.lines.append(f"{winner.name} seizes {'the ' + kind + ' ' if kind != 'city' else ''}{name} "
                       f"from {loser.name}.")


def defiance_step(slave: Character, target_is_owner: bool) -> int:
    """How much a disobeying slave's "Defiant Slave (N)" grows: "If a slave attacks his owner (including
    escape attempt) while disobeying an order, the value of N is increased by 2 instead of 1." The engine,
    which knows the slave disobeyed, calls it with whether his action is an Attack on his owner (see
    `attacks_owner`)."""
    return 2 if target_is_owner else 1


def attacks_owner(world: World, slave: Character, action: Action) -> bool:
    """Whether `action` of `slave` is an attack (escape included) on his owner."""
    if action.keyword != "attack" or slave.owner is None:
        return False
    target = world.character(str(action.args.get("target") or ""))
    return target is not None and key(target.name) == key(slave.owner)


# -- reports --------------------------------------------------------------------------------------------------

def _report(council: Council, o: Outcome, houses: dict[str, str]) -> None:
    names = " and ".join(c.name for c in o.attackers.members)
    defenders = " and ".join(c.name for c in o.defenders.members)
    result = "beyond measure (no defence, no location strength)" if o.result is None else f"{float(o.result):.2f}"
    head = (f"{names} {'attack' if len(o.attackers.members) > 1 else 'attacks'} {o.defenders.principal.name} "
            f"({o.attack_type}). Attack strength {o.attackers.total:.2f}, defence strength {o.defenders.total:.2f}"
            f" ({defenders}), location strength {o.location}; result {result}: {o.band}.")
    text = " ".join([head] + o.lines)
    involved = {c.house for c in o.attackers.members + o.defenders.members} | set(houses.values())
    council.tell_all(involved, text)
    council.announce(head)
