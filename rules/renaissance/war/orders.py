"""The war orders (docs/renaissance-codes.md, "War"): a code's tokens or a phrase's tree to the kind's raw args, the
static checks of `finish`, the canonical code, the words of the ack, and what a malformed code should look like.
codes.py and plainwords.py hand every kind of WAR_KINDS here, so the peace parser does not grow with the war's.

The args each kind produces are rules/renaissance/orderkinds.py's (its `# War` block); the handlers in this
package read them. Whether the game state allows an order (his office, his men, the siege) is checks.py's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

from lark import Token, Tree

from maild.parsing import OrderError

from .. import items
from ..refusals import RuleRefused
from .forces import DIVISIONS, GUNS, WALLS

WAR_KINDS = frozenset({
    "recruit_garrison", "levy", "recruit_soldiers", "morale_bonus", "alcohol", "bonus_city", "transfer_office",
    "transfer_control", "transfer_tower", "loot", "towers", "intercept", "attack", "garrison_attack", "assault",
    "siege", "bombard", "naval_bombardment", "crops", "raze", "alliance", "no_support", "assassinate", "duel",
    "dispose", "post",
})

# PROFESSIONAL SOLDIERS: "enlistment bonuses of 5 ducats per auxiliary, 10 ducats per arquebusier, 15 ducats per
# pikeman, 20 ducats per archer and 50 ducats per heavy cavalryman". Light cavalry are auxiliaries on horses.
RECRUITABLE = ("auxiliary", "arquebusier", "pikeman", "archer", "heavy cavalry")
ALCOHOL = items.CLASSES["alcohol"]
# RAZING OF FORTIFICATIONS: "his troops, crews and/or slaves".
RAZERS = (*items.TROOPS, "crew", "slave")
INFANTRY = ("pikeman", "arquebusier", "archer", "auxiliary")
PLACEABLE = (*items.TROOPS, "crew", *GUNS, *items.SHIPS)
# Zp: the six divisions of a field battle (FIELD BATLE), the four walls (ASSAULT). Naval battles use the Left,
# Center, Right and Reserve (NAVAL BATTLES).
PLACES = {**{str(n): d for n, d in enumerate(DIVISIONS, start=1)}, **{w[0].upper(): f"{w} wall" for w in WALLS}}
NAVAL_PLACES = ("2", "3", "4", "6")
WALL_PLACES = tuple(w[0].upper() for w in WALLS)
OFFICE_LETTERS = {"N": "tenant", "F": "feudatory", "V": "sovereign"}
_LETTER_OF_OFFICE = {v: k for k, v in OFFICE_LETTERS.items()}
# TOWERS: "freely transferred to any family, or to the location's sovereign, feudatory, tenant, magistrate, bishop
# or archbishop".
TOWER_HOLDERS = ("SOVEREIGN", "FEUDATORY", "TENANT", "MAGISTRATE", "BISHOP", "ARCHBISHOP")
BATTLES = {"F": "field", "U": "urban", "N": "naval"}
_LETTER_OF_BATTLE = {v: k for k, v in BATTLES.items()}
# BATTLE, CONFLICT ORDERS: "'all' or ... a list of not more than seven families"; ALLIANCE: "up to six families".
MAX_TARGETS = 7
ALL = "ALL"

# Each kind's shape in a player's words: a malformed code's diagnostic is "<code>": <this>: <example>.
SHAPE_WORDS: dict[str, str] = {
    "recruit_garrison": "recruiting garrison troops is EG then the number of men (the tenant, at his location)",
    "levy": "a feudal levy is EL (the feudatory, at his location)",
    "recruit_soldiers": "recruiting professional soldiers is EP, the troop type (auxiliar, qqq, pikeman, archer or "
                        "heavycav), then the number",
    "morale_bonus": "a morale bonus is UB then the total ducats paid out in bonuses",
    "alcohol": "alcohol for the troops is UA, the alcohol (wine, beer, ale or spirits), then the number of units",
    "bonus_city": "a bonus city is UC then the location",
    "transfer_office": "transferring an office is ON (tenancy), OF (feudatory) or OV (sovereignty), the new "
                       "holder's four-digit number, then the location",
    "transfer_control": "transferring de facto control is OD, the new controller's four-digit number, then the "
                        "location",
    "transfer_tower": "transferring a tower is OW, the tower's number (one digit), then the family's name or "
                      "SOVEREIGN, FEUDATORY, TENANT, MAGISTRATE, BISHOP or ARCHBISHOP",
    "loot": "looting is OL",
    "towers": "the towers order is MTO (stay out of all towers) or MTI (no longer stay out of them)",
    "intercept": "an interception is KI then ALL, ALLF (all traffic including ferries) or up to seven families' "
                 "names separated by /",
    "attack": "an attack is KF (field), KU (urban) or KN (naval), the victim's four-digit number, then S if he is "
              "not to be killed and, in urban battle, C to fight to the normal end",
    "garrison_attack": "the garrison's attack is KG, the victim's four-digit number, then S if he is not to be "
                       "killed",
    "assault": "an assault is KA (the walls), or KT and the tower's number (one digit) or the four-digit number of "
               "a persona inside it, then S if the persona attacked is not to be killed",
    "siege": "a siege is KS; KSX lifts it",
    "bombard": "a siege bombardment is KB then the number of cannons",
    "naval_bombardment": "a naval bombardment (fired next month) is KV then ALL or up to seven families' names "
                         "separated by /",
    "crops": "crop destruction is KC then the number of troops (August)",
    "raze": "razing is KR, a tower's number if a tower is razed, the men (a troop type, crew or slave), then their "
            "number",
    "alliance": "an alliance is KL then one family's name; KX and the name ends it",
    "no_support": "refusing the support between garrison and the tenant's family this month is KO",
    "assassinate": "an assassination is KK then the victim's four-digit number",
    "duel": "a challenge to a duel is KD then the four-digit number of the persona challenged",
    "dispose": "a disposition is Z, the place (1 left wing, 2 left, 3 center, 4 right, 5 right wing, 6 reserves; "
               "N, E, S, W the walls), the item (up to 8 letters), then the number",
    "post": "a persona's post is ZP then the place (1 to 6, or N, E, S, W)",
}

# How a malformed code begins -> the kind it was meant to be (codes.py merges these with the peace codes').
PREFIXES: dict[str, str] = {
    "EG": "recruit_garrison", "EL": "levy", "EP": "recruit_soldiers", "UB": "morale_bonus", "UA": "alcohol",
    "UC": "bonus_city", "ON": "transfer_office", "OF": "transfer_office", "OV": "transfer_office",
    "OD": "transfer_control", "OW": "transfer_tower", "OL": "loot", "MT": "towers", "KI": "intercept",
    "KF": "attack", "KU": "attack", "KN": "attack", "KG": "garrison_attack", "KA": "assault", "KT": "assault",
    "KS": "siege", "KB": "bombard", "KV": "naval_bombardment", "KC": "crops", "KR": "raze", "KL": "alliance",
    "KX": "alliance", "KO": "no_support", "KK": "assassinate", "KD": "duel", "ZP": "post", "Z": "dispose",
}
# Letters that begin several war codes, none of which the rest of a malformed code picks out.
GROUPS: dict[str, tuple[str, ...]] = {
    "E": ("recruit_garrison", "levy", "recruit_soldiers"),
    "K": ("intercept", "attack", "garrison_attack", "assault", "siege", "bombard", "naval_bombardment", "crops",
          "raze", "alliance", "no_support", "assassinate", "duel"),
    "O": ("transfer_office", "transfer_control", "transfer_tower", "loot"),
    "U": ("morale_bonus", "alcohol", "bonus_city"),
}
# Where a persona number begins in each kind's code, for "persona numbers have exactly four digits".
PNUM_AFTER = {"transfer_office": 2, "transfer_control": 2, "attack": 2, "garrison_attack": 2, "assassinate": 2,
              "duel": 2}

PLACE_WORDS = "the place is 1 to 6 or N, E, S, W"


def shape_notes(kind: str, code: str) -> list[str]:
    """What in particular is wrong with a malformed war code, beyond its kind's shape."""
    upper = code.upper()
    notes: list[str] = []
    if kind == "assault" and upper.startswith("KT"):
        digits = re.match(r"\d*", code[2:])
        if digits is not None and len(digits.group()) not in (1, 4):
            notes.append("a tower is one digit (KT1) or the four-digit number of a persona inside it (KT0203)")
    elif kind == "dispose" and len(code) > 1 and upper[1] not in PLACES:
        notes.append(PLACE_WORDS)
    elif kind == "post" and len(code) > 2 and upper[2] not in PLACES:
        notes.append(PLACE_WORDS)
    elif kind == "alliance" and "/" in code:
        notes.append("one family per alliance order: KLDORIA KLSFORZA")
    elif kind == "transfer_tower" and re.match(r"OW\d\d", upper):
        notes.append("towers are numbered 1 to 9: one digit")
    elif kind in ("intercept", "naval_bombardment") and ("//" in code or upper.endswith("/")):
        notes.append("one / between two families' names")
    return notes


# ------------------------------------------------------------------------------------------------- code -> raw
def raw_from_code(kind: str, by: dict[str, list[str]]) -> dict[str, Any]:
    """The raw args of a war code, from its tokens by terminal name (codes._raw_from_code's `by`)."""

    def one(name: str) -> str:
        return by[name][0]

    if kind == "bombard":
        return {"qty": one("QTY"), "tower": int(one("BTOWER")[3]) if "BTOWER" in by else None}
    if kind in ("recruit_garrison", "crops"):
        return {"qty": one("QTY")}
    if kind == "raze":
        return {"item": one("ITEM"), "qty": one("QTY"), "tower": int(one("DIGIT")) if "DIGIT" in by else None}
    if kind in ("recruit_soldiers", "alcohol"):
        return {"item": one("ITEM"), "qty": one("QTY")}
    if kind == "morale_bonus":
        return {"ducats": one("QTY")}
    if kind == "bonus_city":
        return {"location": one("LOC")}
    if kind == "transfer_office":
        return {"office": OFFICE_LETTERS[one("OFFICE")[1].upper()], "to": one("PNUM"), "location": one("LOC")}
    if kind == "transfer_control":
        return {"to": one("PNUM"), "location": one("LOC")}
    if kind == "transfer_tower":
        return {"tower": int(one("DIGIT")), "to": one("FAM")}
    if kind == "towers":
        return {"outside": one("TOWERS")[2].upper() == "O"}
    if kind == "intercept":
        if [f.upper() for f in by["FAM"]] == ["ALLF"]:
            return {"targets": [ALL], "ferries": True}
        return {"targets": by["FAM"], "ferries": False}
    if kind == "naval_bombardment":
        if [f.upper() for f in by["FAM"]] == ["ALLF"]:
            raise OrderError("ALLF (all traffic including ferries) is an interception's, KIALLF; a naval "
                             "bombardment is KVALL or the families' names")
        return {"targets": by["FAM"]}
    if kind == "attack":
        spare, go_on = _flags(by)
        return {"battle": BATTLES[one("BATTLE")[1].upper()], "target": one("PNUM"), "spare": spare,
                "continue": go_on}
    if kind == "garrison_attack":
        return {"target": one("PNUM"), "spare": _spare_only(by, "a garrison's sortie is fought as a field battle")}
    if kind == "assault":
        spare = _spare_only(by, "an assault is no urban battle")
        if "DIGIT" in by:
            return {"target": "tower", "tower": int(one("DIGIT")), "occupant": None, "spare": spare}
        if "PNUM" in by:
            return {"target": "tower", "tower": None, "occupant": one("PNUM"), "spare": spare}
        return {"target": "walls", "tower": None, "occupant": None, "spare": spare}
    if kind == "siege":
        code = one("SIEGE").upper()
        return {"lift": code == "KSX", "tower": int(code[3]) if code.startswith("KST") else None}
    if kind == "alliance":
        return {"target_family": one("FAM"), "allied": one("ALLY")[1].upper() == "L"}
    if kind in ("assassinate", "duel"):
        return {"target": one("PNUM")}
    if kind == "dispose":
        return {"place": one("PLACE").upper(), "item": one("ITEM"), "qty": one("QTY")}
    if kind == "post":
        return {"place": one("PLACE").upper()}
    return {}  # levy, loot, no_support


def _flags(by: dict[str, list[str]]) -> tuple[bool, bool]:
    """S (spare) and C (continue) after a victim's number, each once, in either order."""
    flags = by.get("FLAGS", [""])[0].upper()
    if len(flags) != len(set(flags)):
        raise OrderError("S (not to be killed) and C (fight to the normal end) are written once each, e.g. "
                         "KU0203SC")
    return "S" in flags, "C" in flags


def _spare_only(by: dict[str, list[str]], why: str) -> bool:
    spare, go_on = _flags(by)
    if go_on:
        raise OrderError(f"C (fight to the normal end) is for urban battle, KU0203C; {why}")
    return spare


# ------------------------------------------------------------------------------------------------------ finish
def finish(kind: str, args: dict[str, Any]) -> None:
    """Check and normalize, in place, the args of a war order (codes.finish has already made quantities
    positive ints and items canonical names); OrderError says what is wrong."""
    if kind == "recruit_soldiers" and args["item"] not in RECRUITABLE:
        _not_recruitable(args["item"])
    elif kind == "alcohol" and args["item"] not in ALCOHOL:
        raise RuleRefused(f"the troops' alcohol is wine, beer, ale or spirits, not {args['item']} (MORALE: the order "
                          f"states the units and the type of alcohol), e.g. UAwine100", "MORALE")
    elif kind == "raze" and args["item"] not in RAZERS:
        raise OrderError(f"a fortification is razed by troops, crew or slaves, not {args['item']}, e.g. KRslave500")
    elif kind == "transfer_tower":
        _tower_number(args["tower"])
        args["to"] = args["to"].upper()
    elif kind in ("intercept", "naval_bombardment"):
        args["targets"] = _targets(args["targets"], "KI" if kind == "intercept" else "KV")
        if args.get("ferries") and args["targets"] != [ALL]:
            raise OrderError("all traffic including ferries is KIALLF, for no list of families")
    elif kind == "attack" and args["continue"] and args["battle"] != "urban":
        raise RuleRefused(f"C (fight to the normal end) is for urban battle (URBAN BATTLE: the home side's automatic "
                          f"withdrawal), not a {args['battle']} battle: KU{args['target']}C", "URBAN BATTLE")
    elif kind == "assault" and args["target"] == "tower" and args["tower"] is not None:
        _tower_number(args["tower"])
    elif kind in ("siege", "bombard") and args.get("tower") is not None:
        _tower_number(args["tower"])
    elif kind == "alliance":
        args["target_family"] = args["target_family"].upper()
    elif kind == "dispose":
        _check_disposition(args["place"], args["item"])
    elif kind == "post" and args["place"] not in PLACES:
        raise OrderError(PLACE_WORDS)


def _not_recruitable(item: str) -> None:
    if item == "light cavalry":
        raise RuleRefused("light cavalry are auxiliaries given horses (FIELD BATLE); recruit auxiliaries, e.g. "
                          "EPauxiliar20", "FIELD BATLE")
    raise OrderError(f"professional soldiers are auxiliaries (auxiliar), arquebusiers (qqq), pikemen (pikeman), "
                     f"archers (archer) or heavy cavalry (heavycav); not {item}")


def _tower_number(n: int) -> None:
    if not 1 <= n <= 9:
        raise OrderError("towers are numbered 1 to 9, as the location report lists them")


def _targets(written: list[str], code: str) -> list[str]:
    names = list(dict.fromkeys(w.upper() for w in written))  # a name written twice is the same family
    if ALL in names and len(names) > 1:
        raise OrderError(f"the victims are ALL or a list of families, not both: {code}ALL or "
                         f"{code}{'/'.join(n for n in names if n != ALL)}")
    if len(names) > MAX_TARGETS:
        raise RuleRefused(f"{len(names)} families: the victims are ALL or at most seven families (CONFLICT ORDERS)",
                          "CONFLICT ORDERS")
    return names


def _check_disposition(place: str, item: str) -> None:
    """What the rules forbid on the face of the order; the shares of the whole force (20% of the infantry, 15%
    of the force in each of the Left, Center and Right) are the battle's to judge."""
    if place not in PLACES:
        raise OrderError(PLACE_WORDS)
    if item not in PLACEABLE:
        raise OrderError(f"battle dispositions place troops, crew, cannons, falconets or ships, not {item}")
    where = PLACES[place]
    if item in items.SHIPS and place not in NAVAL_PLACES:
        raise RuleRefused(f"ships are disposed in a naval battle's Left (2), Center (3), Right (4) or Reserve (6), "
                          f"not the {where} (NAVAL BATTLES)", "NAVAL BATTLES")
    if item in GUNS and place != "6":
        raise RuleRefused(f"cannons and falconets go to the Reserves (6), not the {where} (FIELD BATLE: \"Cannon "
                          f"and falconets must all be assigned to the Reserves\")", "FIELD BATLE")
    if item in INFANTRY and place in ("1", "5"):
        raise RuleRefused(f"infantry may stand in the Left, Center, Right or Reserves (2, 3, 4, 6), not the {where} "
                          f"(FIELD BATLE)", "FIELD BATLE")


# ------------------------------------------------------------------------------------------------ code, words
_SAME_IN_PLURAL = frozenset({"crew", "heavy cavalry", "light cavalry", "small arms", "ducats", "armor", "wine", "beer",
                             "ale", "spirits", "grain"})


def plural(item: str) -> str:
    """pikemen, auxiliaries, slaves, arquebuses, crew."""
    if item in _SAME_IN_PLURAL:
        return item
    if item.endswith("man"):
        return f"{item[:-3]}men"
    if item.endswith("y") and not item.endswith("ey"):
        return f"{item[:-1]}ies"
    return f"{item}es" if item.endswith("s") else f"{item}s"


def count(n: int, item: str) -> str:
    """"20 pikemen", "1 galley", "500 slaves": a number of men, guns, ships or goods in the ack's words."""
    return f"{n} {item if n == 1 else plural(item)}"


def _squash(name: str) -> str:
    return name.replace(" ", "")


def format_code(kind: str, a: dict[str, Any]) -> str:
    """The canonical code of a war order."""
    if kind in ("recruit_soldiers", "alcohol", "raze"):
        head = {"recruit_soldiers": "EP", "alcohol": "UA", "raze": f"KR{a.get('tower') or ''}"}[kind]
        return f"{head}{items.code_of(a['item'])}{a['qty']}"
    if kind == "bombard":
        return f"KB{'T' + str(a['tower']) if a.get('tower') else ''}{a['qty']}"
    if kind in ("recruit_garrison", "crops"):
        return f"{ {'recruit_garrison': 'EG', 'crops': 'KC'}[kind]}{a['qty']}"
    if kind == "morale_bonus":
        return f"UB{a['ducats']}"
    if kind == "bonus_city":
        return f"UC{_squash(a['location'])}"
    if kind == "transfer_office":
        return f"O{_LETTER_OF_OFFICE[a['office']]}{a['to']}{_squash(a['location'])}"
    if kind == "transfer_control":
        return f"OD{a['to']}{_squash(a['location'])}"
    if kind == "transfer_tower":
        return f"OW{a['tower']}{_squash(a['to'])}"
    if kind == "towers":
        return "MTO" if a["outside"] else "MTI"
    if kind == "intercept":
        return "KIALLF" if a.get("ferries") else "KI" + "/".join(_squash(t) for t in a["targets"])
    if kind == "naval_bombardment":
        return "KV" + "/".join(_squash(t) for t in a["targets"])
    if kind == "attack":
        flags = ("S" if a["spare"] else "") + ("C" if a["continue"] else "")
        return f"K{_LETTER_OF_BATTLE[a['battle']]}{a['target']}{flags}"
    if kind == "garrison_attack":
        return f"KG{a['target']}{'S' if a['spare'] else ''}"
    if kind == "assault":
        spare = "S" if a["spare"] else ""
        if a["target"] == "walls":
            return f"KA{spare}"
        return f"KT{a['tower'] if a['tower'] is not None else a['occupant']}{spare}"
    if kind == "siege":
        return "KSX" if a["lift"] else f"KST{a['tower']}" if a.get("tower") else "KS"
    if kind == "alliance":
        return f"K{'L' if a['allied'] else 'X'}{_squash(a['target_family'])}"
    if kind in ("assassinate", "duel"):
        return f"K{'K' if kind == 'assassinate' else 'D'}{a['target']}"
    if kind == "dispose":
        return f"Z{a['place']}{items.code_of(a['item'])}{a['qty']}"
    if kind == "post":
        return f"ZP{a['place']}"
    return {"levy": "EL", "loot": "OL", "no_support": "KO"}[kind]


def _place_words(place: str) -> str:
    where = PLACES[place]
    return f"on the {where}" if place in WALL_PLACES else f"in the {where}"


def _families_words(targets: list[str]) -> str:
    if targets == [ALL]:
        return "all"
    return ", ".join(targets[:-1]) + (" and " if len(targets) > 1 else "") + targets[-1]


def summary(kind: str, a: dict[str, Any]) -> str:
    """A war order in words, for the ack and STATUS."""
    if kind == "intercept":
        what = "all traffic including ferries" if a.get("ferries") else _families_words(a["targets"])
        return f"intercept {what} next month"
    if kind == "naval_bombardment":
        return f"bombard the ships of {_families_words(a['targets'])} next month"
    if kind == "attack":
        battle = {"field": "a field battle", "urban": "an urban battle", "naval": "a naval battle"}[a["battle"]]
        return (f"attack {a['target']} in {battle}" + (", not to kill him" if a["spare"] else "")
                + (", fighting to the normal end" if a["continue"] else ""))
    if kind == "garrison_attack":
        return f"the garrison attacks {a['target']}" + (", not to kill him" if a["spare"] else "")
    if kind == "assault":
        spare = ", not to kill the persona attacked" if a["spare"] else ""
        if a["target"] == "walls":
            return f"assault the walls{spare}"
        if a["tower"] is not None:
            return f"assault tower {a['tower']}{spare}"
        return f"assault the tower {a['occupant']} is in{spare}"
    if kind == "transfer_office":
        office = {"tenant": "the tenancy", "feudatory": "the feudatory status", "sovereign": "the sovereignty"}
        return f"transfer {office[a['office']]} of {a['location']} to {a['to']}"
    if kind == "dispose":
        return f"put {count(a['qty'], a['item'])} {_place_words(a['place'])}"
    if kind in ("recruit_soldiers", "alcohol", "raze"):
        what = count(a["qty"], a["item"])
        return {"recruit_soldiers": f"recruit {what}", "alcohol": f"give {what} to his troops",
                "raze": (f"raze tower {a['tower']} with {what}" if a.get("tower")
                         else f"raze the fortifications with {what}")}[kind]
    if kind == "post":
        return f"take post {_place_words(a['place'])}"
    words = {
        "recruit_garrison": "recruit {qty} garrison troops", "levy": "raise a feudal levy",
        "morale_bonus": "pay a bonus of {ducats} ducats to his men",
        "bonus_city": "make {location} his bonus city",
        "transfer_control": "transfer de facto control of {location} to {to}",
        "transfer_tower": "transfer tower {tower} to {to}", "loot": "loot the location he controls",
        "towers": "stay out of all towers" if a.get("outside") else "no longer stay out of the towers",
        "siege": "lift his siege" if a.get("lift") else "besiege tower {tower}" if a.get("tower") else
                 "besiege the location",
        "bombard": "bombard tower {tower} with {qty} cannons" if a.get("tower") else
                   "bombard the walls with {qty} cannons", "crops": "destroy grain crops with {qty} troops",
        "alliance": "ally with {target_family}" if a.get("allied") else "end the alliance with {target_family}",
        "no_support": "no support between the garrison and the tenant's family this month",
        "assassinate": "attempt to assassinate {target}", "duel": "challenge {target} to a duel",
    }
    return words[kind].format(**a)


# ------------------------------------------------------------------------------------------------- plain words
class Tokens(Protocol):
    """plainwords._Tokens: the tokens of one phrase by terminal name."""

    def has(self, terminal: str) -> bool: ...

    def first(self, terminal: str) -> str: ...

    def number(self) -> str: ...

    def persona(self) -> str: ...

    def words(self, index: int) -> str: ...


Built = tuple[str, dict[str, Any], str]
Builder = Callable[[Tree, Tokens], Built]


def _families(tree: Tree) -> list[str]:
    """The families of a phrase's family_list, each as written ("the Borgia family": BORGIA)."""
    found = next(tree.find_data("family_list"))
    names = []
    for family in found.find_data("family"):
        words = next(family.find_data("words"))
        names.append(" ".join(str(w) for w in words.children if isinstance(w, Token)).upper())
    return names


def _garrison(tree: Tree, t: Tokens) -> Built:
    return "recruit_garrison", {"qty": t.number()}, ""


def _levy(tree: Tree, t: Tokens) -> Built:
    return "levy", {}, ""


def _soldiers(tree: Tree, t: Tokens) -> Built:
    return "recruit_soldiers", {"item": t.words(0), "qty": t.number()}, ""


def _pay(tree: Tree, t: Tokens) -> Built:
    return "morale_bonus", {"ducats": t.number()}, ""


def _alcohol(tree: Tree, t: Tokens) -> Built:
    return "alcohol", {"item": t.words(0), "qty": t.number()}, ""


def _bonus_city(tree: Tree, t: Tokens) -> Built:
    return "bonus_city", {"location": t.words(0)}, ""


def _office(tree: Tree, t: Tokens) -> Built:
    location = t.words(0)
    if t.has("W_CONTROL"):
        return "transfer_control", {"to": t.persona(), "location": location}, ""
    office = "tenant" if t.has("W_TENANCY") else "sovereign" if t.has("W_SOVEREIGNTY") else \
        t.first("W_METHOD").lower().removesuffix("'s")
    if office not in _LETTER_OF_OFFICE:
        raise OrderError(f"the {office}'s office is not transferred by order; these orders transfer the tenancy "
                         f"(ON), the feudatory status (OF), the sovereignty (OV) and de facto control (OD)")
    return "transfer_office", {"office": office, "to": t.persona(), "location": location}, ""


def _tower_give(tree: Tree, t: Tokens) -> Built:
    tower = int(t.number()) if t.has("NUMBER") else 1
    if t.has("W_METHOD"):
        to = t.first("W_METHOD").upper().removesuffix("'S")
    elif t.has("W_MAGISTRATE"):
        to = "MAGISTRATE"
    else:
        to = t.words(0).upper()
    return "transfer_tower", {"tower": tower, "to": to}, ""


def _loot(tree: Tree, t: Tokens) -> Built:
    return "loot", {}, ""


def _towers(tree: Tree, t: Tokens) -> Built:
    return "towers", {"outside": t.has("W_OUT") or t.has("W_OUTSIDE")}, ""


def _intercept(tree: Tree, t: Tokens) -> Built:
    if t.has("W_ALL"):
        return "intercept", {"targets": [ALL], "ferries": t.has("W_FERRIES")}, ""
    return "intercept", {"targets": _families(tree), "ferries": False}, ""


def _spare(t: Tokens) -> bool:
    return t.has("W_SPARE") or t.has("W_KILL")


def _attack(tree: Tree, t: Tokens) -> Built:
    go_on = t.has("W_FIGHT") or t.has("W_CONTINUE")
    if t.has("W_GARRISON"):
        if go_on:
            raise OrderError("a garrison's sortie is fought as a field battle: fighting to the normal end is for "
                             "urban battle")
        return "garrison_attack", {"target": t.persona(), "spare": _spare(t)}, ""
    battle = "field" if t.has("W_FIELD") else "urban" if t.has("W_TOWN") or t.has("W_URBAN") else \
        "naval" if t.has("W_WATER") or t.has("W_NAVAL") else None
    if battle is None:
        target = t.persona()
        raise OrderError(f"say which battle (BATTLE: the order must indicate what type of battle is to be fought): "
                         f"attack .{target} in the field, attack .{target} in town or attack .{target} at sea")
    return "attack", {"battle": battle, "target": t.persona(), "spare": _spare(t), "continue": go_on}, ""


def _sortie(tree: Tree, t: Tokens) -> Built:
    return "garrison_attack", {"target": t.persona(), "spare": _spare(t)}, ""


def _assault(tree: Tree, t: Tokens) -> Built:
    spare = _spare(t)
    if not t.has("W_TOWER"):
        return "assault", {"target": "walls", "tower": None, "occupant": None, "spare": spare}, ""
    if any(c.data == "persona" for c in tree.children if isinstance(c, Tree)):
        return "assault", {"target": "tower", "tower": None, "occupant": t.persona(), "spare": spare}, ""
    tower = int(t.number()) if t.has("NUMBER") else 1
    return "assault", {"target": "tower", "tower": tower, "occupant": None, "spare": spare}, ""


def _siege(tree: Tree, t: Tokens) -> Built:
    return "siege", {"lift": False, "tower": int(t.number()) if t.has("W_TOWER") else None}, ""


def _lift(tree: Tree, t: Tokens) -> Built:
    return "siege", {"lift": True, "tower": None}, ""


def _bombard(tree: Tree, t: Tokens) -> Built:
    # "bombard tower 2 with 10 cannons": the tower's number comes before the cannons'.
    numbers = [str(tok) for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NUMBER")]
    return "bombard", {"qty": numbers[-1], "tower": int(numbers[0]) if t.has("W_TOWER") else None}, ""


def _naval_bombard(tree: Tree, t: Tokens) -> Built:
    return "naval_bombardment", {"targets": [ALL] if t.has("W_ALL") else _families(tree)}, ""


def _crops(tree: Tree, t: Tokens) -> Built:
    return "crops", {"qty": t.number()}, ""


def _raze(tree: Tree, t: Tokens) -> Built:
    # "raze tower 2 with 500 slaves": the tower's number comes before the men's.
    numbers = [str(tok) for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NUMBER")]
    tower = int(numbers[0]) if t.has("W_TOWER") and len(numbers) > 1 else (1 if t.has("W_TOWER") else None)
    return "raze", {"item": t.words(0), "qty": numbers[-1], "tower": tower}, ""


def _alliance(allied: bool) -> Builder:
    def build(tree: Tree, t: Tokens) -> Built:
        families = _families(tree)
        if len(families) > 1:
            verb = "ally with" if allied else "end the alliance with"
            raise OrderError(f"one family per alliance order: {verb} {families[0]}, then {verb} {families[1]} on a "
                             f"line of its own")
        return "alliance", {"target_family": families[0], "allied": allied}, ""
    return build


def _no_support(tree: Tree, t: Tokens) -> Built:
    return "no_support", {}, ""


def _assassinate(tree: Tree, t: Tokens) -> Built:
    return "assassinate", {"target": t.persona()}, ""


def _duel(tree: Tree, t: Tokens) -> Built:
    return "duel", {"target": t.persona()}, ""


_PLACE_OF_WORD = {"W_CENTER": "3", "W_RESERVES": "6"}


def _place(tree: Tree) -> str:
    place = next(tree.find_data("place"))
    toks = {tok.type: str(tok) for tok in place.children if isinstance(tok, Token)}
    if "W_SIDE" in toks:
        return toks["W_SIDE"][0].upper()
    if "W_LEFT" in toks:
        return "1" if "W_WING" in toks else "2"
    if "W_RIGHT" in toks:
        return "5" if "W_WING" in toks else "4"
    return next(v for k, v in _PLACE_OF_WORD.items() if k in toks)


def _dispose(tree: Tree, t: Tokens) -> Built:
    return "dispose", {"place": _place(tree), "item": t.words(0), "qty": t.number()}, ""


def _post(tree: Tree, t: Tokens) -> Built:
    return "post", {"place": _place(tree)}, ""


PHRASES: dict[str, Builder] = {
    "p_garrison": _garrison, "p_levy": _levy, "p_soldiers": _soldiers, "p_pay": _pay, "p_alcohol": _alcohol,
    "p_bonus_city": _bonus_city, "p_office": _office, "p_tower_give": _tower_give, "p_loot": _loot,
    "p_towers": _towers, "p_intercept": _intercept, "p_attack": _attack, "p_sortie": _sortie,
    "p_assault": _assault, "p_siege": _siege, "p_lift": _lift, "p_bombard": _bombard,
    "p_naval_bombard": _naval_bombard, "p_crops": _crops, "p_raze": _raze, "p_ally": _alliance(True),
    "p_end_alliance": _alliance(False), "p_no_support": _no_support, "p_assassinate": _assassinate,
    "p_duel": _duel, "p_dispose": _dispose, "p_post": _post,
}

# New plain-words verbs (plainwords.VERBS adds them) and an example of each, for a phrase that did not parse.
VERBS: dict[str, str] = {
    "levy": "raise a levy", "pay": "pay a bonus of 5000 ducats", "issue": "issue 100 wine to the troops",
    "set": "set the bonus city to Tunis", "bonus": "bonus city Tunis", "loot": "loot",
    "intercept": "intercept all, intercept all traffic including ferries or intercept BORGIA and SFORZA",
    "attack": "attack .0203 in the field, attack .0203 in town and spare him, attack .0203 at sea or attack .0203 "
              "with the garrison",
    "sortie": "sortie with the garrison against .0203",
    "assault": "assault the walls, assault tower 1 or assault the tower of .0203",
    "besiege": "besiege", "lay": "lay siege", "lift": "lift the siege",
    "bombard": "bombard with 10 cannons (or: bombard the ships of ALL)",
    "destroy": "destroy crops with 500 troops", "raze": "raze with 500 slaves", "ally": "ally with DORIA",
    "end": "end the alliance with DORIA (or: end the siege)", "break": "break the alliance with DORIA",
    "no": "no support", "assassinate": "assassinate .0203", "attempt": "attempt to assassinate .0203",
    "challenge": "challenge .0203 to a duel", "duel": "duel with .0203",
    "put": "put 200 pikemen in the center (or: put 100 archers on the north wall)",
    "station": "station 200 pikemen in the center", "take": "take post in the center",
    "post": "post himself in the center",
}
