"""Orders in plain words ("transfer 500 grain to .0102"): the `phrase` rule of grammar/renaissance.lark, turned into
the same kind and raw args a code gives. codes.py then checks and normalizes both alike (items, quantities,
classes), so a phrase and its code cannot drift apart.

One phrase per line, from its verb to the end of the line. Every kind has a form; the code alone gives a sale its rank.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

from maild.parsing import OrderError

from . import church_codes as church
from .calendar import MONTHS
from .war import orders as war

# A line (or the rest of a line) whose next word is one of these is read as plain words. Checked before the word
# is tried as a code: "deepen" and "disembark" would otherwise read as the access codes DE and DI.
VERBS = frozenset({
    "transfer", "give", "send", "sell", "buy", "train", "instruct", "teach", "move", "go", "travel", "sail",
    "march", "ride", "disembark", "deepen", "hold", "collect", "make", "pilgrimage", "negative", "work", "alms",
    "charity", "abandon", "venerate", "resign", "vote", "fabricate", "build", "lengthen", "ask", "depth",
    "coordinates", "co-ordinates", "address",
    # "deny", "preach" and "plant" would otherwise read as DE (deny egress to family NY), PR and PL (roads to
    # "each" and "ant").
    "fortify", "improve", "raise", "strengthen", "grant", "preach", "sermon", "appoint", "magistrates",
    "magistrate", "select", "choose", "lower", "change", "deny", "allow", "accept", "approve", "admit", "colonize",
    "colonise", "settle", "plant", "permit", "let", "recruit", "hire", "execute", "orders", "these", "open",
    "close", "stay", "elevate", "convert", "name", "designate", "claim", "create", "found",
    # War (war/orders.py, VERBS). "destroy" would otherwise read as DE (deny egress to a family "STROY"), as "deny"
    # would; none of the others is a code.
    *war.VERBS,
    *church.VERBS,
})

# What each verb looks like when written right, for the diagnostic of a phrase that did not parse.
EXAMPLES: dict[str, str] = {
    "transfer": "transfer 500 grain to .0102", "give": "give 500 grain to .0102 or give 1000 ducats in alms",
    "send": "send 500 grain to .0102", "sell": "sell 200 grain (or: sell 200 sugar as spices)",
    "buy": "buy 100 wool (or: buy 100 wool paying the surcharge)", "train": "train .0102 in merchantry",
    "instruct": "instruct .0102 in merchantry", "teach": "teach .0102 merchantry",
    "move": "move to Siena by land", "go": "go to Siena by land", "travel": "travel to Siena by road",
    "sail": "sail to Genoa (or: sail to +41.00 +012.00)", "march": "march to Siena", "ride": "ride to Siena",
    "disembark": "disembark", "deepen": "deepen harbor", "hold": "hold court", "collect": "collect taxes",
    "make": "make a pilgrimage, make a work of art for .0101 or make 20 bows", "pilgrimage": "pilgrimage",
    "negative": "negative work of art against .0203", "work": "work of letters for .0101",
    "alms": "alms 1000", "charity": "charity 5000", "abandon": "abandon excess cargo including ships",
    "venerate": "venerate relics", "resign": "resign magistracy", "vote": "vote for .0102",
    "fabricate": "fabricate 20 bows", "build": "build road to Siena (or: build 2 galleys)",
    "lengthen": "lengthen road to Siena", "ask": "ask address of BORGIA", "depth": "depth of Venice",
    "coordinates": "coordinates of Venice", "co-ordinates": "co-ordinates of Venice", "address": "address of BORGIA",
    "fortify": "fortify FAS, fortify FAR or fortify tower 2", "improve": "improve the FAS",
    "raise": "raise the import tariff by 3 (or: raise the FAS)", "strengthen": "strengthen tower 2",
    "grant": "grant an indulgence to .0102 (or: grant ingress to BORGIA, grant the external market to BORGIA)",
    "open": "open the external market", "close": "close the external market", "stay": "stay outside the walls",
    "preach": "preach to the populace (or: preach to the troops of .0102)", "sermon": "sermon to the populace",
    "appoint": "appoint .0102 tax collector at Pisa, appoint .0102 tithe collector at Pisa or appoint .0102 "
               "magistrate",
    "magistrates": "magistrates by election (or: magistrates appointed by the bishop)",
    "magistrate": "magistrates by election (or: magistrates appointed by the bishop)",
    "select": "select magistrates by election", "choose": "choose magistrates by election",
    "lower": "lower the export tariff by 2",
    "change": "change the import tariff by +3 (or: change religion to sunni)", "convert": "convert to sunni",
    "name": "name .0102 my successor", "designate": "designate .0102 as successor",
    "deny": "deny ingress to BORGIA (or: deny egress to BORGIA, deny the external market to BORGIA)",
    "allow": "allow ingress to BORGIA (or: allow .0102 to board)",
    "accept": "accept .0102 as apprentice", "approve": "approve .0102 as journeyman",
    "admit": "admit .0102 as master", "colonize": "colonize with 50 crew", "colonise": "colonise with 50 crew",
    "settle": "settle a colony with 50 crew", "plant": "plant 20 slaves as colonists",
    "permit": "permit .0102 to board", "let": "let .0102 aboard", "recruit": "recruit 50 crew",
    "hire": "hire 50 crew", "execute": "execute on day 15", "orders": "orders for May 1493",
    "these": "these orders are for May 1493",
    "elevate": "elevate .0102 to duke (or: elevate .0102 to duke of Bari, elevate .0301 to emir)",
    "claim": "claim the free heavy cavalry", "create": "create the military order of Calatrava at Toledo",
    "found": "found the order of Calatrava at Toledo",
    **war.VERBS,
    **church.VERBS,
}
# Verbs of peace and war: their examples name both.
EXAMPLES.update({
    "give": "give 500 grain to .0102, give 1000 ducats in alms, give 100 wine to the troops or give tower 1 to "
            "BORGIA",
    "transfer": "transfer 500 grain to .0102, transfer the tenancy of Pisa to .0102 or transfer tower 1 to BORGIA",
    "raise": "raise the import tariff by 3 (or: raise the FAS, raise a levy, raise the siege)",
    "recruit": "recruit 50 crew, recruit 20 pikemen or recruit 100 garrison troops",
    "hire": "hire 50 crew or hire 20 pikemen", "stay": "stay outside the walls (or: stay out of the towers)",
    # The church's (church_codes.py).
    "resign": "resign magistracy (or: resign the bishopric of Pisa, resign the hat, resign the papacy)",
    "vote": "vote for .0102 (or: vote for .0102 as Pope, vote for .0102 at Kiev)",
    "grant": "grant an indulgence to .0102 (or: grant a cardinal's hat to .0102, grant ingress to BORGIA, grant the "
             "external market to BORGIA)",
    "appoint": "appoint .0102 tax collector at Pisa, appoint .0102 tithe collector at Pisa, appoint .0102 magistrate "
               "or appoint .0102 bishop of Pisa",
    "accept": "accept .0102 as apprentice (or: accept the archbishopric of Pisa, accept the hat, accept the papal "
              "throne)",
})

_METHOD_LETTERS = {"sovereign": "s", "feudatory": "f", "tenant": "t", "bishop": "b", "archbishop": "a"}
_STEPS = {"W_APPRENTICE": "apprentice", "W_JOURNEYMAN": "journeyman", "W_MASTER": "master"}
TARIFF_IS_A_CHANGE = ("a tariff order states the change, not the new rate (rules, MAGISTRATES: raised or lowered by "
                      "up to five percentage points): write e.g. raise the import tariff by 3 or lower the export "
                      "tariff by 2")
_MODES = {"land": "land", "water": "water", "sea": "water", "ship": "water", "ferry": "ferry", "road": "road"}
_WORKS = {("art", False): "art", ("art", True): "negative_art", ("letters", False): "letters",
          ("letters", True): "negative_letters", ("architecture", False): "architecture"}


def build_phrase(tree: Tree) -> tuple[str, dict[str, Any], str]:
    """(kind, raw args, note) of a parsed phrase. Raw: the item and class as written, numbers as written;
    codes.finish() checks and normalizes them. The note says what the player left for us to assume."""
    t = _Tokens(tree)
    rule = tree.data
    if rule == "p_give":
        if t.has("W_ALMS") or t.has("W_CHARITY"):
            kind = "alms" if t.has("W_ALMS") else "charity"
            return kind, {"ducats": t.number(), "_ducats_item": t.words(0)}, ""
        to = "9999" if t.has("W_LOCALS") else t.persona()
        return "transfer", {"to": to, "item": t.words(0), "qty": t.number()}, ""
    if rule == "p_sell":
        cls = t.words(1) if t.count_words() > 1 else None
        note = "rank 0 assumed: plain words do not give the rank; the code does"
        return "sell", {"rank": 0, "cls": cls, "item": t.words(0), "qty": t.number()}, note
    if rule == "p_buy":
        return "buy", {"item": t.words(0), "qty": t.number(), "surcharge": t.has("W_SURCHARGE")}, ""
    if rule == "p_train":
        return "instruct", {"trainee": t.persona(), "skill": t.first("WORD")}, ""
    if rule == "p_move":
        return "move", _move(tree, t), ""
    if rule == "p_disembark":
        return "move", {"mode": "disembark", "to": None, "lat": None, "lon": None, "via": []}, ""
    if rule == "p_deepen":
        return "deepen_harbor", {}, ""
    if rule == "p_court":
        return "hold_court", {}, ""
    if rule == "p_collect":
        return ("collect_taxes" if t.has("W_TAXES") else "collect_tithe"), {}, ""
    if rule == "p_pilgrimage":
        return "pilgrimage", {}, ""
    if rule == "p_work":
        w = _Tokens(next(c for c in tree.children if isinstance(c, Tree) and c.data == "work_of"))
        field = "art" if w.has("W_ART") else "letters" if w.has("W_LETTERS") else "architecture"
        negative = w.has("W_NEGATIVE")
        if (field, negative) not in _WORKS:
            raise OrderError("there is no negative work of architecture: write a work of art or of letters")
        return "work", {"work": _WORKS[(field, negative)], "target": w.persona()}, ""
    if rule == "p_alms":
        return ("alms" if t.has("W_ALMS") else "charity"), {"ducats": t.number()}, ""
    if rule == "p_abandon":
        return "abandon", {}, ""
    if rule == "p_outside":
        return "stay_outside", {}, ""
    if rule == "p_venerate":
        return "venerate", {}, ""
    if rule == "p_resign":
        if t.has("W_MAGISTRACY"):
            return "resign_magistracy", {}, ""
        return "resign_office", {"office": church.church_office(t)}, ""
    if rule == "p_vote":
        if t.has("W_RULER"):
            return "vote_ruler", {"candidate": t.persona()}, ""
        if t.has("W_GRANDMASTER"):
            order = t.words(0) if t.count_words() else None
            return "vote_grandmaster", {"candidate": t.persona(), "order": order}, ""
        return church.vote(t) or ("vote", {"candidate": t.persona()}, "")
    if rule == "p_make":
        return "fabricate", {"item": t.words(0), "qty": t.number()}, ""
    if rule == "p_road":
        to = _dest(next(c for c in tree.children if isinstance(c, Tree) and c.data == "dest"))
        return ("lengthen_road" if t.has("W_LENGTHEN") else "build_road"), {"to": to[0]}, ""
    if rule == "p_ask":
        what = t.words(0)
        if t.has("W_ADDRESS"):
            return "ask_address", {"target_family": what.upper()}, ""
        return ("ask_depth" if t.has("W_DEPTH") else "ask_coordinates"), {"location": what}, ""
    if rule in _MORE:
        return _MORE[rule](tree, t)
    if rule in war.PHRASES:
        return war.PHRASES[rule](tree, t)
    if rule in church.PHRASES:
        return church.PHRASES[rule](tree, t)
    raise AssertionError(f"phrase rule {rule} has no builder")


def _fortify(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    if t.has("W_FAS") or t.has("W_ASSAULT"):
        return "fortify", {"measure": "fas", "tower": 1}, ""
    if t.has("W_FAR") or t.has("W_RESISTANCE"):
        return "fortify", {"measure": "far", "tower": 1}, ""
    tower = int(t.number()) if t.has("NUMBER") else 1
    if tower > 9:
        raise OrderError("the code numbers towers 1 to 9 (PFT1 to PFT9): fortify tower 2")
    return "fortify", {"measure": "tower", "tower": tower}, ""


def _indulgence(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "indulgence", {"beneficiary": t.persona()}, ""


def _sermon(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "sermon", {"target": t.persona() if t.has("W_TROOPS") else "populace"}, ""


def _appoint(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    if t.has("W_MAGISTRATE"):
        return "appoint_magistrate", {"appointee": t.persona()}, ""
    if t.has("W_METHOD"):
        return church.appoint_prelate(t)
    kind = "appoint_tax_collector" if t.has("W_TAXES") else "appoint_tithe_collector"
    return kind, {"appointee": t.persona(), "location": t.words(0)}, ""


def _selection(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    method = "e" if t.has("W_ELECTION") else None
    if t.has("W_METHOD"):
        method = _METHOD_LETTERS[t.first("W_METHOD").lower().removesuffix("'s")]
    if t.has("W_ELECTED"):
        if method not in (None, "e"):
            raise OrderError("magistrates are either elected or appointed: magistrates by election, or "
                             "magistrates appointed by the bishop")
        method = "e"
    if t.has("W_APPOINTED") and method == "e":
        raise OrderError("magistrates are either elected or appointed: magistrates appointed by the bishop")
    if method is None:
        raise OrderError("say how magistrates are selected: magistrates by election, or magistrates appointed by "
                         "the sovereign, the feudatory, the tenant, the bishop or the archbishop")
    return "magistrate_selection", {"method": method}, ""


def _tariff(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    if t.has("W_TO"):
        raise OrderError(TARIFF_IS_A_CHANGE)
    which = "import" if t.has("W_IMPORT") else "export"
    sign = t.first("SIGN") if t.has("SIGN") else None
    way = "+" if t.has("W_RAISE") else "-" if t.has("W_LOWER") else sign
    if way is None:
        raise OrderError(f"say which way the {which} tariff changes: raise the {which} tariff by 3, lower the "
                         f"{which} tariff by 3 or change the {which} tariff by -3")
    if sign is not None and sign != way:
        raise OrderError(f"{'raise' if way == '+' else 'lower'} the {which} tariff by a number of points without "
                         f"a sign, e.g. {'raise' if way == '+' else 'lower'} the {which} tariff by 3")
    return "tariff", {"which": which, "change": f"{way}{t.number()}"}, ""


def _access(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    what = "ingress" if t.has("W_INGRESS") else "egress" if t.has("W_EGRESS") else "market"
    return "access", {"what": what, "allow": not t.has("W_DENY"), "target_family": t.words(0)}, ""


def _market(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "external_market", {"open": t.has("W_OPEN")}, ""


def _guild(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    step = next(v for k, v in _STEPS.items() if t.has(k))
    return "guild", {"step": step, "candidate": t.persona()}, ""


def _colonize(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "colonize", {"item": t.words(0), "qty": t.number()}, ""


def _board(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "permit_boarding", {"passenger": t.persona()}, ""


def _recruit(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "recruit_crew", {"qty": t.number()}, ""


def _convert(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "convert", {"religion": t.words(0)}, ""


def _successor(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "name_successor", {"member": t.persona()}, ""


def _day(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "execute_day", {"day": t.number()}, ""


def _turn(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    month = t.first("W_MONTH")[:3].lower()
    return "for_turn", {"month": [m[:3].lower() for m in MONTHS].index(month) + 1, "year": t.number()}, ""


def _elevate(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    place = t.words(1) if t.count_words() > 1 else None
    return "elevate", {"target": t.persona(), "rank": t.words(0), "place": place}, ""


def _accept_gm(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "accept_grandmastership", {"order": t.words(0) if t.count_words() else None}, ""


def _claim(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "claim_cavalry", {}, ""


def _found(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    return "found_order", {"order": t.words(0), "seat": t.words(1)}, ""


def _order_office(tree: Tree, t: _Tokens) -> tuple[str, dict[str, Any], str]:
    what = _Tokens(next(c for c in tree.children if isinstance(c, Tree) and c.data == "office_what"))
    if not (what.has("W_TENANCY") or what.has("W_SOVEREIGNTY")):
        raise OrderError("a military order receives a location's tenancy or sovereignty: transfer the tenancy of "
                         "Toledo to the order of Calatrava")
    office = "tenant" if what.has("W_TENANCY") else "sovereign"
    return "order_office", {"office": office, "order": t.words(1), "location": t.words(0)}, ""


_MORE = {"p_fortify": _fortify, "p_indulgence": _indulgence, "p_sermon": _sermon, "p_appoint": _appoint,
         "p_selection": _selection, "p_tariff": _tariff, "p_access": _access, "p_guild": _guild,
         "p_colonize": _colonize, "p_board": _board, "p_recruit": _recruit, "p_day": _day, "p_turn": _turn,
         "p_market": _market, "p_elevate": _elevate, "p_convert": _convert, "p_successor": _successor,
         "p_accept_gm": _accept_gm, "p_claim": _claim, "p_found": _found, "p_order_office": _order_office}


def _move(tree: Tree, t: _Tokens) -> dict[str, Any]:
    none: dict[str, Any] = {"to": None, "lat": None, "lon": None, "via": []}
    if t.has("W_INSIDE"):
        return {"mode": "inside", **none}
    if t.has("W_DISEMBARK"):
        return {"mode": "disembark", **none}
    modes = [_MODES[str(m.children[0]).lower()] for m in tree.children if isinstance(m, Tree) and m.data == "mode"]
    if len(set(modes)) > 1:
        raise OrderError("a persona may move by land or by water in one turn, not both (rules, TRAVEL)")
    mode = modes[0] if modes else ("water" if str(tree.children[0]).lower() == "sail" else "land")
    dests = [_dest(d) for d in tree.children if isinstance(d, Tree) and d.data == "dest"]
    (to, lat, lon), via = dests[0], [d[0] for d in dests[1:]]
    if lat is not None and mode != "water":
        raise OrderError("open water is reached by water only: move by water to +41.00 +012.00")
    if None in via:
        raise OrderError("waypoints are locations, not coordinates")
    return {"mode": mode, "to": to, "lat": lat, "lon": lon, "via": via}


def _dest(tree: Tree) -> tuple[str | None, float | None, float | None]:
    first = tree.children[0]
    if isinstance(first, Token) and first.type == "COORD":
        return None, float(str(first)), float(str(tree.children[1]))
    assert isinstance(first, Tree)
    return " ".join(str(w) for w in first.children), None, None


class _Tokens:
    """The tokens of one phrase, by terminal name."""

    def __init__(self, tree: Tree) -> None:
        # Keywords also from the phrase's small groups (fortification, tariff_of...): never WORDs or PERSONA.
        groups = [c for c in tree.children if isinstance(c, Tree) and c.data not in ("persona", "words", "dest")]
        self.tokens = [c for c in tree.children if isinstance(c, Token)]
        self.tokens += [tok for g in groups for tok in g.scan_values(lambda v: isinstance(v, Token))]
        self.trees = [c for c in tree.children if isinstance(c, Tree)]

    def has(self, terminal: str) -> bool:
        return any(tok.type == terminal for tok in self.tokens)

    def first(self, terminal: str) -> str:
        return next(str(tok) for tok in self.tokens if tok.type == terminal)

    def number(self) -> str:
        return self.first("NUMBER").replace(",", "")

    def persona(self) -> str:
        p = next(c for c in self.trees if c.data == "persona")
        return str(p.children[0]).lstrip(".")

    def _words(self) -> list[Tree]:
        return [c for c in self.trees if c.data == "words"]

    def count_words(self) -> int:
        return len(self._words())

    def words(self, index: int) -> str:
        return " ".join(str(w) for w in self._words()[index].children)
