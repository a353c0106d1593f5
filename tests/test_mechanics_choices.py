"""maild/choices.py: simultaneous secret choices, sealed until all are in or the deadline, then revealed."""

from __future__ import annotations

import pytest

from maild.choices import Answer, Decision, StillSealed, collect, validate

NUMBERS = frozenset(range(1, 7))


def galilei_decision() -> Decision:
    # Galilei 3.3: seats 1 to 4 record a number from 1 to 6; seats 5 and 6 choose shortage or surplus. Seat 6
    # (Paris) chose surplus last time, so "he is bounded to determine the opposite": shortage only, which
    # is also his default. Seat 5's default (shortage) stands for whatever the game documents.
    sides = frozenset({"shortage", "surplus"})
    return Decision(
        "the shortage/surplus result",
        {"London": NUMBERS, "Venice": NUMBERS, "Genoa": NUMBERS, "Hamburg": NUMBERS,
         "Barcelona": sides, "Paris": frozenset({"shortage"})},
        {"London": 1, "Venice": 1, "Genoa": 1, "Hamburg": 1, "Barcelona": "shortage", "Paris": "shortage"},
    )


def test_validate_names_the_choices_allowed() -> None:
    d = galilei_decision()
    assert validate(d, "London", 4) is None
    assert validate(d, "London", 7) == "7 is not a choice for the shortage/surplus result; yours are: 1, 2, 3, 4, 5, 6"
    assert validate(d, "Paris", "surplus") == (
        "surplus is not a choice for the shortage/surplus result; yours are: shortage")
    assert validate(d, "Lisbon", 3) == "you are not among those who decide the shortage/surplus result"


def test_sealed_until_everyone_has_answered() -> None:
    d = galilei_decision()
    ballot = collect(d, [Answer("Genoa", 2, 30), Answer("London", 6, 12), Answer("Paris", "surplus", 14)])
    assert ballot.missing == ["Venice", "Hamburg", "Barcelona", "Paris"]  # Paris's surplus was refused
    assert [(a.player, reason[:7]) for a, reason in ballot.refused] == [("Paris", "surplus")]
    assert ballot.sealed(deadline_passed=False)
    assert ballot.shown_to("London", deadline_passed=False) == {"London": 6}
    assert ballot.shown_to("Venice", deadline_passed=False) == {}
    with pytest.raises(StillSealed, match="Venice, Hamburg, Barcelona, Paris"):
        ballot.reveal(deadline_passed=False)


def test_a_later_answer_replaces_an_earlier_one() -> None:
    d = Decision.same_for_all("the number", ["a", "b"], NUMBERS)
    ballot = collect(d, [Answer("a", 5, 9), Answer("a", 2, 3), Answer("a", 9, 11)])  # 9 is refused
    assert ballot.answers["a"].choice == 5 and ballot.answers["a"].seq == 9


def test_complete_reveals_in_receipt_order_before_the_deadline() -> None:
    d = Decision.same_for_all("the number", ["a", "b", "c"], NUMBERS)
    ballot = collect(d, [Answer("c", 1, 20), Answer("a", 3, 25), Answer("b", 6, 5)])
    assert ballot.complete and not ballot.sealed(deadline_passed=False)
    assert [(r.player, r.choice, r.seq) for r in ballot.reveal(deadline_passed=False)] == [
        ("b", 6, 5), ("c", 1, 20), ("a", 3, 25)]


def test_deadline_reveals_with_defaults_for_the_missing_in_seat_order() -> None:
    d = galilei_decision()
    ballot = collect(d, [Answer("Hamburg", 3, 40), Answer("London", 6, 12)])
    revealed = ballot.reveal(deadline_passed=True)
    assert [(r.player, r.choice, r.defaulted) for r in revealed] == [
        ("London", 6, False), ("Hamburg", 3, False), ("Venice", 1, True), ("Genoa", 1, True),
        ("Barcelona", "shortage", True), ("Paris", "shortage", True)]
    assert ballot.shown_to("Venice", deadline_passed=True)["Paris"] == "shortage"


def test_no_default_reveals_none_and_a_bad_default_is_refused() -> None:
    d = Decision.same_for_all("the vote", ["a", "b"], {"yes", "no"})
    assert [(r.player, r.choice) for r in collect(d, [Answer("a", "yes", 1)]).reveal(True)] == [
        ("a", "yes"), ("b", None)]
    with pytest.raises(ValueError, match="not one of his choices"):
        Decision.same_for_all("the vote", ["a"], {"yes", "no"}, default="maybe")
