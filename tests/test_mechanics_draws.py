"""maild/draws.py: weighted draws without replacement, exact sequences and the distribution."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from maild.draws import unweighted_sample, weighted_choice, weighted_sample


def test_exact_sequence_is_the_walk_over_randrange() -> None:
    # random.Random(2026) gives randrange(10) = 1, then randrange(8) = 5, then randrange(4) = 0.
    # Weights a1 b2 c3 d4, sum 10: r = 1 falls in b's [1, 3) -> b.
    # Left a1 c3 d4, sum 8: r = 5 falls in d's [4, 8) -> d.  Left a1 c3, sum 4: r = 0 falls in a's [0, 1) -> a.
    assert weighted_sample("abcd", [1, 2, 3, 4], 3, random.Random(2026)) == ["b", "d", "a"]


def test_fractions_and_floats_are_exact_over_a_common_denominator() -> None:
    # 1/2, 0.25, 1 -> over 4: 2, 1, 4 (sum 7); random.Random(5).randrange(7) = 4 falls in z's [3, 7) -> z.
    assert weighted_sample(["x", "y", "z"], [Fraction(1, 2), 0.25, 1], 1, random.Random(5)) == ["z"]


def test_same_weights_written_differently_draw_the_same() -> None:
    for seed in range(20):
        ints = weighted_sample("abcde", [1, 0, 3, 2, 5], 4, random.Random(seed))
        floats = weighted_sample("abcde", [1.0, 0.0, 3.0, 2.0, 5.0], 4, random.Random(seed))
        fractions = weighted_sample("abcde", [Fraction(2, 2), 0, Fraction(3), 2, 5], 4, random.Random(seed))
        assert ints == floats == fractions


def test_zero_weight_never_drawn_while_a_positive_one_is_left() -> None:
    for seed in range(200):
        assert weighted_sample("abcd", [0, 3, 0, 1], 2, random.Random(seed)) in (["b", "d"], ["d", "b"])


def test_after_the_positive_weights_the_rest_are_unweighted() -> None:
    # random.Random(3): randrange(5) = 1 -> b (the only positive weight); then every weight left is 0, so
    # uniform over a c d e: randrange(4) = 1 -> c; over a d e: randrange(3) = 1 -> d.
    assert weighted_sample("abcde", [0, 5, 0, 0, 0], 3, random.Random(3)) == ["b", "c", "d"]


def test_stop_when_the_positive_weights_are_used_up() -> None:
    assert weighted_sample("abcde", [0, 5, 0, 2, 0], 4, random.Random(1), exhausted="stop") in (
        ["b", "d"], ["d", "b"])
    assert weighted_sample("abc", [0, 0, 0], 2, random.Random(1), exhausted="stop") == []


def test_all_zero_is_unweighted_and_matches_unweighted_sample() -> None:
    for seed in range(20):
        assert weighted_sample("abcdef", [0] * 6, 3, random.Random(seed)) == unweighted_sample(
            "abcdef", 3, random.Random(seed))


def test_mistakes_are_refused() -> None:
    rng = random.Random(0)
    with pytest.raises(ValueError, match="negative"):
        weighted_sample("ab", [1, -1], 1, rng)
    with pytest.raises(ValueError, match="finite"):
        weighted_sample("ab", [1, float("inf")], 1, rng)
    with pytest.raises(ValueError, match="finite"):
        weighted_sample("ab", [1, float("nan")], 1, rng)
    with pytest.raises(ValueError, match="cannot draw 3 of 2"):
        weighted_sample("ab", [1, 1], 3, rng)
    with pytest.raises(ValueError, match="2 items but 1 weights"):
        weighted_sample("ab", [1], 1, rng)
    with pytest.raises(ValueError):
        weighted_choice([], [], rng)
    assert weighted_sample("ab", [1, 1], 0, rng) == []


def test_depends_only_on_the_seed_and_the_order_of_items() -> None:
    runs = {tuple(weighted_sample(range(10), range(1, 11), 5, random.Random(99))) for _ in range(5)}
    assert len(runs) == 1


def test_single_draws_follow_the_weights() -> None:
    # Weights 1:2:3:4 -> expected shares 0.1, 0.2, 0.3, 0.4 of 40,000 draws. Chi-square with 3 degrees of
    # freedom stays under 16.27 with probability 0.999 if the draw is right.
    rng = random.Random(12345)
    n = 40_000
    counts = Counter(weighted_choice("abcd", [1, 2, 3, 4], rng) for _ in range(n))
    expected = {"a": 0.1 * n, "b": 0.2 * n, "c": 0.3 * n, "d": 0.4 * n}
    chi2 = sum((counts[k] - e) ** 2 / e for k, e in expected.items())
    assert chi2 < 16.27, (counts, chi2)


def test_without_replacement_inclusion_follows_the_sequential_rule() -> None:
    # Two of a1 b2 c3 d4 (sum 10). a is drawn first with 1/10; second after b, c or d with
    # 2/10 * 1/8 + 3/10 * 1/7 + 4/10 * 1/6 = 0.025 + 0.042857 + 0.066667 = 0.134524; in all 0.234524.
    # Over 20,000 samples the standard error is sqrt(0.2345 * 0.7655 / 20000) = 0.0030; allow 4 of them.
    rng = random.Random(777)
    n = 20_000
    hits = sum("a" in weighted_sample("abcd", [1, 2, 3, 4], 2, rng) for _ in range(n))
    assert abs(hits / n - 0.234524) < 0.012, hits / n
