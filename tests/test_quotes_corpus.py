"""maild's quote stripping over the whole corpus in tests/quotes_corpus, the way the daemon runs it.

The floor is the figure reached when the rules were last changed (docs/quotes.md has the table): a change
that loses a case fails here. Raise it when the rules get better.
"""

from __future__ import annotations

import pytest

from maild.intake.ordertext import extract
from maild.intake.plaintext import normalize
from tests.paths import ROOT
from tests.quotes_corpus import FOLDER, Case, load_cases, normalized, parse_case

CASES = load_cases()
FLOOR_ALL = 246  # of 248
FLOOR_HELD_OUT = 60  # of 61


def own_text(case: Case) -> str:
    return normalized(extract(normalize(case.body)).text)


def test_exact_match_rate_holds() -> None:
    hits = {case.name for case in CASES if own_text(case) == normalized(case.own)}
    missed = sorted(case.name for case in CASES if case.name not in hits)
    held_out = sum(case.name in hits for case in CASES if case.held_out)
    assert len(CASES) == 248
    assert len(hits) >= FLOOR_ALL, f"{len(hits)}/{len(CASES)}; missed: {missed}"
    assert held_out >= FLOOR_HELD_OUT, missed


def test_every_case_is_well_formed_and_listed_in_the_readme() -> None:
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    kinds = {"plain", "attribution", "date-first", "localized", "split", "odd", "original", "outlook", "inline",
             "signature"}
    for case in CASES:
        assert case.kind in kinds, case.name
        origin = case.source.split()[0]
        assert origin == "maild" or origin.count("/") == 1, case.name  # owner/repository (or maild's own tests)
        assert case.body.strip(), case.name
        assert f"`{case.name}`" in readme, f"{case.name} is not in tests/quotes_corpus/README.md"


def test_case_format_is_checked() -> None:
    with pytest.raises(ValueError):
        parse_case("x", "%% class: plain\nno source and no separator\n")
    case = parse_case("x", "%% class: plain\n%% source: a/b c\nbody\n%% own text\nown\n")
    assert (case.kind, case.source, case.body, case.own, case.held_out) == ("plain", "a/b c", "body\n", "own\n",
                                                                           False)


def test_normalized_ignores_only_layout() -> None:
    assert normalized("\n\na  \n\n\n\nb\t\n\n") == "a\n\nb"
    assert normalized("  indented\nkept") == "  indented\nkept"


def test_docs_table_names_the_corpus_size() -> None:
    assert f"{len(CASES)} cases" in (ROOT / "docs" / "quotes.md").read_text(encoding="utf-8")
