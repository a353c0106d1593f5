"""maild/wordlimit.py: words counted as a reader counts them, and the words over a Captain's limit."""

from __future__ import annotations

import time

import pytest

from maild.keywords import Keywords, extract
from maild.wordlimit import check_words, count_words


def words(text: str, names: tuple[str, ...] = ()) -> list[str]:
    return [w.text for w in count_words(text, names)]


@pytest.mark.parametrize(("text", "expected"), [
    ("15", ["15"]),
    ("1,000 men", ["1,000", "men"]),
    ("3.5 hexes", ["3.5", "hexes"]),
    ("at 10:30", ["at", "10:30"]),
    ("north-east", ["north-east"]),
    ("north--east", ["north", "east"]),
    ("go north - then east", ["go", "north", "then", "east"]),
    ("don't retreat", ["don't", "retreat"]),
    ("the Captain's orders", ["the", "Captain's", "orders"]),
    ("e.g. U.S. troops", ["e.g.", "U.S.", "troops"]),
    ("hold,attack", ["hold", "attack"]),
    ("and/or", ["and", "or"]),
    ("guard & hold", ["guard", "&", "hold"]),
    ("- -- ... * / ( ) !", []),
    ('"Great Wall"', ["Great", "Wall"]),
    ("**Order** move", ["Order", "move"]),
    ("Ñandú café", ["Ñandú", "café"]),
])
def test_what_counts_as_one_word(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_known_names_count_as_one_word_quoted_or_not_longest_first() -> None:
    names = ("Great Wall", "Great Wall of China")
    assert words('guard the "great wall" and the Great Wall of China', names) == [
        "guard", "the", "great wall", "and", "the", "Great Wall of China"]
    assert words("a great victory", names) == ["a", "great", "victory"]


def test_positions_are_line_and_column() -> None:
    found = count_words("hold\n  attack north-east")
    assert [(w.text, w.line, w.start) for w in found] == [("hold", 1, 0), ("attack", 2, 2), ("north-east", 2, 9)]


def test_a_level_2_unit_takes_ten_words_and_the_eleventh_is_over() -> None:
    # Law of the Jungle: limit = 5 * level = 5 * 2 = 10. The order has 11 words: move(1) to(2) the(3)
    # river(4) then(5) attack(6) any(7) enemy(8) north-east(9) of(10) 1,000(11).
    result = check_words("move to the river, then attack any enemy north-east of 1,000", 10)
    assert (result.count, result.within) == (11, False)
    assert [w.text for w in result.over] == ["1,000"]
    fine = check_words("Fortify.", 15)
    assert (fine.count, fine.within, fine.over) == (1, True, ())


def test_negative_limit_refused() -> None:
    with pytest.raises(ValueError):
        check_words("x", -1)


def test_linear_on_long_hostile_text() -> None:
    # A pattern with backtracking would take seconds on long runs of joiners; a linear one a few ms.
    hostile = ("1," * 100_000) + "x " + ("a-" * 100_000) + "'" * 100_000
    start = time.perf_counter()
    count_words(hostile, ("a b",))
    assert time.perf_counter() - start < 2


def test_a_captains_bold_order_is_counted_without_its_keyword() -> None:
    # A level-1 unit: 5 * 1 = 5 words. After **Order**: move(1) to(2) the(3) river(4) then(5) attack(6).
    action = extract("**Order** move to the river then attack", Keywords.of(["order"])).actions[0]
    result = check_words(action.text, 5)
    assert result.count == 6 and [w.text for w in result.over] == ["attack"]
