"""The setup-file checks both games share (maild/setupfile.py): every problem noted, a usable value returned,
the same words in every game."""

from __future__ import annotations

import re

import pytest

from maild.passwords import is_hash, verify
from maild.ruleset import SetupError
from maild.setupfile import Problems, array_of_tables, email, entries, password, unknown_keys, whole
from maild_rules.renaissance.setup import new_game as renaissance_game
from maild_rules.venice.setup import new_game as venice_game
from tests.renaissance_fixtures import small_setup
from tests.venice_fixtures import make_setup


def test_problems_are_all_listed_or_cut_at_the_limit() -> None:
    problems = Problems(limit=2)
    problems.raise_any()  # nothing found: no error
    for n in range(5):
        problems.add(f"p{n}")
    with pytest.raises(SetupError, match=r"^p0; p1; \.\.\. and 3 more$"):
        problems.raise_any()
    unlimited = Problems()
    unlimited.add("a")
    unlimited.add("b")
    with pytest.raises(SetupError, match="^a; b$"):
        unlimited.raise_any()


@pytest.mark.parametrize(("value", "expected", "message"), [
    (5, 5, None),
    (0, 0, None),
    (-3, 0, "n must be a whole number >= 0, found -3"),
    (True, 0, "n must be a whole number >= 0, found True"),  # a bool is no count
    (2.5, 0, "n must be a whole number >= 0, found 2.5"),
    ("7", 0, "n must be a whole number >= 0, found '7'"),
])
def test_whole(value: object, expected: int, message: str | None) -> None:
    problems = Problems()
    assert whole(problems, "n", value) == expected
    assert problems.found == ([message] if message else [])


def test_whole_with_a_maximum_names_the_span() -> None:
    problems = Problems()
    assert whole(problems, "loyalty", 1000, 0, 999) == 0
    assert problems.found == ["loyalty must be a whole number from 0 to 999, found 1000"]


def test_array_of_tables_and_unknown_keys() -> None:
    problems = Problems()
    assert array_of_tables(problems, {}, "roads") == []
    assert array_of_tables(problems, {}, "players", required=True) == []
    assert array_of_tables(problems, {"assets": {"a": 1}}, "assets") == []
    unknown_keys(problems, "players #1", {"name": "x", "mail": "y", "age": 3}, {"name", "email"})
    assert problems.found == ["players: missing (write one [[players]] table for each)",
                              "assets: must be a list of tables ([[assets]])",
                              "players #1: unknown key(s) age, mail (known: email, name)"]


def test_entries_leave_out_tables_without_a_good_id() -> None:
    problems = Problems()
    tables = [{"name": "alice"}, {"name": "two words"}, {}, {"name": "bob", "x": 1}]
    got = list(entries(problems, "players", tables, {"name"}, "name", re.compile(r"\w+"), "one word"))
    assert [(ident, where) for ident, where, _ in got] == [("alice", "players #1 (alice)"), ("bob", "players #4 (bob)")]
    assert problems.found == ["players #2: name must be one word, found 'two words'",
                              "players #3: name must be one word, found None",
                              "players #4: unknown key(s) x (known: name)"]


def test_email_and_password() -> None:
    problems = Problems()
    assert email(problems, "players #1 (bob)", "bob@example.org", "bob") == "bob@example.org"
    assert email(problems, "players #2 (eve)", "eve at example.org", "eve") is None
    assert password(problems, "players #1 (bob)", None) is None
    hashed = password(problems, "players #1 (bob)", "sesame")
    assert hashed is not None and is_hash(hashed) and verify(hashed, "sesame")  # the state never holds the text
    assert password(problems, "players #1 (bob)", hashed) == hashed  # a hash made before is kept
    assert password(problems, "players #2 (eve)", "open sesame") is None
    assert password(problems, "players #3 (ann)", "") is None
    assert problems.found == ["players #2 (eve): email must be an address like eve@example.org, "
                              "found 'eve at example.org'",
                              "players #2 (eve): password must be one word without blanks",
                              "players #3 (ann): password must be one word without blanks"]


def test_both_games_word_a_bad_player_the_same_way() -> None:
    venice = make_setup()
    venice["players"][0]["password"] = "two words"
    venice["players"][1]["email"] = "nobody"
    renaissance = small_setup()
    renaissance["players"][0]["password"] = "two words"
    renaissance["players"][1]["email"] = "nobody"
    for game, setup, first, second in ((venice_game, venice, "alice", "bob"),
                                       (renaissance_game, renaissance, "LMD", "ADR")):
        with pytest.raises(SetupError) as raised:
            game(setup)
        said = str(raised.value)
        assert f"players #1 ({first}): password must be one word without blanks" in said
        assert f"players #2 ({second}): email must be an address like {second.lower()}@example.org, " \
               "found 'nobody'" in said
