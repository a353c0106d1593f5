"""Shortage and surplus chosen by the players (Galilei rule 3.3), pure functions for the engine to call.

Rule 3.3: "The players in positions 1&3 and 2&4 in turn order secretely record a number from 1 to 6, and
players in 5&6 position decide it between shortage and surplus simultaneously all. Then, the result for 1&3
with 5, and 2&4 with 6 determines the result."

How this module reads it (docs/galilei.md, "Shortage and surplus", GA-OQ-21 to GA-OQ-23):

- Two results a turn, A (seats 1 and 3 give the numbers, seat 5 the side) and B (seats 2, 4 and 6). The two
  numbers are added and the total (2 to 12, as two dice would show) is looked up in the setup's table
  (`ShortageTable`), which names the commodity; the side says whether it is a shortage or a surplus.
- Balance (GA-OQ-22): a player's shortages and surpluses never differ by more than one; a player one ahead
  on one side may only choose the other (`allowed`). The count runs the whole game.
- Chaos (GA-OQ-23): the seat of a chaosed player is taken by the player three seats further, counting round
  the six seats (1->4, 2->5, 3->6, 4->1, 5->2, 6->3), who so acts twice. If that player is chaosed too, the
  seat takes its default. A side chosen by a stand-in counts toward the stand-in's own balance.
- Defaults for a seat with no answer in force at the deadline: a number is drawn as a die would roll it
  (``rng.randint(1, 6)``); a side forced by the balance is the forced side; a free side is drawn as the
  base game's die (``rng.randint(1, 6)``: 1-3 shortage, 4-6 surplus). Draws are made in seat order.

The engine keeps ``history`` (player -> the sides he has determined, oldest first) in its state as JSON and
passes it back each turn; `resolve_shortage` returns it updated.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from maild.choices import Answer, Decision, collect

SHORTAGE = "shortage"
SURPLUS = "surplus"
SIDES = frozenset({SHORTAGE, SURPLUS})
NUMBERS = frozenset(range(1, 7))
SEATS = 6

Kind = Literal["number", "side"]

# Result A is "1&3 with 5", result B "2&4 with 6": (label, the two number seats, the side seat).
RESULTS: tuple[tuple[str, tuple[int, int], int], ...] = (
    ("1&3 with 5", (1, 3), 5),
    ("2&4 with 6", (2, 4), 6),
)


@dataclass(frozen=True)
class Ask:
    """One thing a player must send in the shortage phase: the number or side of one seat."""

    seat: int  # 1..6, the seat in turn order whose part this is
    for_player: str  # the player who holds that seat (another player when standing in for a chaosed one)
    kind: Kind  # "number" (seats 1-4) or "side" (seats 5-6)
    result: str  # which result it feeds: "1&3 with 5" or "2&4 with 6"
    stand_in: bool = False  # True when answered for a chaosed player ("will act twice", rule 3.3)


@dataclass(frozen=True)
class Submission:
    """One answer as the engine read it from a mail: ``value`` is an int 1-6 or "shortage"/"surplus";
    ``for_player`` names the chaosed player a stand-in answers for (None: the sender's own seat)."""

    player: str
    value: int | str
    seq: int  # receipt sequence of the mail that carried it
    for_player: str | None = None


@dataclass(frozen=True)
class SeatChoice:
    """What was taken for one seat, revealed after the deadline."""

    seat: int
    for_player: str  # the seat's holder
    actor: str | None  # who answered for it (the holder, his stand-in, or None when nobody could)
    kind: Kind
    value: int | str
    how: Literal["sent", "forced", "drawn"]  # sent by the actor; his only choice taken; drawn with the RNG
    seq: int | None  # receipt sequence of the answer used, None for a default


@dataclass(frozen=True)
class Outcome:
    """One of the two results of the turn."""

    label: str  # "1&3 with 5" or "2&4 with 6"
    numbers: tuple[int, int]
    total: int
    commodity: str
    side: str  # "shortage" or "surplus"
    decided_by: str | None  # the player whose side it was (a stand-in included), None for a drawn seat


@dataclass(frozen=True)
class ShortageResult:
    outcomes: list[Outcome]  # A then B
    choices: list[SeatChoice]  # seats 1 to 6
    refused: list[tuple[Submission, str]]  # answers set aside, with the reason
    history: dict[str, list[str]]  # the balance history updated with this turn's sides
    chaosed: list[str] = field(default_factory=list)  # in seat order


@dataclass(frozen=True)
class ShortageTable:
    """The setup's table: the total of the two numbers (2 to 12) -> what is short or in surplus.

    In the setup (TOML) it is a table with one key per total, ``[shortage_table]`` ``"2" = "Stone"`` ...
    ``"12" = "Ivory"`` (examples/galilei/setup.toml); every total from 2 to 12 must be there."""

    entries: Mapping[int, str]

    def __post_init__(self) -> None:
        missing = [t for t in range(2, 13) if t not in self.entries]
        extra = sorted(t for t in self.entries if t not in range(2, 13))
        if missing or extra:
            raise ValueError(f"the shortage table needs exactly the totals 2 to 12 (missing {missing}, "
                             f"extra {extra})")

    @classmethod
    def from_setup(cls, data: Mapping[str, object]) -> ShortageTable:
        """The table from the setup's mapping of totals (keys as strings or ints) to names."""
        entries: dict[int, str] = {}
        for key, name in data.items():
            try:
                total = int(str(key))
            except ValueError:
                raise ValueError(f"the shortage table's key {key!r} is not a total from 2 to 12") from None
            if not isinstance(name, str) or not name.strip():
                raise ValueError(f"the shortage table's entry for {total} must be a name")
            entries[total] = name.strip()
        return cls(entries)

    def lookup(self, total: int) -> str:
        return self.entries[total]


def parse_value(text: str | int) -> int | str | None:
    """A player's written answer as a `Submission` value: "1" to "6" -> the int, "shortage"/"surplus" in
    any case -> the side; anything else None (the engine refuses it with its own words)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text if text in NUMBERS else None
    word = str(text).strip().lower()
    if word in SIDES:
        return word
    return int(word) if word.isdigit() and int(word) in NUMBERS else None


def _check_order(order: Sequence[str]) -> None:
    if len(order) != SEATS or len(set(order)) != SEATS:
        raise ValueError(f"rule 3.3 needs six distinct players in turn order, got {list(order)}")


def stand_in_seat(seat: int) -> int:
    """The seat 3 greater than `seat`, counting round the six seats (GA-OQ-23): 1->4 ... 4->1, 6->3."""
    return (seat + 2) % SEATS + 1


def _kind(seat: int) -> Kind:
    return "side" if seat in (5, 6) else "number"


def _result_of(seat: int) -> str:
    return next(label for label, nums, side in RESULTS if seat in nums or seat == side)


def seat_actors(order: Sequence[str], chaosed: Iterable[str]) -> dict[int, str | None]:
    """Who answers for each seat: its holder, or, if he is chaosed, the player three seats further round the
    order, or None if that player is chaosed too (the seat then takes its default)."""
    _check_order(order)
    out_of_play = set(chaosed)
    actors: dict[int, str | None] = {}
    for seat, holder in enumerate(order, 1):
        if holder not in out_of_play:
            actors[seat] = holder
        else:
            other = order[stand_in_seat(seat) - 1]
            actors[seat] = None if other in out_of_play else other
    return actors


def who_answers(order: list[str], chaosed: set[str]) -> dict[str, list[Ask]]:
    """Every player (in turn order) -> what he must send this phase, in seat order: his own seat's number or
    side and, when standing in for a chaosed player, that seat's as well. A chaosed player's list is empty."""
    actors = seat_actors(order, chaosed)
    asks: dict[str, list[Ask]] = {p: [] for p in order}
    for seat, actor in sorted(actors.items()):
        if actor is not None:
            holder = order[seat - 1]
            asks[actor].append(Ask(seat, holder, _kind(seat), _result_of(seat), stand_in=actor != holder))
    return asks


def balance(history: Mapping[str, Sequence[str]], player: str) -> int:
    """Shortages less surpluses the player has determined so far."""
    sides = history.get(player, ())
    return sum(1 for s in sides if s == SHORTAGE) - sum(1 for s in sides if s == SURPLUS)


def allowed(history: Mapping[str, Sequence[str]], player: str) -> set[str]:
    """The sides `player` may choose (GA-OQ-22, a balance): both while his shortages and surpluses are level;
    only the other side while he is ahead on one ("cannot determine more surpluses (respectively shortages)
    than shortages (respectively surpluses) in difference greater than 1")."""
    b = balance(history, player)
    if b > 0:
        return {SURPLUS}
    if b < 0:
        return {SHORTAGE}
    return set(SIDES)


def decisions(order: list[str], chaosed: set[str],
              history: Mapping[str, Sequence[str]]) -> dict[int, Decision[int | str]]:
    """One `maild.choices.Decision` per seat: its actor (if any) with his choices, and his default when it
    is certain before the deadline (a forced side). Drawn defaults are made by `resolve_shortage`."""
    actors = seat_actors(order, chaosed)
    out: dict[int, Decision[int | str]] = {}
    for seat, actor in actors.items():
        what = f"the {_kind(seat)} of seat {seat} ({order[seat - 1]})"
        if actor is None:
            out[seat] = Decision(what, {})
            continue
        if _kind(seat) == "number":
            out[seat] = Decision(what, {actor: frozenset(NUMBERS)})
        else:
            sides = frozenset(allowed(history, actor))
            default = {actor: next(iter(sides))} if len(sides) == 1 else {}
            out[seat] = Decision(what, {actor: sides}, default)
    return out


def _seat_for(order: list[str], actors: Mapping[int, str | None], sub: Submission) -> int | str:
    """The seat a submission answers, or the reason it answers none."""
    target = sub.for_player or sub.player
    if target not in order:
        return f"{target} is not a player of this game"
    seat = order.index(target) + 1
    if actors[seat] != sub.player:
        if target == sub.player:
            return "you are chaosed this turn: the player three places after you acts for you"
        return f"you do not act for {target} this turn"
    return seat


def check(order: list[str], chaosed: set[str], history: Mapping[str, Sequence[str]],
          sub: Submission) -> str | None:
    """Why `sub` is refused (for the ack), or None if it would count."""
    actors = seat_actors(order, chaosed)
    seat = _seat_for(order, actors, sub)
    if isinstance(seat, str):
        return seat
    decision = decisions(order, chaosed, history)[seat]
    return _refusal(decision, seat, sub)


def _refusal(decision: Decision[int | str], seat: int, sub: Submission) -> str | None:
    if _kind(seat) == "number" and sub.value in SIDES:
        return f"seat {seat} records a number from 1 to 6, not a shortage or surplus"
    if _kind(seat) == "side" and sub.value not in SIDES:
        return f"seat {seat} chooses shortage or surplus, not a number"
    choices = decision.allowed[sub.player]
    if sub.value not in choices:
        if _kind(seat) == "side":
            only = next(iter(choices))
            return (f"you must choose {only} this time: a player's shortages and surpluses may not differ "
                    "by more than one (rule 3.3)")
        return f"{sub.value} is not a number from 1 to 6"
    return None


def _in_force(order: list[str], chaosed: set[str], history: Mapping[str, Sequence[str]],
                     submissions: Iterable[Submission]
                     ) -> tuple[dict[int, Answer[int | str]], list[tuple[Submission, str]]]:
    actors = seat_actors(order, chaosed)
    seat_decisions = decisions(order, chaosed, history)
    per_seat: dict[int, list[Answer[int | str]]] = {s: [] for s in actors}
    refused: list[tuple[Submission, str]] = []
    for sub in sorted(submissions, key=lambda s: s.seq):
        seat = _seat_for(order, actors, sub)
        reason = seat if isinstance(seat, str) else _refusal(seat_decisions[seat], seat, sub)
        if reason is not None:
            refused.append((sub, reason))
        else:
            assert isinstance(seat, int)
            per_seat[seat].append(Answer(sub.player, sub.value, sub.seq))
    in_force: dict[int, Answer[int | str]] = {}
    for seat, answers in per_seat.items():
        ballot = collect(seat_decisions[seat], answers)
        if ballot.answers:
            in_force[seat] = next(iter(ballot.answers.values()))
    return in_force, refused


def missing(order: list[str], chaosed: set[str], history: Mapping[str, Sequence[str]],
            submissions: Iterable[Submission]) -> list[str]:
    """Players who still owe an answer (for reminders, and to close the phase early when empty)."""
    in_force, _ = _in_force(order, chaosed, history, submissions)
    actors = seat_actors(order, chaosed)
    owing = {actors[s] for s in actors if actors[s] is not None and s not in in_force}
    return [p for p in order if p in owing]


def _drawn_side(rng: random.Random) -> str:
    """The base game's die for a free side nobody chose: 1-3 shortage, 4-6 surplus."""
    return SHORTAGE if rng.randint(1, 6) <= 3 else SURPLUS


def resolve_shortage(order: list[str], answers: Iterable[Submission], history: Mapping[str, Sequence[str]],
                     chaosed: set[str], table: ShortageTable, rng: random.Random) -> ShortageResult:
    """The turn's two results from the answers in force after the deadline (the latest valid answer per
    seat), with the defaults of seats left without one drawn in seat order, and the balance history updated
    (a side counts for the player who chose it, his stand-in included; a side drawn for a seat nobody could
    act for counts for nobody)."""
    actors = seat_actors(order, chaosed)
    in_force, refused = _in_force(order, chaosed, history, answers)
    seat_decisions = decisions(order, chaosed, history)
    taken: list[SeatChoice] = []
    for seat in range(1, SEATS + 1):
        actor, kind = actors[seat], _kind(seat)
        answer = in_force.get(seat)
        if answer is not None:
            taken.append(SeatChoice(seat, order[seat - 1], actor, kind, answer.choice, "sent", answer.seq))
        elif kind == "number":
            taken.append(SeatChoice(seat, order[seat - 1], actor, kind, rng.randint(1, 6), "drawn", None))
        elif actor is not None and actor in seat_decisions[seat].default:
            forced = seat_decisions[seat].default[actor]
            taken.append(SeatChoice(seat, order[seat - 1], actor, kind, forced, "forced", None))
        else:
            taken.append(SeatChoice(seat, order[seat - 1], actor, kind, _drawn_side(rng), "drawn", None))
    by_seat = {c.seat: c for c in taken}
    outcomes: list[Outcome] = []
    new_history = {p: list(s) for p, s in history.items()}
    for label, (a, b), side_seat in RESULTS:
        numbers = (int(by_seat[a].value), int(by_seat[b].value))
        total = sum(numbers)
        side = by_seat[side_seat]
        outcomes.append(Outcome(label, numbers, total, table.lookup(total), str(side.value), side.actor))
        if side.actor is not None:
            new_history.setdefault(side.actor, []).append(str(side.value))
    return ShortageResult(outcomes, taken, refused, new_history, [p for p in order if p in chaosed])


_HOW = {"sent": "", "forced": " (his only choice under the balance)", "drawn": " (no answer: drawn)"}


def format_newsletter(result: ShortageResult) -> str:
    """The newsletter's section: both results, every seat's number or side revealed, and the balances."""
    lines = ["Shortage and surplus (rule 3.3)"]
    for o in result.outcomes:
        lines.append(f"  {o.label}: {o.numbers[0]} + {o.numbers[1]} = {o.total}: {o.commodity}, {o.side}")
    lines.append("  Revealed:")
    for c in result.choices:
        who = c.for_player if c.actor == c.for_player else (
            f"{c.for_player} (chaosed; {c.actor} acting)" if c.actor else f"{c.for_player} (chaosed; nobody to act)")
        lines.append(f"    {c.seat} {who}: {c.value}{_HOW[c.how]}")
    for r in result.refused:
        sub, reason = r
        lines.append(f"  Set aside: {sub.player}'s {sub.value}: {reason}")
    deciders = [c.actor for c in result.choices if c.kind == "side" and c.actor is not None]
    if deciders:
        lines.append("  Shortages and surpluses determined so far:")
        for p in deciders:
            sides = result.history.get(p, [])
            lines.append(f"    {p}: {sides.count(SHORTAGE)} shortage(s), {sides.count(SURPLUS)} surplus(es)")
    return "\n".join(lines) + "\n"
