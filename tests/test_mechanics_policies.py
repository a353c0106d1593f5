"""maild/policies.py: which of a player's mails stand, and what the ack says a second mail will do."""

from __future__ import annotations

from maild.policies import (
    EVERY_MAIL_COUNTS,
    NEXT_TURN,
    REFUSE_LATE,
    FirstSetStands,
    LastMailReplacesAll,
    LaterReplacesSameGroup,
    LaterReplacesSameKey,
    lateness_of,
    second_mail_words,
)
from maild.ruleset import Order, OrderSet, Ruleset
from maild_rules.renaissance.ruleset import RULESET as RENAISSANCE
from maild_rules.venice.ruleset import RULESET as VENICE


def order(line: int, kind: str, **args: object) -> Order:
    return Order(line, f"{kind} {args}", kind, dict(args), kind)


def mail(seq: int, *orders: Order) -> OrderSet:
    return OrderSet("alice", seq, list(orders))


def placed(policy: object, sets: list[OrderSet]) -> list[tuple[str, int, int]]:
    return [(p.order.kind, p.order.line, p.seq) for p in policy.effective(sets)]  # type: ignore[attr-defined]


# --- first set stands ------------------------------------------------------------------------------------

def test_first_set_stands_refuses_any_second_mail_without_keys() -> None:
    policy = FirstSetStands()
    first = mail(3, order(1, "move"))
    assert policy.accept([], first) is None
    reason = policy.accept([first], mail(5, order(1, "hold")))
    assert reason is not None and "already on file" in reason


def test_first_set_stands_never_refuses_a_mail_without_orders() -> None:
    assert FirstSetStands().accept([mail(3, order(1, "move"))], mail(5)) is None


def test_first_set_stands_per_key_refuses_only_the_keys_on_file() -> None:
    policy = FirstSetStands(keys=lambda orders: list(dict.fromkeys(str(o.args["unit"]) for o in orders)))
    on_file = [mail(1, order(1, "move", unit="A"))]
    assert policy.accept(on_file, mail(2, order(1, "move", unit="B"))) is None
    reason = policy.accept(on_file, mail(2, order(1, "move", unit="B"), order(2, "hold", unit="A")))
    assert reason == "orders for A are already on file for this turn, and the first mail's orders stand"


def test_first_set_stands_keeps_every_order_in_receipt_order_whatever_the_list_order() -> None:
    sets = [mail(9, order(1, "b")), mail(4, order(1, "a"), order(2, "c"))]
    assert placed(FirstSetStands(), sets) == [("a", 1, 4), ("c", 2, 4), ("b", 1, 9)]


# --- later replaces the same key -------------------------------------------------------------------------

def test_later_order_replaces_the_same_key_and_takes_the_later_place() -> None:
    policy = LaterReplacesSameKey(key=lambda o: o.args.get("item"))
    sets = [mail(2, order(1, "bid", item="x", price=5), order(2, "bid", item="y", price=1)),
            mail(7, order(1, "bid", item="x", price=9))]
    standing = policy.effective(sets)
    assert [(p.order.args["item"], p.order.args["price"], p.seq) for p in standing] == [("y", 1, 2), ("x", 9, 7)]
    assert policy.accept(sets, mail(8, order(1, "bid", item="x", price=1))) is None


def test_later_line_of_one_mail_replaces_an_earlier_line_for_the_same_key() -> None:
    policy = LaterReplacesSameKey(key=lambda o: o.args.get("item"))
    standing = policy.effective([mail(3, order(1, "bid", item="x", price=5), order(2, "bid", item="x", price=2))])
    assert [(p.order.line, p.order.args["price"]) for p in standing] == [(2, 2)]


# --- last mail replaces everything -----------------------------------------------------------------------

def test_last_mail_replaces_everything_earlier() -> None:
    policy = LastMailReplacesAll()
    sets = [mail(8, order(1, "hold"), order(2, "move")), mail(12, order(1, "retreat")), mail(10, order(1, "x"))]
    assert placed(policy, sets) == [("retreat", 1, 12)]  # seq 12 is the last received, wherever it is listed
    assert placed(policy, []) == []
    assert policy.accept(sets, mail(13)) is None


# --- rulesets and the ack's words ------------------------------------------------------------------------

def test_the_base_class_takes_accept_and_effective_from_the_policy() -> None:
    class Game(Ruleset):
        resubmission = FirstSetStands()

    first = mail(1, order(1, "move"))
    assert Game().accept([first], mail(2, order(1, "hold"))) is not None
    assert placed(Game(), [first]) == [("move", 1, 1)]


def test_each_policy_words_what_a_second_mail_does() -> None:
    assert FirstSetStands().second_mail == "A second mail this turn will be refused: these orders stand."
    assert LastMailReplacesAll().second_mail == (
        "Send a corrected mail any time before the deadline: it replaces these orders.")
    assert "replaces the order on file for the same thing" in LaterReplacesSameKey(key=id).second_mail


def test_venice_and_renaissance_name_their_policies() -> None:
    assert isinstance(VENICE.resubmission, LaterReplacesSameKey)
    assert isinstance(RENAISSANCE.resubmission, FirstSetStands)
    assert "a later bid for an item replaces your earlier bid for that item" in second_mail_words(VENICE)
    assert "refused whole" in second_mail_words(RENAISSANCE)


def test_a_ruleset_without_a_policy_adds_every_mail() -> None:
    class Game(Ruleset):
        pass

    first, second = mail(1, order(1, "move")), mail(2, order(1, "hold"))
    assert Game().accept([first], second) is None
    assert placed(Game(), [first, second]) == [("move", 1, 1), ("hold", 1, 2)]
    assert second_mail_words(Game()) == EVERY_MAIL_COUNTS


def test_late_policy_words() -> None:
    assert lateness_of(VENICE) is NEXT_TURN and lateness_of(RENAISSANCE) is NEXT_TURN
    assert NEXT_TURN.late_mail == "Orders that arrive after the deadline count for the next turn."

    class Strict:
        late_policy = "refuse"

    assert lateness_of(Strict()) is REFUSE_LATE


def test_later_replaces_same_group_replaces_a_group_whole_and_keeps_the_others() -> None:
    """Mail 1: a bid and two battles; mail 2: one battle. The battles form one group: mail 2's single battle
    replaces both of mail 1's, and mail 1's bid stands with its own receipt sequence (1)."""
    policy = LaterReplacesSameGroup(group=lambda o: "battles" if o.kind == "battle" else o.kind)
    first = mail(1, order(1, "bid", n=5), order(2, "battle", on="Paris"), order(3, "battle", on="Genoa"))
    second = mail(2, order(1, "battle", on="London"))
    assert placed(policy, [second, first]) == [("bid", 1, 1), ("battle", 1, 2)]
    assert policy.accept([first], second) is None
