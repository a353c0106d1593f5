"""Galilei rule 3.3, shortage and surplus chosen by the players: who answers, the balance (GA-OQ-22), chaos
(GA-OQ-23), how two numbers and a side make a result (GA-OQ-21), the defaults, and the newsletter.

Seats in every test: 1 Venice, 2 Genoa, 3 Barcelona, 4 Paris, 5 London, 6 Hamburg. The example table:
2 Ivory, 3 Silk, 4 Fur, 5 Metal, 6 Wine, 7 Grain, 8 Cloth, 9 Timber, 10 Wool, 11 Spice, 12 Gold."""

from __future__ import annotations

import pytest

from maild.testing import ScriptedRandom
from maild_rules.galilei.shortage import (
    Ask,
    ShortageTable,
    Submission,
    allowed,
    check,
    format_newsletter,
    missing,
    parse_value,
    resolve_shortage,
    stand_in_seat,
    who_answers,
)
from tests.galilei_shortage_fixtures import ORDER, example_table

S, P = "shortage", "surplus"


def full(seq0: int = 1, **values: int | str) -> list[Submission]:
    """One answer per named player, in the order given, with receipt sequences seq0, seq0+1, ..."""
    return [Submission(p, v, seq0 + i) for i, (p, v) in enumerate(values.items())]


def test_the_example_table_lists_every_total_from_2_to_12() -> None:
    table = example_table()
    assert [table.lookup(t) for t in range(2, 13)] == [
        "Ivory", "Silk", "Fur", "Metal", "Wine", "Grain", "Cloth", "Timber", "Wool", "Spice", "Gold"]


def test_a_table_missing_a_total_or_with_one_outside_2_to_12_is_refused() -> None:
    good = {str(t): f"C{t}" for t in range(2, 13)}
    assert ShortageTable.from_setup(good).lookup(12) == "C12"
    with pytest.raises(ValueError, match=r"missing \[12\]"):
        ShortageTable.from_setup({k: v for k, v in good.items() if k != "12"})
    with pytest.raises(ValueError, match=r"extra \[13\]"):
        ShortageTable.from_setup({**good, "13": "Gold"})
    with pytest.raises(ValueError, match="not a total"):
        ShortageTable.from_setup({**good, "seven": "Gold"})


def test_without_chaos_each_player_answers_for_his_own_seat() -> None:
    """Rule 3.3: seats 1&3 and 2&4 record a number, seats 5 and 6 a side; 1&3 go with 5, 2&4 with 6."""
    asks = who_answers(ORDER, set())
    assert asks == {
        "Venice": [Ask(1, "Venice", "number", "1&3 with 5")],
        "Genoa": [Ask(2, "Genoa", "number", "2&4 with 6")],
        "Barcelona": [Ask(3, "Barcelona", "number", "1&3 with 5")],
        "Paris": [Ask(4, "Paris", "number", "2&4 with 6")],
        "London": [Ask(5, "London", "side", "1&3 with 5")],
        "Hamburg": [Ask(6, "Hamburg", "side", "2&4 with 6")],
    }


def test_two_numbers_are_added_and_the_side_seat_names_shortage_or_surplus() -> None:
    """A: Venice 4 + Barcelona 2 = 6 -> Wine, London chooses shortage. B: Genoa 6 + Paris 5 = 11 -> Spice,
    Hamburg chooses surplus. Nothing is drawn; London and Hamburg each have one side on record."""
    rng = ScriptedRandom()
    answers = full(Venice=4, Genoa=6, Barcelona=2, Paris=5, London=S, Hamburg=P)
    result = resolve_shortage(ORDER, answers, {}, set(), example_table(), rng)
    got = [(o.label, o.numbers, o.total, o.commodity, o.side, o.decided_by) for o in result.outcomes]
    assert got == [("1&3 with 5", (4, 2), 6, "Wine", S, "London"),
                   ("2&4 with 6", (6, 5), 11, "Spice", P, "Hamburg")]
    assert result.history == {"London": [S], "Hamburg": [P]}
    assert [c.how for c in result.choices] == ["sent"] * 6
    assert rng.calls == []


def test_both_results_may_fall_on_one_commodity_and_both_stand() -> None:
    """GA-OQ-21: Venice 3 + Barcelona 4 = 7 and Genoa 2 + Paris 5 = 7: Grain twice, a shortage (London) and
    a surplus (Hamburg); neither is redrawn."""
    answers = full(Venice=3, Genoa=2, Barcelona=4, Paris=5, London=S, Hamburg=P)
    result = resolve_shortage(ORDER, answers, {}, set(), example_table(), ScriptedRandom())
    assert [(o.commodity, o.side) for o in result.outcomes] == [("Grain", S), ("Grain", P)]


def test_the_balance_forces_the_other_side_only_while_one_side_is_ahead() -> None:
    """GA-OQ-22, a balance: shortages less surpluses stays within -1..1. Level (no side yet, or one of each):
    both sides. One shortage ahead: only surplus; one surplus ahead: only shortage. After shortage, surplus
    a strict alternation would force shortage; the balance leaves both open."""
    assert allowed({}, "London") == {S, P}
    assert allowed({"London": [S]}, "London") == {P}
    assert allowed({"London": [P]}, "London") == {S}
    assert allowed({"London": [S, P]}, "London") == {S, P}
    assert allowed({"London": [S, P, P]}, "London") == {S}
    assert allowed({"London": [S]}, "Hamburg") == {S, P}


def test_a_player_over_four_turns_in_seat_5() -> None:
    """London sits 5th four turns running.
    Turn 1: level, chooses shortage -> [shortage].
    Turn 2: one shortage ahead; his mail 'shortage' is refused and the forced surplus is taken -> [S, P].
    Turn 3: level again, he chooses surplus (strict alternation would have refused it) -> [S, P, P].
    Turn 4: one surplus ahead: only shortage allowed."""
    table, numbers = example_table(), dict(Venice=1, Genoa=1, Barcelona=1, Paris=1)
    history: dict[str, list[str]] = {}
    t1 = resolve_shortage(ORDER, full(**numbers, London=S, Hamburg=S), history, set(), table, ScriptedRandom())
    assert t1.history["London"] == [S]
    t2 = resolve_shortage(ORDER, full(**numbers, London=S, Hamburg=P), t1.history, set(), table,
                          ScriptedRandom())
    assert t2.choices[4].how == "forced" and t2.choices[4].value == P
    assert [(s.player, s.value) for s, _ in t2.refused] == [("London", S)]
    assert "you must choose surplus" in t2.refused[0][1]
    assert t2.history["London"] == [S, P]
    t3 = resolve_shortage(ORDER, full(**numbers, London=P, Hamburg=S), t2.history, set(), table,
                          ScriptedRandom())
    assert t3.refused == [] and t3.outcomes[0].side == P
    assert t3.history["London"] == [S, P, P]
    assert allowed(t3.history, "London") == {S}
    assert t1.history == {"London": [S], "Hamburg": [S]}  # the input history is not changed in place


def test_the_seat_three_greater_counts_round_the_six_seats() -> None:
    """GA-OQ-23: 1->4, 2->5, 3->6 as written; 4->1, 5->2, 6->3 counting round."""
    assert [stand_in_seat(s) for s in range(1, 7)] == [4, 5, 6, 1, 2, 3]


def test_a_chaosed_players_seat_is_taken_by_the_player_three_seats_further_who_acts_twice() -> None:
    """Venice (seat 1) chaosed: Paris (seat 4) records seat 1's number for result A and his own for B.
    Paris (seat 4) chaosed instead: Venice (seat 1) acts for him, counting round."""
    asks = who_answers(ORDER, {"Venice"})
    assert asks["Venice"] == []
    assert asks["Paris"] == [Ask(1, "Venice", "number", "1&3 with 5", stand_in=True),
                             Ask(4, "Paris", "number", "2&4 with 6")]
    assert [len(asks[p]) for p in ORDER] == [0, 1, 1, 2, 1, 1]
    asks = who_answers(ORDER, {"Paris"})
    assert asks["Venice"] == [Ask(1, "Venice", "number", "1&3 with 5"),
                              Ask(4, "Paris", "number", "2&4 with 6", stand_in=True)]


def test_a_stand_ins_side_counts_toward_his_own_balance_not_the_chaosed_players() -> None:
    """Hamburg (seat 6) chaosed: Barcelona (seat 3) decides result B's side. Barcelona has one shortage on
    record, so only surplus: his 'shortage' for Hamburg (seq 7) is refused, his 'surplus' (seq 8) counts.
    Hamburg's own 'surplus' (seq 9) is refused: he is chaosed. B: Genoa 2 + Paris 2 = 4 -> Fur, surplus,
    decided by Barcelona; Barcelona's record [S, P], Hamburg's stays [P]."""
    history = {"Barcelona": [S], "Hamburg": [P]}
    answers = full(Venice=6, Genoa=2, Barcelona=6, Paris=2, London=S) + [
        Submission("Barcelona", S, 7, for_player="Hamburg"),
        Submission("Barcelona", P, 8, for_player="Hamburg"),
        Submission("Hamburg", P, 9)]
    result = resolve_shortage(ORDER, answers, history, {"Hamburg"}, example_table(), ScriptedRandom())
    assert [(o.total, o.commodity, o.side, o.decided_by) for o in result.outcomes] == [
        (12, "Gold", S, "London"), (4, "Fur", P, "Barcelona")]
    assert result.choices[5].actor == "Barcelona" and result.choices[5].seq == 8
    assert [(s.player, s.seq) for s, _ in result.refused] == [("Barcelona", 7), ("Hamburg", 9)]
    assert "chaosed" in result.refused[1][1]
    assert result.history == {"Barcelona": [S, P], "Hamburg": [P], "London": [S]}
    assert result.chaosed == ["Hamburg"]


def test_two_chaosed_players_who_would_stand_in_for_each_other_leave_both_seats_to_the_draw() -> None:
    """Genoa (2) and London (5) chaosed: each one's stand-in is the other, so nobody acts for either.
    Draws in seat order: seat 2's number randint(1,6) -> 6; seat 5's side randint(1,6) -> 2, 1-3 is
    shortage. A: Venice 3 + Barcelona 5 = 8 -> Cloth, shortage, decided by nobody. B: Genoa 6 (drawn) +
    Paris 1 = 7 -> Grain, Hamburg's surplus. Only Hamburg's side enters the record."""
    asks = who_answers(ORDER, {"Genoa", "London"})
    assert asks["Genoa"] == [] and asks["London"] == []
    rng = ScriptedRandom(6, 2)
    answers = full(Venice=3, Barcelona=5, Paris=1, Hamburg=P)
    result = resolve_shortage(ORDER, answers, {}, {"Genoa", "London"}, example_table(), rng)
    assert [(o.numbers, o.commodity, o.side, o.decided_by) for o in result.outcomes] == [
        ((3, 5), "Cloth", S, None), ((6, 1), "Grain", P, "Hamburg")]
    assert rng.calls == [("randint", 1, 6), ("randint", 1, 6)] and rng.done
    assert result.history == {"Hamburg": [P]}


def test_seats_without_an_answer_take_the_documented_defaults_in_seat_order() -> None:
    """Nobody answers. London has one surplus on record (forced to shortage, nothing drawn); Hamburg is level
    (his side is drawn). Draws: seat 1 -> 1, seat 2 -> 2, seat 3 -> 6, seat 4 -> 3, seat 6 -> 4 (4-6 is
    surplus). A: 1 + 6 = 7 Grain shortage (London, forced). B: 2 + 3 = 5 Metal surplus (Hamburg, drawn).
    Both count for the seat's decider."""
    rng = ScriptedRandom(1, 2, 6, 3, 4)
    result = resolve_shortage(ORDER, [], {"London": [P]}, set(), example_table(), rng)
    assert [(c.seat, c.value, c.how) for c in result.choices] == [
        (1, 1, "drawn"), (2, 2, "drawn"), (3, 6, "drawn"), (4, 3, "drawn"), (5, S, "forced"), (6, P, "drawn")]
    assert [(o.total, o.commodity, o.side) for o in result.outcomes] == [(7, "Grain", S), (5, "Metal", P)]
    assert rng.done and len(rng.calls) == 5
    assert result.history == {"London": [P, S], "Hamburg": [P]}


def test_a_later_answer_replaces_an_earlier_one_and_a_refused_one_replaces_nothing() -> None:
    """Venice sends 2 (seq 1), 5 (seq 7), then 9 (seq 8, refused): 5 stands. Barcelona 1: 5 + 1 = 6."""
    answers = full(Venice=2, Genoa=1, Barcelona=1, Paris=1, London=S, Hamburg=S) + [
        Submission("Venice", 5, 7), Submission("Venice", 9, 8)]
    result = resolve_shortage(ORDER, answers, {}, set(), example_table(), ScriptedRandom())
    assert (result.choices[0].value, result.choices[0].seq) == (5, 7)
    assert result.outcomes[0].total == 6
    assert [(s.value, r) for s, r in result.refused] == [(9, "9 is not a number from 1 to 6")]


def test_check_gives_the_reason_for_the_ack() -> None:
    history = {"London": [S]}
    assert check(ORDER, set(), history, Submission("Venice", 4, 1)) is None
    assert "records a number" in check(ORDER, set(), history, Submission("Venice", S, 1))
    assert "not a number" in check(ORDER, set(), history, Submission("London", 3, 1))
    assert "must choose surplus" in check(ORDER, set(), history, Submission("London", S, 1))
    assert check(ORDER, set(), history, Submission("London", P, 1)) is None
    assert "do not act for Venice" in check(ORDER, {"Venice"}, history, Submission("Genoa", 2, 1, "Venice"))
    assert check(ORDER, {"Venice"}, history, Submission("Paris", 2, 1, "Venice")) is None
    assert "chaosed" in check(ORDER, {"Venice"}, history, Submission("Venice", 2, 1))
    assert "not a player" in check(ORDER, set(), history, Submission("Paris", 2, 1, "Milan"))


def test_missing_lists_who_still_owes_an_answer_including_a_stand_ins_second() -> None:
    """Venice chaosed: Paris owes seat 1 and seat 4; answering only his own seat leaves him missing."""
    answers = full(Genoa=1, Barcelona=1, Paris=1, London=S)
    assert missing(ORDER, {"Venice"}, {}, answers) == ["Paris", "Hamburg"]
    answers += [Submission("Paris", 6, 9, for_player="Venice"), Submission("Hamburg", P, 10)]
    assert missing(ORDER, {"Venice"}, {}, answers) == []
    assert missing(ORDER, set(), {}, []) == ORDER


def test_six_distinct_players_are_needed() -> None:
    with pytest.raises(ValueError, match="six distinct players"):
        who_answers(ORDER[:5], set())
    with pytest.raises(ValueError, match="six distinct players"):
        who_answers(ORDER[:5] + ["Venice"], set())


def test_the_newsletter_reveals_every_seat_and_the_records() -> None:
    """Hamburg chaosed (Barcelona acts), Genoa silent (seat 2 drawn: 3). A: 4 + 2 = 6 Wine shortage;
    B: 3 + 5 = 8 Cloth surplus."""
    answers = full(Venice=4, Barcelona=2, Paris=5, London=S) + [Submission("Barcelona", P, 9, "Hamburg")]
    result = resolve_shortage(ORDER, answers, {}, {"Hamburg"}, example_table(), ScriptedRandom(3))
    assert format_newsletter(result) == (
        "Shortage and surplus (rule 3.3)\n"
        "  1&3 with 5: 4 + 2 = 6: Wine, shortage\n"
        "  2&4 with 6: 3 + 5 = 8: Cloth, surplus\n"
        "  Revealed:\n"
        "    1 Venice: 4\n"
        "    2 Genoa: 3 (no answer: drawn)\n"
        "    3 Barcelona: 2\n"
        "    4 Paris: 5\n"
        "    5 London: shortage\n"
        "    6 Hamburg (chaosed; Barcelona acting): surplus\n"
        "  Shortages and surpluses determined so far:\n"
        "    London: 1 shortage(s), 0 surplus(es)\n"
        "    Barcelona: 0 shortage(s), 1 surplus(es)\n")


def test_parse_value_reads_a_number_or_a_side_as_written() -> None:
    assert [parse_value(t) for t in ["4", " 6 ", "Shortage", "SURPLUS", 3]] == [4, 6, S, P, 3]
    assert [parse_value(t) for t in ["0", "7", "12", "four", "", 9, True]] == [None] * 7
