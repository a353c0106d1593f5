"""Counting an election's votes with the bonuses the rules give (ELECTIVE STATES, MILITARY ORDERS), and settling ties
the rules leave open (RH-OQ-37, as MAGISTRATES' ruling 8 in docs/renaissance/offices.md settles them).

Ties: a bonus goes to the candidate with the highest rating among those with at least one vote; between equal
ratings, to the one with more votes cast, then by lot. The office goes to the most votes after the bonuses; a tie goes
to the higher of the tie-break ratings in the order given, then by lot. Lots are drawn with the turn's rng over the
candidates' ids in sorted order, so a month re-run gives the same result.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Bonus:
    """`votes` votes for the candidate with the highest rating; a candidate missing from `ratings` has none (a
    skill he lacks), and with none among the vote-getters the bonus is not given."""

    ratings: Mapping[str, int]
    votes: int
    what: str  # for the result's words: "popularity", "piety"


@dataclass(frozen=True)
class Count:
    winner: str
    counts: dict[str, int]  # candidate -> votes, bonuses included
    bonuses: list[tuple[str, str, int]]  # (what, candidate, votes) in the order given


def _best(ids: list[str], ratings: Mapping[str, int], cast: Mapping[str, int], rng: random.Random) -> str | None:
    rated = [c for c in ids if c in ratings]
    if not rated:
        return None
    top = max(ratings[c] for c in rated)
    tied = [c for c in rated if ratings[c] == top]
    most = max(cast[c] for c in tied)
    tied = [c for c in tied if cast[c] == most]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def count(cast: Mapping[str, int], bonuses: Sequence[Bonus], tiebreaks: Sequence[Mapping[str, int]],
          rng: random.Random) -> Count:
    """The winner among the candidates of `cast` (candidate -> valid votes cast, each at least one)."""
    ids = sorted(cast)
    counts = dict(cast)
    given: list[tuple[str, str, int]] = []
    for bonus in bonuses:
        best = _best(ids, bonus.ratings, cast, rng)
        if best is not None:
            counts[best] += bonus.votes
            given.append((bonus.what, best, bonus.votes))
    high = max(counts.values())
    leaders = [c for c in ids if counts[c] == high]
    for ratings in tiebreaks:
        if len(leaders) == 1:
            break
        top = max(ratings.get(c, 0) for c in leaders)
        leaders = [c for c in leaders if ratings.get(c, 0) == top]
    winner = leaders[0] if len(leaders) == 1 else rng.choice(leaders)
    return Count(winner, counts, given)


def tally(votes: Mapping[str, str]) -> dict[str, int]:
    """voter -> candidate into candidate -> votes."""
    out: dict[str, int] = {}
    for candidate in votes.values():
        out[candidate] = out.get(candidate, 0) + 1
    return out
