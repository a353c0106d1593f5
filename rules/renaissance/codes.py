"""Renaissance orders: the action codes of the code sheet (docs/renaissance-codes.md), and plain words, from a
mail's text to Orders and Diagnostics. Syntax and static data only (items, classes, skills); whether a persona
exists or stands where the player says is checks.py's.

The text is a stream of headers and codes: `/XXX` (the player's code) then `*FAMILY` open a family's block,
`*Location .nnnn` opens a persona's. Codes are split on blanks and each is parsed alone (grammar/renaissance.lark,
`code`), so one bad code never hides the others on its line, and a blank inside a code shows as two bad halves
(diagnosed as such when the halves joined make a code). A word from plainwords.VERBS starts a plain-words order
running to the end of the line (`phrase`). Both paths give raw args that `finish` checks and normalizes.

Readings (documented on the code sheet):
- tabs count as blanks, silently: mail clients and pasted printouts produce them and they are never ambiguous;
- lines starting `--` or `;` are comments, and so is the rest of a line from a blank followed by `--` or `;`;
- the persona number's dot may be left out (`*Florence 0101`);
- a line holding "if", "unless", "when", "whenever" or "provided" is void as a whole (rules, ORDERS: "All
  conditional orders are void"); its headers still count.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from maild.parsing import OrderError, load_parser, overlong
from maild.ruleset import Diagnostic, Order, ParsedOrders

from . import church_codes as church
from . import items, plainwords
from .calendar import MONTHS
from .orderkinds import BY_KIND, CONVERTIBLE, SKILL_LETTERS
from .ranks import FEUDAL_TABLE, ISLAMIC_TITLES, canonical_rank
from .refusals import RuleRefused
from .war import orders as war

GRAMMAR = "renaissance"
CONDITIONAL = frozenset({"if", "unless", "when", "whenever", "provided"})
CONDITIONAL_MESSAGE = "conditional orders are void (rules, ORDERS): write the order without the condition"

NO_FAMILY = ("orders belong under their family's header: /XXX (your player code) and *FAMILY, e.g. /LMD *MEDICI, "
             "then each persona's *Location .nnnn, e.g. *Florence .0101")
NO_PERSONA = ("a persona's orders follow his header, his starting location after an asterisk and his number after "
              "a dot, e.g. *Florence .0101")

# Fabricate: what FABRICATION-type rules let a persona make (orderkinds, fabricate).
FABRICABLE = frozenset({"cannon", "falconet", "arquebus", "small arms", "pike", "armor", "bow", "verdigris",
                        "vermilion", "galley", "galliot", "roundship", "caravel", "barque"})
COLONISTS = frozenset({*items.TROOPS, "crew", "slave"})

# Each kind's shape in a player's words: the diagnostic of a malformed code is "<code>": <this>: <example>.
SHAPE_WORDS: dict[str, str] = {
    "transfer": "a transfer is T, the recipient's four-digit number (9999: the locals), the item (up to 8 letters), "
                "then the quantity",
    "sell": "a sale is S, the rank m (one digit), the first three letters of the item's class, the item (up to 8 "
            "letters), then the quantity",
    "buy": "a purchase is B, the item (up to 8 letters), the quantity, then Y if a merchant pays the surcharge for "
           "a sold-out good",
    "instruct": "instruction is I, the trainee's four-digit number, then the skill letter",
    "deepen_harbor": "deepening a harbor is PE#",
    "build_road": "building a road is PR then the location the road leads to",
    "lengthen_road": "lengthening a road is PL then the location the road leads to",
    "fortify": "fortifying is PFS (assault strength), PFR (resistance to artillery) or PFT and the tower's number",
    "fabricate": "fabrication is F, the item (up to 8 letters), then the quantity",
    "work": "a work is WA (art), WN (negative art), WL (letters), WM (negative letters) or WX (architecture), then "
            "the four-digit number of the sponsor (or of the victim of a negative work)",
    "pilgrimage": "a pilgrimage is HP",
    "venerate": "veneration of relics or icons is HV",
    "alms": "alms are HA then the ducats",
    "charity": "charity is HC then the ducats",
    "indulgence": "an indulgence is HI then the beneficiary's four-digit number",
    "sermon": "a sermon is UP (to the populace) or UT and the four-digit number of the persona whose troops hear it",
    "appoint_tax_collector": "appointing a tax collector is OT, his four-digit number, then the location",
    "appoint_tithe_collector": "appointing a tithe collector is OB, his four-digit number, then the location",
    "appoint_magistrate": "appointing a magistrate is OM then his four-digit number",
    "resign_magistracy": "resigning a magistracy is OR",
    "hold_court": "holding court is OC",
    "collect_taxes": "collecting taxes is OX",
    "collect_tithe": "collecting the tithe is OY",
    "magistrate_selection": "the magistrate selection method is OS then one letter: e, s, f, t, b or a",
    "tariff": "a tariff change is RI (import) or RE (export), then + or -, then 1 to 5",
    "access": "access is DI, DE or DM (deny ingress, egress or the closed external market) or AI, AE or AM "
              "(allow them), then the family's name",
    "external_market": "the external market is opened with XO and closed with XC",
    "elevate": "an elevation is OE, the four-digit number of the persona elevated, the rank (duke, grandduke, "
               "king...; emir, bey or khan under one's own number), then / and a location to name the title for, "
               "if any",
    "vote": "a vote is V then the candidate's four-digit number",
    "vote_ruler": "a vote for the ruler of an elective state is VR then the candidate's four-digit number",
    "vote_grandmaster": "a vote for a grandmaster is VG then the candidate's four-digit number, then / and the order "
                        "if several are elected where you are",
    "accept_grandmastership": "accepting a grandmastership is OGA, then / and the order if elected by several",
    "claim_cavalry": "claiming the order's free heavy cavalry is OGC",
    "found_order": "creating a military order is OGF, the order's name, / and the location of its seat",
    "order_office": "transferring a tenancy (OGT) or a sovereignty (OGV) to an order's grandmaster is OGT or OGV, "
                    "the order's name, / and the location",
    "guild": "a guild step is GA (apprentice), GJ (journeyman) or GM (master), then the candidate's four-digit "
             "number",
    "colonize": "colonizing is C, troops, crew or slaves (up to 8 letters), then the quantity",
    "permit_boarding": "boarding permission is L then the passenger's four-digit number",
    "recruit_crew": "recruiting crew is N then the number of men",
    "abandon": "abandoning excess cargo including ships is AX",
    "stay_outside": "staying outside the walls at the end of this month's move is MO",
    "move": "a move is ML (land), MF (ferry), MR (road) or MW (water), then the location and any /waypoints; MW "
            "may take +latitude+longitude instead (MW+41.00+012.00); MI moves inside, MD disembarks",
    "ask_address": "an address request is ?A then the family's name",
    "name_successor": "naming the member who succeeds to his hereditary positions is OH then his four-digit "
                      "number",
    "convert": "a change of religion is HR then the religion (" + ", ".join(CONVERTIBLE) + ")",
    "ask_depth": "a depth request is ?D then the location",
    "ask_coordinates": "a coordinates request is ?C then the location",
    "execute_day": "a day of execution is !DAY then the day of the month",
    "for_turn": "orders for a later turn are ! then the month's first three letters and the year",
    **war.SHAPE_WORDS,
    **church.SHAPE_WORDS,
}

# Longest first: which kind a malformed code was meant to be, from how it begins.
_PREFIXES: tuple[tuple[str, str], ...] = tuple(sorted({
    "PE": "deepen_harbor", "PR": "build_road", "PL": "lengthen_road", "PF": "fortify", "HP": "pilgrimage",
    "HV": "venerate", "HA": "alms", "HC": "charity", "HI": "indulgence", "HR": "convert",
    "OH": "name_successor", "OT": "appoint_tax_collector",
    "OB": "appoint_tithe_collector", "OM": "appoint_magistrate", "OR": "resign_magistracy", "OC": "hold_court",
    "OX": "collect_taxes", "OY": "collect_tithe", "OS": "magistrate_selection", "OE": "elevate",
    "OGA": "accept_grandmastership", "OGC": "claim_cavalry", "OGF": "found_order",
    "OGT": "order_office", "OGV": "order_office",
    "VR": "vote_ruler", "VG": "vote_grandmaster", "AX": "abandon",
    "?A": "ask_address",
    "?D": "ask_depth", "?C": "ask_coordinates", "!DAY": "execute_day", "!": "for_turn", "T": "transfer",
    "S": "sell", "B": "buy", "I": "instruct", "F": "fabricate", "W": "work", "UP": "sermon", "UT": "sermon",
    "R": "tariff", "D": "access", "A": "access", "V": "vote", "G": "guild", "C": "colonize", "L": "permit_boarding",
    "M": "move", "N": "recruit_crew", "X": "external_market", "MO": "stay_outside", **war.PREFIXES,
    **church.PREFIXES,
}.items(), key=lambda kv: -len(kv[0])))
# Letters that begin several codes, none of which the rest of the code picks out.
_GROUPS = {"P": ("deepen_harbor", "build_road", "lengthen_road", "fortify"),
           "H": ("pilgrimage", "venerate", "alms", "charity", "indulgence", "convert", *church.GROUPS["H"]),
           "O": ("appoint_tax_collector", "appoint_tithe_collector", "appoint_magistrate", "resign_magistracy",
                 "hold_court", "collect_taxes", "collect_tithe", "magistrate_selection", "elevate", "name_successor",
                 "accept_grandmastership", "claim_cavalry", "found_order", "order_office", *war.GROUPS["O"],
                 *church.GROUPS["O"]),
           "V": ("vote", "vote_ruler", "vote_grandmaster", *church.GROUPS["V"]),
           "?": ("ask_address", "ask_depth", "ask_coordinates"),
           "U": ("sermon", *war.GROUPS["U"]), "E": war.GROUPS["E"], "K": war.GROUPS["K"]}
_PNUM_AFTER = {"transfer": 1, "instruct": 1, "work": 2, "indulgence": 2, "appoint_tax_collector": 2,
               "appoint_tithe_collector": 2, "appoint_magistrate": 2, "elevate": 2, "name_successor": 2, "vote": 1,
               "vote_ruler": 2, "vote_grandmaster": 2, "guild": 2, "permit_boarding": 1,
               **war.PNUM_AFTER, **church.PNUM_AFTER}

_WORKS = {"A": "art", "N": "negative_art", "L": "letters", "M": "negative_letters", "X": "architecture"}
_WORK_LETTERS = {v: k for k, v in _WORKS.items()}
_MODES = {"L": "land", "F": "ferry", "R": "road", "W": "water"}
_MODE_LETTERS = {v: k for k, v in _MODES.items()}
# MAGISTRATES: "(e)" election, else appointment by the sovereign, feudatory, tenant, bishop or archbishop.
_METHODS = {"e": "election", "s": "the sovereign's appointment", "f": "the feudatory's appointment",
            "t": "the tenant's appointment", "b": "the bishop's appointment", "a": "the archbishop's appointment"}
_STEPS = {"A": "apprentice", "J": "journeyman", "M": "master"}
_ACCESS = {"I": "ingress", "E": "egress", "M": "market"}
_ACCESS_LETTERS = {v: k for k, v in _ACCESS.items()}
_STEP_LETTERS = {v: k for k, v in _STEPS.items()}
_LETTER_OF_SKILL = {v: k for k, v in SKILL_LETTERS.items()}
_MONTH_CODES = [m[:3].upper() for m in MONTHS]

_NAME_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")
_PERSONA_NUMBER = re.compile(r"\.?\d+")
_PLAYER_CODE = re.compile(r"[A-Za-z0-9]+")


# ------------------------------------------------------------------------------------------------ the reader
def parse(text: str) -> ParsedOrders:
    reader = _Reader()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.replace("\t", " ").strip()
        if not line or line.startswith(("--", ";")):
            continue
        tokens = line.replace("*", " *").split()
        if (too_long := overlong(number, line, tokens)) is not None:  # several codes may share a line
            reader.result.diagnostics.append(too_long)
            continue
        for i, tok in enumerate(tokens):
            if tok.startswith(("--", ";")):
                tokens = tokens[:i]
                break
        reader.read_line(number, line, tokens)
    reader.finish()
    return reader.result


@dataclass
class _Block:
    """One family's orders: from `/XXX *FAMILY` to the next `/`."""

    player: str
    line: int  # of the /XXX
    family: str | None = None
    persona: str | None = None
    start: str | None = None
    persona_line: int = 0
    persona_ok: bool = False  # the current persona header was valid
    asked_address: bool = False
    day_given: bool = False
    turn_given: bool = False


class _Reader:
    def __init__(self) -> None:
        self.result = ParsedOrders()
        self.block: _Block | None = None
        self.bad_player = False  # a `/` without a usable code: its orders are not read
        self.refused: str | None = None  # why the current block's orders are not read
        self.families: dict[str, int] = {}  # family -> line its orders began on

    def diag(self, line: int, text: str, message: str, rule: str | None = None) -> None:
        self.result.diagnostics.append(Diagnostic(line, text, message, rule=rule))

    def read_line(self, number: int, line: str, tokens: list[str]) -> None:
        conditional = any(t.lower().strip(".,;:()!?") in CONDITIONAL for t in tokens)
        # Orders the line holds outside any usable block, grouped by why: one diagnostic per reason and line.
        misplaced: dict[str, list[str]] = {}
        i = 0
        voided = False
        while i < len(tokens):
            tok = tokens[i]
            if tok.startswith("/"):
                i = self.player_header(number, line, tokens, i)
                continue
            if tok.startswith("*"):
                i = self.star_header(number, line, tokens, i)
                continue
            if conditional:
                if not voided:
                    self.diag(number, line, CONDITIONAL_MESSAGE)
                    voided = True
                i += 1
                continue
            if tok.lower() in plainwords.VERBS:
                end = next((j for j in range(i, len(tokens)) if tokens[j].startswith("*")), len(tokens))
                self.phrase(number, line, " ".join(tokens[i:end]), misplaced)
                i = end
                continue
            i = self.code(number, line, tokens, i, misplaced)
        for reason, texts in misplaced.items():
            self.diag(number, line, ", ".join(f'"{t}"' for t in texts) + f": {reason}")

    def finish(self) -> None:
        b = self.block
        if b is not None and b.family is None:
            self.diag(b.line, f"/{b.player}", f"/{b.player} is not followed by the family's name, e.g. "
                                              f"/{b.player} *MEDICI")

    # -- headers
    def player_header(self, number: int, line: str, tokens: list[str], i: int) -> int:
        self.finish()
        code = tokens[i][1:]
        if not _PLAYER_CODE.fullmatch(code):
            self.diag(number, line, f'"{tokens[i]}": the player\'s code follows the slash with no blank, e.g. /LMD')
            self.block, self.bad_player, self.refused = None, True, None
            return i + 1
        self.block, self.bad_player, self.refused = _Block(code.upper(), number), False, None
        return i + 1

    def star_header(self, number: int, line: str, tokens: list[str], i: int) -> int:
        first = tokens[i][1:]
        words = [first] if first else []
        j = i + 1
        while j < len(tokens) and not tokens[j].startswith(("*", "/")) and not _PERSONA_NUMBER.fullmatch(tokens[j]):
            j += 1
        has_number = j < len(tokens) and _PERSONA_NUMBER.fullmatch(tokens[j]) is not None
        b = self.block
        if b is not None and b.family is None and not has_number:
            return self.family_header(number, line, tokens, i, words)
        if not has_number:
            header = " ".join(tokens[i:j])
            self.diag(number, line, f'"{header}": the persona number is missing: *Florence .0101 (a new family '
                                    f"begins with /XXX *FAMILY)")
            self.persona_broken(number)
            return j
        header = " ".join(tokens[i:j + 1])
        location = " ".join(words + tokens[i + 1:j])
        digits = tokens[j].lstrip(".")
        if b is None and self.refused:
            pass  # said once, on the repeated family's header
        elif b is None or b.family is None:
            self.diag(number, line, f'"{header}": {self.no_family_reason()}')
            self.persona_broken(number)
        elif len(digits) != 4:
            self.diag(number, line, f'"{header}": persona numbers have exactly four digits, e.g. *Florence .0101')
            self.persona_broken(number)
        elif not location:
            self.diag(number, line, f'"{header}": the starting location goes after the asterisk, e.g. '
                                    f"*Florence .{digits}")
            self.persona_broken(number)
        else:
            b.persona, b.start, b.persona_line, b.persona_ok = digits, location, number, True
        return j + 1

    def family_header(self, number: int, line: str, tokens: list[str], i: int, words: list[str]) -> int:
        b = self.block
        assert b is not None
        j = i + 1
        # A family's name may have blanks ("DELLA ROVERE"); it ends where a code or anything but a word begins.
        while j < len(tokens) and _NAME_WORD.fullmatch(tokens[j]) and tokens[j].lower() not in plainwords.VERBS \
                and tokens[j].lower() not in CONDITIONAL and _parse_code(tokens[j]) is None:
            words.append(tokens[j])
            j += 1
        if not words:
            self.diag(number, line, f"the family's name follows the asterisk, e.g. /{b.player} *MEDICI")
            return j
        family = " ".join(words).upper()
        first = self.families.setdefault(family, number)
        if first != number:
            # ORDERS: a family's orders stay together, and none may be added once they are in.
            self.diag(number, line, f"the orders of {family} began on line {first} and must stay together; "
                                    f"the orders below, up to the next /XXX, are not read")
            self.refused = f"not read: {family}'s orders must stay together (its orders began on line {first})"
            self.block = None
            return j
        b.family = family
        return j

    def persona_broken(self, number: int) -> None:
        if self.block is not None:
            self.block.persona, self.block.persona_ok, self.block.persona_line = None, False, number

    def no_family_reason(self) -> str:
        b = self.block
        if b is not None and b.family is None:
            return f"after /{b.player} (line {b.line}) comes the family's name, e.g. /{b.player} *MEDICI"
        if self.bad_player:
            return "not read: the player's code before it is not valid"
        if self.refused:
            return self.refused
        return NO_FAMILY

    def context_error(self, kind: str) -> str | None:
        """Why an order of `kind` cannot stand where it is written, or None."""
        b = self.block
        if b is None or b.family is None:
            return self.no_family_reason()
        if BY_KIND[kind].family_level:
            return None
        if b.persona_line and not b.persona_ok:
            return f"not read: the persona header on line {b.persona_line} is not valid"
        if b.persona is None:
            return NO_PERSONA
        return None

    # -- orders
    def code(self, number: int, line: str, tokens: list[str], i: int, misplaced: dict[str, list[str]]) -> int:
        tok = tokens[i]
        tree = _parse_code(tok)
        if tree is None:
            for n in (2, 3):
                parts = tokens[i:i + n]
                if len(parts) < n or any(p.startswith(("*", "/")) or p.lower() in plainwords.VERBS for p in parts):
                    break
                joined = "".join(parts)
                if _parse_code(joined) is not None:
                    self.diag(number, line, " ".join(f'"{p}"' for p in parts) + f": a blank splits the code "
                                            f"{joined} in {'two' if n == 2 else 'three'}; codes have no blanks "
                                            f"inside: {joined}")
                    return i + n
            self.diag(number, line, shape_message(tok))
            return i + 1
        try:
            kind, raw = _raw_from_code(tree)
            args = finish(kind, raw)
        except OrderError as exc:
            self.diag(number, line, f'"{tok}": {exc}', getattr(exc, "rule", None))
            return i + 1
        self.add(number, tok, kind, args, f"{tok}: {summary(kind, args)}", misplaced)
        return i + 1

    def phrase(self, number: int, line: str, text: str, misplaced: dict[str, list[str]]) -> None:
        verb = text.split()[0].lower()
        try:
            tree = load_parser(GRAMMAR, "phrase").parse(text)
        except UnexpectedInput:
            self.diag(number, line, f'"{text}": plain words not understood; write e.g. '
                                    f"{plainwords.EXAMPLES.get(verb, 'transfer 500 grain to .0102')}, or the code")
            return
        try:
            kind, raw, note = plainwords.build_phrase(tree)
            args = finish(kind, raw)
        except OrderError as exc:
            self.diag(number, line, f'"{text}": {exc}', getattr(exc, "rule", None))
            return
        said = summary(kind, args)
        if note:
            said += f" ({note})"
        self.add(number, text, kind, args, f"{said} (code {format_code(kind, args)})", misplaced)

    def add(self, number: int, text: str, kind: str, args: dict[str, Any], said: str,
            misplaced: dict[str, list[str]]) -> None:
        reason = self.context_error(kind)
        if reason is not None:
            misplaced.setdefault(reason, []).append(text)
            return
        b = self.block
        assert b is not None and b.family is not None
        if kind in ("execute_day", "for_turn"):
            if b.persona_line:
                misplaced.setdefault("family-level lines (!DAY, !MMMYYYY) go at the head of the family's orders, "
                                     "before the first persona header (*Location .nnnn)", []).append(text)
                return
            given = "day_given" if kind == "execute_day" else "turn_given"
            if getattr(b, given):
                misplaced.setdefault("one per family's orders", []).append(text)
                return
            setattr(b, given, True)
        if kind == "ask_address":
            if b.asked_address:
                misplaced.setdefault("one address request per family's orders (rules, INFORMATION ORDERS)",
                                     []).append(text)
                return
            b.asked_address = True
        full = {**args, "family": b.family, "player": b.player}
        if not BY_KIND[kind].family_level:
            full["persona"], full["start"] = b.persona, b.start
            said = f".{b.persona} {said}"  # the ack lists every persona's orders together: say whose
        else:
            said = f"{b.family} {said}"
        self.result.orders.append(Order(number, text, kind, full, said))


@lru_cache(maxsize=4096)
def _parse_code(code: str) -> Tree | None:
    """The tree of one code, or None. Cached: mails repeat codes (HP, OC, MI) and the trees are only read."""
    try:
        tree = load_parser(GRAMMAR, "code").parse(code)
    except UnexpectedInput:
        return None
    assert isinstance(tree, Tree)
    return tree


def shape_message(code: str) -> str:
    """What a malformed code should look like, from how it begins."""
    upper = code.upper()
    kind = next((k for prefix, k in _PREFIXES if upper.startswith(prefix)), None)
    if kind is None:
        group = _GROUPS.get(upper[:1])
        if group:
            shapes = ", ".join(BY_KIND[k].example for k in group)
            return f'"{code}": no such code; codes beginning with {upper[0]} are e.g. {shapes}'
        return (f'"{code}" is not a code: codes begin with T, S, B, I, F, C, L, N, V, W, H, U, O, R, D, A, G, M, '
                f"P, X, E, K, Z, ? or !, and plain-words orders with a verb (e.g. transfer 500 grain to .0102); send "
                f"CODESHEET for the code sheet")
    notes = war.shape_notes(kind, code)
    after = _PNUM_AFTER.get(kind)
    if after is not None:
        digits = re.match(r"\d*", code[after:])
        if digits is not None and len(digits.group()) not in (0, 4):
            notes.append("persona numbers have exactly four digits")
    if "," in code or (kind not in ("move", "tariff") and "." in code):
        notes.append("quantities are digits only, without commas or points")
    extra = f" ({'; '.join(notes)})" if notes else ""
    return f'"{code}": {SHAPE_WORDS[kind]}{extra}: {BY_KIND[kind].example}'


# --------------------------------------------------------------------------------------------- code -> args
def _raw_from_code(tree: Tree) -> tuple[str, dict[str, Any]]:
    kind = str(tree.data)
    toks = [c for c in tree.children if isinstance(c, Token)]
    by: dict[str, list[str]] = {}
    for t in toks:
        by.setdefault(t.type, []).append(str(t))
    if kind in war.WAR_KINDS:
        return kind, war.raw_from_code(kind, by)
    if kind in church.CHURCH_KINDS:
        return kind, church.raw_from_code(kind, by)

    def one(name: str) -> str:
        return by[name][0]

    if kind == "transfer":
        return kind, {"to": one("PNUM"), "item": one("ITEM"), "qty": one("QTY")}
    if kind == "sell":
        return kind, {"rank": int(one("DIGIT")), "cls": one("CLS"), "item": one("ITEM"), "qty": one("QTY")}
    if kind == "buy":
        return kind, {"item": one("ITEM"), "qty": one("QTY"), "surcharge": "SURCHARGE" in by}
    if kind == "instruct":
        return kind, {"trainee": one("PNUM"), "skill": one("SKILL")}
    if kind in ("build_road", "lengthen_road"):
        return kind, {"to": one("LOC")}
    if kind == "fortify":
        measure = "fas" if "FAS" in by else "far" if "FAR" in by else "tower"
        return kind, {"measure": measure, "tower": int(by["DIGIT"][0]) if "DIGIT" in by else 1}
    if kind in ("fabricate", "colonize"):
        return kind, {"item": one("ITEM"), "qty": one("QTY")}
    if kind == "work":
        return kind, {"work": _WORKS[one("WORK")[1].upper()], "target": one("PNUM")}
    if kind in ("alms", "charity"):
        return kind, {"ducats": one("QTY")}
    if kind == "indulgence":
        return kind, {"beneficiary": one("PNUM")}
    if kind == "sermon":
        return kind, {"target": one("PNUM") if "PNUM" in by else "populace"}
    if kind in ("appoint_tax_collector", "appoint_tithe_collector"):
        return kind, {"appointee": one("PNUM"), "location": one("LOC")}
    if kind == "appoint_magistrate":
        return kind, {"appointee": one("PNUM")}
    if kind == "magistrate_selection":
        return kind, {"method": one("METHOD")}
    if kind == "elevate":
        return kind, {"target": one("PNUM"), "rank": one("RANK"), "place": by["LOC"][0] if "LOC" in by else None}
    if kind == "tariff":
        return kind, {"which": "import" if one("TARIFF")[1].upper() == "I" else "export", "change": one("SIGNED")}
    if kind == "access":
        code = one("ACCESS").upper()
        return kind, {"what": _ACCESS[code[1]], "allow": code[0] == "A", "target_family": one("NAME")}
    if kind == "external_market":
        return kind, {"open": one("XMARKET").upper() == "XO"}
    if kind in ("vote", "vote_ruler"):
        return kind, {"candidate": one("PNUM")}
    if kind == "vote_grandmaster":
        return kind, {"candidate": one("PNUM"), "order": by["FAM"][0] if "FAM" in by else None}
    if kind == "accept_grandmastership":
        return kind, {"order": by["FAM"][0] if "FAM" in by else None}
    if kind == "found_order":
        return kind, {"order": one("FAM"), "seat": one("LOC")}
    if kind == "order_office":
        office = "tenant" if one("ORDER_OFFICE")[2].upper() == "T" else "sovereign"
        return kind, {"office": office, "order": one("FAM"), "location": one("LOC")}
    if kind == "guild":
        return kind, {"step": _STEPS[one("GUILD")[1].upper()], "candidate": one("PNUM")}
    if kind == "permit_boarding":
        return kind, {"passenger": one("PNUM")}
    if kind == "recruit_crew":
        return kind, {"qty": one("QTY")}
    if kind == "move":
        return kind, _raw_move(tree, by)
    if kind == "ask_address":
        return kind, {"target_family": one("NAME")}
    if kind == "convert":
        return kind, {"religion": one("NAME")}
    if kind == "name_successor":
        return kind, {"member": one("PNUM")}
    if kind in ("ask_depth", "ask_coordinates"):
        return kind, {"location": one("LOC")}
    if kind == "execute_day":
        return kind, {"day": one("QTY")}
    if kind == "for_turn":
        return kind, {"month": _MONTH_CODES.index(one("MONTH").upper()) + 1, "year": one("QTY")}
    return kind, {}


def _raw_move(tree: Tree, by: dict[str, list[str]]) -> dict[str, Any]:
    via_tree = next((c for c in tree.children if isinstance(c, Tree) and c.data == "via"), None)
    via = [str(t) for t in via_tree.children] if via_tree is not None else []
    args: dict[str, Any] = {"to": None, "lat": None, "lon": None, "via": via}
    if "INSIDE" in by:
        return {"mode": "inside", **args}
    if "DISEMBARK" in by:
        return {"mode": "disembark", **args}
    mode = "water" if "WATER" in by else _MODES[by["MODE"][0][1].upper()]
    if "COORD" in by:
        args["lat"], args["lon"] = float(by["COORD"][0]), float(by["COORD"][1])
    else:
        args["to"] = by["LOC"][0]
    return {"mode": mode, **args}


# ------------------------------------------------------------------------------------------- checks, shared
def finish(kind: str, raw: dict[str, Any]) -> dict[str, Any]:
    """Check and normalize raw args (from a code or from plain words); OrderError says what is wrong."""
    args = dict(raw)
    for key in ("qty", "ducats"):
        if key in args:
            args[key] = _positive(args[key], "the quantity" if key == "qty" else "the ducats")
    if "item" in args:
        args["item"] = resolve_item_or_error(args["item"])
    if kind == "sell":
        args["cls"] = _sale_class(args["item"], args["cls"], raw["item"], args["qty"])
    elif kind == "instruct":
        args["skill"] = _skill(args["skill"])
    elif kind == "fabricate" and args["item"] not in FABRICABLE:
        raise OrderError(f"{args['item']} cannot be fabricated; one fabricates "
                         + ", ".join(sorted(items.code_of(i) for i in FABRICABLE)))
    elif kind == "colonize" and args["item"] not in COLONISTS:
        raise RuleRefused(f"colonies are settled with troops, crew or slaves, not {args['item']} (COLONIES)",
                          "COLONIES")
    elif kind in ("alms", "charity"):
        given = args.pop("_ducats_item", None)
        if given is not None and resolve_item(given) != items.DUCATS:
            raise OrderError(f"{kind} is given in ducats, e.g. give 1000 ducats in alms")
    elif kind == "fortify" and args["tower"] < 1:
        raise OrderError("towers are numbered from 1: PFT1")
    elif kind == "magistrate_selection":
        args["method"] = args["method"].lower()
        if args["method"] not in "esftba":
            raise OrderError("the method is one letter: e, s, f, t, b or a")
    elif kind == "elevate":
        args["rank"] = _rank(args["rank"])
    elif kind == "tariff":
        change = int(args["change"])
        if not 1 <= abs(change) <= 5:
            raise OrderError("a tariff changes by 1 to 5 points at a time, e.g. RI+3 or RE-2")
        args["change"] = change
    elif kind in ("access", "ask_address"):
        args["target_family"] = args["target_family"].upper()
    elif kind == "convert":
        args["religion"] = _religion(args["religion"])
    elif kind == "move":
        _check_move(args)
    elif kind == "execute_day":
        args["day"] = int(args["day"])
        if not 1 <= args["day"] <= 31:
            raise OrderError("the day is 1 to 31, e.g. !DAY15")
    elif kind == "for_turn":
        args["year"] = int(args["year"])
    elif kind in war.WAR_KINDS:
        war.finish(kind, args)
    elif kind in church.CHURCH_KINDS:
        church.finish(kind, args)
    return args


# Other words for the religions of CONVERTIBLE ("Catholicism", "Hinduism" are read by their beginnings).
_RELIGION_WORDS = {"shiite": "shia", "sunnite": "sunni", "jew": "jewish", "judaism": "jewish", "druze": "druse",
                   "buddhism": "buddhist", "copt": "monophysite", "coptic": "monophysite"}


def _religion(written: str) -> str:
    """A religion written whole, by its first letters if they fit one only ("HRsun" is sunni), or as its -ism."""
    word = written.lower().rstrip("s")  # "Druses", "Catholics"
    word = _RELIGION_WORDS.get(word, word)
    if word in ("islam", "moslem", "muslim"):
        raise OrderError(f"{written!r}: the rules' Moslems are Sunni or Shia: write HRsunni or HRshia")
    fits = [r for r in CONVERTIBLE if r.startswith(word) or word.startswith(r)]
    if len(fits) != 1 or len(word) < 3:
        raise OrderError(f"{written!r} names no religion; one of: {', '.join(CONVERTIBLE)}")
    return fits[0]


def _positive(value: Any, what: str) -> int:
    number = int(value)
    if number < 1:
        raise OrderError(f"{what} must be at least 1")
    return number


def _check_move(args: dict[str, Any]) -> None:
    lat, lon = args["lat"], args["lon"]
    if lat is not None and (abs(lat) > 90 or abs(lon) > 180):
        raise OrderError("latitude is -90 to +90 and longitude -180 to +180, e.g. MW+41.00+012.00")
    if args["mode"] == "ferry" and args["via"]:
        raise OrderError("a ferry crossing takes no waypoints")


def _sale_class(item: str, written: str | None, word: str, qty: int) -> str:
    held = items.classes_of(item)
    if not held:
        raise OrderError(f"{item} is in no class of trade goods and cannot be sold")
    if written is None:
        if len(held) == 1:
            return held[0]
        # A sale's class sets whose demand it meets and its price (MARKETS): never guessed for the player.
        choices = " or ".join(f"as {c} ({c[:3]})" for c in held)
        raise OrderError(f"'{word}': {item} is sold {choices}: which did you mean? write e.g. "
                         f"sell {qty} {word} as {held[-1]}, or the code S0{held[-1][:3]}{items.code_of(item)}{qty}")
    c = written.lower()
    cls = c if c in items.CLASSES else items.CLASS_CODES.get(c[:3])
    if cls is None:
        raise OrderError(f"no class \"{written}\"; the class codes are " + ", ".join(sorted(items.CLASS_CODES)))
    if cls not in held:
        raise OrderError(f"{item} is not in the class {cls}; it is in " + " and ".join(held)
                         + f" ({', '.join(c[:3] for c in held)})")
    return cls


def _rank(written: str) -> str:
    found = canonical_rank(written)
    if found is None:
        names = sorted({n.replace(" ", "") for r in FEUDAL_TABLE[1:-1] for n in r.names} | set(ISLAMIC_TITLES))
        raise OrderError(f'no rank "{written}"; the ranks are ' + ", ".join(names))
    return found


def _skill(written: str) -> str:
    w = written.lower()
    if len(w) == 1 and w in SKILL_LETTERS:
        return SKILL_LETTERS[w]
    if len(w) > 1:
        names = sorted(s for s in SKILL_LETTERS.values() if s.startswith(w))
        if len(names) == 1:
            return names[0]
        if names:
            by_name = {v: k for k, v in SKILL_LETTERS.items()}
            raise OrderError(f"'{written}': did you mean " + " or ".join(f"{n} ({by_name[n]})" for n in names) + "?")
    letters = ", ".join(f"{k} {v}" for k, v in sorted(SKILL_LETTERS.items()))
    raise OrderError(f'no skill "{written}"; the skill letters are {letters}')


def resolve_item(word: str) -> str | None:
    """The item a code or word names: items.item_by_code, plus the plurals it misses (pikemen, rubies) and
    arquebusiers, whose whole word would otherwise cut to the weapon's code `arquebus`."""
    w = word.lower().replace(" ", "").replace("_", "").replace("-", "")
    if w.startswith("arquebusier"):
        return "arquebusier"
    found = items.item_by_code(w)
    if found is not None:
        return found
    for tail, singular in (("men", "man"), ("ies", "y"), ("ves", "f")):
        if w.endswith(tail):
            found = items.item_by_code(w[: -len(tail)] + singular)
            if found is not None:
                return found
    return None


def resolve_item_or_error(word: str) -> str:
    found = resolve_item(word)
    if found is not None:
        return found
    code = word.lower().replace(" ", "")[:8]
    # First the items whose whole name holds the word ("cavalry": heavycav or lightcav; "arms": smallarm), then
    # the codes spelled nearly alike.
    stem = word.lower().replace(" ", "").rstrip("s").removesuffix("e")  # potatoes -> potato
    near = [items.code_of(n) for n in items.ALL_ITEMS if len(stem) >= 3 and stem in n.replace(" ", "")][:3]
    near += [c for c in difflib.get_close_matches(code, list(items.BY_CODE), n=3, cutoff=0.6) if c not in near]
    near = near[:4]
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    raise OrderError(f'no item "{word}"{hint} (an item is its name without blanks cut to 8 letters; arquebusiers '
                  f"are qqq; the code sheet lists them all)")


# --------------------------------------------------------------------------------------------- code, words
def format_code(kind: str, args: dict[str, Any]) -> str:
    """The canonical code of an order: what the player would write (item codes lower case)."""
    a = args
    if kind in war.WAR_KINDS:
        return war.format_code(kind, a)
    if kind in church.CHURCH_KINDS:
        return church.format_code(kind, a)
    if kind == "transfer":
        return f"T{a['to']}{items.code_of(a['item'])}{a['qty']}"
    if kind == "sell":
        return f"S{a['rank']}{a['cls'][:3]}{items.code_of(a['item'])}{a['qty']}"
    if kind == "buy":
        return f"B{items.code_of(a['item'])}{a['qty']}{'Y' if a['surcharge'] else ''}"
    if kind == "instruct":
        return f"I{a['trainee']}{_LETTER_OF_SKILL[a['skill']]}"
    if kind in ("build_road", "lengthen_road"):
        return f"P{'R' if kind == 'build_road' else 'L'}{church.loc(a['to'])}"
    if kind == "fortify":
        return {"fas": "PFS", "far": "PFR"}.get(a["measure"], f"PFT{a.get('tower', 1)}")
    if kind in ("fabricate", "colonize"):
        return f"{'F' if kind == 'fabricate' else 'C'}{items.code_of(a['item'])}{a['qty']}"
    if kind == "work":
        return f"W{_WORK_LETTERS[a['work']]}{a['target']}"
    if kind in ("alms", "charity"):
        return f"H{'A' if kind == 'alms' else 'C'}{a['ducats']}"
    if kind == "indulgence":
        return f"HI{a['beneficiary']}"
    if kind == "sermon":
        return "UP" if a["target"] == "populace" else f"UT{a['target']}"
    if kind in ("appoint_tax_collector", "appoint_tithe_collector"):
        return f"O{'T' if kind == 'appoint_tax_collector' else 'B'}{a['appointee']}{church.loc(a['location'])}"
    if kind == "appoint_magistrate":
        return f"OM{a['appointee']}"
    if kind == "magistrate_selection":
        return f"OS{a['method']}"
    if kind == "elevate":
        return f"OE{a['target']}{a['rank'].replace(' ', '')}" + (f"/{church.loc(a['place'])}" if a.get("place") else "")
    if kind == "tariff":
        return f"R{'I' if a['which'] == 'import' else 'E'}{a['change']:+d}"
    if kind == "access":
        return f"{'A' if a['allow'] else 'D'}{_ACCESS_LETTERS[a['what']]}{church.loc(a['target_family'])}"
    if kind == "external_market":
        return "XO" if a["open"] else "XC"
    if kind == "vote":
        return f"V{a['candidate']}"
    if kind == "vote_ruler":
        return f"VR{a['candidate']}"
    if kind == "vote_grandmaster":
        return f"VG{a['candidate']}" + (f"/{church.loc(a['order'])}" if a.get("order") else "")
    if kind == "accept_grandmastership":
        return "OGA" + (f"/{church.loc(a['order'])}" if a.get("order") else "")
    if kind == "found_order":
        return f"OGF{church.loc(a['order'])}/{church.loc(a['seat'])}"
    if kind == "order_office":
        return f"OG{'T' if a['office'] == 'tenant' else 'V'}{church.loc(a['order'])}/{church.loc(a['location'])}"
    if kind == "guild":
        return f"G{_STEP_LETTERS[a['step']]}{a['candidate']}"
    if kind == "permit_boarding":
        return f"L{a['passenger']}"
    if kind == "recruit_crew":
        return f"N{a['qty']}"
    if kind == "move":
        return _move_code(a)
    if kind == "ask_address":
        return f"?A{church.loc(a['target_family'])}"
    if kind == "convert":
        return f"HR{a['religion']}"
    if kind == "name_successor":
        return f"OH{a['member']}"
    if kind in ("ask_depth", "ask_coordinates"):
        return f"?{'D' if kind == 'ask_depth' else 'C'}{church.loc(a['location'])}"
    if kind == "execute_day":
        return f"!DAY{a['day']}"
    if kind == "for_turn":
        return f"!{_MONTH_CODES[a['month'] - 1]}{a['year']}"
    fixed = {"deepen_harbor": "PE#", "pilgrimage": "HP", "venerate": "HV", "resign_magistracy": "OR",
             "hold_court": "OC", "collect_taxes": "OX", "collect_tithe": "OY", "abandon": "AX", "stay_outside": "MO",
             "claim_cavalry": "OGC"}
    return fixed[kind]


def _move_code(a: dict[str, Any]) -> str:
    if a["mode"] == "inside":
        return "MI"
    if a["mode"] == "disembark":
        return "MD"
    head = f"M{_MODE_LETTERS[a['mode']]}"
    if a.get("lat") is not None:
        return f"{head}{a['lat']:+06.2f}{a['lon']:+07.2f}"
    return head + church.loc(a["to"]) + "".join(f"/{church.loc(v)}" for v in a.get("via") or ())


def summary(kind: str, args: dict[str, Any]) -> str:
    """The order in words, for the ack and STATUS."""
    a = args
    if kind in war.WAR_KINDS:
        return war.summary(kind, a)
    if kind in church.CHURCH_KINDS:
        return church.summary(kind, a)
    if kind == "transfer":
        to = "the locals" if a["to"] == "9999" else a["to"]
        return f"transfer {a['qty']} {a['item']} to {to}"
    if kind == "sell":
        return f"sell {a['qty']} {a['item']} as {a['cls']}, rank {a['rank']}"
    if kind == "buy":
        return f"buy {a['qty']} {a['item']}" + (" paying the surcharge" if a["surcharge"] else "")
    if kind == "instruct":
        return f"instruct {a['trainee']} in {a['skill']}"
    if kind == "fortify":
        return {"fas": "fortify: raise the assault strength (FAS)",
                "far": "fortify: raise the resistance to artillery (FAR)"}.get(a["measure"],
                                                                                f"fortify tower {a.get('tower', 1)}")
    if kind == "work":
        work = a["work"].replace("_", " ").replace("negative ", "negative work of ")
        work = work if work.startswith("negative") else f"work of {work}"
        role = "against" if a["work"].startswith("negative") else "sponsored by"
        return f"produce a {work} {role} {a['target']}"
    if kind == "sermon":
        return "preach to the populace" if a["target"] == "populace" else f"preach to the troops of {a['target']}"
    if kind == "tariff":
        return f"change the {a['which']} tariff by {a['change']:+d}"
    if kind == "access":
        what = "the use of the closed external market" if a["what"] == "market" else a["what"]
        return f"{'allow' if a['allow'] else 'deny'} {what} to {a['target_family']}"
    if kind == "external_market":
        return f"{'open' if a['open'] else 'close'} the external market"
    if kind == "guild":
        return f"make {a['candidate']} a guild {a['step']}"
    if kind == "elevate":
        return f"elevate {a['target']} to {a['rank']}" + (f" (title named for {a['place']})" if a.get("place") else "")
    if kind == "vote_grandmaster":
        return f"vote for {a['candidate']} as grandmaster" + (f" of {a['order']}" if a.get("order") else "")
    if kind == "accept_grandmastership":
        return "accept the grandmastership" + (f" of {a['order']}" if a.get("order") else "")
    if kind == "move":
        return _move_summary(a)
    if kind == "for_turn":
        return f"these orders are for the {MONTHS[a['month'] - 1]} {a['year']} turn"
    words = {
        "deepen_harbor": "deepen the harbor", "build_road": "build a road to {to}",
        "lengthen_road": "lengthen the road to {to}", "fabricate": "fabricate {qty} {item}",
        "pilgrimage": "go on pilgrimage", "venerate": "venerate relics or icons",
        "alms": "give {ducats} ducats in alms", "charity": "give {ducats} ducats to charity",
        "indulgence": "grant an indulgence to {beneficiary}",
        "appoint_tax_collector": "appoint {appointee} tax collector at {location}",
        "appoint_tithe_collector": "appoint {appointee} tithe collector at {location}",
        "appoint_magistrate": "appoint {appointee} magistrate", "resign_magistracy": "resign the magistracy",
        "hold_court": "hold court", "collect_taxes": "collect taxes", "collect_tithe": "collect the tithe",
        "magistrate_selection": "magistrates to be selected by {method_words}", "vote": "vote for {candidate}",
        "vote_ruler": "vote for {candidate} as ruler", "claim_cavalry": "claim the order's free heavy cavalry",
        "found_order": "create the military order of {order} with its seat at {seat}",
        "order_office": "transfer the {office_words} of {location} to the grandmaster of {order}",
        "colonize": "colonize with {qty} {item}", "permit_boarding": "permit {passenger} to board",
        "recruit_crew": "recruit {qty} crew",
        "abandon": "abandon excess cargo including ships", "stay_outside": "stay outside the walls after moving",
        "ask_address": "ask the address of {target_family}'s player",
        "name_successor": "name {member} to succeed to his hereditary positions",
        "convert": "change the religion of the family (and of all your families) to {religion}",
        "ask_depth": "ask the depth of {location}", "ask_coordinates": "ask the coordinates of {location}",
        "execute_day": "execute this family's orders on day {day}",
    }
    office_words = {"tenant": "tenancy", "sovereign": "sovereignty"}.get(a.get("office", ""), "")
    return words[kind].format(**a, method_words=_METHODS.get(a.get("method", ""), ""), office_words=office_words)


def _move_summary(a: dict[str, Any]) -> str:
    if a["mode"] == "inside":
        return "move inside"
    if a["mode"] == "disembark":
        return "disembark"
    by = {"land": "by land", "water": "by water", "ferry": "by land and ferry", "road": "by road"}[a["mode"]]
    where = f"{a['lat']:+.2f} {a['lon']:+.2f}" if a.get("lat") is not None else a["to"]
    via = f" via {', '.join(a['via'])}" if a.get("via") else ""
    return f"move {by} to {where}{via}"
