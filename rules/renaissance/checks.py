"""Intake checks of Renaissance orders against the game state (docs/renaissance-state.md): whose family, whose
persona, where he stands, and whether the personae, locations and families an order names exist.

What the parser cannot know. Whether an order will succeed when its turn runs (enough ducats, the right skill)
is the engine's: the state may change before then. A problem shared by many orders (a family that is not the
player's) voids every order it concerns and is said in full once; a persona's starting location written wrong
is only a note (a warning): his orders stand and are carried out where he is.

War orders get more (the section at the end): an error only where nothing earlier in the month can change the
answer, else a note (docs/renaissance-codes.md, "What the answer checks against the game").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from maild.ruleset import Diagnostic, Order

from . import apostasy
from .calendar import MONTHS, month_name, month_of, turn_of
from .items import SHIPS, TROOPS
from .names import find_family, squash
from .offices import ELECTIVE_RULERS
from .orderkinds import BY_KIND
from .ranks import feudal_row
from .refusals import rule_cited
from .setup import find_location
from .war import orders as war
from .war.control import full_tower_garrison, tower_of
from .war.morale import ISLAM, men

State = dict[str, Any]
__all__ = ["check", "find_location"]

# Args naming a persona, per kind ("9999", the locals, is no persona).
PERSONA_ARGS: dict[str, tuple[str, ...]] = {
    "transfer": ("to",), "instruct": ("trainee",), "work": ("target",), "indulgence": ("beneficiary",),
    "sermon": ("target",), "appoint_tax_collector": ("appointee",), "appoint_tithe_collector": ("appointee",),
    "appoint_magistrate": ("appointee",), "vote": ("candidate",), "guild": ("candidate",),
    "permit_boarding": ("passenger",), "transfer_office": ("to",), "transfer_control": ("to",),
    "name_successor": ("member",),
    "attack": ("target",), "garrison_attack": ("target",), "assault": ("occupant",), "assassinate": ("target",),
    "duel": ("target",), "elevate": ("target",), "invest_archbishop": ("appointee",), "grant_hat": ("appointee",),
    "appoint_bishop": ("appointee",), "papal_vote": ("candidate",), "congress_vote": ("candidate",),
    "excommunicate": ("target",),
    "vote_ruler": ("candidate",), "vote_grandmaster": ("candidate",),
}
LOCATION_ARGS: dict[str, tuple[str, ...]] = {
    "build_road": ("to",), "lengthen_road": ("to",), "appoint_tax_collector": ("location",),
    "appoint_tithe_collector": ("location",), "move": ("to",), "ask_depth": ("location",),
    "ask_coordinates": ("location",), "bonus_city": ("location",), "transfer_office": ("location",),
    "transfer_control": ("location",), "elevate": ("place",), "invest_archbishop": ("location",),
    "appoint_bishop": ("location",), "congress_vote": ("location",),
    "found_order": ("seat",), "order_office": ("location",),
}
FAMILY_ARGS: dict[str, tuple[str, ...]] = {"access": ("target_family",), "ask_address": ("target_family",),
                                           "alliance": ("target_family",)}
LOCALS = "9999"


def check(state: State, turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    said: dict[str, int] = {}  # message -> the line it was first said on
    noted: set[str] = set()
    mail = _Mail(turn, _turns_of(state, orders))

    for order in orders:
        for message in _problems(state, turn, player, order, mail):
            if message.startswith(NOTE):
                # A note (his starting location written wrong) once per persona: his orders stand.
                if message not in noted:
                    noted.add(message)
                    out.append(Diagnostic(order.line, order.text, message[len(NOTE):], warning=True))
                continue
            # An error voids every order it concerns, so each gets its diagnostic; the ack says it once in full.
            # One that cites a rule ("(CROP DESTRUCTION)") is an order understood and refused by that rule.
            rule = rule_cited(message)
            if message in said:
                message = f"as on line {said[message]}: {message}"
            else:
                said[message] = order.line
            out.append(Diagnostic(order.line, order.text, message, rule=rule))
    return out


NOTE = "note: "  # marks a problem that is only a note


def _problems(state: State, turn: int, player: str, order: Order, mail: _Mail) -> list[str]:
    a = order.args
    problems: list[str] = []
    written_player = str(a.get("player", ""))
    # No player (`maild orders check --game` on a file without a #GAME PLAYER line): whose orders they are is
    # taken from the /XXX line itself.
    player = player or written_player
    if written_player.upper() != player.upper():
        problems.append(f"/{written_player} is not your player code: yours is /{player}")
    family = find_family(state, str(a.get("family", "")))
    if family is None:
        mine = sorted(f for f, rec in state.get("families", {}).items() if rec.get("player") == player)
        yours = f"; yours: {', '.join(mine)}" if mine else ""
        return [*problems, f"there is no family {a.get('family')}{yours}"]
    if state["families"][family].get("player") != player:
        return [*problems, f"the family {family} is not yours"]
    if not BY_KIND[order.kind].family_level and "persona" in a:
        own = _persona_problems(state, family, a["persona"], a.get("start"))
        problems += own
        if all(p.startswith(NOTE) for p in own):
            if order.kind in war.WAR_KINDS:
                problems += _war_problems(state, order, mail)
            if all(p.startswith(NOTE) for p in problems):  # a void order needs no warning that it will fail
                problems += _sure_failures(state, order, mail)
    if order.kind == "convert" and not problems:
        problems += _conversion_turn(state, max(turn, mail.turns.get(family, turn)), order)
    problems += _reference_problems(state, turn, order)
    return problems


def _persona_problems(state: State, family: str, persona_id: str, start: str | None) -> list[str]:
    persona = state.get("personae", {}).get(persona_id)
    if persona is None or persona.get("family") != family:
        owner = f" (he is of the {persona['family']} family)" if persona is not None else ""
        members = ", ".join(state["families"][family].get("personae", []))
        return [f"{persona_id} is not a persona of the {family} family{owner}; its personae are {members}"]
    if not persona.get("alive", True):
        return [f"{persona_id} ({persona.get('name', '')}) is dead; his orders are void"]
    where = persona.get("location")
    if where is not None:
        if start is None or squash(start) != squash(where):
            return [f"{NOTE}{persona_id} is at {where}, not at {start}: next time write "
                    f"*{where.replace(' ', '')} .{persona_id} (his orders stand; they are carried out where he is)"]
        return []
    sea = persona.get("at_sea")
    if sea and start is not None and not any(ch.isdigit() for ch in start) and squash(start) not in ("sea", "atsea"):
        return [f"{NOTE}{persona_id} is at sea at {sea['lat']:+.2f} {sea['lon']:+.2f}, not at {start} "
                f"(his orders stand)"]
    return []


def _reference_problems(state: State, turn: int, order: Order) -> list[str]:
    a = order.args
    problems: list[str] = []
    personae = state.get("personae", {})
    for key in PERSONA_ARGS.get(order.kind, ()):
        who = a.get(key)
        if who in (None, "populace") or (who == LOCALS and order.kind == "transfer"):
            continue
        if who not in personae:
            problems.append(f"there is no persona {who}")
        elif not personae[who].get("alive", True):
            problems.append(f"{who} ({personae[who].get('name', '')}) is dead")
    for key in LOCATION_ARGS.get(order.kind, ()):
        where = a.get(key)
        if where is not None and find_location(state, where) is None:
            problems.append(f"there is no location {where}")
    for where in a.get("via") or ():
        if find_location(state, where) is None:
            problems.append(f"there is no location {where} (a waypoint)")
    for key in FAMILY_ARGS.get(order.kind, ()):
        if find_family(state, a[key]) is None:
            problems.append(f"there is no family {a[key]}")
    for name in a.get("targets") or ():  # interception and naval bombardment: ALL or families
        if name != war.ALL and find_family(state, name) is None:
            problems.append(f"there is no family {name}")
    if order.kind == "transfer_tower" and a["to"] not in war.TOWER_HOLDERS and find_family(state, a["to"]) is None:
        problems.append(f"there is no family {a['to']} (a tower goes to a family or to the "
                        f"{', '.join(h.lower() for h in war.TOWER_HOLDERS)})")
    if order.kind == "for_turn":
        wanted = turn_of(state, a["year"], a["month"])
        if wanted < turn:
            problems.append(f"{MONTHS[a['month'] - 1]} {a['year']} is past: this is the {month_name(state, turn)} "
                            f"turn")
    return problems


# ------------------------------------------------------------------------------------------- sure to fail
# An order the state at intake already says will fail when it runs. ORDERS allows no change to a family's
# orders once received, so the order stands (it is what he sent) and the ack's note is his only warning. Only
# what nothing earlier in the month can change: the month itself, the order's own figures, and an office held
# where he starts the month (offices change hands only when the month's transfers settle, after every order).

def _sure_failures(state: State, order: Order, mail: _Mail) -> list[str]:
    check = _SURE_CHECKS.get(order.kind)
    if check is None:
        return []
    persona = state["personae"][order.args["persona"]]
    turn = max(mail.turn, mail.turns.get(str(order.args.get("family")), mail.turn))
    return [f"{NOTE}it will fail: {p}" for p in
            check(_At(state, order, persona, turn, later=turn > mail.turn), order.args) if p]


def _alms_month(at: _At, a: dict[str, Any]) -> Found:
    # REPUTATION FOR PIETY: "In April a Shia, or Sunni, persona may give alms to the poor."
    if month_of(at.state, at.turn) == 4:
        return []
    return [f"alms are given only in April (REPUTATION FOR PIETY); these orders are for "
            f"{month_name(at.state, at.turn)}"]


def _charity_least(at: _At, a: dict[str, Any]) -> Found:
    # POPULARITY: "through charity (1 point for every 1,000 ducats)"; less buys nothing (docs: skills S6).
    if a["ducats"] >= 1000:
        return []
    return [f"charity earns a point of popularity per 1,000 ducats (POPULARITY); {a['ducats']:,} earn none"]


def _court_sovereign(at: _At, a: dict[str, Any]) -> Found:
    # LOYALTY: "To hold court, a sovereign must start the turn at the location".
    if at.where is None:
        return [f"{at.pid} is at sea; a sovereign holds court where he starts the month (LOYALTY)"]
    if at.office("sovereign") == at.pid:
        return []
    now = " now" if at.later else ""
    return [f"{at.pid} is not{now} the sovereign of {at.where}, where he starts the month (LOYALTY)"]


def _elevation_month(at: _At, a: dict[str, Any]) -> Found:
    # THE HIERARCHIES: personae are elevated "each February"; the HRE's row is reached "by election only". An emir,
    # bey or khan declares himself in any month (THE ISLAMIC HIERARCHY).
    row = feudal_row(a["rank"])
    if row is None:
        return []
    if row.cost is None:
        return [f"the rank of {a['rank']} is reached by election only (THE HIERARCHIES)"]
    if month_of(at.state, at.turn) == 2:
        return []
    return [f"personae are elevated each February only (THE HIERARCHIES); these orders are for "
            f"{month_name(at.state, at.turn)}"]


def _successor_islam(at: _At, a: dict[str, Any]) -> Found:
    # THE ISLAMIC HIERARCHY: only a Shia or Sunni names the member who succeeds him (RH-OQ-47); a conversion
    # ordered in the same month runs after his orders.
    if str(at.persona.get("religion", "")).lower() in ISLAM:
        return []
    return [f"{at.pid} is not Shia or Sunni: his replacement takes over his hereditary positions (THE PERSONAE "
            "FAMILIES)"]


def _hat_month(at: _At, a: dict[str, Any]) -> Found:
    # THE ECCLESIASTICAL OFFICES: "Each March and September ... the Pope may grant a cardinal's hat".
    if month_of(at.state, at.turn) in (3, 9):
        return []
    return [f"the Pope grants cardinals' hats each March and September only (THE ECCLESIASTICAL OFFICES); these "
            f"orders are for {month_name(at.state, at.turn)}"]


def _founding_month(at: _At, a: dict[str, Any]) -> Found:
    # MILITARY ORDERS: "Each June, in lieu of appointing an archbishop, the Pope may create a new military order."
    if month_of(at.state, at.turn) == 6:
        return []
    return [f"the Pope creates a military order each June only (MILITARY ORDERS); these orders are for "
            f"{month_name(at.state, at.turn)}"]


def _annual_election_month(at: _At, a: dict[str, Any]) -> Found:
    # ELECTIVE STATES: "Florence and Ragusa elect their rulers each December turn" (a state electing for life votes
    # when its election is called, which the month may still bring).
    if at.where not in ELECTIVE_RULERS or month_of(at.state, at.turn) == 12:
        return []
    return [f"{at.where} elects its ruler each December (ELECTIVE STATES); these orders are for "
            f"{month_name(at.state, at.turn)}"]


_SURE_CHECKS = {"alms": _alms_month, "charity": _charity_least, "hold_court": _court_sovereign,
                "elevate": _elevation_month, "name_successor": _successor_islam, "grant_hat": _hat_month,
                "found_order": _founding_month, "vote_ruler": _annual_election_month}


def _conversion_turn(state: State, turn: int, order: Order) -> list[str]:
    """HRrrrr before the player's thirteenth turn for any of his families fails whatever the month brings
    (APOSTASY, RH-OQ-44); who is sovereign is judged when the order runs, so it is not checked here."""
    player = state["families"][str(order.args["family"])].get("player")
    for family in apostasy.players_families(state, str(player)):
        nth = apostasy.turns_as_player(state, family, turn)
        if nth < apostasy.FIRST_TURN:
            return [f"{NOTE}it will fail: this month is your turn {nth} as player for {family}; no family changes "
                    "religion before its player's thirteenth turn (APOSTASY)"]
    return []


# --------------------------------------------------------------------------------------------------------- war
# A war order is checked against the state at intake, the state its month starts from. It is an error (the order
# is void) only where nothing earlier in the month can change the answer: offices change hands only when the
# month's transfers settle, after every family's orders (month step 15); where a persona starts the month, his
# religion, the month itself and a siege's past months are fixed. What moves, transfers, purchases or battles
# earlier in the month may change (where the other persona is, what he holds, who controls a town) is a note, and
# the order stands. Orders for a later month are checked against the state now, every error made a note.

WEAPONS = {"auxiliary": "small arms", "arquebusier": "arquebus", "pikeman": "pike", "archer": "bow",
           "heavy cavalry": "armor"}  # PROFESSIONAL SOLDIERS: "these recruits must each be given one weapon"
MAX_ALLIES = 6  # ALLIANCE: "allied to the members of up to six families"


@dataclass
class _Mail:
    """What the check of one mail's orders carries from order to order."""

    turn: int  # the current turn
    turns: dict[str, int]  # family (as written) -> the later turn its orders are for (!MMMYYYY)
    alcohol: dict[str, tuple[str, int]] = field(default_factory=dict)  # persona -> (alcohol, line of his first UA)
    allies: dict[str, set[str]] = field(default_factory=dict)  # persona -> his allies as his orders leave them
    placed: dict[tuple[str, str], int] = field(default_factory=dict)  # (persona, item) -> placed by his Z orders


def _turns_of(state: State, orders: list[Order]) -> dict[str, int]:
    turns = {}
    for order in orders:
        if order.kind == "for_turn":
            turns[str(order.args.get("family"))] = turn_of(state, order.args["year"], order.args["month"])
    return turns


@dataclass
class _At:
    """A war order with the persona who gives it, where he stands and the turn his orders are for."""

    state: State
    order: Order
    persona: dict[str, Any]
    turn: int
    later: bool  # the orders are for a month after the current one

    @property
    def pid(self) -> str:
        return str(self.persona["id"])

    @property
    def where(self) -> str | None:
        return self.persona.get("location")

    @property
    def location(self) -> dict[str, Any]:
        return self.state["locations"].get(self.where or "", {})

    def office(self, name: str) -> Any:
        return (self.location.get("offices") or {}).get(name)

    def held(self, item: str) -> int:
        return int((self.persona.get("assets") or {}).get(item, 0))

    def error(self, message: str) -> str:
        if self.later:
            return f"{NOTE}{message} (so it stands now; these orders are for {month_name(self.state, self.turn)})"
        return message

    def at_sea(self, what: str) -> str | None:
        """The error of an order that needs a location, for a persona at sea."""
        return self.error(f"{self.pid} is at sea: {what}") if self.where is None else None


def _war_problems(state: State, order: Order, mail: _Mail) -> list[str]:
    persona = state["personae"][order.args["persona"]]
    turn = max(mail.turn, mail.turns.get(str(order.args.get("family")), mail.turn))
    at = _At(state, order, persona, turn, later=turn > mail.turn)
    check = _WAR_CHECKS.get(order.kind)
    return [p for p in check(at, order.args, mail) if p] if check else []


Found = list[str | None]


def _note_held(at: _At, item: str, wanted: int, why: str) -> str | None:
    have = at.held(item)
    if have >= wanted:
        return None
    return (f"{NOTE}{at.pid} holds {war.count(have, item)} now, fewer than {wanted}: {why} (what he receives or buys "
            f"earlier in the month counts)")


def _target_elsewhere(at: _At, target: str | None) -> Found:
    """The victim of an attack, an assassination or a duel: himself is an error; elsewhere, a note."""
    if target is None:
        return []
    if target == at.pid:
        return [at.error(f"{at.pid} cannot be his own victim")]
    other = at.state["personae"].get(target)
    if other is None or not other.get("alive", True):
        return []  # said by the reference checks
    here, there = _spot(at.persona), _spot(other)
    if here == there:
        return []
    return [f"{NOTE}{target} is at {there}, not where {at.pid} is now ({here}); the order stands and is tried "
            f"when it runs"]


def _spot(persona: dict[str, Any]) -> str:
    if persona.get("location"):
        return str(persona["location"])
    sea = persona.get("at_sea") or {}
    return f"sea {sea.get('lat', 0):+.2f} {sea.get('lon', 0):+.2f}"


def _check_garrison(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("garrison troops are recruited by a location's tenant, at it")) is not None:
        return [sea]
    out: Found = []
    if at.office("tenant") != at.pid:
        out.append(at.error(f"{at.pid} is not the tenant of {at.where}; its garrison is raised by its tenant "
                            f"(THE SWORD GARRISONS)"))
    if at.office("dfc") not in (None, at.office("tenant")):
        out.append(f"{NOTE}de facto control of {at.where} is not with its tenancy now, and such a location may have "
                   f"no garrison (DE FACTO CONTROL)")
    out.append(_note_held(at, "small arms", a["qty"], "each garrison recruit is given small arms (THE SWORD "
                                                      "GARRISONS)"))
    out.append(_note_loyalty(at, 200, "garrison troops are not recruited"))
    return out


def _note_loyalty(at: _At, least: int, what: str) -> str | None:
    loyalty = int(at.location.get("loyalty", 0))
    if loyalty >= least:
        return None
    return f"{NOTE}the loyalty of {at.where} is {loyalty} now; below {least} {what} (LOYALTY)"


def _check_levy(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("a feudal levy is raised at the location of which he is feudatory")) is not None:
        return [sea]
    if at.office("feudatory") != at.pid:
        return [at.error(f"{at.pid} is not the feudatory of {at.where}; only its feudatory raises a feudal levy "
                         f"there (FEUDATORIES)")]
    out: Found = [_note_loyalty(at, 300, "no feudal levy is raised")]
    if int(at.persona.get("popularity", 0)) < 10:
        out.append(f"{NOTE}{at.pid}'s popularity is below 10 now; a levy costs him ten points and may not drive it "
                   f"below zero (POPULARITY)")
    if at.persona.get("with"):
        out.append(f"{NOTE}{at.pid} is aboard {at.persona['with']}'s ship, which may sail with him: the feudatory "
                   f"spends the whole month at the location (FEUDAL LEVIES)")
    return out


def _check_soldiers(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("professional soldiers are hired from a location's recruits")) is not None:
        return [sea]
    item, have = a["item"], at.held(a["item"])
    if have == 0:
        return [at.error(f"{at.pid} holds no {war.plural(item)}: professional soldiers are raised up to 20% of those "
                         f"of the type he holds at the start of the month (PROFESSIONAL SOLDIERS); mercenaries are "
                         f"bought")]
    # "a persona with 1, 2, 3 or 4 troops of a given type may raise one additional troop" (RW-OQ-11).
    most = max(have // 5, 1)
    out: Found = []
    if a["qty"] > most:
        out.append(f"{NOTE}{at.pid} holds {war.count(have, item)}: at most {most} may be recruited this month "
                   f"(20%); the order will be cut to {most} (RW-OQ-09)")
    out.append(_note_held(at, WEAPONS[item], min(a["qty"], most), f"each recruit is given his {WEAPONS[item]} "
                                                                   f"(PROFESSIONAL SOLDIERS)"))
    return out


def _check_bonus(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if men(at.persona.get("assets") or {}) == 0:
        return [f"{NOTE}{at.pid} has no troops or crew now: a bonus raises their morale"]
    return [_note_held(at, "ducats", a["ducats"], "the bonus pays them out")]


def _check_alcohol(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    out: Found = []
    first = mail.alcohol.setdefault(at.pid, (a["item"], at.order.line))
    if first[0] != a["item"]:
        out.append(at.error(f"one type of alcohol a month (MORALE): his order on line {first[1]} gives {first[0]}"))
    if at.persona.get("religion") in ISLAM:
        out.append(at.error(f"the troops of a {at.persona['religion']} persona gain no morale from alcohol (MORALE)"))
    out.append(_note_held(at, a["item"], a["qty"], "the order gives them to his troops"))
    return out


def _check_bonus_city(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    religion = at.persona.get("religion")
    if religion not in ISLAM:
        return [at.error(f"a bonus city is a Shia or Sunni sovereign's (MORALE); {at.pid} is {religion}")]
    city = find_location(at.state, a["location"])
    if city is not None and (at.state["locations"][city].get("offices") or {}).get("sovereign") != at.pid:
        return [f"{NOTE}{at.pid} is not the sovereign of {city} now: the bonus counts only while he is"]
    return []


def _controller(location: dict[str, Any]) -> Any:
    """The de facto controller: the tenant unless a separate controller is listed (DE FACTO CONTROL)."""
    offices = location.get("offices") or {}
    return offices.get("dfc") or offices.get("tenant")


# TENANTS, FEUDATORIES, SOVEREIGNS: whose simultaneous orders transfer each office.
_TRANSFERRED_BY = {"tenant": ("sovereign", "feudatory", "de facto controller"),
                   "feudatory": ("sovereign", "de facto controller"), "sovereign": ("de facto controller",)}


def _check_office(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    where = find_location(at.state, a["location"])
    if where is None:
        return []
    location = at.state["locations"][where]
    offices = location.get("offices") or {}
    holders = {"sovereign": offices.get("sovereign"), "feudatory": offices.get("feudatory"),
               "de facto controller": _controller(location)}
    roles = _TRANSFERRED_BY[a["office"]]
    if any(holders[r] == at.pid for r in roles):
        return []
    return [f"{NOTE}{at.pid} is not now {' or '.join(f'the {r}' for r in roles)} of {where}, whose orders together "
            f"transfer the {a['office']}'s office"]


def _check_control(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    where = find_location(at.state, a["location"])
    if where is None or _controller(at.state["locations"][where]) == at.pid:
        return []
    return [f"{NOTE}{at.pid} is not the de facto controller of {where} now; only he transfers its control"]


def _check_tower_give(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("a tower is transferred at his location")) is not None:
        return [sea]
    return [_note_towers(at, a["tower"])]


def _note_towers(at: _At, n: int) -> str | None:
    towers = len(at.location.get("towers") or [])
    if n <= towers:
        return None
    return f"{NOTE}{at.where} has {towers} tower{'s' if towers != 1 else ''} now; there is no tower {n}"


def _check_loot(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("a location is looted by its de facto controller")) is not None:
        return [sea]
    dfc, since = at.office("dfc"), at.location.get("dfc_since")
    if dfc != at.pid or at.office("tenant") == at.pid:
        return [at.error(f"{at.pid} is not the de facto controller of {at.where} apart from its tenancy; only such a "
                         f"controller loots it, from the month after he took control (DE FACTO CONTROL)")]
    if since is not None and since >= at.turn:
        return [at.error(f"{at.pid} took control of {at.where} this month; he may loot it from next month")]
    return []


def _check_intercept(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if a["ferries"] and at.where is not None:
        return [f"{NOTE}all traffic including ferries is intercepted by a fleet at a ferry route's midpoint; "
                f"{at.pid} is at {at.where}"]
    return []


def _check_attack(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    out = _target_elsewhere(at, a["target"])
    if a["battle"] == "naval":
        if not any(at.held(s) for s in SHIPS):
            out.append(f"{NOTE}{at.pid} has no ships now: a naval battle is fought by ships")
        if at.where is not None:
            out.append(f"{NOTE}fleets at {at.where} fight land battles, not naval ones (BATTLE: \"Fleets in port "
                       f"fight under the rules for land battles\")")
    return out


def _check_sortie(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("a garrison sorties with its tenant")) is not None:
        return [sea]
    if at.office("tenant") != at.pid:
        return [at.error(f"{at.pid} is not the tenant of {at.where}; a garrison sorties only with its tenant "
                         f"(THE SWORD GARRISONS)")]
    out = _target_elsewhere(at, a["target"])
    if not at.location.get("garrison"):
        out.append(f"{NOTE}{at.where} has no garrison now")
    return out


def _check_assault(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("an assault is made on a location's walls or towers")) is not None:
        return [sea]
    inside = bool(at.persona.get("inside"))
    if a["target"] == "walls":
        if inside:
            return [at.error(f"{at.pid} starts the month inside the walls of {at.where}; the walls are assaulted by "
                             f"a persona who begins the month outside (ASSAULT)")]
        return []
    if not inside:
        return [at.error(f"{at.pid} starts the month outside the walls of {at.where}; towers are assaulted by "
                         f"personae who start the month inside (TOWERS)")]
    if a["tower"] is not None:
        return [_note_towers(at, a["tower"])]
    return _target_elsewhere(at, a["occupant"])


def _check_siege(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("a siege is laid to a location")) is not None:
        return [sea]
    siege = at.location.get("siege") or {}
    if a["lift"]:
        towers = [t for t in at.location.get("towers") or () if (t.get("siege") or {}).get("besieger") == at.pid]
        if siege.get("besieger") != at.pid and not towers:
            return [f"{NOTE}{at.pid} has no siege of {at.where} or of its towers on file now"]
        return []
    if a.get("tower"):
        return _check_tower_siege(at, a["tower"])
    if at.persona.get("inside"):
        return [at.error(f"{at.pid} starts the month inside the walls of {at.where}; a siege is laid by a persona "
                         f"whose forces begin the month outside (SIEGE)")]
    mine, within = men(at.persona.get("assets") or {}), _men_inside(at)
    if mine < within:
        return [f"{NOTE}{at.pid} has {mine} troops and crew; {within} are inside {at.where} now, and a siege by "
                f"fewer than are inside fails (SIEGE)"]
    return []


def _check_tower_siege(at: _At, n: int) -> Found:
    if not at.persona.get("inside"):
        return [at.error(f"{at.pid} starts the month outside the walls of {at.where}; a tower is besieged by a "
                         f"persona who starts the month inside them, outside the tower (SIEGE, TOWERS)")]
    if (missing := _note_towers(at, n)) is not None:
        return [missing]
    if tower_of(at.state, at.persona) == n:
        return [f"{NOTE}{at.pid} is inside tower {n} now: a siege is laid from outside the fortification"]
    tower = at.location["towers"][n - 1]
    within = full_tower_garrison(tower) + sum(men(p.get("assets") or {}) for p in at.state["personae"].values()
                                              if p.get("alive", True) and tower_of(at.state, p) == n
                                              and p.get("location") == at.where)
    mine = men(at.persona.get("assets") or {})
    if mine < within:
        return [f"{NOTE}{at.pid} has {mine} troops and crew; {within} are inside tower {n} now, its tower garrison "
                f"counted, and a siege by fewer than are inside fails (SIEGE)"]
    return []


def _men_inside(at: _At) -> int:
    """Troops and crew inside the walls: the garrison and every persona inside (tower garrisons not counted)."""
    inside = [p for p in at.state["personae"].values()
              if p.get("alive", True) and p.get("location") == at.where and p.get("inside")]
    return int(at.location.get("garrison") or 0) + sum(men(p.get("assets") or {}) for p in inside)


def _check_bombard(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("a siege bombardment is fired at the location he besieges")) is not None:
        return [sea]
    if a.get("tower"):
        towers = at.location.get("towers") or []
        n = a["tower"]
        siege = (towers[n - 1].get("siege") or {}) if n <= len(towers) else {}
        since = siege.get("since")
        if siege.get("besieger") != at.pid or since is None or since >= at.turn:
            return [at.error(f"{at.pid}'s siege of tower {n} of {at.where} has not held a month yet: a bombardment "
                             f"follows a month in which his siege held (SIEGE BOMBARDMENT)")]
        return [_note_held(at, "cannon", a["qty"], "the bombardment fires them")]
    siege = at.location.get("siege") or {}
    since = siege.get("since")
    if siege.get("besieger") != at.pid or since is None or since >= at.turn:
        return [at.error(f"{at.pid}'s siege of {at.where} has not held a month yet: a bombardment follows a month in "
                         f"which his siege held (SIEGE BOMBARDMENT)")]
    return [_note_held(at, "cannon", a["qty"], "the bombardment fires them")]


def _check_naval_bombardment(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if at.held("cannon") == 0:
        return [f"{NOTE}{at.pid} holds no cannons now: his cannons fire next month"]
    return []


def _check_crops(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if month_of(at.state, at.turn) != 8:
        return [f"grain crops are destroyed in the August turn (CROP DESTRUCTION); these orders are for "
                f"{month_name(at.state, at.turn)}"]
    if (sea := at.at_sea("crops are destroyed at a location")) is not None:
        return [sea]
    if at.persona.get("inside"):
        return [at.error(f"{at.pid} starts the month inside the walls of {at.where}; crops are destroyed by troops "
                         f"starting outside (CROP DESTRUCTION)")]
    troops = sum(at.held(t) for t in TROOPS)
    if troops < a["qty"]:
        return [f"{NOTE}{at.pid} has {troops} troops now, fewer than {a['qty']}: the order sets them to destroying "
                f"crops (crew do not)"]
    return []


def _check_raze(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    if (sea := at.at_sea("a fortification is razed where he is")) is not None:
        return [sea]
    out: Found = [_note_held(at, a["item"], a["qty"], "the order sets them to razing")]
    family = at.persona.get("family")
    owns_tower = any(t.get("owner") == family for t in at.location.get("towers") or ())
    if _controller(at.location) != at.pid and not owns_tower:
        out.append(f"{NOTE}{at.pid} is neither the de facto controller of {at.where} nor of a family owning a tower "
                   f"there now (RAZING OF FORTIFICATIONS)")
    return out


def _check_alliance(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    target = find_family(at.state, a["target_family"]) or a["target_family"]
    allies = mail.allies.setdefault(at.pid, set(at.persona.get("allies") or ()))
    if not a["allied"]:
        if target not in allies:
            return [f"{NOTE}{at.pid} is not allied to {target}"]
        allies.discard(target)
        return []
    if target not in allies and len(allies) >= MAX_ALLIES:
        return [at.error(f"{at.pid} is allied to six families ({', '.join(sorted(allies))}); a persona allies with "
                         f"up to six (ALLIANCE): end one alliance first (KX)")]
    allies.add(target)
    return []


def _check_victim(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    return _target_elsewhere(at, a["target"])


def _check_dispose(at: _At, a: dict[str, Any], mail: _Mail) -> Found:
    key = (at.pid, a["item"])
    mail.placed[key] = mail.placed.get(key, 0) + a["qty"]
    return [_note_held(at, a["item"], mail.placed[key], "his dispositions place them")]


_WAR_CHECKS = {
    "recruit_garrison": _check_garrison, "levy": _check_levy, "recruit_soldiers": _check_soldiers,
    "morale_bonus": _check_bonus, "alcohol": _check_alcohol, "bonus_city": _check_bonus_city,
    "transfer_office": _check_office, "transfer_control": _check_control, "transfer_tower": _check_tower_give,
    "loot": _check_loot, "intercept": _check_intercept, "attack": _check_attack, "garrison_attack": _check_sortie,
    "assault": _check_assault, "siege": _check_siege, "bombard": _check_bombard,
    "naval_bombardment": _check_naval_bombardment, "crops": _check_crops, "raze": _check_raze,
    "alliance": _check_alliance, "assassinate": _check_victim, "duel": _check_victim, "dispose": _check_dispose,
}
