"""The players' mail of The Law of the Jungle read into actions: bold keywords, what follows them, who acts.

`parse(text)` gets the mail's order text with bold runs written ``**run**`` (the ruleset reads emphasis) and
gives one `Order` per action: ``kind`` the canonical keyword (actions.KEYWORDS), ``args`` as actions.ARGS
lists them plus ``character`` (who acts, as written, or None for a house's only character), ``both`` (the
action takes both of his actions) and ``part`` ("morning"/"afternoon" when the player labelled it, else
None). A ``JOIN <name> [in <city>] [hex <hex>]`` line gives an Order of kind "join". `check` (ordercheck.py)
then matches every name against the state.

How a mail is read (docs/law-of-the-jungle.md, "Orders by mail"):

- An action is a keyword in bold (maild/keywords.py cuts the text at them); what follows it up to the next
  bold keyword is read with the keyword's start rule of grammar/jungle.lark (phrases.py). Most actions are
  read from the keyword's own line; Order, Propose, Propose rule and Spend take every line up to the next
  action (their text is free), less greetings and signatures at the end.
- Who acts: a line that is only a character's name and a colon ("Itzel:", "For Itzel:", "Tochtli (slave
  of Xolotl):"), right before a line starting with a bold keyword, or written before the keyword on its
  line ("Itzel: **Attack** ..."), names the character of the actions after it, up to the next such line.
  Without one, the actions are the house's only character's. A slave's owner dictates by naming the slave
  the same way. "Morning:" and "Afternoon:" lines label the part the same way.
- "(both actions)", "with both actions", "using both my actions", "twice" (not in an Order's text): the
  action takes both of the character's actions (Travel without a trade route, the doubled word limit,
  Defend twice).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from maild.intake.prose import prose_kind
from maild.keywords import Keywords, extract
from maild.ruleset import Diagnostic, Order, OrderKind, ParsedOrders

from . import wording
from .actions import ATTACK_TYPES, KEYWORDS
from .captains import captain_orders, limit_reason, word_limit
from .model import World
from .ordercheck import acting_character, check
from .phrases import NAME, Phrase, PhraseError, read

# A player who bolds the attack's type ("**Duel** Xolotl", "**Capture** Xolotl") means an Attack of that type:
# the bold type word is read as the keyword Attack and stays the first word of its text.
_TYPE_WORDS = ("duel", "assassinate", "assassination", "debate", "discredit", "challenge", "overthrow", "steal",
               "capture", "escape")
assert {w for w in _TYPE_WORDS if w in ATTACK_TYPES} == set(ATTACK_TYPES)
__all__ = ["EXAMPLES", "ORDER_KINDS", "acting_character", "check", "join_args", "parse", "refine", "word_limit"]

KEYWORD_TABLE = Keywords.of({**KEYWORDS, "attack": (*KEYWORDS["attack"], *_TYPE_WORDS)})
FREE_TEXT = ("order", "propose", "propose rule", "spend")  # read over every line up to the next action
# What a player may copy for each keyword: the ack's examples, HELP's order sheet and the docs' table.
EXAMPLES: dict[str, str] = {
    "sacrifice": "**Sacrifice** Tochtli to Tlaloc",
    "offering": "**Offering** 5 XP to Huitzilopochtli",
    "move": "**Move** to hex Riverbank",
    "travel": "**Travel** to Texcoco hex Lakeshore (both actions)",
    "enlist": "**Enlist** in Jaguar Warriors",
    "order": "**Order** Jaguar Warriors: fortify on the hill, attack barbarians in reach",
    "desert": "**Desert** to Texcoco hex Lakeshore",
    "disband": "**Disband** Jaguar Warriors",
    "retire": "**Retire** to Texcoco hex Lakeshore",
    "toil": "**Toil**",
    "evict": "**Evict** Tochtli to hex Marsh",
    "procreate": "**Procreate** a child named Tizoc",
    "recruit": "**Recruit** a follower named Ome",
    "attack": "**Attack** Xolotl, duel, desperate",
    "defend": "**Defend** (both actions)",
    "propose": "**Propose** to Venice: open borders for 30 gold",
    "spend": "**Spend** 50 gold on buying a Granary in Texcoco",
    "research": "**Research** Bronze Working",
    "produce": "**Produce** Granary",
    "give": "**Give** 5 gold to Itzel",
    "train": "**Train** XP",
    "purchase": "**Purchase** 3 food",
    "join houses": "**Join Houses** with Xolotl",
    "split houses": "**Split Houses**: Itzel and Coyotl leave",
    "annex": "**Annex** Texcoco",
    "support policy": "**Support Policy** Tradition with 5 Fame",
    "propose rule": "**Propose Rule** slaves may toil twice. Offering: 20 XP from Itzel, 5 Fame from Coyotl",
    "join": "JOIN Itzel in Tenochtitlan hex Riverbank",
}
HELP: dict[str, tuple[str, str]] = {  # keyword -> (form, what it does)
    "sacrifice": ("**Sacrifice** CHARACTER to GOD", "sacrifice your character or slave to a god"),
    "offering": ("**Offering** N XP|Wisdom|Fame|food to GOD", "offer to a god (XP to Huitzilopochtli, "
                 "Wisdom to Quetzalcoatl, Fame to Tezcatlipoca, food to Tlaloc)"),
    "move": ("**Move** to hex HEX", "move to another workable hex of your city"),
    "travel": ("**Travel** to CITY [hex HEX] [(both actions)]", "go to another city"),
    "enlist": ("**Enlist** in UNIT", "join a unit"),
    "order": ("**Order** [UNIT:] ORDERS [(both actions)]", "a Captain's orders to his unit: at most 5 words "
              "per level (15 without a level), doubled with both actions"),
    "desert": ("**Desert** [to CITY] [hex HEX]", "leave your unit; your Fame is halved"),
    "disband": ("**Disband** [UNIT]", "a Captain disbands his unit"),
    "retire": ("**Retire** [to CITY] [hex HEX]", "a Captain leaves his unit with a Fame bonus"),
    "toil": ("**Toil**", "work your land for its output"),
    "evict": ("**Evict** TENANT to hex HEX", "a citizen moves a tenant to another tile"),
    "procreate": ("**Procreate** [a child named NAME]", "a new peasant for your house; costs food"),
    "recruit": ("**Recruit** [someone named NAME]", "a new peasant for your house; costs Fame"),
    "attack": ("**Attack** TARGET, TYPE[, desperate][, joint with A and B, A principal][, for ITEM]",
               "duel, assassinate, debate, discredit, challenge, overthrow, steal, capture or escape"),
    "defend": ("**Defend** [twice]", "double your attributes in defence"),
    "propose": ("**Propose** [to NATION:] TEXT", "a Tlatoani's diplomatic proposal"),
    "spend": ("**Spend** N gold on TEXT", "a Tlatoani spends the empire's gold"),
    "research": ("**Research** TECHNOLOGY", "research with your science beakers"),
    "produce": ("**Produce** BUILDING|UNIT", "produce with your production hammers"),
    "give": ("**Give** N gold|food|fame to CHARACTER, or **Give** slave|captaincy|land|rulership of X to "
             "CHARACTER", "give to a character in the same place"),
    "train": ("**Train** XP|Wisdom|Craftsmanship|Fame", "raise an attribute by 1 for (level+1)^2 gold"),
    "purchase": ("**Purchase** N food|beakers|hammers", "3 gold a point"),
    "join houses": ("**Join Houses** with CHARACTER", "the highest-Fame characters of both houses join them"),
    "split houses": ("**Split Houses**: A and B leave", "the characters named leave as a new house"),
    "annex": ("**Annex** [CITY]", "a citizen in a puppet city becomes its Tlatoani"),
    "support policy": ("**Support Policy** POLICY with N Fame", "spend Fame in support of a social policy"),
    "propose rule": ("**Propose Rule** TEXT. Offering: N XP|Wisdom|Craftsmanship|Fame from CHARACTER, ...",
                     "a rule change with its offering of 25 points"),
    "join": ("JOIN NAME [in CITY] [hex HEX]", "sign up: a peasant named NAME (any time)"),
}
ORDER_KINDS: tuple[OrderKind, ...] = tuple(
    OrderKind(word=k.upper() if k == "join" else k.title(), form=HELP[k][0], help=HELP[k][1], example=EXAMPLES[k])
    for k in (*KEYWORDS, "join"))


class OrderError(ValueError):
    """What follows a keyword does not make the action; the message says what is missing."""


# ---- the mail as a whole ---------------------------------------------------------------------------------
_MARKS = re.compile(r"\*\*|__")
_JOIN = re.compile(r"^\s*join\b(?!\s+houses?\b)\s*[:\-]?\s*(?P<rest>.*)$", re.IGNORECASE)
_HEADER_NAME = r"[^\W\d_][\w'\u2019.-]*(?:[ \t]+[\w'\u2019.-]+){0,3}"
_HEADER = re.compile(rf"^\s*(?:for[ \t]+|character[ \t]*:?[ \t]*)?(?P<name>{_HEADER_NAME})[ \t]*"
                     rf"(?:\([^)\n]*\))?[ \t]*:[ \t]*$", re.IGNORECASE)
_INLINE = re.compile(rf"^\s*(?:for[ \t]+)?(?P<name>{_HEADER_NAME})[ \t]*(?:\([^)\n]*\))?[ \t]*:[ \t]*(?=\*\*)",
                     re.IGNORECASE)
_PARTS = {"morning": "morning", "afternoon": "afternoon", "first action": "morning",
          "second action": "afternoon", "1st action": "morning", "2nd action": "afternoon"}
_BOTH = re.compile(r"\(?\b(?:(?:with|using|uses|use|taking|takes|spending|spends|for|on)\s+)?(?:both|two|2)\s+"
                   r"(?:of\s+)?(?:my|his|her|their|the)?\s*actions?\b\)?|\(\s*both\s*\)", re.IGNORECASE)
_TWICE = re.compile(r"\(?\btwice\b\)?", re.IGNORECASE)
MAX_ACTION_CHARS = 20_000  # one action's text: no Order needs more (a unit of level 99 reads 990 words)


@dataclass
class _Heading:
    line: int
    character: str | None = None
    part: str | None = None


def parse(text: str) -> ParsedOrders:
    """Every action of the mail as an Order, and a Diagnostic for every line not understood."""
    lines = text.split("\n")
    result = ParsedOrders()
    headings: list[_Heading] = []
    acting = False  # a bold action came before: a plain lower-case "join ..." is text of it from then on
    for i, line in enumerate(lines):
        plain = _MARKS.sub("", line)
        m = _JOIN.match(plain)
        if m is not None and acting and not (plain.lstrip()[:4] == "JOIN" or line.lstrip().startswith("**")):
            m = None  # "join the Eagle Warriors at the river" in a Captain's orders
        acting = acting or _has_action(line)
        if m is not None:
            try:
                result.orders.append(_join(i + 1, plain.strip(), m.group("rest")))
            except _Rejected as rejected:
                result.diagnostics.append(rejected.diagnostic)
            lines[i] = ""
    for i, leads in enumerate(_leading(lines)):
        heading = _heading(lines[i], leads)
        if heading is not None:
            headings.append(_Heading(i + 1, heading.character, heading.part))
            inline = _INLINE.match(lines[i])
            lines[i] = lines[i][inline.end():] if inline is not None else ""
    found = extract("\n".join(lines), KEYWORD_TABLE)
    character: str | None = None
    part: str | None = None
    h = 0
    for action in found.actions:
        while h < len(headings) and headings[h].line <= action.line:
            character = headings[h].character if headings[h].character is not None else character
            part = headings[h].part if headings[h].part is not None else part
            h += 1
        _action(result, action, lines, character, part)
    for mark in found.unknown_bold:
        result.diagnostics.append(Diagnostic(mark.line, _MARKS.sub("", lines[mark.line - 1]).strip(),
                                             f"'{mark.text}' is in bold but is no action; the actions are "
                                             f"{_keyword_list()}"))
    for mark in found.plain_keywords:
        result.diagnostics.append(Diagnostic(
            mark.line, lines[mark.line - 1].strip(),
            f"'{mark.text}' is not in bold, so it was read as text, not as an action: write "
            f"**{mark.keyword.title()}** to make it one", warning=True))
    for mark in found.preamble:
        result.diagnostics.append(Diagnostic(mark.line, mark.text,
                                             "not an action: write each action's keyword in bold, e.g. "
                                             f"{EXAMPLES['attack']}"))
    result.orders.sort(key=lambda o: o.line)
    result.diagnostics.sort(key=lambda d: d.line)
    return result


def refine(world: World, house: str, orders: list[Order]) -> list[Order]:
    """The orders of `house`'s mail with their name headings read against the state: a line ending in a colon
    is a heading only when it names a character of the game (his own, a slave he owns, or another, whom `check`
    then refuses by name); any other ("Changed my mind:") is text, and the actions under it are the earlier
    heading's character's, else the house's only character's. The summary names who acts."""
    own = world.members(house)
    joins = [str(o.args.get("name")) for o in orders if o.kind == "join"]
    joining = {wording.fold(n) for n in joins}
    only = own[0].name if len(own) == 1 else (joins[-1] if joins and not own else None)  # "your character"
    current: str | None = None  # the last heading that named a character
    out: list[Order] = []
    for o in sorted(orders, key=lambda o: o.line):
        if o.kind == "join":
            out.append(o)
            continue
        args = dict(o.args)
        written = args.get("character")
        if written is not None:
            if acting_character(world, house, {"character": written}) is not None or \
                    wording.fold(written) in joining:
                current = written
            else:
                args["heading"] = written  # text, not a heading: the ack names it if nobody else acts
                args["character"] = current
        prefix = f"{str(args['part']).title()}: " if args.get("part") else ""
        before = f"{prefix}{written or 'your character'} "
        summary = o.summary
        if summary.startswith(before):
            summary = f"{prefix}{args['character'] or only or 'your character'} {summary[len(before):]}"
        acting = acting_character(world, house, args)
        actor = acting.name if acting is not None else only
        counted = _counted(world, actor, args) if o.kind == "order" and actor is not None else None
        if counted is not None:
            summary = f"{prefix}{args['character'] or actor} {counted}"
        out.append(Order(o.line, o.text, o.kind, args, summary))
    return out


def _heading(line: str, leads: bool) -> _Heading | None:
    """The "Itzel:" / "Morning:" of a line, if it is one: written before a bold keyword on the line, or
    alone on a line that `leads` to an action."""
    inline = _INLINE.match(line)
    m = inline or (_HEADER.match(_MARKS.sub("", line)) if leads else None)
    if m is None:
        return None
    name = " ".join(m.group("name").split())
    # "Actions for Itzel:", "Itzel's orders:" name Itzel.
    name = _HEADING_WORDS_BEFORE.sub("", name)
    name = _HEADING_WORDS_AFTER.sub("", name) or name
    if KEYWORD_TABLE.match(list(_KEYWORD_WORD.finditer(name)), 0):
        return None  # "Attack:" is an action written without bold, not a character
    part = _PARTS.get(name.casefold())
    return _Heading(0, part=part) if part else _Heading(0, character=name)


def _leading(lines: list[str]) -> list[bool]:
    """For each line, whether the next non-blank line after it starts with a bold keyword or is itself a
    name-and-colon line that does (one pass from the end: linear however many such lines follow)."""
    out = [False] * len(lines)
    following = False
    for i in range(len(lines) - 1, -1, -1):
        out[i] = following
        line = lines[i]
        if line.strip():
            following = (_starts_action(line) or _INLINE.match(line) is not None
                         or (following and _HEADER.match(_MARKS.sub("", line)) is not None))
    return out


_HEADING_WORDS_BEFORE = re.compile(r"^(?:actions?|orders?)\s+(?:for|of)\s+", re.IGNORECASE)
_HEADING_WORDS_AFTER = re.compile(r"(?:['\u2019]s)?\s+(?:actions?|orders?)$", re.IGNORECASE)
_KEYWORD_WORD = re.compile(r"[^\W_]+(?:['\u2019-][^\W_]+)*")


_BOLD_RUN = re.compile(r"\*\*([^*\n]+)\*\*")


def _has_action(line: str) -> bool:
    """Whether a bold keyword stands anywhere on the line."""
    return any(KEYWORD_TABLE.match(list(_KEYWORD_WORD.finditer(run.group(1))), 0) is not None
               for run in _BOLD_RUN.finditer(line))


def _starts_action(line: str) -> bool:
    stripped = line.lstrip()
    if not stripped.startswith("**"):
        return False
    run = stripped[2:].split("**", 1)[0]
    return KEYWORD_TABLE.match(list(_KEYWORD_WORD.finditer(run)), 0) is not None


def _keyword_list() -> str:
    return ", ".join(k.title() for k in KEYWORDS)


class _Rejected(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _action(result: ParsedOrders, action: Any, lines: list[str], character: str | None, part: str | None) -> None:
    keyword = action.keyword
    written = f"**{action.written}** {action.text}".strip()
    body_text = action.text
    if keyword == "attack" and action.written.casefold() != "attack":
        body_text = f"{action.written} {action.text}"  # "**Duel** Xolotl": the type is the bold word
    first, rest = _first_line(body_text)
    both = False
    if keyword in FREE_TEXT:
        body, _ = _trim_prose(body_text)
        body, n = _BOTH.subn(" ", body)
        both = n > 0
    else:
        body, n = _BOTH.subn(" ", first)
        body, m = _TWICE.subn(" ", body)
        both = n + m > 0
        for offset, extra in rest:
            if extra.strip():
                result.diagnostics.append(Diagnostic(
                    action.last_line - len(rest) + offset, extra.strip(),
                    f"not read: the **{action.written}** above is read from its own line; put each action "
                    f"on a line of its own, its keyword in bold"))
    text = written if len(written) <= 400 else written[:400] + "..."
    if len(body) > MAX_ACTION_CHARS:
        result.diagnostics.append(Diagnostic(action.line, text, f"this action has {len(body):,} characters; "
                                             f"an action has at most {MAX_ACTION_CHARS:,}"))
        return
    if keyword in COUNTED and keyword != "propose rule":
        body = numerals(body)
    try:
        args, summary = READERS[keyword](" ".join(body.split()) if keyword not in FREE_TEXT else body.strip())
    except (OrderError, PhraseError) as exc:
        result.diagnostics.append(Diagnostic(action.line, text, f"{exc}: {_expected(keyword)}"))
        return
    if keyword == "attack" and character is not None:
        # "(joint with Coyotl, Itzel principal)" in Itzel's own action: the joint list names the others.
        others = [n for n in args["joint"] if wording.fold(n) != wording.fold(character)]
        if others != args["joint"]:
            args["joint"] = others
            summary = _attack_summary(args)
    args.update(character=character, both=both, part=part)
    who = character or "your character"
    summary = f"{who} {summary}" + (" (both actions)" if both else "")
    if part is not None:
        summary = f"{part.title()}: {summary}"
    result.orders.append(Order(action.line, text, keyword, args, summary))


def _first_line(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The action's first line and the lines after it, each with its offset from the first."""
    parts = text.split("\n")
    return parts[0], [(i, p) for i, p in enumerate(parts[1:], start=1)]


def _trim_prose(text: str) -> tuple[str, int]:
    """A free text without the greetings, closings and signatures that end it (the mail's sign-off)."""
    parts = text.split("\n")
    end = len(parts)
    while end > 1:
        line = parts[end - 1]
        if not line.strip():
            end -= 1
            continue
        before = next((p for p in reversed(parts[:end - 1]) if p.strip()), "")
        if prose_kind(line, last=True, after_closing=prose_kind(before) == "closing") or prose_kind(line):
            end -= 1
            continue
        break
    return "\n".join(parts[:end]).strip(), len(parts) - end


def _expected(keyword: str) -> str:
    return f"write {HELP[keyword][0]}, e.g. {EXAMPLES[keyword]}"


# ---- one reader per keyword: the text after it -> (args, summary) --------------------------------------------
Reader = Callable[[str], tuple[dict[str, Any], str]]


_NUMERALS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMERAL = re.compile(r"\b(" + "|".join(_NUMERALS) + r"|twenty-five|thirty|forty|fifty|hundred)\b", re.IGNORECASE)
_TENS = {"twenty-five": "25", "thirty": "30", "forty": "40", "fifty": "50", "hundred": "100"}
COUNTED = ("give", "purchase", "offering", "support policy", "propose rule", "spend", "train")  # amounts in them


def numerals(text: str) -> str:
    """Amounts written in words as digits ("five gold" is "5 gold"), for the actions that take an amount."""
    return _NUMERAL.sub(lambda m: _NUMERALS.get(m.group().casefold()) or _TENS[m.group().casefold()], text)


def _names(phrases: list[Phrase]) -> list[str]:
    return [wording.clean_name(p.text) for p in phrases if p.type == NAME]


def _one(values: list[Any], what: str) -> Any:
    if not values:
        raise OrderError(f"{what} is missing")
    if len(values) > 1:
        raise OrderError(f"{what} is given {len(values)} times ({', '.join(map(str, values))})")
    return values[0]


def _number(p: Phrase) -> int:
    return int(p.text.replace(",", ""))


def _numbers(phrases: list[Phrase]) -> list[int]:
    return [_number(p) for p in phrases if p.type == "NUMBER"]


def _sacrifice(text: str) -> tuple[dict[str, Any], str]:
    ph = read(text, "sacrifice")
    victim = _one(_names(ph), "whom you sacrifice")
    god = _one([wording.god(p.text) for p in ph if p.type == "GOD"], "the god")
    return {"victim": victim, "god": god}, f"sacrifices {victim} to {god}"


def _offering(text: str) -> tuple[dict[str, Any], str]:
    ph = read(text, "offering")
    god = _one([wording.god(p.text) for p in ph if p.type == "GOD"], "the god")
    amount = _one(_numbers(ph), "how much")
    if amount <= 0:
        raise OrderError("an offering must be of at least 1")
    takes = wording.GOD_TAKES[god]
    for p in ph:
        said = wording.attribute(p.text) if p.type == "OFFERED" else None
        if said is not None and said != takes:
            raise OrderError(f"{god} takes {_attribute_words(takes)}, not {_attribute_words(said)}")
    return {"god": god, "amount": amount}, f"offers {amount} {_attribute_words(takes)} to {god}"


def _attribute_words(attr: str) -> str:
    return {"xp": "XP", "wisdom": "Wisdom", "fame": "Fame", "craft": "Craftsmanship", "food": "food"}[attr]


def _places(ph: list[Phrase]) -> dict[str, list[str]]:
    """Names by what stands before them: after HEX a hex, after IN a city, else plain."""
    out: dict[str, list[str]] = {"hex": [], "in": [], "plain": []}
    label = "plain"
    for p in ph:
        if p.type == "HEX":
            label = "hex"
        elif p.type == "IN":
            label = "in" if label == "plain" else label
        elif p.type == NAME:
            out[label].append(wording.clean_name(p.text))
            label = "plain"
        elif p.type == "SEP":
            label = "plain"
    return out


def _move(text: str) -> tuple[dict[str, Any], str]:
    pl = _places(read(text, "move"))
    hexes = pl["hex"] + pl["plain"]
    hex_ = _one(hexes, "the hex to move to")
    args: dict[str, Any] = {"hex": hex_}
    if pl["in"]:
        args["city"] = pl["in"][0]
    return args, f"moves to hex {hex_}"


def _destination(text: str, start: str, required: bool) -> tuple[str | None, str | None]:
    pl = _places(read(text, start))
    cities = pl["in"] + pl["plain"]
    hexes = pl["hex"]
    if len(cities) == 2 and not hexes:  # "to Texcoco, Lakeshore"
        cities, hexes = cities[:1], cities[1:]
    city = _one(cities, "the city") if cities or required else None
    hex_ = _one(hexes, "the hex") if hexes else None
    return city, hex_


def _where(city: str | None, hex_: str | None) -> str:
    if city is None:
        return "to a hex of his choice" if hex_ is None else f"to hex {hex_}"
    return f"to {city}" + (f" hex {hex_}" if hex_ else "")


def _travel(text: str) -> tuple[dict[str, Any], str]:
    city, hex_ = _destination(text, "travel", True)
    return {"city": city, "hex": hex_}, f"travels {_where(city, hex_)}"


def _desert(text: str) -> tuple[dict[str, Any], str]:
    city, hex_ = _destination(text, "desert", False)
    return {"city": city, "hex": hex_}, f"deserts his unit, going {_where(city, hex_)}"


def _retire(text: str) -> tuple[dict[str, Any], str]:
    city, hex_ = _destination(text, "retire", False)
    return {"city": city, "hex": hex_}, f"retires from his unit, going {_where(city, hex_)}"


def _enlist(text: str) -> tuple[dict[str, Any], str]:
    unit = _one(_names(read(text, "enlist")), "the unit")
    return {"unit": unit}, f"enlists in {unit}"


def _disband(text: str) -> tuple[dict[str, Any], str]:
    names = _names(read(text, "disband"))
    unit = _one(names, "the unit") if names else None
    return {"unit": unit}, f"disbands {unit or 'his unit'}"


def _toil(text: str) -> tuple[dict[str, Any], str]:
    return {}, "toils"


def _defend(text: str) -> tuple[dict[str, Any], str]:
    return {}, "defends"


def _evict(text: str) -> tuple[dict[str, Any], str]:
    ph = read(text, "evict")
    tenant: list[str] = []
    hexes: list[str] = []
    label = "plain"
    for p in ph:
        if p.type in ("HEX", "TO"):
            label = "hex"
        elif p.type == "FROM":
            label = "from"
        elif p.type == NAME:
            (hexes if label == "hex" else tenant if label == "plain" else []).append(wording.clean_name(p.text))
            label = "plain" if label == "from" else label
    who = _one(tenant, "the tenant")
    hex_ = _one(hexes, "the hex he is moved to")
    return {"tenant": who, "hex": hex_}, f"evicts {who} to hex {hex_}"


_NEWCOMER = frozenset({"child", "son", "daughter", "baby", "heir", "kid", "peasant", "character", "follower",
                       "recruit", "new", "one", "someone", "man", "woman", "boy", "girl"})


def _newcomer(text: str, start: str) -> str | None:
    ph = read(text, start)
    named = [i for i, p in enumerate(ph) if p.type == "NAMED"]
    if named:
        after = [p for p in ph[named[0]:] if p.type == NAME]
        return wording.clean_name(after[0].text) if after else None
    names = [n for n in _names(ph) if n.casefold() not in _NEWCOMER]
    return _one(names, "the name") if names else None


def _procreate(text: str) -> tuple[dict[str, Any], str]:
    name = _newcomer(text, "procreate")
    return {"name": name}, "raises a child" + (f" named {name}" if name else "")


def _recruit(text: str) -> tuple[dict[str, Any], str]:
    name = _newcomer(text, "recruit")
    return {"name": name}, "recruits a new character" + (f" named {name}" if name else "")


def _attack(text: str) -> tuple[dict[str, Any], str]:
    ph = read(text, "attack")
    types = sorted({t for p in ph if p.type == "ATYPE" and (t := wording.attack_type(p.text))},
                   key=lambda t: text.casefold().find(t[:4]))
    kind = _one(types, "the type of attack (duel, assassinate, debate, discredit, challenge, overthrow, steal, "
                       "capture or escape)")
    desperate = any(p.type == "DESPERATE" for p in ph)
    targets: list[str] = []
    joint: list[str] = []
    principal: list[str] = []
    item_kind: str | None = None
    item: list[str] = []
    mode = "plain"  # what a name means here: plain (target), target, joint, principal, item
    pending_principal = False  # "principal: Itzel", "led by Itzel"
    last_name: str | None = None
    for p in ph:
        t = p.type
        if t == "JOINT" or (t == "WITH" and mode != "item"):
            mode = "joint"
        elif t == "PRINCIPAL":
            if last_name is not None and mode in ("joint", "plain") and _adjacent(ph, p):
                principal.append(last_name)  # "Itzel principal", "Itzel leads"
                if mode == "joint" and last_name in targets and joint and joint[-1] == last_name:
                    joint.pop()  # "joint with Itzel, Xolotl principal": the target named principal
            else:
                pending_principal = True
        elif t == "AGAINST":
            mode = "target"
        elif t == "FOR":
            mode = "item"
        elif t == "KIND" and mode == "item":
            item_kind = wording.item_kind(p.text)
        elif t == "SEP" and p.text.strip() not in ("", "&") and mode != "joint":
            mode = "plain"
        elif t == "SEP" and mode == "joint" and any(c in p.text for c in ".;:)-"):
            mode = "plain"
        elif t == NAME:
            name = wording.clean_name(p.text)
            last_name = name
            if pending_principal:
                principal.append(name)
                pending_principal = False
                if name not in joint and mode == "joint":
                    joint.append(name)
            elif mode == "joint":
                joint.append(name)
            elif mode == "item":
                item.append(name)
            else:
                targets.append(name)
                if mode == "target":
                    mode = "plain"
    joint_names = list(dict.fromkeys(joint))
    target = _one(list(dict.fromkeys(targets)), "whom you attack")
    args: dict[str, Any] = {"target": target, "type": kind, "desperate": desperate, "joint": joint_names,
                            "principal": _one(list(dict.fromkeys(principal)), "the principal attacker")
                            if principal else None, "item": None}
    if kind in ("challenge", "overthrow"):
        if item or item_kind:
            args["item"] = {"kind": item_kind, "name": _one(item, "the item") if item else None}
    elif item:
        raise OrderError(f"only a challenge or an overthrow is for an item, not a {kind}")
    return args, _attack_summary(args)


def _attack_summary(args: dict[str, Any]) -> str:
    summary = f"attacks {args['target']}: {'a desperate ' if args['desperate'] else 'a '}{args['type']}"
    if args["joint"]:
        summary += f", joint with {_and(args['joint'])}"
    if args["principal"]:
        summary += f", {args['principal']} principal"
    if args["item"]:
        summary += f", for {args['item']['kind'] or 'the item'} {args['item']['name'] or ''}".rstrip()
    return summary


def _adjacent(ph: list[Phrase], p: Phrase) -> bool:
    """Whether the word right before `p` is a name ("Itzel principal")."""
    i = ph.index(p)
    return i > 0 and ph[i - 1].type == NAME


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_PROPOSE_TO = re.compile(r"^(?:to|with)\s+(?P<nation>[^:\n]{1,60}?)\s*(?::|--?|\u2013)\s*(?P<text>.+)$",
                         re.IGNORECASE | re.DOTALL)


def _propose(text: str) -> tuple[dict[str, Any], str]:
    if not text.strip():
        raise OrderError("the proposal is missing")
    m = _PROPOSE_TO.match(text.strip())
    nation = wording.clean_name(m.group("nation")) if m else None
    body = m.group("text").strip() if m else text.strip()
    return {"text": body, "nation": nation}, f"proposes{' to ' + nation if nation else ''}: {_short(body)}"


def _short(text: str, n: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= n else flat[:n] + "..."


_SPEND = re.compile(r"^(?P<amount>\d+(?:,\d{3})*)\s*(?:gold|gp)?\b\s*(?:(?:on|for|to|in)\b)?\s*(?P<on>.*)$",
                    re.IGNORECASE | re.DOTALL)


def _spend(text: str) -> tuple[dict[str, Any], str]:
    m = _SPEND.match(text.strip())
    if m is None:
        raise OrderError("the amount of gold is missing")
    amount = int(m.group("amount").replace(",", ""))
    on = " ".join(m.group("on").split()).strip(" .:-")
    if amount <= 0:
        raise OrderError("spend at least 1 gold")
    if not on:
        raise OrderError("what the gold buys is missing")
    return {"amount": amount, "on": on}, f"spends {amount} gold on {_short(on)}"


def _span(text: str, ph: list[Phrase]) -> str:
    """The words from the first name to the last, with a leading "The" written so ("The Wheel", a name) but
    not "the", "a" or "my" ("a Granary")."""
    names = [p for p in ph if p.type == NAME]
    if not names:
        return ""
    start = names[0].start
    before = [p for p in ph if p.end <= start and p.type == "ARTICLE"]
    if before and before[-1].text == "The":
        start = before[-1].start
    return wording.clean_name(text[start:names[-1].end])


def _first_phrase(ph: list[Phrase]) -> list[Phrase]:
    """The phrases up to the first punctuation after a name: "Bronze Working (I have 3 beakers)" is
    "Bronze Working"."""
    out: list[Phrase] = []
    for p in ph:
        if p.type == "SEP" and any(q.type == NAME for q in out):
            break
        out.append(p)
    return out


def _research(text: str) -> tuple[dict[str, Any], str]:
    ph = _first_phrase(read(text, "research"))
    tech = _span(text, [p if p.type != "NUMBER" else Phrase(NAME, p.text, p.start, p.end) for p in ph])
    if not tech:
        raise OrderError("the technology is missing")
    return {"technology": tech}, f"researches {tech}"


def _produce(text: str) -> tuple[dict[str, Any], str]:
    ph = _first_phrase(read(text, "produce"))
    cut = next((i for i, p in enumerate(ph) if p.type == "IN"), len(ph))
    item = _span(text, [p if p.type != "NUMBER" else Phrase(NAME, p.text, p.start, p.end) for p in ph[:cut]])
    if not item:
        raise OrderError("the building or unit is missing")
    args: dict[str, Any] = {"item": item}
    city = _names(ph[cut:])
    if city:
        args["city"] = city[0]
    return args, f"produces {item}"


def _give(text: str) -> tuple[dict[str, Any], str]:
    ph = read(text, "give")
    amounts: list[tuple[int, str]] = []
    kinds: list[str] = []
    objects: list[str] = []
    recipients: list[str] = []
    bare: list[str] = []
    mode = "plain"
    for i, p in enumerate(ph):
        if p.type == "NUMBER":
            nxt = next((q for q in ph[i + 1:] if q.type not in ("SEP", "ARTICLE")), None)
            if nxt is None or nxt.type != "GIFT":
                raise OrderError(f"say what {p.text} is: gold, food or fame")
            amounts.append((_number(p), nxt.text.casefold()))
        elif p.type == "GIFT" and not (i and any(q.type == "NUMBER" for q in ph[max(0, i - 2):i])):
            raise OrderError(f"say how much {p.text.casefold()}: e.g. 5 {p.text.casefold()}")
        elif p.type == "KIND":
            kinds.append(wording.gift_kind(p.text) or "")
            mode = "object"
        elif p.type == "TO":
            mode = "to"
        elif p.type == NAME:
            name = wording.clean_name(p.text)
            if mode == "to":
                recipients.append(name)
            elif mode == "object":
                objects.append(name)
            else:
                bare.append(name)
            mode = "plain" if mode == "object" else mode
    if amounts and (kinds or objects):
        raise OrderError("give one thing per action")
    if not recipients:
        recipients, bare = bare[-1:], bare[:-1]
        if kinds and not objects and not recipients:
            raise OrderError("whom you give to is missing")
    to = _one(recipients, "whom you give to")
    if amounts:
        amount, what = _one(amounts, "what you give")
        if bare:
            raise OrderError(f"'{bare[0]}' is not understood here")
        if amount <= 0:
            raise OrderError("give at least 1")
        return ({"what": what, "amount": amount, "object": None, "to": to},
                f"gives {amount} {_attribute_words(what) if what != 'gold' else 'gold'} to {to}")
    kind = _one(list(dict.fromkeys(k for k in kinds if k)), "what you give (gold, food, fame, slave, captaincy, "
                                                          "land or rulership)")
    thing = _one(objects + bare, f"which {kind} you give")
    words = {"slave": f"ownership of the slave {thing}", "captaincy": f"the captaincy of {thing}",
             "land": f"the land {thing}", "rulership": f"the rulership of {thing}"}[kind]
    return {"what": kind, "amount": None, "object": thing, "to": to}, f"gives {words} to {to}"


def _train(text: str) -> tuple[dict[str, Any], str]:
    ph = read(text, "train")
    attr = _one(list(dict.fromkeys(a for p in ph if p.type == "ATTRIBUTE" and (a := wording.attribute(p.text)))),
                "the attribute (XP, Wisdom, Craftsmanship or Fame)")
    if any(n != 1 for n in _numbers(ph)):
        raise OrderError("Train raises an attribute by 1 point")
    return {"attribute": attr}, f"trains {_attribute_words(attr)} (+1)"


_TIMES = re.compile(r"(?<![\w-])[x\u00d7]\s?(\d+)\b", re.IGNORECASE)


def _purchase(text: str) -> tuple[dict[str, Any], str]:
    ph = read(_TIMES.sub(r" \1", text), "purchase")  # "food x3"
    amount = _one(_numbers(ph), "how many points")
    res = _one(list(dict.fromkeys(r for p in ph if p.type == "RESOURCE" and (r := wording.resource(p.text)))),
               "what you buy (food, beakers or hammers)")
    if amount <= 0:
        raise OrderError("buy at least 1 point")
    return {"resource": res, "amount": amount}, f"purchases {amount} {res} for {3 * amount} gold"


def _join_houses(text: str) -> tuple[dict[str, Any], str]:
    other = _one(_names(read(text, "join_houses")), "the other house's character")
    other = re.sub(r"['\u2019]s$", "", other)  # "with Xolotl's house"
    return {"with": other}, f"joins houses with {other}'s house"


def _split_houses(text: str) -> tuple[dict[str, Any], str]:
    leaving = list(dict.fromkeys(_names(read(text, "split_houses"))))
    if not leaving:
        raise OrderError("who leaves with the new house is missing")
    return {"leaving": leaving}, f"splits the house: {_and(leaving)} leave"


def _annex(text: str) -> tuple[dict[str, Any], str]:
    names = _names(read(text, "annex"))
    args: dict[str, Any] = {}
    if names:
        args["city"] = _one(names, "the city")
    return args, "annexes " + (args.get("city") or "his puppet city")


def _support(text: str) -> tuple[dict[str, Any], str]:
    ph = read(text, "support_policy")
    fame = _one(_numbers(ph), "how much Fame you spend")
    policy = _one(_names(ph), "the policy")
    if fame <= 0:
        raise OrderError("spend at least 1 Fame")
    return {"policy": policy, "fame": fame}, f"spends {fame} Fame in support of {policy}"


_RULE_OFFERING = re.compile(r"\b(?:offering|offer|offered|offers|paying|pay|sacrificing)\b\s*(?:of\b)?\s*:?",
                            re.IGNORECASE)
RULE_OFFERING = 25  # PROPOSING CHANGES TO THE RULES: "an offering of 25 points"


def _propose_rule(text: str) -> tuple[dict[str, Any], str]:
    found = list(_RULE_OFFERING.finditer(text))
    if not found:
        raise OrderError(f"the offering of {RULE_OFFERING} points is missing")
    at = found[-1]
    proposal = text[:at.start()].strip(" \n.;:-")
    if not proposal:
        raise OrderError("the proposal is missing")
    ph = read(" ".join(numerals(text[at.end():]).split()), "rule_offering")
    offering: list[dict[str, Any]] = []
    amount: int | None = None
    for p in ph:
        if p.type == "NUMBER":
            amount = _number(p)
        elif p.type == "ATTRIBUTE" and amount is not None:
            attr = wording.attribute(p.text)
            offering.append({"character": None, "attribute": attr, "amount": amount})
            amount = None
        elif p.type == NAME and offering and offering[-1]["character"] is None:
            offering[-1]["character"] = wording.clean_name(p.text)
    total = sum(o["amount"] for o in offering)
    if total != RULE_OFFERING:
        raise OrderError(f"the offering is {total} points; it must be {RULE_OFFERING} points of XP, Wisdom, "
                         "Craftsmanship and/or Fame")
    return ({"text": proposal, "offering": offering},
            f"proposes a rule change ({_short(proposal, 40)}), offering {RULE_OFFERING} points")


_ORDER_HEAD = re.compile(r"^(?P<head>[^:\n]{1,60}?)\s*(?::|\s--?\s|\s\u2013\s)\s*(?P<rest>\S.*)$", re.DOTALL)


def _order(text: str) -> tuple[dict[str, Any], str]:
    if not text.strip():
        raise OrderError("the orders are missing")
    unit: str | None = None
    body = text.strip()
    m = _ORDER_HEAD.match(body)
    if m is not None and len(m.group("head").split()) <= 5:
        try:
            ph = read(m.group("head"), "order_head")
        except PhraseError:
            ph = []
        names = _names(ph)
        if names:
            unit, body = names[0], m.group("rest").strip()
    # No count here: a known name counts as one word, so the words are counted against the state, by
    # captains.captain_orders, in `refine` for the ack and again when the order runs (LJ-OQ-51).
    args: dict[str, Any] = {"unit": unit, "text": body, "words": None}
    if unit is not None:
        args["written"] = text.strip()
    return args, f"orders {unit or 'his unit'}: {' '.join(body.split())}"


def _counted(world: World, actor: str, args: dict[str, Any]) -> str | None:
    """An Order's words as the unit gets them, counted as they will be when it runs, with the unit's limit
    ("orders Jaguar Warriors (14 words; the limit is 15, level 3): march ..."); None when no unit of his can
    be told (the ack's check says why)."""
    read = captain_orders(world, actor, args)
    if read.unit is None or read.count is None:
        return None
    args["words"] = read.count.count
    both = bool(args.get("both"))
    return (f"orders {read.unit.name} ({read.count.count} words; the limit is {read.count.limit}, "
            f"{limit_reason(read.unit, both)}): {' '.join(read.text.split())}" + (" (both actions)" if both else ""))


READERS: dict[str, Reader] = {
    "sacrifice": _sacrifice, "offering": _offering, "move": _move, "travel": _travel, "enlist": _enlist,
    "order": _order, "desert": _desert, "disband": _disband, "retire": _retire, "toil": _toil, "evict": _evict,
    "procreate": _procreate, "recruit": _recruit, "attack": _attack, "defend": _defend, "propose": _propose,
    "spend": _spend, "research": _research, "produce": _produce, "give": _give, "train": _train,
    "purchase": _purchase, "join houses": _join_houses, "split houses": _split_houses, "annex": _annex,
    "support policy": _support, "propose rule": _propose_rule,
}
assert set(READERS) == set(KEYWORDS)


# ---- sign-up ---------------------------------------------------------------------------------------------
def join_args(rest: str) -> dict[str, Any]:
    """{name, city, hex} of a sign-up line's text after JOIN; OrderError/PhraseError if it has no name."""
    ph = read(" ".join(rest.split()), "join")
    name = wording.clean_name(ph[0].text)
    pl = _places(ph[1:])
    cities = pl["in"] + pl["plain"]
    hexes = pl["hex"]
    if len(cities) == 2 and not hexes:
        cities, hexes = cities[:1], cities[1:]
    return {"name": name, "city": _one(cities, "the city") if cities else None,
            "hex": _one(hexes, "the hex") if hexes else None}


def _join(line: int, text: str, rest: str) -> Order:
    if not rest.strip():
        raise _Rejected(Diagnostic(line, text, f"the name is missing: {_expected('join')}"))
    try:
        args = join_args(rest)
    except (OrderError, PhraseError) as exc:
        raise _Rejected(Diagnostic(line, text, f"{exc}: {_expected('join')}")) from None
    where = (f" in {args['city']}" if args["city"] else " (a random hex)") + (f" hex {args['hex']}"
                                                                             if args["hex"] else "")
    return Order(line, text, "join", args, f"{args['name']} joins the game{where}")
