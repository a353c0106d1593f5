"""The code sheet players get and their welcome printout (templates/renaissance/codesheet.txt.j2, welcome.txt.j2),
and plain words that could mean two things: asked about, never guessed."""

from __future__ import annotations

import re

import pytest

from maild.paths import TEMPLATE_DIR
from maild.render import render
from maild_rules.renaissance import RULESET
from maild_rules.renaissance.codes import parse
from tests.paths import ROOT as REPO
from tests.renaissance_fixtures import small_state

DOCS_SHEET = REPO / "docs" / "renaissance-codes.md"


def players_sheet(player: str | None = "LMD") -> str:
    state = small_state()
    return render("renaissance", "codesheet.txt.j2", game="ren1", turn=1, player=player,
                  info=RULESET.template_context(state, 1))


def docs_codes() -> set[str]:
    """Every code the GM's sheet names in the first column of a table: code shapes, letters, item codes."""
    codes = set()
    for line in DOCS_SHEET.read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and not line.startswith("| code") and not line.startswith("|---"):
            first = line.strip("|").split("|")[0]
            codes |= set(re.findall(r"`([^`]+)`", first)) or {first.strip()}
    return codes - {"letter"}


def test_every_code_of_the_docs_sheet_is_on_the_players_sheet() -> None:
    sheet = players_sheet()
    codes = docs_codes()
    assert len(codes) > 200  # the code shapes, skill letters, class codes and item codes
    missing = [c for c in sorted(codes) if not re.search(rf"(?m)^\s+{re.escape(c)}(\s|,|$)", sheet)
               and f" {c} " not in sheet and f"{c}," not in sheet]
    assert missing == []


def test_players_sheet_shows_the_readers_headers_and_no_developer_notes() -> None:
    sheet = players_sheet("ADR")
    assert "YOUR HEADER LINES (player ADR)" in sheet and "/ADR *DORIA" in sheet
    assert "*Genoa .0201" in sheet and "*Florence .0202" in sheet and "/LMD *MEDICI\n  *Florence .0101  " not in sheet
    for note in ("codes.py", "renaissance.lark", "test suite", "```", "docs/"):
        assert note not in sheet
    assert "YOUR HEADER LINES" not in players_sheet(None)  # a stranger's sheet has none


def test_sheet_ships_with_the_templates_not_read_from_docs() -> None:
    # The package's templates folder holds the sheet; the ruleset no longer reads docs/ (absent from a wheel).
    assert (TEMPLATE_DIR / "renaissance" / "codesheet.txt.j2").is_file()
    assert "renaissance-codes.md" not in (REPO / "rules" / "renaissance" / "ruleset.py").read_text(encoding="utf-8")


def test_welcome_printout_has_family_sheet_headers_and_code_sheet() -> None:
    state = small_state()
    context = RULESET.welcome(state, "LMD", turn=1)
    assert context is not None and context["welcome_for"] == "MEDICI"
    text = render("renaissance", "welcome.txt.j2", **context, game="ren1", player="LMD", turn=1,
                  deadline="Tuesday 1 December 2026, 12:00")
    assert "WELCOME, PLAYER LMD (Lorenzo's player)" in text
    assert "Your first orders are for the January 1493 turn, due:\n  Tuesday 1 December 2026, 12:00" in text
    assert "/LMD *MEDICI" in text and "*Pisa .0103" in text  # Giuliano starts at Pisa
    assert "FAMILY MEDICI  (catholic)" in text and "LOCATION FLORENCE" in text
    assert "Piero de' Medici" in text and "50,000" in text  # his ducats
    assert "ITEM CODES" in text and "Tnnnniiiiiiiiqqqqqqq" in text
    # The headers are listed once, above the family sheet, not again in the code sheet below it.
    assert "YOUR HEADER LINES" not in text


# Sale classes: an item of several classes sold in plain words without "as" (MARKETS: the class decides whose
# demand a sale meets) is asked about; a word that names no item lists the items it may have meant.
@pytest.mark.parametrize(("line", "said"), [
    ("sell 20 horses", "'horses': horse is sold as food (foo) or as weaponry (wea): which did you mean?"),
    ("sell 5 sugar", "'sugar': sugar is sold as food (foo) or as spices (spi) or as drugs (dru)"),
    ("sell 3 gold", "'gold': gold is sold as metals (met) or as precious objects (pre)"),
    ("sell 3 silver", "'silver': silver is sold as metals (met) or as precious objects (pre)"),
    ("sell 10 timber", "as construction materials (con) or as naval materials (nav) or as raw materials (raw)"),
    ("buy 10 cavalry", 'no item "cavalry"; did you mean heavycav or lightcav?'),
    ("buy 10 silk", 'no item "silk"; did you mean rawsilk or silkclot'),
    ("transfer 10 arms to .0102", 'no item "arms"; did you mean armor or smallarm'),
    ("buy 3 potatoes", 'no item "potatoes"; did you mean sweetpot'),
    ("buy 10 cloth", 'no item "cloth"; did you mean broadclo or clothofg or silkclot'),
    ("train .0102 in gal", "'gal': did you mean galleybuilding (y) or galliotbuilding (o)?"),
])
def test_a_word_that_could_mean_two_things_is_asked_about(line: str, said: str) -> None:
    parsed = parse(f"/LMD *MEDICI\n*Florence .0101\n{line}\n")
    assert parsed.orders == []
    (diagnostic,) = parsed.diagnostics
    assert said in diagnostic.message


def test_a_sale_with_its_class_named_or_of_one_class_stands() -> None:
    parsed = parse("/LMD *MEDICI\n*Florence .0101\nsell 20 horses as weaponry\nsell 200 grain\n")
    assert parsed.diagnostics == []
    assert [o.args["cls"] for o in parsed.orders] == ["weaponry", "food"]
