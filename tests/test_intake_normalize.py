"""Unit tests of `maild.intake.normalize`: emphasis, list markers and punctuation out, bold kept beside."""

from __future__ import annotations

import random
import time

import pytest

from maild.intake.normalize import CleanText, clean_orders


@pytest.mark.parametrize(("written", "clean"), [
    # Whole lines and words, as HTML conversion (**), Gmail's plain part (*) and others (_, __) write them.
    ("**bid 20$ for 1 of silk tax**", "bid 20$ for 1 of silk tax"),
    ("*bid 20$ for 1 of silk tax*", "bid 20$ for 1 of silk tax"),
    ("_bid 20$ for 1 of silk tax_", "bid 20$ for 1 of silk tax"),
    ("__borrow 100$__", "borrow 100$"),
    ("**bid** 20$ for *1* of _silk tax_", "bid 20$ for 1 of silk tax"),
    ("bid 3$ for 1 of *silk tax*.", "bid 3$ for 1 of silk tax."),
    ("*Thanks!*", "Thanks!"),
    # Renaissance: a star before a letter is syntax and stays.
    ("/MED *MEDICI", "/MED *MEDICI"),
    ("*Florence .0101", "*Florence .0101"),
    ("*Florence .0101 T0102grain500 *Pisa .0102 HP", "*Florence .0101 T0102grain500 *Pisa .0102 HP"),
    # ... and bold around it comes off, leaving the syntax: Gmail's plain part, then our HTML conversion.
    ("*/MED *MEDICI*", "/MED *MEDICI"),
    ("**Florence .0101*", "*Florence .0101"),
    ("**/MED *MEDICI**", "/MED *MEDICI"),
    ("***Florence .0101**", "*Florence .0101"),
    ("/MED **MEDICI*", "/MED *MEDICI"),
    ("/MED ***MEDICI**", "/MED *MEDICI"),
    ("*Pisa .0102 *HP*", "*Pisa .0102 HP"),
    # Not emphasis: inside words, alone, or never closed.
    ("MLSantiago_de_Compostela", "MLSantiago_de_Compostela"),
    ("5*3 and a_b_c", "5*3 and a_b_c"),
    ("T0102grain500 *", "T0102grain500 *"),
    ("bid 30$* for 1 of opera", "bid 30$* for 1 of opera"),
    ("** ** __", "** ** __"),
])
def test_emphasis_is_unwrapped_and_syntax_stays(written: str, clean: str) -> None:
    assert clean_orders(written).text == clean


@pytest.mark.parametrize(("written", "clean"), [
    # Gmail, one bold <div> per line.
    ("*/MED *MEDICI*\n**Florence .0101*\n*T0102grain500 Bwool100*\n**Pisa .0102*\n*HP*",
     "/MED *MEDICI\n*Florence .0101\nT0102grain500 Bwool100\n*Pisa .0102\nHP"),
    # Gmail, one <b> over <br>-separated lines: one run over the block, persona headers inside.
    ("*/MED *MEDICI\n*Florence .0101\nT0102grain500 Bwool100\n*Pisa .0102\nHP*",
     "/MED *MEDICI\n*Florence .0101\nT0102grain500 Bwool100\n*Pisa .0102\nHP"),
    # A bold code under a plain persona header pairs with its own markers, not with the header's star.
    ("/MED *MEDICI\n*Florence .0101\n*T0102grain500*\nHP", "/MED *MEDICI\n*Florence .0101\nT0102grain500\nHP"),
    ("*bid 20$ for 1 of silk tax\nborrow 100$*", "bid 20$ for 1 of silk tax\nborrow 100$"),
])
def test_emphasis_over_several_lines(written: str, clean: str) -> None:
    assert clean_orders(written).text == clean


def test_bold_is_kept_beside_the_text() -> None:
    c = clean_orders("Hi\n**bid** 20$ for *1* of silk tax\n*/MED *MEDICI\nHP*")
    assert c.text == "Hi\nbid 20$ for 1 of silk tax\n/MED *MEDICI\nHP"
    assert c.bold == ((2, 0, 3), (2, 12, 13), (3, 0, 12), (4, 0, 2))
    assert c.bold_words(2) == ["bid", "1"]
    assert c.marked() == "Hi\n**bid** 20$ for **1** of silk tax\n**/MED *MEDICI**\n**HP**"
    # No emphasis: nothing beside, and the marked text is the text.
    plain = clean_orders("bid 20$ for 1 of silk tax")
    assert plain == CleanText("bid 20$ for 1 of silk tax") and plain.marked() == plain.text


@pytest.mark.parametrize(("written", "clean"), [
    ("\u2022 bid 20$", "bid 20$"),
    ("\t\u2022\tbid 20$", "bid 20$"),  # Apple Mail
    ("\u00b7       bid 20$", "bid 20$"),  # Outlook's Symbol-font bullet
    ("o   bid 20$", "bid 20$"),  # Outlook's second level
    ("\u00a7\tbid 20$", "bid 20$"),  # and its third
    ("\u25aa bid 20$", "bid 20$"),
    ("- bid 20$", "bid 20$"),
    ("1. bid 20$", "bid 20$"),
    ("12) bid 20$", "bid 20$"),
    ("a) bid 20$", "bid 20$"),
    ("\u2022 **bid 20$**", "bid 20$"),
    # Not list markers.
    ("-- a Renaissance comment", "-- a Renaissance comment"),
    ("-5", "-5"),
    ("1.5 ducats", "1.5 ducats"),
    ("obid 20$", "obid 20$"),
    ("o bid", "o bid"),
    ("* Florence .0101", "* Florence .0101"),  # alone: maybe a Renaissance header written with a blank
    ("\u2013 Anna", "-- Anna"),  # alone: a dash signature, not a list
])
def test_list_markers(written: str, clean: str) -> None:
    assert clean_orders(written).text == clean


def test_star_plus_and_dash_bullets_count_in_a_list() -> None:
    assert clean_orders("* bid 20$\n* borrow 5$").text == "bid 20$\nborrow 5$"
    assert clean_orders("+ bid 20$\n+ borrow 5$").text == "bid 20$\nborrow 5$"
    assert clean_orders("\u2013 bid 20$\n\u2013 borrow 5$").text == "bid 20$\nborrow 5$"
    assert clean_orders("* Florence .0101\nT0102grain500").text == "* Florence .0101\nT0102grain500"


@pytest.mark.parametrize(("written", "clean"), [
    ("bid 45$ for 1 of \u201cexile competitor\u201d", 'bid 45$ for 1 of "exile competitor"'),
    ("\u201ebid\u201f \u2018x\u2019 it\u2019s", "\"bid\" 'x' it's"),
    ("RI\u20132 RE\u22122 \u22125", "RI-2 RE-2 -5"),  # en dash and minus sign inside codes and numbers
    ("bid \u20145$", "bid -5$"),  # glued to a number: a minus
    ("T0102grain500 \u2014 for the army", "T0102grain500 -- for the army"),  # iOS makes -- an em dash
    ("T0102grain500 \u2013 for the army", "T0102grain500 -- for the army"),  # Word makes " -- " an en dash
    ("Jean\u2013Luc", "Jean-Luc"),
    ("\u2014 Anna", "-- Anna"),
    ("and so on\u2026", "and so on..."),
])
def test_smart_punctuation(written: str, clean: str) -> None:
    assert clean_orders(written).text == clean


def test_line_numbers_never_move() -> None:
    rng = random.Random(8)
    pieces = ["*", "**", "_", " ", "bid", "\u2022 ", "- ", "1. ", "\u2014", "\u201c", "/MED", "*Florence", "\n",
              "\n\n", "x*", "a_"]
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        clean = clean_orders(text)
        assert clean.text.count("\n") == text.count("\n")
        lines = clean.text.split("\n")
        for number, start, end in clean.bold:
            assert 0 <= start < end <= len(lines[number - 1])


def _best_time(text: str) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        clean_orders(text)
        times.append(time.perf_counter() - started)
    return min(times)


@pytest.mark.parametrize("unit", [
    "*a ",  # openers never closed
    "a* ",  # closers never opened
    "*a*",
    "_",
    "*x\n",  # an opener on every line
    "\u2022 ",
    "\u2014 ",
    "* a\n",  # a list of star bullets
])
def test_linear_time_on_hostile_text(unit: str) -> None:
    # Four times the text must take about four times as long, not sixteen (quadratic): a ratio that holds
    # on a loaded machine, where absolute times do not. The larger text is some 200,000 words long.
    small, large = unit * 50_000 + "y*", unit * 200_000 + "y*"
    assert _best_time(large) < 10 * _best_time(small) + 0.05
