"""Unit tests of greetings, closings and signatures (`maild.intake.prose`) and of how `intake.orders` sets them
aside only when the game's ruleset cannot read them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from maild.intake.orders import names_of, read_orders
from maild.intake.prose import prose_kind
from maild.ruleset import Diagnostic, Order, ParsedOrders, load_ruleset

VENICE = load_ruleset("venice")
RENAISSANCE = load_ruleset("renaissance")


@pytest.mark.parametrize(("line", "kind"), [
    ("Dear GM,", "greeting"), ("Hi all", "greeting"), ("Hello Bob", "greeting"), ("hey!", "greeting"),
    ("Good morning everyone,", "greeting"), ("Ciao a tutti", "greeting"), ("Hallo zusammen", "greeting"),
    ("Regards", "closing"), ("Best,", "closing"), ("Kind regards,", "closing"), ("Thanks!", "closing"),
    ("Thank you", "closing"), ("Many thanks in advance", "closing"), ("Cheers", "closing"),
    ("Thanks - Carol", "closing"), ("Thanks -- Carol", "closing"), ("Thanks \u2014 Carol", "closing"),
    ("Grüße, Bob", "closing"), ("Cordiali saluti", "closing"),
    ("Here are my orders:", "closing"), ("My bids", "closing"), ("**My bids**", "closing"),
    ("\u2014 Anna", "signature"), ("-- Anna", "signature"), ("- Bob", "signature"), ("~Carol", "signature"),
    ("Sent from my iPhone", "signature"), ("Get Outlook for Android", "signature"),
    # Orders, and mistakes a player must hear about, are not prose.
    ("bid 20$ for 1 of silk tax", None), ("borrow 100$", None), ("T0102grain500", None), ("HP", None),
    ("/MED *MEDICI", None), ("*Florence .0101", None), ("Hi0102", None), ("bid thirty for silk tax", None),
    ("Thanks for the great turn, but I think the silk tax auction was rigged and I want a recount", None),
])
def test_prose_kinds(line: str, kind: str | None) -> None:
    assert prose_kind(line) == kind


def test_a_bare_name_is_a_signature_only_when_it_signs() -> None:
    names = names_of("Anna Rossi", "alice")
    assert prose_kind("Anna", last=True, names=names) == "signature"
    assert prose_kind("Anna Rossi", last=True, names=names) == "signature"
    assert prose_kind("Anna", last=False, names=names) is None  # not the last line
    assert prose_kind("Borrow", last=True, names=names) is None  # a mistake, not a name
    assert prose_kind("Borrow", last=True, names=names, after_closing=True) == "signature"
    assert prose_kind("Bob R.", last=True, after_closing=True) == "signature"
    assert names_of("Lorenzo de' Medici", None) >= {"lorenzo", "medici"}


def test_venice_greetings_and_signatures_are_ignored_not_errors() -> None:
    text = "Dear GM,\n\nbid 20$ for 1 of silk tax\nborrow 100$\n\nThanks!\nAnna"
    read = read_orders(VENICE, text, names_of("Anna Rossi"))
    assert [o.line for o in read.parsed.orders] == [3, 4]
    assert read.parsed.diagnostics == []
    assert read.ignored == [Diagnostic(1, "Dear GM,", "greeting"), Diagnostic(6, "Thanks!", "closing"),
                            Diagnostic(7, "Anna", "signature")]


def test_mistakes_stay_mistakes() -> None:
    read = read_orders(VENICE, "bid 20$ for 1 of silk tax\nbid thirty for silk tax\nBorrow", names_of("Anna"))
    assert read.ignored == []
    assert [d.line for d in read.parsed.diagnostics] == [2, 3]


def test_renaissance_prose_that_half_parses_is_ignored_whole() -> None:
    # "Dear" reads as the code DEar (deny egress to AR) inside a family's orders; "GM," does not read: the
    # line is a greeting, and neither its code nor its error counts.
    text = "/MED *MEDICI\n*Florence .0101\nDear GM,\nT0102grain500\nCheers,\nLorenzo"
    read = read_orders(RENAISSANCE, text, names_of("Lorenzo de' Medici"))
    assert [(o.line, o.kind) for o in read.parsed.orders] == [(4, "transfer")]
    assert read.parsed.diagnostics == []
    assert [(d.line, d.message) for d in read.ignored] == [(3, "greeting"), (5, "closing"), (6, "signature")]


@dataclass
class _Words:
    """A game whose orders are single words, one of them "Thanks", that reads bold if asked to."""

    reads_emphasis: bool = False
    seen: str = ""

    def parse(self, text: str) -> ParsedOrders:
        self.seen = text
        out = ParsedOrders()
        for n, line in enumerate(text.split("\n"), start=1):
            if line.strip("*") in ("Thanks", "attack"):
                out.orders.append(Order(n, line, line.lower(), {}, line))
            elif line.strip():
                out.diagnostics.append(Diagnostic(n, line, "not an order"))
        return out


def test_a_line_the_ruleset_reads_is_an_order_whatever_it_looks_like() -> None:
    game = _Words()
    read = read_orders(game, "Thanks\nHi all", ())  # type: ignore[arg-type]
    assert [o.kind for o in read.parsed.orders] == ["thanks"]
    assert [d.line for d in read.ignored] == [2]


def test_a_ruleset_that_reads_emphasis_gets_the_bold_marked() -> None:
    plain, bold = _Words(), _Words(reads_emphasis=True)
    for game in (plain, bold):
        read_orders(game, "\u2022 *attack* the camp\n_attack_", ())  # type: ignore[arg-type]
    assert plain.seen == "attack the camp\nattack"
    assert bold.seen == "**attack** the camp\n**attack**"


@pytest.mark.parametrize(("line", "kind"), [
    ("Lorenzo", "signature"), ("McDonald", "signature"), ("O'Brien", "signature"), ("Anna Rossi", "signature"),
    ("HP", None), ("Ha", None), ("DEsk", None), ("BOB", None), ("Borrow", None), ("Bid", None),
])
def test_a_bare_name_signs_the_orders_above_it(line: str, kind: str | None) -> None:
    assert prose_kind(line, last=True, after_orders=True, order_words=frozenset({"bid", "borrow"})) == kind
    assert prose_kind(line, last=True) is None  # with no orders above, a stranger's name is not a sign-off
