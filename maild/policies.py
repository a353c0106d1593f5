"""Resubmission and late policies: which of a player's mails for a turn stand, as named objects a ruleset picks.

A ruleset's `accept` (may a new mail's orders join those on file?) and `effective` (which orders are in force
at the deadline?) are the same few rules in every game, so they are written once here. A ruleset names its
policy as the class attribute ``resubmission`` of the base class `maild.ruleset.Ruleset`, whose `accept` and
`effective` follow it (a ruleset with none lets every mail's orders count):

- `FirstSetStands` (Renaissance): the first mail's orders stand; a later mail is refused. With ``keys`` the
  rule holds per key (Renaissance: per family): a later mail is refused only if it has orders for a key
  already on file, and a mail for another key is accepted beside the first. In force: every order of every
  accepted mail, in receipt order, each carrying its mail's receipt sequence.
- `LaterReplacesSameKey` (Venice): every mail is accepted; an order replaces the order in force with the
  same key (Venice: a bid for the same item, the loan), and takes the later mail's receipt sequence (so it
  also loses its place in a tie). Within one mail a later line replaces an earlier one. Orders in force are
  listed by receipt sequence, then line.
- `LaterReplacesSameGroup` (Galilei): every mail is accepted; a later mail's orders of a group replace all
  the orders of that group on file (a list of battles replaced whole), the other groups stand.
- `LastMailReplacesAll` (common PBEM style): every mail is accepted; only the last mail's orders are in
  force, whatever the earlier ones held.

"Receipt order" is always the mail's receipt sequence (`OrderSet.seq`), never the order of the list given:
order sets are sorted by it (stably) first.

Each policy says whether a later mail can change what an earlier one put on file (``later_mail_changes``):
a printout's "Orders not carried out" (maild/notcarried.py) repeats an earlier mail's lines not understood
only when no later mail could have put them right (`later_mail_changes` finds it for any ruleset).

Each policy carries ``second_mail``: the sentence an ack shows to tell the player what a second mail this
turn will do (the ack template reads ``ruleset.resubmission.second_mail``; `second_mail_words` finds it for
any ruleset, the words of the base class's default for one that names no policy). A ruleset may give its
own wording (Renaissance says "month" and "family").

The late policy stays the string ``late_policy`` of the Ruleset contract ("next_turn" or "refuse");
`LATENESS` gives each value's words for the ack (``late_mail``), looked up by `lateness_of`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from maild.ruleset import LatePolicy, Order, OrderSet, PlacedOrder


class ResubmissionPolicy(Protocol):
    second_mail: str  # what the ack tells a player a second mail this turn will do
    # Whether a later accepted mail can change or add to the orders an earlier one put on file.
    later_mail_changes: bool
    # Optional (a policy without it is taken as False): whether `accept` and `effective` over the sets on file
    # and a new one give what they give over the orders in force alone, regrouped by mail, and the new one. Then
    # intake keeps a player's book as its orders in force (`maild.ruleset.Ruleset.in_force_sets`), and a mail's
    # cost does not grow with the mails before it.
    folds: bool

    def accept(self, on_file: list[OrderSet], new: OrderSet) -> str | None:
        """None to accept `new` beside the accepted sets `on_file`, or the reason it is refused."""

    def effective(self, order_sets: list[OrderSet]) -> list[PlacedOrder]:
        """One player's orders in force, from their accepted order sets."""


def in_receipt_order(order_sets: Iterable[OrderSet]) -> list[OrderSet]:
    return sorted(order_sets, key=lambda s: s.seq)


def _all_orders(order_sets: Iterable[OrderSet]) -> list[PlacedOrder]:
    return [PlacedOrder(o, s.seq) for s in in_receipt_order(order_sets) for o in s.orders]


def _refused_again(keys: list[str]) -> str:
    if keys == [""]:
        return "orders are already on file for this turn, and the first mail's orders stand"
    return f"orders for {', '.join(keys)} are already on file for this turn, and the first mail's orders stand"


@dataclass(frozen=True)
class FirstSetStands:
    """The first mail's orders stand; a later one is refused (per key, when `keys` is given).

    `keys(orders)` lists the keys a mail's orders are for (Renaissance: its families, in order of first
    appearance); an order set with no keys is never refused. Without `keys`, the whole turn is one key, so
    any second mail with orders is refused. `refusal(keys_again)` words the refusal from the keys already on
    file, in the order the new mail names them.
    """

    keys: Callable[[list[Order]], list[str]] | None = None
    refusal: Callable[[list[str]], str] = _refused_again
    second_mail: str = "A second mail this turn will be refused: these orders stand."
    # A later mail for the same key is refused, and one for another key cannot correct this one's lines.
    later_mail_changes: bool = False

    def _keys_of(self, orders: list[Order]) -> list[str]:
        if self.keys is None:
            return [""] if orders else []
        return self.keys(orders)

    folds: bool = True

    def accept(self, on_file: list[OrderSet], new: OrderSet) -> str | None:
        filed = {k for s in on_file for k in self._keys_of(s.orders)}
        again = [k for k in self._keys_of(new.orders) if k in filed]
        return self.refusal(again) if again else None

    def effective(self, order_sets: list[OrderSet]) -> list[PlacedOrder]:
        return _all_orders(order_sets)


@dataclass(frozen=True)
class LaterReplacesSameKey:
    """Every mail is accepted; a later order replaces the one in force with the same `key(order)`.

    The order standing carries the receipt sequence of the mail that brought it. Within one mail a later line
    replaces an earlier one. Orders in force come by (receipt sequence, line).
    """

    key: Callable[[Order], Hashable]
    second_mail: str = ("Send a later mail any time before the deadline: an order in it replaces the order on "
                        "file for the same thing, and the other orders on file stand.")
    later_mail_changes: bool = True

    folds: bool = True

    def accept(self, on_file: list[OrderSet], new: OrderSet) -> str | None:
        return None

    def effective(self, order_sets: list[OrderSet]) -> list[PlacedOrder]:
        standing: dict[Hashable, PlacedOrder] = {}
        for order_set in in_receipt_order(order_sets):
            for order in order_set.orders:
                key = self.key(order)
                standing.pop(key, None)  # so the replacing order also takes the later place
                standing[key] = PlacedOrder(order, order_set.seq)
        return sorted(standing.values(), key=lambda p: (p.seq, p.order.line))


@dataclass(frozen=True)
class LaterReplacesSameGroup:
    """Every mail is accepted; a later mail's orders of a group (`group(order)`) replace every order of that
    group on file, and the other groups stand. Unlike `LaterReplacesSameKey`, a group may hold several orders
    of one mail (Galilei: a list of battles is replaced whole by the next list). Each order keeps its own
    mail's receipt sequence; orders in force come by (receipt sequence, line)."""

    group: Callable[[Order], Hashable]
    second_mail: str = ("Send a later mail any time before the deadline: its orders replace the orders of the "
                        "same kind on file, and the others stand.")
    later_mail_changes: bool = True

    folds: bool = True

    def accept(self, on_file: list[OrderSet], new: OrderSet) -> str | None:
        return None

    def effective(self, order_sets: list[OrderSet]) -> list[PlacedOrder]:
        ordered = in_receipt_order(order_sets)
        latest = {self.group(o): s.seq for s in ordered for o in s.orders}
        return [PlacedOrder(o, s.seq) for s in ordered for o in s.orders if latest[self.group(o)] == s.seq]


@dataclass(frozen=True)
class LastMailReplacesAll:
    """Every mail is accepted; only the last mail's orders are in force."""

    second_mail: str = "Send a corrected mail any time before the deadline: it replaces these orders."
    later_mail_changes: bool = True

    folds: bool = True

    def accept(self, on_file: list[OrderSet], new: OrderSet) -> str | None:
        return None

    def effective(self, order_sets: list[OrderSet]) -> list[PlacedOrder]:
        if not order_sets:
            return []
        return _all_orders([max(order_sets, key=lambda s: s.seq)])


# What the ack says for a ruleset that names no policy: the base class lets every mail's orders count.
EVERY_MAIL_COUNTS = ("Until the deadline you may mail more orders: each mail's orders are added to those on file, "
                     "so send a line that was not understood again, corrected.")


def second_mail_words(ruleset: Any) -> str:
    """What a second mail this turn will do, in the ruleset's words."""
    policy = ruleset.resubmission
    return policy.second_mail if policy is not None else EVERY_MAIL_COUNTS


def later_mail_changes(ruleset: Any) -> bool:
    """Whether a later accepted mail can change the orders an earlier one put on file; a ruleset that names
    no policy adds every mail's orders to those on file, so a line not understood can be sent again."""
    policy = ruleset.resubmission
    # A policy of a ruleset's own written before this attribute: its mails are taken as changeable, as most are.
    return bool(getattr(policy, "later_mail_changes", True)) if policy is not None else True


@dataclass(frozen=True)
class Lateness:
    policy: LatePolicy  # the value of the ruleset's ``late_policy``
    late_mail: str  # what the ack tells a player about orders that come after the deadline


NEXT_TURN = Lateness("next_turn", "Orders that arrive after the deadline count for the next turn.")
REFUSE_LATE = Lateness("refuse", "Orders that arrive after the deadline are refused.")
LATENESS: dict[str, Lateness] = {p.policy: p for p in (NEXT_TURN, REFUSE_LATE)}


def lateness_of(ruleset: Any) -> Lateness:
    """The late policy of `ruleset` with its words for the ack."""
    return LATENESS[ruleset.late_policy]
