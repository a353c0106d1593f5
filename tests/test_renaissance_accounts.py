"""CREDIT, PREPAYMENT DISCOUNT, CONFLICT ORDERS (fee), LOCATION SETUPS (docs/renaissance/upkeep.md, "Accounts")."""

from __future__ import annotations

from typing import Any

from maild_rules.renaissance import accounts

FEES = {"per_family": 5.0, "per_order": 0.1, "conflict_actions": 25, "action": 0.2, "prepay_discount": 0.1,
        "location_setup": 10.0}
# Two families with 12 and 3 orders: (5 + 12 x 0.1) + (5 + 3 x 0.1) = 6.2 + 5.3 = 11.50 gross;
# discounted: 11.50 - 10% (1.15) = 10.35.
FAMILIES = {"MEDICI": 12, "BORGIA": 3}


def state_with(balance: float = 0.0, fees: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"fees": dict(fees or FEES),
            "players": {"LMD": {"name": "L", "account": {"balance": balance, "history": []}}}}


def balance(state: dict[str, Any]) -> float:
    return state["players"]["LMD"]["account"]["balance"]


def test_record_payment() -> None:
    state = state_with()
    accounts.record_payment(state, "LMD", 20.0, 3, "cheque 118")
    assert balance(state) == 20.0
    assert state["players"]["LMD"]["account"]["history"] == [
        {"turn": 3, "kind": "payment", "what": "payment cheque 118", "amount": 20.0}]


def test_account_created_when_missing() -> None:
    state = {"fees": FEES, "players": {"LMD": {"name": "L"}}}
    assert accounts.owes_prior(state, "LMD") is False
    assert state["players"]["LMD"]["account"] == {"balance": 0.0, "history": []}


def test_owing_means_no_orders() -> None:
    # Owing a single cent stops the orders; a zero balance does not.
    assert accounts.owes_prior(state_with(-0.01), "LMD") is True
    assert accounts.owes_prior(state_with(0.0), "LMD") is False
    state = state_with(-5.0)
    accounts.record_payment(state, "LMD", 5.0, 4, "")
    assert accounts.owes_prior(state, "LMD") is False


def test_fees_in_cents() -> None:
    # 3 x 0.1 is 0.30000000000000004 in floats: kept as 0.30, so the family fee is 5.30 exactly.
    assert accounts.family_fee(state_with(), 3) == 5.3
    assert accounts.turn_fees(state_with(), FAMILIES) == 11.5


def test_prepayment_discount_applied() -> None:
    # Balance 20.00 covers 10.35: 20.00 - 11.50 + 1.15 = 9.65.
    state = state_with(20.0)
    lines = accounts.charge_turn(state, "LMD", 7, FAMILIES)
    assert [(e["what"], e["amount"]) for e in lines] == [("fee MEDICI (12 orders)", -6.2),
                                                         ("fee BORGIA (3 orders)", -5.3),
                                                         ("prepayment discount 10%", 1.15)]
    assert balance(state) == 9.65


def test_prepayment_discount_boundary() -> None:
    # Exactly 10.35 paid: qualifies, ends at 0.00. At 10.34: no discount, 10.34 - 11.50 = -1.16, and he owes.
    state = state_with(10.35)
    accounts.charge_turn(state, "LMD", 7, FAMILIES)
    assert balance(state) == 0.0 and not accounts.owes_prior(state, "LMD")
    state = state_with(10.34)
    accounts.charge_turn(state, "LMD", 7, FAMILIES)
    assert balance(state) == -1.16 and accounts.owes_prior(state, "LMD")


def test_unpaid_prior_balance_must_be_paid_too() -> None:
    # -5.00 owed + 15.00 paid = 10.00 < 10.35: no discount; 10.00 - 11.50 = -1.50.
    state = state_with(-5.0)
    accounts.record_payment(state, "LMD", 15.0, 7, "")
    accounts.charge_turn(state, "LMD", 7, FAMILIES)
    assert balance(state) == -1.5


def test_late_payment_counts_for_credit_but_not_for_the_discount() -> None:
    # 5.00 on account before turn 7's due date, 20.00 recorded for turn 8 (arrived late): 5.00 < 10.35, no
    # discount: 25.00 - 11.50 = 13.50.
    state = state_with(5.0)
    accounts.record_payment(state, "LMD", 20.0, 8, "late")
    accounts.charge_turn(state, "LMD", 7, FAMILIES)
    assert balance(state) == 13.5


def test_prepaid_flag_overrides() -> None:
    state = state_with(0.0)
    accounts.charge_turn(state, "LMD", 7, FAMILIES, prepaid=True)
    assert balance(state) == -10.35
    state = state_with(100.0)
    accounts.charge_turn(state, "LMD", 7, FAMILIES, prepaid=False)
    assert balance(state) == 88.5


def test_no_orders_no_fee() -> None:
    state = state_with(3.0)
    assert accounts.charge_turn(state, "LMD", 7, {}) == []
    assert balance(state) == 3.0


def test_per_order_zero_omits_the_count() -> None:
    state = state_with(0.0, {**FEES, "per_order": 0.0})
    assert [e["what"] for e in accounts.charge_turn(state, "LMD", 7, {"MEDICI": 9})] == ["fee MEDICI"]
    assert balance(state) == -5.0


def test_conflict_fee_is_25_actions() -> None:
    # 25 actions x 0.20 = 5.00.
    state = state_with(10.0)
    entry = accounts.charge_conflict(state, "LMD", 7, "0101 besieges Pisa")
    assert entry["amount"] == -5.0 and balance(state) == 5.0


def test_conflict_needs_current_fees_prepaid() -> None:
    # Current fees 10.00 gross, 9.00 after the discount: 9.00 on account allows conflict, 8.99 does not.
    assert accounts.conflict_allowed(state_with(9.0), "LMD", 10.0) is True
    assert accounts.conflict_allowed(state_with(8.99), "LMD", 10.0) is False
    # After a first conflict fee (5.00) the balance 12.00 -> 7.00 no longer covers 9.00.
    state = state_with(12.0)
    assert accounts.conflict_allowed(state, "LMD", 10.0)
    accounts.charge_conflict(state, "LMD", 7, "battle")
    assert not accounts.conflict_allowed(state, "LMD", 10.0)


def test_location_setup_once_per_turn() -> None:
    state = state_with(25.0)
    assert accounts.charge_location_setup(state, "LMD", 7, "Timbuktu")["amount"] == -10.0
    assert accounts.charge_location_setup(state, "LMD", 7, "Gao") is None
    assert balance(state) == 15.0
    assert accounts.charge_location_setup(state, "LMD", 8, "Gao") is not None
    assert balance(state) == 5.0


def test_account_lines() -> None:
    # Brought forward 20.00 (turn 6); turn 7: +5.00 payment, -6.20, -5.30, +1.15 -> 14.65.
    state = state_with(0.0)
    accounts.record_payment(state, "LMD", 20.0, 6, "cheque")
    accounts.record_payment(state, "LMD", 5.0, 7, "cash")
    accounts.charge_turn(state, "LMD", 7, FAMILIES)
    lines = accounts.account_lines(state, "LMD", 7)
    assert lines[0] == "ACCOUNT LMD"
    assert lines[1].startswith("Balance brought forward") and lines[1].endswith(" 20.00")
    assert any(line.startswith("fee MEDICI (12 orders)") and line.endswith(" -6.20") for line in lines)
    assert lines[-1].startswith("Balance ") and lines[-1].endswith(" 14.65")
    assert accounts.account_lines(state, "LMD") == lines


def test_account_lines_warn_when_owing() -> None:
    state = state_with(0.0)
    accounts.charge_turn(state, "LMD", 2, {"MEDICI": 0})
    assert accounts.account_lines(state, "LMD")[-1] == (
        "You owe 5.00. No orders will be executed until your prior fees are paid in full.")


def test_conflict_fees_count_among_the_turns_fees_for_the_discount() -> None:
    # 15.35 on account; a conflict costs 5.00 -> 10.35 left, which covers the 10.35 discounted family fees: 0.00.
    # With 15.34: 10.34 left, no discount: 10.34 - 11.50 = -1.16.
    for start, end in ((15.35, 0.0), (15.34, -1.16)):
        state = state_with(start)
        accounts.charge_conflict(state, "LMD", 7, "battle")
        accounts.charge_turn(state, "LMD", 7, FAMILIES)
        assert balance(state) == end


def test_status_shows_the_balance_owed_and_each_familys_ducats() -> None:
    from maild_rules.renaissance import RULESET
    from tests.renaissance_fixtures import small_state

    state = small_state()
    state["players"]["LMD"]["account"]["balance"] = -12.5
    state["personae"]["0103"]["alive"] = False  # dead (succession comes at the month's end): not his family's to order
    # MEDICI: Piero 50,000 + Giovanni 20,000 = 70,000 (Giuliano dead). DORIA is ADR's, not shown to LMD.
    assert RULESET.status(state, 1, "LMD") == {
        "Account balance": "-12.50 (owed: no orders run until it is paid)", "MEDICI ducats": "70,000"}
    # DORIA: Andrea 20,000 + Domenico 30,000; the setup gives no balance: 0.
    assert RULESET.status(state, 1, "ADR") == {"Account balance": "0.00", "DORIA ducats": "50,000"}
    assert RULESET.status(state, 1, "XXX") == {}
