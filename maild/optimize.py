"""Exact multi-dimensional 0/1 knapsack: the subset of items of greatest total value whose summed integer
cost vectors stay within the capacities.

Branch and bound, depth-first, taking before skipping. Items identical in value and cost are merged into
one group with a count, so holding five copies of an agenda costs a choice among 6 counts, not 2^5
subsets. The bound at a node is the smallest of: the value of everything left, and the fractional (LP) knapsack
bound of a few surrogate constraints — each dimension alone, and a weighted sum of the dimensions chosen
at the root to be tight — since any feasible completion respects each of them. Values are integers, so
bounds are floored and a branch that cannot strictly beat the best value so far is cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Choice:
    chosen: tuple[int, ...]  # indices of the chosen items, ascending
    value: int


@dataclass(frozen=True)
class _Group:
    value: int
    cost: tuple[int, ...]
    indices: tuple[int, ...]  # the identical items, in input order; k copies taken = the first k


def best_subset(values: Sequence[int], costs: Sequence[Sequence[int]], capacities: Sequence[int]) -> Choice:
    """The most valuable subset; among equally valuable ones, the same one for the same input.

    Items of value 0 or less are never chosen (they cannot raise the total). Costs and capacities must
    be non-negative integers.
    """
    if len(values) != len(costs):
        raise ValueError(f"{len(values)} values but {len(costs)} cost vectors")
    dims = len(capacities)
    if any(c < 0 for c in capacities):
        raise ValueError(f"capacities must not be negative: {list(capacities)}")
    always: list[int] = []
    by_kind: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for i, (value, cost) in enumerate(zip(values, costs, strict=True)):
        cost = tuple(cost)
        if len(cost) != dims:
            raise ValueError(f"item {i}: cost has {len(cost)} dimensions, capacities have {dims}")
        if any(c < 0 for c in cost):
            raise ValueError(f"item {i}: costs must not be negative: {list(cost)}")
        if value <= 0 or any(c > cap for c, cap in zip(cost, capacities, strict=True)):
            continue
        if not any(cost):
            always.append(i)
        else:
            by_kind.setdefault((value, cost), []).append(i)

    groups = [_Group(v, c, tuple(ix)) for (v, c), ix in by_kind.items()]
    if not groups:  # nothing to choose: only the free items, if any
        return Choice(tuple(always), sum(values[i] for i in always))
    if len(groups) > 1 and not _all_fit(groups, capacities):
        weights = _surrogate_weights(groups, list(capacities))
        # Branch in the order of the tightest bound's value per weight (Horowitz–Sahni): the first dive is
        # then that bound's greedy solution, usually near the optimum, so later cuts come early. Ties by
        # first index keep the search order deterministic.
        lead = weights[0]
        groups.sort(key=lambda g: (-g.value / max(sum(w * c for w, c in zip(lead, g.cost, strict=True)), 1e-300),
                                   g.indices[0]))
    else:
        # One group, or every copy of every group fits at once: the first dive takes as many of each group
        # as fit, which is the optimum whatever the order, so there is no order (and no mix) to look for.
        # The answer is the one the search below gives in any order: the bounds cut only branches that
        # cannot beat the best so far, so the search returns the first optimum in its order.
        weights = _unit_weights(dims)
    taken = _search(groups, list(capacities), weights)
    chosen = list(always)
    for group, k in zip(groups, taken, strict=True):
        chosen.extend(group.indices[:k])
    return Choice(tuple(sorted(chosen)), sum(values[i] for i in chosen))


def _all_fit(groups: list[_Group], capacities: Sequence[int]) -> bool:
    return all(sum(g.cost[d] * len(g.indices) for g in groups) <= cap for d, cap in enumerate(capacities))


def _unit_weights(dims: int) -> list[list[float]]:
    """Each dimension alone."""
    return [[1.0 if d == e else 0.0 for e in range(dims)] for d in range(dims)]


def _search(groups: list[_Group], capacities: list[int], weights: list[list[float]]) -> list[int]:
    """How many of each group the optimum takes."""
    n = len(groups)
    suffix_value = [0] * (n + 1)
    for g in range(n - 1, -1, -1):
        suffix_value[g] = suffix_value[g + 1] + groups[g].value * len(groups[g].indices)
    surrogates = [_Surrogate(groups, w) for w in weights]

    best_value = -1
    best_take: list[int] = [0] * n
    take = [0] * n

    def dfs(g: int, room: list[int], value: int) -> None:
        nonlocal best_value, best_take
        if g == n:
            if value > best_value:
                best_value, best_take = value, list(take)
            return
        cap = best_value - value  # a completion must be worth more than this to matter
        if suffix_value[g] <= cap:
            return
        for s in surrogates:
            if s.bound(g, room, suffix_value[g]) <= cap:
                return
        group = groups[g]
        most = min([len(group.indices)] + [room[d] // c for d, c in enumerate(group.cost) if c])
        for k in range(most, -1, -1):
            take[g] = k
            dfs(g + 1, [r - k * c for r, c in zip(room, group.cost, strict=True)], value + k * group.value)
        take[g] = 0

    dfs(0, capacities, 0)
    return best_take


class _Surrogate:
    """One surrogate constraint: the dimensions weighted and summed. Any feasible choice satisfies it, so
    its fractional knapsack bound is an upper bound on what the remaining groups can add."""

    def __init__(self, groups: list[_Group], weights: Sequence[float]) -> None:
        self.weights = list(weights)
        self.groups = groups
        self.unit = [sum([w * c for w, c in zip(weights, g.cost, strict=True)]) for g in groups]
        # Best value per unit of weight first; weightless groups before all; ties in group order (the sort
        # is stable).
        ratio = [-g.value / u if u > 0 else float("-inf") for g, u in zip(groups, self.unit, strict=True)]
        self.order = sorted(range(len(groups)), key=ratio.__getitem__)
        # What fractional() needs of each group, in that order: (group, value and weight of all its
        # copies, value and weight of one).
        self._rows = [(g, groups[g].value * len(groups[g].indices), self.unit[g] * len(groups[g].indices),
                       groups[g].value, self.unit[g]) for g in self.order]

    def fractional(self, start: int, room: Sequence[int], limit: float = float("inf")) -> float:
        """The LP value of the groups from `start` on under this constraint (stops early past `limit`)."""
        left = sum([w * r for w, r in zip(self.weights, room, strict=True)])
        total = 0.0
        for g, all_value, all_unit, value, unit in self._rows:
            if g < start:
                continue
            if all_unit <= left:
                total += all_value
                left -= all_unit
            else:
                total += value * left / unit
                break
            if total >= limit:
                break
        return total

    def bound(self, start: int, room: Sequence[int], limit: int) -> int:
        """An integer upper bound on what the groups from `start` on can add, capped at `limit`."""
        total = self.fractional(start, room, limit)
        # Floats may round a hair below the true bound; the margin keeps the cut safe. Values are
        # integers, so the floor is still an upper bound.
        return min(limit, int(total * (1 + 1e-9) + 1e-6))


def _surrogate_weights(groups: list[_Group], capacities: list[int]) -> list[list[float]]:
    """Each dimension alone, plus the mix of dimensions whose bound is tightest at the root; the tightest
    at the root comes first.

    The single dimensions are weak when every item uses every resource (each one alone leaves the
    others free); a mix close to the LP dual is tight there. The mix is found at the root only: a small
    grid over the simplex of weights (each dimension scaled by its capacity), then a pattern search
    that moves weight between pairs of dimensions in halving steps while the bound falls.
    """
    dims = len(capacities)
    units = _unit_weights(dims)
    units.sort(key=lambda w: _root_bound(groups, w, capacities))
    if dims < 2 or not groups:
        return units
    scale = [1.0 / c if c else 0.0 for c in capacities]

    # The pattern search comes back to mixes it has tried (a move and its reverse): each is worked out once.
    tried: dict[tuple[float, ...], float] = {}

    def root_bound(mix: Sequence[float]) -> float:
        key = tuple(mix)
        if key not in tried:
            tried[key] = _root_bound(groups, [m * s for m, s in zip(mix, scale, strict=True)], capacities)
        return tried[key]

    steps = 8 if dims <= 3 else 2
    mix = list(min(_compositions(steps, dims), key=root_bound))
    best = root_bound(mix)
    step = 0.5
    while step > 1 / 512:
        improved = False
        for a in range(dims):
            for b in range(dims):
                if a == b or mix[a] < step:
                    continue
                trial = list(mix)
                trial[a] -= step
                trial[b] += step
                value = root_bound(trial)
                if value < best:
                    mix, best, improved = trial, value, True
        if not improved:
            step /= 2
    if sum(1 for m in mix if m) < 2:
        return units  # a single dimension is already among the units
    return [[m * s for m, s in zip(mix, scale, strict=True)], *units]


def _root_bound(groups: list[_Group], weights: Sequence[float], capacities: Sequence[int]) -> float:
    """`_Surrogate(groups, weights).fractional(0, capacities)`, the same arithmetic in the same order (so
    the same float), without building what the search needs: the weights search asks this of many mixes."""
    unit = [sum([w * c for w, c in zip(weights, g.cost, strict=True)]) for g in groups]
    ratio = [-g.value / u if u > 0 else float("-inf") for g, u in zip(groups, unit, strict=True)]
    left = sum([w * r for w, r in zip(weights, capacities, strict=True)])
    total = 0.0
    for g in sorted(range(len(groups)), key=ratio.__getitem__):
        group = groups[g]
        count = len(group.indices)
        if unit[g] * count <= left:
            total += group.value * count
            left -= unit[g] * count
        else:
            total += group.value * left / unit[g]
            break
    return total


@cache
def _compositions(total: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """All ways to write `total` as an ordered sum of `parts` non-negative integers."""
    if parts == 1:
        return ((total,),)
    return tuple((first, *rest) for first in range(total + 1) for rest in _compositions(total - first, parts - 1))
