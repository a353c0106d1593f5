"""maild/optimize.py: exact multi-dimensional 0/1 knapsack, checked against brute force."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from maild.optimize import best_subset


def brute_force(values: list[int], costs: list[list[int]], capacities: list[int]) -> int:
    best = 0
    for pick in itertools.product((0, 1), repeat=len(values)):
        used = [sum(c[d] for c, p in zip(costs, pick, strict=True) if p) for d in range(len(capacities))]
        if all(u <= cap for u, cap in zip(used, capacities, strict=True)):
            best = max(best, sum(v for v, p in zip(values, pick, strict=True) if p))
    return best


def fits(chosen: tuple[int, ...], costs: list[list[int]], capacities: list[int]) -> bool:
    return all(sum(costs[i][d] for i in chosen) <= cap for d, cap in enumerate(capacities))


def test_against_brute_force_on_random_small_instances() -> None:
    rng = random.Random(20261122)
    for _ in range(400):
        n = rng.randint(0, 11)
        dims = rng.randint(1, 4)
        values = [rng.randint(-5, 40) for _ in range(n)]
        # Many zeros, like agendas that need only some resources.
        costs = [[rng.choice([0, 0, rng.randint(1, 25)]) for _ in range(dims)] for _ in range(n)]
        if n >= 3 and rng.random() < 0.4:  # copies of one item, as a player holding two of an agenda
            values[1], costs[1] = values[0], list(costs[0])
            values[2], costs[2] = values[0], list(costs[0])
        capacities = [rng.randint(0, 60) for _ in range(dims)]
        choice = best_subset(values, costs, capacities)
        assert choice.value == brute_force(values, costs, capacities), (values, costs, capacities)
        assert fits(choice.chosen, costs, capacities)
        assert choice.value == sum(values[i] for i in choice.chosen)
        assert list(choice.chosen) == sorted(set(choice.chosen))


def test_greedy_by_value_and_by_ratio_are_both_wrong_here() -> None:
    # Capacity 10. A: 10$ for 6 (ratio 1.67), B and C: 7$ for 5 each (ratio 1.4).
    # Greedy by value or by ratio takes A first (10$), then neither B nor C fits (6 + 5 = 11 > 10): 10$.
    # The optimum is B + C: 5 + 5 = 10 <= 10, worth 7 + 7 = 14$.
    choice = best_subset([10, 7, 7], [[6], [5], [5]], [10])
    assert (choice.chosen, choice.value) == ((1, 2), 14)


def test_several_dimensions() -> None:
    # Capacities (force 20, popularity 15, influence 30). silk tax 20$ (0, 10, 20) and
    # exile competitor 50$ (20, 5, 10) together use (20, 15, 30): exactly the capacity, 70$.
    assert best_subset([20, 50], [[0, 10, 20], [20, 5, 10]], [20, 15, 30]).value == 70
    # One less influence: only one fits; exile competitor is worth more.
    choice = best_subset([20, 50], [[0, 10, 20], [20, 5, 10]], [20, 15, 29])
    assert (choice.chosen, choice.value) == ((1,), 50)


def test_free_items_always_and_worthless_items_never() -> None:
    choice = best_subset([5, 0, -3, 4], [[0], [0], [0], [9]], [3])
    # Item 0 costs nothing; 1 and 2 are worth nothing or less; 3 does not fit.
    assert (choice.chosen, choice.value) == ((0,), 5)


def test_copies_taken_as_far_as_capacity_allows() -> None:
    # Five identical items of cost 3, capacity 10: three fit (9 <= 10), not four (12).
    choice = best_subset([4] * 5, [[3]] * 5, [10])
    assert choice.value == 12
    assert choice.chosen == (0, 1, 2)


def test_empty() -> None:
    assert best_subset([], [], [10, 10]).value == 0
    assert best_subset([3], [[1, 1]], [0, 0]).chosen == ()


def test_same_input_same_choice() -> None:
    values, costs, capacities = [6, 6, 6, 6], [[2, 1], [1, 2], [2, 1], [1, 2]], [3, 3]
    first = best_subset(values, costs, capacities)
    assert all(best_subset(values, costs, capacities) == first for _ in range(5))
    assert first.value == 12


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        best_subset([1], [[1], [2]], [3])
    with pytest.raises(ValueError):
        best_subset([1], [[1, 2]], [3])
    with pytest.raises(ValueError):
        best_subset([1], [[-1]], [3])
    with pytest.raises(ValueError):
        best_subset([1], [[1]], [-3])


@pytest.mark.parametrize("kind", ["random", "game-like", "correlated"])
def test_fifty_items_are_fast(kind: str) -> None:
    rng = random.Random(50)
    n = 50
    if kind == "random":
        costs = [[rng.randint(0, 40) for _ in range(3)] for _ in range(n)]
        values = [rng.randint(1, 60) for _ in range(n)]
    elif kind == "game-like":  # round numbers, as a GM writes agendas
        costs = [[rng.choice([0, 5, 10, 15, 20]) for _ in range(3)] for _ in range(n)]
        values = [rng.choice([10, 20, 30, 50, 80]) for _ in range(n)]
    else:  # value close to total cost: the hard case for branch and bound
        costs = [[rng.randint(1, 40) for _ in range(3)] for _ in range(n)]
        values = [sum(c) + rng.randint(-5, 5) for c in costs]
    capacities = [sum(c[d] for c in costs) // 2 for d in range(3)]
    start = time.perf_counter()
    choice = best_subset(values, costs, capacities)
    elapsed = time.perf_counter() - start
    assert fits(choice.chosen, costs, capacities)
    # Measured ~0.02 s (random, game-like) and ~0.2-0.7 s (correlated) here; generous for slow machines.
    assert elapsed < 10, elapsed
