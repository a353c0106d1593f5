"""Receipts (issue 26): every ack names its mail's receipt number and the hash of the player's orders on file
after it; the printout and STATUS show the hash the turn was run with. One function makes both hashes
(`maild.receipts.orders_hash`), so the ack's and the printout's agree exactly when the turn had those orders."""

from __future__ import annotations

import re
from pathlib import Path

from maild.receipts import HASH_DIGITS, NOTHING, orders_hash, receipt_number
from maild.ruleset import Order, PlacedOrder
from maild.testing import Table
from tests.rps_game import EXAMPLE_SETUP

RECEIPT = re.compile(r"Your receipt (\d{6}), orders on file (\S+?)\.?$", re.MULTILINE)


def _placed(*kinds_args: tuple[str, dict[str, str]]) -> list[PlacedOrder]:
    return [PlacedOrder(Order(n, "text", kind, args, "summary"), n) for n, (kind, args) in enumerate(kinds_args, 1)]


def test_the_hash_reads_what_the_turn_reads_not_how_it_was_written() -> None:
    rock = _placed(("throw", {"throw": "rock"}))
    assert len(orders_hash(rock)) == HASH_DIGITS
    # The same order written on another line, in other words, hashes the same; another order does not.
    again = [PlacedOrder(Order(7, "THROW Rock", "throw", {"throw": "rock"}, "throw rock"), 99)]
    assert orders_hash(again) == orders_hash(rock)
    assert orders_hash(_placed(("throw", {"throw": "paper"}))) != orders_hash(rock)
    # Order matters: the turn reads orders in force in their order.
    two = _placed(("throw", {"throw": "rock"}), ("say", {"text": "hi"}))
    assert orders_hash(two) != orders_hash(list(reversed(two)))
    assert orders_hash([]) == NOTHING
    assert receipt_number(123) == "000123" and receipt_number(1234567) == "1234567"


def test_acks_carry_receipts_and_the_printout_and_status_the_hash_the_turn_ran_with(tmp_path: Path,
                                                                                 db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps", EXAMPLE_SETUP)
        table.intake()  # the welcomes
        table.send("ann@example.org", "throw rock")
        table.intake()
        first = RECEIPT.search(table.ack("ann@example.org"))
        assert first is not None
        table.send("ann@example.org", "throw paper")
        table.intake()
        second = RECEIPT.search(table.ack("ann@example.org"))
        assert second is not None
        # Receipt numbers follow the mails' arrival; a later throw replaces the earlier: a new hash.
        assert int(second.group(1)) > int(first.group(1))
        assert second.group(2) != first.group(2)
        assert second.group(2) == orders_hash(_placed(("throw", {"throw": "paper"})))
        # STATUS changes nothing: its receipt shows the same hash.
        table.send("ann@example.org", "STATUS")
        table.intake()
        status = RECEIPT.search(table.ack("ann@example.org"))
        assert status is not None and status.group(2) == second.group(2)
        # cat sent nothing: his receipt (for a HELP) says so.
        table.send("cat@example.org", "HELP")
        table.intake()
        assert f"orders on file {NOTHING}" in table.ack("cat@example.org")

        table.run_turn("rps1")
        assert f"Your orders on file when this turn ran: {second.group(2)}." in table.printout("rps1", 1, "ann")
        assert f"Your orders on file when this turn ran: {NOTHING}." in table.printout("rps1", 1, "cat")
        table.send("ann@example.org", "STATUS")
        table.intake()
        ack = table.ack("ann@example.org")
        assert f"Turn 1 was run with your orders on file {second.group(2)}." in ack
        # Turn 2 has nothing of hers yet.
        assert f"orders on file {NOTHING}" in ack
