"""The month's sequence (rules section ORDERS): families in order of receipt (a requested day later), a
persona's orders by phase, owing accounts skipped, the GM's payments first, a failing rule contained."""

from __future__ import annotations

import random
from typing import Any

import pytest

from maild.ruleset import GM_ORDERS, Order, OrderSet, PlacedOrder
from maild_rules.renaissance import RULESET
from maild_rules.renaissance.context import Action, Phase, done
from maild_rules.renaissance.engine import run_month
from maild_rules.renaissance.registry import ACTIONS
from tests.renaissance_fixtures import small_state


def placed(text: str, player: str, seq: int) -> list[PlacedOrder]:
    parsed = RULESET.parse(text)
    assert parsed.diagnostics == [], parsed.diagnostics
    return RULESET.effective([OrderSet(player, seq, parsed.orders)])


def month(state: dict[str, Any], *mails: tuple[str, str, int], gm: list[PlacedOrder] | None = None):
    orders: dict[str, list[PlacedOrder]] = {code: [] for code in state["players"]}
    for text, player, seq in mails:
        orders[player] += placed(text, player, seq)
    if gm:
        orders[GM_ORDERS] = gm
    return run_month(state, 1, orders, random.Random(1))


MEDICI_BUYS = "/LMD *MEDICI\n*Florence .0101\nBwool500\n"
DORIA_BUYS = "/ADR *DORIA\n*Florence .0202\nBwool500\n"


def test_families_run_in_order_of_receipt() -> None:
    # Florence supplies 600 wool at 12 with a 3% export tariff. The first family received buys 500:
    # 500 x 12 = 6,000 + 180 tariff = 6,180. The second buys what is left, 100: 1,200 + 36 = 1,236.
    r = month(small_state(), (MEDICI_BUYS, "LMD", 2), (DORIA_BUYS, "ADR", 1))
    people = r.ctx.state["personae"]
    assert people["0202"]["assets"]["wool"] == 500 and people["0202"]["assets"]["ducats"] == 30000 - 6180
    assert people["0101"]["assets"]["wool"] == 100 and people["0101"]["assets"]["ducats"] == 50000 - 1236
    swapped = month(small_state(), (MEDICI_BUYS, "LMD", 1), (DORIA_BUYS, "ADR", 2))
    assert swapped.ctx.state["personae"]["0101"]["assets"]["wool"] == 500


def test_a_family_that_asks_for_a_later_day_runs_after_the_others() -> None:
    medici_on_the_tenth = MEDICI_BUYS.replace("/LMD *MEDICI\n", "/LMD *MEDICI\n!DAY10\n")
    r = month(small_state(), (medici_on_the_tenth, "LMD", 1), (DORIA_BUYS, "ADR", 2))
    assert r.ctx.state["personae"]["0202"]["assets"]["wool"] == 500
    assert r.ctx.state["personae"]["0101"]["assets"]["wool"] == 100


def test_a_personas_transfers_run_before_his_buys_whatever_the_order_written() -> None:
    # Written: buy, then give away every ducat. Executed: the transfer first, so the purchase finds no money.
    r = month(small_state(), ("/LMD *MEDICI\n*Florence .0101\nBwool10 T0102ducat50000\n", "LMD", 1))
    outcomes = r.outcomes["MEDICI"]
    assert [o["code"] for o in outcomes] == ["T0102ducat50000", "Bwool10"]
    assert [o["ok"] for o in outcomes] == [True, False]
    assert r.ctx.state["personae"]["0102"]["assets"]["ducats"] == 20000 + 50000


def test_an_account_that_owes_executes_nothing_until_the_gm_records_a_payment() -> None:
    state = small_state()
    state["players"]["LMD"]["account"]["balance"] = -5.0
    r = month(state, (MEDICI_BUYS, "LMD", 1))
    assert "CREDIT" in r.skipped["MEDICI"] and "MEDICI" not in r.outcomes
    assert "wool" not in r.ctx.state["personae"]["0101"]["assets"]
    paid = [PlacedOrder(Order(0, "pay", "gm_payment", {"player": "LMD", "amount": 10.0, "note": "cheque"},
                              "payment"), 0)]
    r = month(state, (MEDICI_BUYS, "LMD", 1), gm=paid)
    assert "MEDICI" not in r.skipped and r.ctx.state["personae"]["0101"]["assets"]["wool"] == 500


def test_a_failing_rule_costs_only_its_order(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(ctx: Any, persona: Any, args: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setitem(ACTIONS, "pilgrimage", Action("pilgrimage", Phase.OTHER, boom))
    monkeypatch.setitem(ACTIONS, "charity", Action("charity", Phase.OTHER, lambda c, p, a: done("given")))
    r = month(small_state(), ("/LMD *MEDICI\n*Florence .0101\nHP HC1000\n", "LMD", 1))
    assert [(o["code"], o["ok"]) for o in r.outcomes["MEDICI"]] == [("HP", False), ("HC1000", True)]
    assert "the GM has been told" in r.outcomes["MEDICI"][0]["text"]
    assert r.errors and r.errors[0]["kind"] == "pilgrimage"


def test_the_callers_state_is_left_as_it_was() -> None:
    state = small_state()
    before = repr(state)
    month(state, (MEDICI_BUYS, "LMD", 1))
    assert repr(state) == before


def test_a_family_denied_ingress_still_trades_at_the_market_outside_the_walls() -> None:
    # Reading 15 (docs/renaissance.md): purchases and sales are made "at a persona's starting location", walls
    # or not. Domenico Doria, outside Florence's walls and his family denied ingress, buys 10 wool at 12 with
    # the 3% export tariff: 120 + 3.6 -> 4 (halves up) = 124 ducats.
    state = small_state()
    state["locations"]["Florence"]["ingress_denied"] = ["DORIA"]
    state["personae"]["0202"]["inside"] = False
    r = month(state, ("/ADR *DORIA\n*Florence .0202\nBwool10\n", "ADR", 1))
    assert r.outcomes["DORIA"][0]["ok"], r.outcomes
    assert r.ctx.state["personae"]["0202"]["assets"]["ducats"] == 30000 - 124
