"""Reading a combat season's orders: one line each, in the words a player writes (docs/grand-game.md, "The
seasons", lists every form). Plain regular expressions over a normalised line: every pattern is anchored and
its repeated parts are separated by fixed words, so reading is linear in the line's length.

What a line becomes (Read.kind, Read.args; territory and zone ids upper case as the map writes them, player
names lower case, checked against the state by season.check):

- move     {units, from, to, attack, supply (None: the default), partners [names]}   land units by land
- sail     {units, from, to, cargo}                                            fleets by sea (or out of a port)
- unload   {units, from (a sea), to}                                           from fleets onto the land
- load     {units, from (land), onto (a sea, or None: the port's own fleets)}
- rail     {units, from, to}                                                   along a railway
- permit   {player, territories [ids] | None, most | None, supplies_only, not_cities}
- canal    {player, territory | None}            his fleets may pass the writer's canal (or all his canals)
- reserve  {units, at, to | None}             units of an attack that stay behind when it wins
- only     {territory, count}                 only so many units of a stack use supply when attacked
- losses   {territory, first}                 who of coordinating players takes the losses first
- hold     {territory | None}
- destroy  {territory}                        one unit there destroys the railroad
- air      {count, from (zone or territory), zone, land}
- bombing  {zone, count | None}               strategic bombing
- drop     {zone}                             the atomic bomb
- contribute {francs, to | None}              the League of Nations (its own phase)
"""

from __future__ import annotations

import re
from typing import Any

from .reading import Read
from .state import KIND_WORDS, SUPPLY, kind_of

FLEET_KINDS = ("light fleet", "heavy fleet")
LAND_KINDS = ("infantry", "armor")

_KIND_ALTERNATIVES = "|".join(sorted((re.escape(w).replace(r"\ ", " ") for ws in KIND_WORDS.values() for w in ws),
                                     key=len, reverse=True))
_UNIT = rf"\d+ ?(?:{_KIND_ALTERNATIVES})\b"
#: A list of units: "2 inf, 1 arm and 3 supply".
_SEP = r"(?:,? and |, ?| & )"
_UNITS = rf"{_UNIT}(?:{_SEP}{_UNIT})*"
_ID = r"[a-z][a-z0-9]{0,23}"  # an id, or a territory's name of one word
_NAME = r"[a-z][a-z0-9_.\-]*"
_TO = r"(?:->|to|into|=>|→)"

_ONE_UNIT = re.compile(rf"(\d+) ?({_KIND_ALTERNATIVES})\b")


def _normal(line: str) -> str:
    """Lower case, one space between words, spaces round arrows and commas, no final full stop."""
    text = line.strip().lower().rstrip(".;")
    text = re.sub(r"\s*(->|=>|→)\s*", r" \1 ", text)
    text = re.sub(r"\s*,\s*", ", ", text)
    return " ".join(text.split())


def units_of(text: str) -> dict[str, int]:
    """{kind: count} of a list of units as written ("2 inf, 1 arm"); counts of one kind add up."""
    found: dict[str, int] = {}
    for number, word in _ONE_UNIT.findall(text):
        kind = kind_of(word)
        assert kind is not None
        found[kind] = found.get(kind, 0) + int(number)
    return found


def words(units: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in units.items())


_MOVE = re.compile(rf"(?:move )?(?P<units>{_UNITS}) (?:from )?(?P<src>{_ID}) {_TO} (?P<dst>{_ID})"
                   rf"(?P<rest>(?: .*)?)")
_ATTACK_WITH = re.compile(rf"attack (?P<dst>{_ID}) with (?P<groups>{_UNITS} from {_ID}"
                          rf"(?:{_SEP}{_UNITS} from {_ID})*)(?P<rest>(?: .*)?)")
_GROUP = re.compile(rf"(?P<units>{_UNITS}) from (?P<src>{_ID})")
_COORDINATE = re.compile(rf"(?:attack|coordinate(?: attack)?(?: on| at)?) (?P<dst>{_ID}) with "
                         rf"(?P<names>{_NAME}(?:{_SEP}{_NAME})*)")
_RAIL = re.compile(rf"(?:rail|by rail|train) (?P<units>{_UNITS}) (?:from )?(?P<src>{_ID}) {_TO} (?P<dst>{_ID})")
_RAIL_AFTER = re.compile(rf"(?:move )?(?P<units>{_UNITS}) (?:from )?(?P<src>{_ID}) {_TO} (?P<dst>{_ID}) "
                         r"(?:by )?(?:rail|train)")
_PERMIT = re.compile(rf"(?:(?:allow|permit|let) (?P<a>{_NAME})(?: to)?(?: use)?(?: my)? rail\w*"
                     rf"|(?P<b>{_NAME}) may use my rail\w*)(?P<rest>(?: .*)?)")
_CANAL = re.compile(rf"(?:allow|permit|let) (?P<name>{_NAME})(?: to)?(?: use| pass)?(?: through)?(?: my| the)? canals?"
                    rf"(?: (?:in )?(?P<at>{_ID}))?")
_RESERVE = re.compile(rf"(?:hold |keep )?(?P<units>{_UNITS}) (?:in |at )?(?P<src>{_ID})(?: {_TO} (?P<dst>{_ID}))?"
                      r" (?:in|as) reserve|reserve (?P<units2>" + _UNITS + rf") (?:in |at |from )?(?P<src2>{_ID})"
                      rf"(?: {_TO} (?P<dst2>{_ID}))?")
_ONLY = re.compile(rf"only (?P<count>\d+)(?: ?(?:{_KIND_ALTERNATIVES}|units?))? (?:will )?use supply"
                   rf"(?: if attacked)? (?:in|at) (?P<at>{_ID})(?: if attacked)?")
_LOSSES = re.compile(rf"losses (?:in |at )?(?P<at>{_ID}):? (?:to |on )?(?P<first>{_NAME})(?: first)?")
_HOLD = re.compile(rf"hold(?: (?:all |units )?(?:in |at )?(?P<at>{_ID}))?")
_DESTROY = re.compile(rf"destroy (?:the )?rail(?:road|way)? (?:in |at )?(?P<at>{_ID})(?: with .*)?")
_LOAD = re.compile(rf"(?:load|embark) (?P<units>{_UNITS}) (?:from |in |at )?(?P<src>{_ID})"
                   rf"(?: (?:onto|on|into|aboard) (?P<sea>{_ID}))?")
_UNLOAD = re.compile(rf"(?:unload|land|disembark) (?P<units>{_UNITS}) (?:from |in |at )?(?P<src>{_ID}) {_TO} "
                     rf"(?P<dst>{_ID})")
_AIR = re.compile(rf"(?P<count>\d+) ?(?:air|aircraft|aircrafts|planes?|p) (?:from )?(?P<src>{_ID}) {_TO} "
                  rf"(?:zone )?(?P<zone>{_ID}),? land(?:ing)?(?: (?:in|at|on))? (?P<land>{_ID})")
_BOMBING = re.compile(rf"(?:strategic(?:ally)? )?bomb(?:ing)? (?:zone )?(?P<zone>{_ID})"
                      r"(?: with (?P<count>\d+) ?(?:air|aircraft|planes?|p))?")
_DROP = re.compile(rf"drop (?:the |an |a )?(?:atomic )?bomb (?:on )?(?:zone )?(?P<zone>{_ID})")
_CONTRIBUTE = re.compile(rf"(?:contribute|chip in|give) (?P<francs>\d+)(?: francs?| f)?(?: (?:to|for|in) "
                         rf"(?P<to>{_ID}))?(?: to the league)?")

_STARTS = ("move", "attack", "coordinate", "rail", "by rail", "train", "allow", "permit", "let", "reserve", "keep",
           "only", "losses", "hold", "destroy", "load", "embark", "unload", "land", "disembark", "bomb",
           "strategic", "drop", "contribute", "chip in")


def _with_clauses(rest: str) -> tuple[bool, dict[str, int] | None, list[str], str | None]:
    """The tail of a move: "attack", "with 3 supply", "with bruno". Returns (attack, carried units, partners,
    an error)."""
    attack = False
    carried: dict[str, int] | None = None
    partners: list[str] = []
    text = rest.strip()
    while text:
        if m := re.match(r"(?:and )?attacks?\b ?", text):
            attack = True
        elif m := re.match(rf"(?:and )?(?:with|carrying|carry) (?P<units>{_UNITS}) ?", text):
            carried = {**(carried or {}), **units_of(m["units"])}
        elif m := re.match(rf"(?:and )?(?:with|together with|coordinated with) (?P<names>{_NAME}(?:{_SEP}"
                           rf"{_NAME})*) ?", text):
            partners += [n for n in re.split(_SEP, m["names"]) if n]
        else:
            return attack, carried, partners, f"I do not understand '{text}' after the move"
        text = text[m.end():].strip()
    return attack, carried, partners, None


def _move(units: dict[str, int], src: str, dst: str, rest: str) -> Read | str:
    attack, carried, partners, error = _with_clauses(rest)
    if error:
        return error + " (write e.g. '2 inf K14 -> K15 attack with 2 supply')"
    fleets = {k: n for k, n in units.items() if k in FLEET_KINDS}
    if fleets:
        others = {k: n for k, n in units.items() if k not in FLEET_KINDS}
        if others:
            return ("fleets sail in an order of their own; land units go aboard with 'with': "
                    "'2 lf K5 -> S12 with 2 inf'")
        cargo = carried or {}
        return Read("sail", {"units": fleets, "from": src.upper(), "to": dst.upper(), "cargo": cargo},
                    f"{words(fleets)} sail from {src.upper()} to {dst.upper()}"
                    + (f" carrying {words(cargo)}" if cargo else ""))
    if "aircraft" in units:
        return "aircraft fly with an air order: '2 air ZA -> ZB land K14' (section Air Combat)"
    if SUPPLY in units:
        carried = {SUPPLY: units.pop(SUPPLY) + (carried or {}).get(SUPPLY, 0)}
    if carried and set(carried) - {SUPPLY}:
        return "land units carry only supplies: '2 inf K14 -> K15 with 2 supply'"
    supply = None if carried is None else carried.get(SUPPLY, 0)
    if not units and not supply:
        return "name the units that move: '2 inf K14 -> K15'"
    summary = f"{words(units) or 'supplies'} from {src.upper()} to {dst.upper()}"
    summary += " (attack)" if attack else ""
    summary += f" with {supply} supply" if supply is not None else ""
    summary += f", coordinated with {', '.join(partners)}" if partners else ""
    return Read("move", {"units": units, "from": src.upper(), "to": dst.upper(), "attack": attack,
                         "supply": supply, "partners": partners}, summary)


def _permit(name: str, rest: str) -> Read | str:
    args: dict[str, Any] = {"player": name, "territories": None, "most": None, "supplies_only": False,
                            "not_cities": False}
    text = rest.strip()
    while text:
        if m := re.match(rf"(?:only )?(?:in|on|through|across) ({_ID}(?:{_SEP}{_ID})*) ?", text):
            args["territories"] = sorted({t.upper() for t in re.split(_SEP, m[1]) if t})
        elif m := re.match(r"(?:for |with )?(?:at most |up to )?(\d+) units? ?", text):
            args["most"] = int(m[1])
        elif m := re.match(r"(?:for )?(?:only )?suppl(?:y|ies)(?: only)?(?:, no units)? ?", text):
            args["supplies_only"] = True
        elif m := re.match(r"(?:but )?not (?:ending |to end )?(?:up )?(?:in|into) (?:any of )?my cities ?", text):
            args["not_cities"] = True
        else:
            return (f"I do not understand '{text}' in a rail permission (write e.g. 'allow {name} rail in K14, K15"
                    " up to 2 units', 'supplies only', 'not in my cities')")
        text = text[m.end():].strip()
    limits = []
    if args["territories"]:
        limits.append("in " + ", ".join(args["territories"]))
    if args["most"] is not None:
        limits.append(f"at most {args['most']} units")
    if args["supplies_only"]:
        limits.append("supplies only")
    if args["not_cities"]:
        limits.append("not ending in your cities")
    return Read("permit", args, f"{name} may use your railways" + (f" ({'; '.join(limits)})" if limits else ""))


def read_line(line: str) -> Read | str | None:
    """One line of a season's orders (see the module's doc), a message when it is one but wrong, or None."""
    text = _normal(line)
    if m := _CONTRIBUTE.fullmatch(text):
        francs = int(m["francs"])
        to = m["to"].upper() if m["to"] else None
        return Read("contribute", {"francs": francs, "to": to},
                    f"contribute {francs} Francs to the League" + (f" for {to}" if to else ""))
    if m := _DROP.fullmatch(text):
        return Read("drop", {"zone": m["zone"].upper()}, f"drop the bomb on zone {m['zone'].upper()}")
    if m := _BOMBING.fullmatch(text):
        count = int(m["count"]) if m["count"] else None
        return Read("bombing", {"zone": m["zone"].upper(), "count": count},
                    f"strategic bombing of zone {m['zone'].upper()}" + (f" with {count} aircraft" if count else ""))
    if m := _AIR.fullmatch(text):
        count = int(m["count"])
        return Read("air", {"count": count, "from": m["src"].upper(), "zone": m["zone"].upper(),
                            "land": m["land"].upper()},
                    f"{count} aircraft from {m['src'].upper()} fight over zone {m['zone'].upper()}, "
                    f"land in {m['land'].upper()}")
    if m := _CANAL.fullmatch(text):
        at = m["at"].upper() if m["at"] else None
        return Read("canal", {"player": m["name"], "territory": at},
                    f"{m['name']} may pass your canal" + (f" in {at}" if at else "s"))
    if m := _PERMIT.fullmatch(text):
        return _permit(m["a"] or m["b"], m["rest"])
    if m := (_RAIL.fullmatch(text) or _RAIL_AFTER.fullmatch(text)):
        units = units_of(m["units"])
        if set(units) & set(FLEET_KINDS):
            return "fleets do not go by rail: 'rail 3 inf K2 -> K5' (section Railroads)"
        return Read("rail", {"units": units, "from": m["src"].upper(), "to": m["dst"].upper()},
                    f"{words(units)} by rail from {m['src'].upper()} to {m['dst'].upper()}")
    if m := _RESERVE.fullmatch(text):
        units = units_of(m["units"] or m["units2"])
        src = (m["src"] or m["src2"]).upper()
        dst = m["dst"] or m["dst2"]
        return Read("reserve", {"units": units, "at": src, "to": dst.upper() if dst else None},
                    f"{words(units)} of the attack from {src}" + (f" on {dst.upper()}" if dst else "")
                    + " stay in reserve")
    if m := _ONLY.fullmatch(text):
        return Read("only", {"territory": m["at"].upper(), "count": int(m["count"])},
                    f"only {m['count']} of the units in {m['at'].upper()} use supply if attacked")
    if m := _LOSSES.fullmatch(text):
        return Read("losses", {"territory": m["at"].upper(), "first": m["first"]},
                    f"at {m['at'].upper()}, {m['first']} takes the losses first")
    if m := _DESTROY.fullmatch(text):
        return Read("destroy", {"territory": m["at"].upper()}, f"destroy the railroad in {m['at'].upper()}")
    if m := _UNLOAD.fullmatch(text):
        units = units_of(m["units"])
        return Read("unload", {"units": units, "from": m["src"].upper(), "to": m["dst"].upper()},
                    f"unload {words(units)} from {m['src'].upper()} to {m['dst'].upper()}")
    if m := _LOAD.fullmatch(text):
        units = units_of(m["units"])
        sea = m["sea"].upper() if m["sea"] else None
        return Read("load", {"units": units, "from": m["src"].upper(), "onto": sea},
                    f"load {words(units)} in {m['src'].upper()} onto the fleets "
                    + (f"in {sea}" if sea else "in port"))
    if m := _COORDINATE.fullmatch(text):
        names = [n for n in re.split(_SEP, m["names"]) if n]
        return Read("coordinate", {"to": m["dst"].upper(), "partners": names},
                    f"attack on {m['dst'].upper()} coordinated with {', '.join(names)}")
    if m := _ATTACK_WITH.fullmatch(text):
        reads = []
        for g in _GROUP.finditer(m["groups"]):
            read = _move(units_of(g["units"]), g["src"], m["dst"], "attack" + m["rest"])
            if isinstance(read, str):
                return read
            reads.append(read)
        if len(reads) == 1:
            return reads[0]
        args = {"groups": [r.args for r in reads]}
        return Read("moves", args, "; ".join(r.summary for r in reads))
    if m := _MOVE.fullmatch(text):
        return _move(units_of(m["units"]), m["src"], m["dst"], m["rest"])
    if m := _HOLD.fullmatch(text):
        at = m["at"].upper() if m["at"] else None
        return Read("hold", {"territory": at}, f"hold in {at}" if at else "hold")
    if text.startswith(_STARTS) or re.match(rf"{_UNIT} ", text):
        return ("not a season order I can read: e.g. '2 inf K14 -> K15 attack', 'rail 3 inf K2 -> K5', "
                "'2 air ZA -> ZB land K14' (HELP lists them)")
    return None
