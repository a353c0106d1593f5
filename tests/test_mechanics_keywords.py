"""maild/keywords.py: bold keywords cut free text into actions; stray bold and plain keywords reported."""

from __future__ import annotations

import time

import pytest

from maild.intake.normalize import clean_orders
from maild.keywords import Keywords, extract

KEYWORDS = Keywords.of({"attack": [], "move": [], "order": ["orders"], "join houses": ["join house"],
                        "join": [], "research": [], "defend": []})


def actions(text: str) -> list[tuple[str, str, int]]:
    return [(a.keyword, a.text, a.line) for a in extract(text, KEYWORDS).actions]


def test_each_bold_keyword_starts_an_action_with_the_text_up_to_the_next() -> None:
    text = "**Attack** Bob the peasant\nand his friends\n\n**Defend**\n**Move** to the hill"
    assert actions(text) == [("attack", "Bob the peasant\nand his friends", 1), ("defend", "", 4),
                             ("move", "to the hill", 5)]
    first = extract(text, KEYWORDS).actions[0]
    assert (first.line, first.last_line) == (1, 2)


def test_case_aliases_blanks_and_the_longest_keyword() -> None:
    assert actions("**JOIN  House** with the Eagles") == [("join houses", "with the Eagles", 1)]
    assert actions("**join** the Eagles") == [("join", "the Eagles", 1)]
    assert actions("**Orders** hold") == [("order", "hold", 1)]
    assert extract("**ATTACK** x", KEYWORDS).actions[0].written == "ATTACK"


def test_rest_of_a_bold_run_and_punctuation_after_the_keyword() -> None:
    assert actions("**Research Bronze Working**") == [("research", "Bronze Working", 1)]
    assert actions("**Attack:** Bob") == [("attack", "Bob", 1)]
    assert actions("**Attack** - Bob") == [("attack", "Bob", 1)]
    assert actions("**Attack** Bob **Move** north") == [("attack", "Bob", 1), ("move", "north", 1)]


def test_bold_that_is_not_a_keyword_is_reported_and_kept_in_the_text() -> None:
    found = extract("**Attack** the **sneaky** Bob\n**Frobnicate** him", KEYWORDS)
    assert [(a.keyword, a.text) for a in found.actions] == [("attack", "the sneaky Bob\nFrobnicate him")]
    assert [(m.line, m.text) for m in found.unknown_bold] == [(1, "sneaky"), (2, "Frobnicate")]


def test_keywords_not_in_bold_are_pointed_out_not_guessed() -> None:
    # Line 2 starts with a keyword, line 1 has one in capitals; "move" inside prose on line 1 is just a verb.
    found = extract("**Order** move to the river, then ATTACK\nMove north\nthen join houses", KEYWORDS)
    assert [(a.keyword, a.text) for a in found.actions] == [
        ("order", "move to the river, then ATTACK\nMove north\nthen join houses")]
    assert [(m.line, m.text, m.keyword) for m in found.plain_keywords] == [(1, "ATTACK", "attack"),
                                                                         (2, "Move", "move")]


def test_a_mail_without_bold_has_no_actions_only_hints() -> None:
    found = extract("Attack Bob\nDEFEND", KEYWORDS)
    assert found.actions == ()
    assert [(m.line, m.keyword) for m in found.plain_keywords] == [(1, "attack"), (2, "defend")]
    assert [m.text for m in found.preamble] == ["Attack Bob", "DEFEND"]


def test_text_before_the_first_action_is_the_preamble() -> None:
    found = extract("Hello GM,\n\nmy orders:\n**Defend**", KEYWORDS)
    assert [(m.line, m.text) for m in found.preamble] == [(1, "Hello GM,"), (3, "my orders:")]
    assert actions("Hello GM,\n**Defend**") == [("defend", "", 2)]


def test_unclosed_markers_are_text() -> None:
    assert actions("**Attack** 2 ** 3") == [("attack", "2 ** 3", 1)]


def test_reads_what_intake_marks() -> None:
    # Gmail's *x*, Markdown's __x__ and bullets come out of clean_orders as **x** on the same lines.
    marked = clean_orders("*Attack* Bob\n• **Order** move north\n__Defend__").marked()
    assert actions(marked) == [("attack", "Bob", 1), ("order", "move north", 2), ("defend", "", 3)]


def test_keywords_are_checked() -> None:
    with pytest.raises(ValueError, match="names both"):
        Keywords.of({"attack": ["hit"], "strike": ["hit"]})
    with pytest.raises(ValueError, match="needs a word"):
        Keywords.of(["**"])


def test_long_text_in_linear_time() -> None:
    # 20,000 lines of actions, stray bold and plain keywords, then a line of 20,000 markers: about 1 MB read in
    # well under a second here; anything quadratic in lines or markers would take minutes.
    n = 20_000
    text = "**Attack** Bob and **sneaky** friends ATTACK\n" * n + "**" * n
    start = time.perf_counter()
    found = extract(text, KEYWORDS)
    assert len(found.actions) == n and len(found.plain_keywords) == n
    assert time.perf_counter() - start < 10
