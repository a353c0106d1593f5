"""The orders a Galilei player mails: parsed line by line (grammar/galilei.lark), syntax only.

Whether a name is a capital, a card or a player, and whether an order fits the phase and the player's place,
is checked against the state (`check`). A battle's, war's or mill's details are read clause by clause, in any
order, separated by commas, "with" or "and"; a clause not understood is named in the diagnostic.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token, Tree

from maild.parsing import OrderError, SyntaxHelp, parse_orders
from maild.ruleset import Diagnostic, Order, OrderKind, ParsedOrders

GRAMMAR = "galilei"

ORDER_KINDS = (
    OrderKind("bid", "bid N for cards, M for capitals", "the opening double bid (3.2), turn 1",
              "bid 12 for cards, 8 for capitals"),
    OrderKind("prefer", "prefer cards: X, Y; capitals: A, B", "your preference lists for the opening draft",
              "prefer cards: Papal Decree, Stone-1; capitals: Venice, Genoa"),
    OrderKind("turn", "turn bid N", "your sealed turn-order bid", "turn bid 5"),
    OrderKind("number", "number 1-6 [for PLAYER]", "your secret number at positions 1 to 4 (3.3); for a "
              "chaosed PLAYER you act for", "number 4"),
    OrderKind("shortage", "shortage | surplus [for PLAYER]", "your decision at positions 5 and 6 (3.3); for a "
              "chaosed PLAYER you act for (or his capital)", "surplus"),
    OrderKind("battle", "battle: attack TARGET [at position P] [with military advantage, proselytism, "
              "cathedral] [, N tokens] [, spend X | spend N positions]",
              "a battle for maild to roll (3.4-3.6, 3.8, 3.11)",
              "battle: attack Paris at position 2 with military advantage, 4 tokens, spend 1 position"),
    OrderKind("war", "war against PLAYER[, my modifier +M][, his modifier +M][, cities V V][, his cities V V]",
              "a war for maild to roll (3.7, 3.12; no luck may be spent on it)",
              "war against Genoa, my modifier +2, cities 3 2 1"),
    OrderKind("mill", "mill [against PLAYER], need N [, spend N steps | spend 0.1667]",
              "a Wind/Watermill roll after a city taken (3.9)", "mill against Paris, need 3"),
    OrderKind("card", "card NAME[, NAME...]", "the card you draw (a preference list, first free taken)",
              "card Papal Decree"),
    OrderKind("discard", "discard NAME", "discard a card you hold (rule 2)", "discard Silk-1"),
    OrderKind("pass", "pass", "nothing to declare in this phase (it closes sooner)", "pass"),
)

SYNTAX = SyntaxHelp(
    words={"BID": "'bid'", "FOR": "'for'", "CATEGORY": "'cards' or 'capitals'", "NUMBER": "a number",
           "NAMES": "names separated by commas", "REST": "the order's details", "COLON": "':'",
           "SEMI": "';'", "SEP": "','", "BATTLE": "'battle'", "WAR": "'war'", "MILL": "'mill'",
           "CARD": "'card'", "DISCARD": "'discard'", "TURN": "'turn'", "PREFER": "'prefer'",
           "NUMBER_WORD": "'number'", "SHORTAGE": "'shortage'", "SURPLUS": "'surplus'", "ORDER": "'order'",
           "NOTHING": "'pass'"},
    optional=frozenset({"COLON", "SEP", "FOR", "ORDER", "SEMI"}),
    examples={"bid": "bid 12 for cards, 8 for capitals", "bids": "bid 12 for cards, 8 for capitals",
              "prefer": "prefer cards: Master Art; capitals: Venice, Genoa", "turn": "turn bid 5",
              "number": "number 4", "battle": "battle: attack Paris at position 2, 4 tokens",
              "attack": "attack Paris at position 2, 4 tokens", "war": "war against Genoa, cities 3 2 1",
              "card": "card Papal Decree", "discard": "discard Silk-1", "mill": "mill against Paris, need 3",
              "battle:": "battle: attack Paris at position 2"},
)


def parse(text: str) -> ParsedOrders:
    """Every non-blank line of `text` as an Order or a Diagnostic naming the line and what was expected."""
    return parse_orders(GRAMMAR, text, build, SYNTAX)


def _tokens(tree: Tree, kind: str) -> list[Token]:
    return [t for t in tree.scan_values(lambda v: isinstance(v, Token) and v.type == kind)]


def _whole(token: Token, what: str, low: int = 0, high: int | None = None) -> int:
    text = str(token)
    if not re.fullmatch(r"[+-]?\d+", text):
        raise OrderError(f"{what} must be a whole number, found {text}")
    n = int(text)
    if n < low or (high is not None and n > high):
        raise OrderError(f"{what} must be from {low} to {high}, found {n}" if high is not None
                         else f"{what} must be {low} or more, found {n}")
    return n


def _names(text: str) -> list[str]:
    return [" ".join(n.split()) for n in re.split(r",|\band\b", text.strip().rstrip(".")) if n.strip()]


def build(tree: Tree, line: int, text: str) -> Order:
    """The Order of one parsed line; OrderError for what the grammar lets through on purpose."""
    node: Tree = tree.children[0]
    kind = node.data
    if kind == "bid":
        got: dict[str, int] = {}
        for part in node.find_data("bid_part"):
            cat = "cards" if str(_tokens(part, "CATEGORY")[0]).lower().startswith("card") else "capitals"
            if cat in got:
                raise OrderError(f"two bids for {cat}: give one for cards and one for capitals")
            got[cat] = _whole(_tokens(part, "NUMBER")[0], f"the bid for {cat}")
        missing = {"cards", "capitals"} - set(got)
        if missing:
            raise OrderError(f"the opening bid has two amounts (3.2); the one for {missing.pop()} is missing")
        return Order(line, text, "bid", got, f"bid {got['cards']} for cards, {got['capitals']} for capitals")
    if kind == "prefer":
        lists: dict[str, list[str]] = {}
        for pl in node.find_data("plist"):
            cat = "cards" if str(_tokens(pl, "CATEGORY")[0]).lower().startswith("card") else "capitals"
            lists[cat] = _names(str(_tokens(pl, "NAMES")[0]))
        summary = "; ".join(f"prefer {c}: {', '.join(v)}" for c, v in lists.items())
        return Order(line, text, "prefer", lists, summary)
    if kind == "turn_bid":
        n = _whole(_tokens(node, "NUMBER")[0], "the turn-order bid")
        return Order(line, text, "turn", {"amount": n}, f"turn-order bid {n}")
    if kind in ("secret", "decide"):
        names = _tokens(node, "NAMES")
        seat_of = " ".join(str(names[0]).split()).rstrip(".") if names else None
        for_words = f" for {seat_of}" if seat_of else ""
        if kind == "secret":
            n = _whole(_tokens(node, "NUMBER")[0], "the secret number", 1, 6)
            return Order(line, text, "number", {"number": n, "for": seat_of}, f"secret number {n}{for_words}")
        choice = str(node.children[0]).lower()
        return Order(line, text, "shortage", {"choice": choice, "for": seat_of}, choice + for_words)
    if kind == "nothing":
        return Order(line, text, "pass", {}, "nothing to declare")
    rest = str(_tokens(node, "REST")[0]) if _tokens(node, "REST") else ""
    if kind == "battle":
        args = battle_details(rest)
        return Order(line, text, "battle", args, describe_battle(args))
    if kind == "war":
        args = war_details(rest)
        return Order(line, text, "war", args, describe_war(args))
    if kind == "mill":
        args = mill_details(rest)
        against = f" against {args['target']}" if args["target"] else ""
        return Order(line, text, "mill", args, f"Wind/Watermill roll{against}, needing {args['need']} or less"
                     + _spend_words(args))
    if kind == "card":
        names = _names(rest)
        return Order(line, text, "card", {"cards": names}, "draw " + " or else ".join(names))
    if kind == "discard":
        name = " ".join(rest.split()).rstrip(".")
        return Order(line, text, "discard", {"card": name}, f"discard {name}")
    raise OrderError(f"unknown order {kind}")  # the grammar has no other


# -- battle, war and mill details -------------------------------------------------------------------------------
# Words and punctuation between a clause and the next; a point or comma between digits is part of a figure
# ("0.3889"), never filler, so what is left over is quoted as the player wrote it.
_FILLER = re.compile(r"\b(?:with|and|at|a|the|my|of|on|using|uses?)\b|;|[,.](?!\d)|(?<!\d)[,.]", re.I)
#: What each order's clauses look like, for the hint on a clause not understood.
_CLAUSES = {
    "battle": "'at position 2', 'with military advantage', 'proselytism', 'cathedral', '4 tokens', "
              "'spend 0.0972' or 'spend 1 position'",
    "war": "'my modifier +2', 'his modifier +1', 'cities 3 2 1' or 'his cities 2'",
    "mill": "'need 3' or 'spend 1 step'",
}
_DECIMAL = r"\d+(?:[.,]\d+)?"


def _take(pattern: str, text: str) -> tuple[re.Match[str] | None, str]:
    m = re.search(pattern, text, re.I)
    if m is None:
        return None, text
    return m, text[:m.start()] + " , " + text[m.end():]


def _leftover(text: str, what: str) -> None:
    left = " ".join(_FILLER.sub(" ", text).split())
    if left:
        raise OrderError(f"in the {what}, '{left}' was not understood (expected e.g. {_CLAUSES[what]})")


_SPEND = (r"\bspend(?:s|ing)?\s+(to\s+(?:position|row)\s+\d+(?:st|nd|rd|th)?|[0-9.,]+\s*%"
          r"|-?\d+(?:[.,]\d+)?\s*(?:positions?|rows?|steps?|levels?)?)")


def _spend(text: str, args: dict[str, Any]) -> str:
    """The luck to spend as written ("0.0972", "1 position", "to position 2", "80.55%"): battles read it
    against the battle's row and tokens (spending.read_spend), the mill as steps of 1/6."""
    m, text = _take(_SPEND, text)
    args["spend"] = " ".join(m.group(1).split()) if m is not None else None
    return text


def _spend_words(args: dict[str, Any]) -> str:
    return f", spending {args['spend']}" if args.get("spend") else ""


def battle_details(rest: str) -> dict[str, Any]:
    """The details of 'battle: attack Paris at position 2 with military advantage, proselytism, 4 tokens,
    spend 0.0972' as args: target, position (None: the attacker's turn-order position), military,
    proselytism, cathedral, tokens (default 1), spend (as written, or None)."""
    text = re.sub(r"^\s*(?:attack(?:s|ing)?|battle)\b\s*(?:against|on)?\s*", "", rest, flags=re.I)
    m = re.match(r"\s*([^,]+?)(?=\s+(?:at|from|with|as|and|spend\w*)\b|,|\s+\d+\s+tokens?\b|$)", text, re.I)
    if m is None or not m.group(1).strip():
        raise OrderError("name whom you attack: 'battle: attack Paris ...' (a capital or a player)")
    args: dict[str, Any] = {"target": " ".join(m.group(1).split())}
    text = _spend(text[m.end():], args)  # first: "spend to position 2" is no position to attack from
    pos, text = _take(r"\b(?:position|pos\.?|row)\s*(\d+)|\bas\s+(\d)(?:st|nd|rd|th)?\b|\b(\d)(?:st|nd|rd|th)\s+"
                      r"(?:position|player)\b", text)
    args["position"] = None
    if pos is not None:
        p = int(next(g for g in pos.groups() if g))
        if not 1 <= p <= 6:
            raise OrderError(f"the position must be from 1 to 6, found {p}")
        args["position"] = p
    for key, pattern in (("military", r"\bmilitary\s+advantages?\b|\bm\.?a\.?\b(?!\w)"),
                         ("proselytism", r"\bproselyt\w*"), ("cathedral", r"\bcathedral\b")):
        found, text = _take(pattern, text)
        args[key] = found is not None
    tok, text = _take(r"\b(\d+)\s+tokens?\b|\btokens?\s*:?\s*(\d+)\b", text)
    args["tokens"] = int(next(g for g in tok.groups() if g)) if tok is not None else 1
    if args["tokens"] < 1:
        raise OrderError("at least 1 token is engaged in a battle")
    _leftover(text, "battle")
    return args


def describe_battle(a: dict[str, Any]) -> str:
    """The battle as understood, in words (the ack and STATUS)."""
    extras = [w for k, w in (("military", "military advantage"), ("proselytism", "Proselytism"),
                             ("cathedral", "Cathedral")) if a.get(k)]
    where = f" at position {a['position']}" if a.get("position") else ""
    return (f"attack {a['target']}{where}" + (f" with {', '.join(extras)}" if extras else "")
            + f", {a['tokens']} token{'s' if a['tokens'] > 1 else ''}" + _spend_words(a))


def war_details(rest: str) -> dict[str, Any]:
    """The details of 'war against Genoa, my modifier +2, cities 3 2 1': opponent, modifier, his_modifier,
    cities (the values of the cities at stake, in the order they would be taken)."""
    text = re.sub(r"^\s*(?:against|on|with)?\s*", "", rest, flags=re.I)
    m = re.match(r"\s*([^,]+?)(?=\s+(?:my|his|her|their|modifier|cities|spend\w*)\b|,|$)", text, re.I)
    if m is None or not m.group(1).strip():
        raise OrderError("name whom you make war on: 'war against Genoa, cities 3 2 1'")
    args: dict[str, Any] = {"opponent": " ".join(m.group(1).split())}
    text = text[m.end():]
    his, text = _take(r"\b(?:his|her|their)\s+modifier\s*:?\s*([+-]?\d+)", text)
    mine, text = _take(r"\b(?:my\s+)?modifier\s*:?\s*([+-]?\d+)", text)
    args["modifier"] = int(mine.group(1)) if mine else 0
    args["his_modifier"] = int(his.group(1)) if his else 0
    theirs, text = _take(r"\b(?:his|her|their)\s+cit(?:y|ies)\s*:?\s*((?:\d+[\s,]*)+)", text)
    cities, text = _take(r"\b(?:my\s+)?cit(?:y|ies)\s*:?\s*((?:\d+[\s,]*)+)", text)
    args["cities"] = [int(v) for v in re.findall(r"\d+", cities.group(1))] if cities else []
    args["his_cities"] = [int(v) for v in re.findall(r"\d+", theirs.group(1))] if theirs else []
    if any(v < 1 for v in args["cities"] + args["his_cities"]):
        raise OrderError("a city's value is 1 or more")
    # Read, not passed over: a spend on a war is understood and refused by rule 3.7 (the ruleset's check).
    text = _spend(text, args)
    if args["spend"] is None:
        del args["spend"]
    _leftover(text, "war")
    return args


def describe_war(a: dict[str, Any]) -> str:
    mods = f", modifier {a['modifier']:+d}" if a["modifier"] else ""
    mods += f", his modifier {a['his_modifier']:+d}" if a["his_modifier"] else ""
    cities = f", cities {' '.join(map(str, a['cities']))}" if a["cities"] else ""
    cities += f", his cities {' '.join(map(str, a['his_cities']))}" if a["his_cities"] else ""
    return f"war against {a['opponent']}{mods}{cities}" + _spend_words(a)


def mill_details(rest: str) -> dict[str, Any]:
    """The details of 'mill against Paris, need 3, spend 1 step': target (the player who lost the city; None:
    the player of your last battle won in this phase), need (the base game's number the die must not exceed,
    0 to 6; 3.9 "roll a dice as usual") and the luck to spend, in steps of 1/6."""
    args: dict[str, Any] = {"target": None}
    m, text = _take(r"^\s*(?:against|on|for|from)\s+([^,]+?)(?=\s+(?:need\w*|target|spend\w*)\b|,|$)", rest)
    if m is not None:
        args["target"] = " ".join(m.group(1).split())
    need, text = _take(r"\b(?:needs?|needing|target|on)\s*:?\s*(\d+)(?:\s+or\s+less)?", text)
    if need is None:
        raise OrderError("say what the die needs (the base game's number): 'mill against Paris, need 3'")
    args["need"] = int(need.group(1))
    if args["need"] > 6:
        raise OrderError(f"the die needs 0 to 6, found {args['need']}")
    text = _spend(text, args)
    _leftover(text, "mill")
    return args


def diagnostic(order: Order, message: str, *, rule: str | None = None, warning: bool = False) -> Diagnostic:
    """A check's diagnostic on the line of `order`; `rule` names the rule that refuses an order understood
    ("3.7"), `warning` makes it a note on an order that stands."""
    return Diagnostic(order.line, order.text, message, warning=warning, rule=rule)
