"""The steps of a player's order mail (maild/intake/ordermail.py), each alone: which turn, what it orders, what
the game allows, what goes on file; and the book intake keeps as the orders in force (`Ruleset.in_force_sets`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from maild.intake.ordermail import Target, book_orders, checked, marked_turn, order_target, parse_orders
from maild.intake.read import ReadMail
from maild.intake.run import IntakeRun, MailRow
from maild.models import Game, Player, Turn
from maild.orderbook import NOT_UNDERSTOOD
from maild.policies import FirstSetStands, LastMailReplacesAll, LaterReplacesSameGroup
from maild.ruleset import Order, OrderSet, ParsedOrders, Ruleset
from maild_rules.venice import RULESET as VENICE
from tests.venice_fixtures import new_game

NOON = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def mail(text: str) -> ReadMail:
    return ReadMail(from_addr="alice@example.org", to_addrs=["gm@example.org"], subject="orders", message_id=None,
                    references=[], auto_reason=None, header=None, order_text=text,
                    line_map=tuple(range(1, text.count("\n") + 2)))


def alice() -> Player:
    return Player(id=7, game_id=1, name="alice", email="alice@example.org")


def game(turn: int = 1, finished: bool = False) -> Game:
    return Game(id=1, name="venice1", ruleset="venice", turn=turn, finished=finished)


def row(mail_id: int = 40, received: datetime = NOON) -> MailRow:
    return MailRow(mail_id, b"", 0, received)


class Turns:
    """A run whose turns are given (order_target asks the run, not the database, for them)."""

    def __init__(self, *turns: Turn) -> None:
        self.turns = {t.number: t for t in turns}
        self.book_turn: int | None = None
        self.booked_into: int | None = None

    def turn(self, _s: Any, _game: Game, number: int) -> Turn | None:
        return self.turns.get(number)


def test_a_mail_before_the_deadline_counts_for_the_open_turn_and_after_it_for_the_next() -> None:
    open_turn = Turn(number=3, deadline=NOON + timedelta(hours=5))
    run: Any = Turns(open_turn)
    on_time = order_target(None, run, row(), game(3), alice(), VENICE)  # type: ignore[arg-type]
    assert (on_time.turn, on_time.late, on_time.number, on_time.state_turn) == (open_turn, None, 3, 3)
    late = order_target(None, run, row(received=NOON + timedelta(hours=6)), game(3), alice(),  # type: ignore[arg-type]
                        VENICE)
    assert (late.turn, late.number) == (open_turn, 4)
    assert late.late is not None and "after the deadline of turn 3" in late.late
    over = order_target(None, run, row(), game(3, finished=True), alice(), VENICE)  # type: ignore[arg-type]
    assert (over.turn, over.late) == (None, "the game is over")


def test_orders_marked_for_a_later_turn_are_kept_for_it_unless_the_gm_named_the_turn() -> None:
    class Ahead(Ruleset):
        def requested_turn(self, state: dict[str, Any], turn: int, orders: list[Order]) -> int | None:
            return turn + 2

    parsed = ParsedOrders([Order(line=1, text="x", kind="x", args={}, summary="x")], [])
    target = Target(Turn(number=3), "late", 3, 3)
    ahead = marked_turn(Ahead(), {}, target, parsed)
    assert (ahead.turn, ahead.late, ahead.number, ahead.state_turn) == (target.turn, None, 5, 3)
    forced = Target(Turn(number=3), None, 3, 3, forced=3)
    assert marked_turn(Ahead(), {}, forced, parsed) is forced
    assert marked_turn(Ahead(), {}, target, ParsedOrders([], [])) is target


def test_parse_orders_reads_the_lines_as_the_games_orders() -> None:
    parsed, ignored = parse_orders(VENICE, mail("bid 5$ for 1 of silk tax\nbid lots for everything"), alice())
    assert [(o.line, o.kind, o.args["item"]) for o in parsed.orders] == [(1, "bid", "silk tax")]
    assert [d.line for d in parsed.diagnostics] == [2]
    assert ignored == []


def test_checked_drops_an_order_the_state_does_not_allow_and_says_why() -> None:
    state = new_game()
    parsed, _ = parse_orders(VENICE, mail("bid 5$ for 1 of silk tax\nbid 5$ for 1 of opera"), alice())
    result = checked(VENICE, state, 1, "alice", parsed)
    assert [o.args["item"] for o in result.orders] == ["silk tax"]  # opera is not offered in turn 1
    assert [(d.line, d.warning) for d in result.diagnostics] == [(2, False)]
    assert checked(VENICE, state, 1, "alice", ParsedOrders([], [])) == ParsedOrders([], [])


def test_book_orders_accepts_a_set_into_the_book_and_holds_its_row_back() -> None:
    run = IntakeRun()
    parsed, _ = parse_orders(VENICE, mail("bid 5$ for 1 of silk tax"), alice())
    on_file: list[OrderSet] = []
    target = Target(Turn(number=1), None, 1, 1)
    assert book_orders(run, VENICE, game(), alice(), row(40), target, parsed, on_file) is None
    assert [s.seq for s in on_file] == [40]
    assert run.pending is not None and run.pending[1] == 1 and run.pending[3].seq == 40
    assert [(r["mail_id"], r["status"], r["turn"]) for r in run._order_sets] == [(40, "accepted", 1)]


def test_book_orders_refused_by_the_policy_stays_off_the_book_but_is_recorded() -> None:
    class Once(Ruleset):
        resubmission = FirstSetStands()

    run = IntakeRun()
    order = Order(line=1, text="x", kind="x", args={}, summary="x")
    on_file = [OrderSet("alice", 30, [order])]
    refused = book_orders(run, Once(), game(), alice(), row(40), Target(Turn(number=1), None, 1, 1),
                          ParsedOrders([order], []), on_file)
    assert refused is not None and "already on file" in refused
    assert [s.seq for s in on_file] == [30] and run.pending is None
    assert [(r["status"], r["reason"]) for r in run._order_sets] == [("refused", refused)]


def test_book_orders_books_a_mail_of_only_errors_for_the_printout_and_nothing_for_no_turn() -> None:
    run = IntakeRun()
    parsed, _ = parse_orders(VENICE, mail("bid lots for everything"), alice())
    assert book_orders(run, VENICE, game(), alice(), row(40), Target(Turn(number=1), None, 1, 1), parsed, []) is None
    assert [r["status"] for r in run._order_sets] == [NOT_UNDERSTOOD]
    none = IntakeRun()
    good, _ = parse_orders(VENICE, mail("bid 5$ for 1 of silk tax"), alice())
    assert book_orders(none, VENICE, game(), alice(), row(41), Target(None, "the game is over", 1, 1), good, []) \
        is None
    assert none._order_sets == [] and none.pending is None


def _sets(*mails: list[tuple[str, int]]) -> list[OrderSet]:
    """Order sets of (kind, line) orders, one a mail, seqs 1, 2, ..."""
    return [OrderSet("alice", seq, [Order(line=line, text=f"{kind} {line}", kind=kind, args={},
                                                          summary=kind)
                                   for kind, line in orders]) for seq, orders in enumerate(mails, start=1)]


def test_the_book_kept_as_the_orders_in_force_answers_as_the_whole_book_does() -> None:
    """For each policy of maild/policies.py, the sets that stand for a book give the same orders in force and the
    same acceptance as the book itself, whatever comes next; and they do not grow with every mail."""
    class Group(Ruleset):
        resubmission = LaterReplacesSameGroup(lambda o: o.kind)

    class Last(Ruleset):
        resubmission = LastMailReplacesAll()

    class First(Ruleset):
        resubmission = FirstSetStands(keys=lambda orders: sorted({o.kind for o in orders}))

    book = _sets([("bid", 1), ("loan", 2)], [("bid", 1)], [("bid", 1), ("bid", 2)], [("loan", 1)])
    new = _sets([], [], [], [], [("bid", 3), ("tax", 4)])[-1]
    for ruleset in (Group(), Last(), First(), Ruleset()):
        kept = ruleset.in_force_sets(book)
        assert ruleset.effective([*kept, new]) == ruleset.effective([*book, new]), ruleset
        assert ruleset.accept(kept, new) == ruleset.accept(book, new), ruleset
    assert len(Last().in_force_sets(book * 50)) == 1
    # Venice: a later bid for an item replaces the earlier, a later borrow the earlier borrow.
    texts = ["bid 5$ for 1 of silk tax\nborrow 100$", "bid 7$ for 1 of silk tax", "bid 2$ for 1 of exile competitor",
             "borrow 50$"] * 25
    venice = [OrderSet("alice", seq, parse_orders(VENICE, mail(text), alice())[0].orders)
              for seq, text in enumerate(texts, start=1)]
    last = OrderSet("alice", 101, parse_orders(VENICE, mail("bid 9$ for 1 of silk tax"), alice())[0].orders)
    kept = VENICE.in_force_sets(venice)
    assert VENICE.effective([*kept, last]) == VENICE.effective([*venice, last])
    assert [s.seq for s in kept] == [98, 99, 100]  # three orders in force, whatever the hundred mails before


def test_a_ruleset_of_its_own_effective_keeps_its_whole_book() -> None:
    class Own(Ruleset):
        def effective(self, order_sets: list[OrderSet]) -> list[Any]:
            return []

    book = _sets([("bid", 1)], [("bid", 1)])
    assert Own().in_force_sets(book) is book
