"""The church's orders (docs/renaissance-codes.md, "The church"): a code's tokens or a phrase's tree to the kind's raw
args, the canonical code, the words of the ack, and what a malformed code should look like. codes.py and
plainwords.py hand every kind of CHURCH_KINDS here, as they hand the war's to war/orders.py.

The rules give the church no codes of their own; these follow the code sheet's letters: O for offices (OI invest,
OK hat, OP appoint a prelate, OA accept, OQ quit), V for votes (VP the Pope, VS a see), H for piety (HX
excommunicate). The handlers are church_offices.py, papal_election.py, church_congress.py and excommunication.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from lark import Tree

from maild.parsing import OrderError

CHURCH_KINDS = frozenset({"invest_archbishop", "grant_hat", "appoint_bishop", "accept_office", "resign_office",
                          "papal_vote", "congress_vote", "excommunicate"})

SHAPE_WORDS: dict[str, str] = {
    "invest_archbishop": "an investiture is OI, the bishop's four-digit number, then the archbishopric's location",
    "grant_hat": "a cardinal's hat is OK then the archbishop's four-digit number",
    "appoint_bishop": "appointing a bishop is OP, his four-digit number, then the see's location",
    "accept_office": "an acceptance is OA then the archbishopric's location, hat or pope",
    "resign_office": "a resignation of a church office is OQ then the see's location, hat or pope",
    "papal_vote": "a vote in the conclave is VP then the candidate's four-digit number",
    "congress_vote": "a vote in an Orthodox or Monophysite congress is VS, the candidate's four-digit number, then "
                     "the see's location",
    "excommunicate": "an excommunication is HX then the four-digit number of the persona excommunicated",
}
PREFIXES: dict[str, str] = {"OI": "invest_archbishop", "OK": "grant_hat", "OP": "appoint_bishop",
                            "OA": "accept_office", "OQ": "resign_office", "VP": "papal_vote", "VS": "congress_vote",
                            "HX": "excommunicate"}
GROUPS: dict[str, tuple[str, ...]] = {
    "O": ("invest_archbishop", "grant_hat", "appoint_bishop", "accept_office", "resign_office"),
    "V": ("papal_vote", "congress_vote"),
    "H": ("excommunicate",),
}
PNUM_AFTER = {"invest_archbishop": 2, "grant_hat": 2, "appoint_bishop": 2, "papal_vote": 2, "congress_vote": 2,
              "excommunicate": 2}

# The words an acceptance or resignation names besides a location.
HAT, POPE = "hat", "pope"
_OFFICE_WORDS = {"hat": HAT, "cardinal": HAT, "cardinalate": HAT, "pope": POPE, "papacy": POPE, "throne": POPE}


def raw_from_code(kind: str, by: dict[str, list[str]]) -> dict[str, Any]:
    """The raw args of a church code, from its tokens by terminal name (codes._raw_from_code's `by`)."""
    pnum = by.get("PNUM", [""])[0]
    loc = by.get("LOC", [""])[0]
    if kind in ("invest_archbishop", "appoint_bishop"):
        return {"appointee": pnum, "location": loc}
    if kind == "grant_hat":
        return {"appointee": pnum}
    if kind in ("accept_office", "resign_office"):
        return {"office": loc}
    if kind == "papal_vote":
        return {"candidate": pnum}
    if kind == "congress_vote":
        return {"candidate": pnum, "location": loc}
    return {"target": pnum}


def finish(kind: str, args: dict[str, Any]) -> None:
    """An acceptance or resignation names hat, pope, or a see (a location, which checks.py looks up)."""
    if kind in ("accept_office", "resign_office"):
        word = str(args["office"]).strip()
        args["office"] = _OFFICE_WORDS.get(word.lower(), word)


def loc(name: str | None) -> str:
    """A location's name as a code writes it: without blanks ("San Marino" -> "SanMarino")."""
    return (name or "").replace(" ", "")


def format_code(kind: str, a: dict[str, Any]) -> str:
    if kind in ("invest_archbishop", "appoint_bishop"):
        return f"O{'I' if kind == 'invest_archbishop' else 'P'}{a['appointee']}{loc(a['location'])}"
    if kind == "grant_hat":
        return f"OK{a['appointee']}"
    if kind in ("accept_office", "resign_office"):
        return f"O{'A' if kind == 'accept_office' else 'Q'}{loc(a['office'])}"
    if kind == "papal_vote":
        return f"VP{a['candidate']}"
    if kind == "congress_vote":
        return f"VS{a['candidate']}{loc(a['location'])}"
    return f"HX{a['target']}"


def _office_words(office: str) -> str:
    return {HAT: "the cardinal's hat", POPE: "the papal throne"}.get(office, f"the see of {office}")


def summary(kind: str, a: dict[str, Any]) -> str:
    if kind == "invest_archbishop":
        return f"invest {a['appointee']} with the archbishopric of {a['location']}"
    if kind == "appoint_bishop":
        return f"appoint {a['appointee']} bishop of {a['location']}"
    if kind == "grant_hat":
        return f"grant a cardinal's hat to {a['appointee']}"
    if kind == "accept_office":
        return f"accept {_office_words(a['office'])}"
    if kind == "resign_office":
        return f"resign {_office_words(a['office'])}"
    if kind == "papal_vote":
        return f"vote for {a['candidate']} as Pope"
    if kind == "congress_vote":
        return f"vote for {a['candidate']} in the congress at {a['location']}"
    return f"excommunicate {a['target']}"


# ---- plain words ---------------------------------------------------------------------------------------------------

class Tokens(Protocol):
    """What plainwords._Tokens offers a builder."""

    def has(self, terminal: str) -> bool: ...

    def first(self, terminal: str) -> str: ...

    def persona(self) -> str: ...

    def count_words(self) -> int: ...

    def words(self, index: int) -> str: ...


Built = tuple[str, dict[str, Any], str]
Builder = Callable[[Tree, Tokens], Built]


def church_office(t: Tokens) -> str:
    """What "the hat", "the papal throne", "the papacy" or "the archbishopric of Pisa" names."""
    if t.has("W_HAT"):
        return HAT
    if t.has("W_THRONE") or t.has("W_PAPACY"):
        return POPE
    return t.words(0)


def appoint_prelate(t: Tokens) -> Built:
    """"appoint .0102 bishop of Pisa" (an archbishop), "appoint .0102 archbishop of Pisa" (the Pope's investiture)."""
    office = t.first("W_METHOD").lower().removesuffix("'s")
    if office not in ("bishop", "archbishop"):
        raise OrderError("one appoints a bishop or an archbishop to a see: appoint .0102 bishop of Pisa")
    kind = "appoint_bishop" if office == "bishop" else "invest_archbishop"
    return kind, {"appointee": t.persona(), "location": t.words(0)}, ""


def _hat(tree: Tree, t: Tokens) -> Built:
    return "grant_hat", {"appointee": t.persona()}, ""


def _accept(tree: Tree, t: Tokens) -> Built:
    return "accept_office", {"office": church_office(t)}, ""


def _excommunicate(tree: Tree, t: Tokens) -> Built:
    return "excommunicate", {"target": t.persona()}, ""


def vote(t: Tokens) -> Built | None:
    """"vote for .0102 as Pope", "vote for .0102 at Kiev"; None for a magistrate's vote."""
    if t.has("W_POPE"):
        return "papal_vote", {"candidate": t.persona()}, ""
    if t.count_words():
        return "congress_vote", {"candidate": t.persona(), "location": t.words(0)}, ""
    return None


PHRASES: dict[str, Builder] = {"p_hat": _hat, "p_accept_office": _accept, "p_excommunicate": _excommunicate}

# New plain-words verbs (plainwords.VERBS adds them) and an example of each.
VERBS: dict[str, str] = {"excommunicate": "excommunicate .0203"}
