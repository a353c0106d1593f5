"""The church's order codes and plain words (church_codes.py; docs/renaissance-codes.md, "The church")."""

from __future__ import annotations

from typing import Any

import pytest

from maild_rules.renaissance import RULESET
from maild_rules.renaissance.church_codes import CHURCH_KINDS
from maild_rules.renaissance.codes import format_code, parse, summary
from maild_rules.renaissance.orderkinds import BY_KIND
from tests.renaissance_fixtures import small_state

HEAD = "/LMD *MEDICI\n*Florence .0101\n"


def one(code: str) -> tuple[str, dict[str, Any]]:
    parsed = parse(HEAD + code)
    assert parsed.diagnostics == [], parsed.diagnostics
    assert len(parsed.orders) == 1, parsed.orders
    args = {k: v for k, v in parsed.orders[0].args.items() if k not in ("family", "player", "persona", "start")}
    return parsed.orders[0].kind, args


CHURCH_SHAPES: list[tuple[str, str, dict[str, Any]]] = [
    ("OI0102Pisa", "invest_archbishop", {"appointee": "0102", "location": "Pisa"}),
    ("OK0102", "grant_hat", {"appointee": "0102"}),
    ("op0103Siena", "appoint_bishop", {"appointee": "0103", "location": "Siena"}),
    ("OAPisa", "accept_office", {"office": "Pisa"}),
    ("OAhat", "accept_office", {"office": "hat"}),
    ("OApope", "accept_office", {"office": "pope"}),
    ("OQSiena", "resign_office", {"office": "Siena"}),
    ("OQhat", "resign_office", {"office": "hat"}),
    ("OQpope", "resign_office", {"office": "pope"}),
    ("VP0102", "papal_vote", {"candidate": "0102"}),
    ("VS0102Kiev", "congress_vote", {"candidate": "0102", "location": "Kiev"}),
    ("HX0203", "excommunicate", {"target": "0203"}),
]


@pytest.mark.parametrize(("code", "kind", "args"), CHURCH_SHAPES, ids=[s[0] for s in CHURCH_SHAPES])
def test_church_code_shapes_and_round_trips(code: str, kind: str, args: dict[str, Any]) -> None:
    assert one(code) == (kind, args)
    written = format_code(kind, args)
    assert one(written) == (kind, args) and written.upper() == code.upper()
    assert summary(kind, args)


def test_every_church_kind_has_a_tested_shape_and_its_example_parses() -> None:
    assert {kind for _, kind, _ in CHURCH_SHAPES} == CHURCH_KINDS
    for kind in CHURCH_KINDS:
        assert one(BY_KIND[kind].example)[0] == kind


def test_the_magistrates_vote_stays_v() -> None:
    assert one("V0102") == ("vote", {"candidate": "0102"})
    assert one("vote for .0102") == ("vote", {"candidate": "0102"})


@pytest.mark.parametrize(("words", "code"), [
    ("appoint .0102 bishop of Pisa", "OP0102Pisa"),
    ("appoint .0102 archbishop of Pisa", "OI0102Pisa"),
    ("grant a cardinal's hat to .0102", "OK0102"),
    ("grant the hat to .0102", "OK0102"),
    ("accept the archbishopric of Santiago de Compostela", "OASantiagodeCompostela"),
    ("accept the patriarchate of Kiev", "OAKiev"),
    ("accept the cardinal's hat", "OAhat"),
    ("accept the papal throne", "OApope"),
    ("accept the papacy", "OApope"),
    ("resign the bishopric of Pisa", "OQPisa"),
    ("resign the see of Pisa", "OQPisa"),
    ("resign the hat", "OQhat"),
    ("resign the papacy", "OQpope"),
    ("resign the magistracy", "OR"),
    ("vote for .0102 as Pope", "VP0102"),
    ("vote for .0102 at Kiev", "VS0102Kiev"),
    ("excommunicate .0203", "HX0203"),
    ("accept .0102 as apprentice", "GA0102"),
])
def test_plain_words(words: str, code: str) -> None:
    kind, args = one(words)
    assert format_code(kind, args) == code


def test_the_check_names_unknown_persons_and_sees() -> None:
    # `maild orders check` with the ruleset: a see that is no location, a persona that does not exist.
    state = small_state()
    parsed = RULESET.parse(HEAD + "OP0102Atlantis OK0909\n")
    notes = [d.message for d in RULESET.check(state, 1, "LMD", parsed.orders)]
    assert any("Atlantis" in n for n in notes) and any("0909" in n for n in notes)


def test_a_hat_outside_march_and_september_is_noted_as_sure_to_fail() -> None:
    # The small world's turn 1 is January 1493; turn 3 is March.
    state = small_state()
    parsed = RULESET.parse(HEAD + "OK0102\n")
    notes = [d.message for d in RULESET.check(state, 1, "LMD", parsed.orders)]
    assert len(notes) == 1 and "March and September only" in notes[0] and "January 1493" in notes[0]
    assert RULESET.check(state, 3, "LMD", parsed.orders) == []
