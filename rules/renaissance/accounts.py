"""The players' accounts: CREDIT, PREPAYMENT DISCOUNT, CONFLICT ORDERS (the fee), LOCATION SETUPS.

Pure functions on the state the turn loop calls; nothing here is a step. Money is a float of the account's currency
rounded to cents after every posting. The fee schedule comes from state["fees"] (docs/renaissance-state.md):
  a family whose orders were executed this turn: per_family + per_order x its orders;
  a conflict initiated: conflict_actions x action (25 actions);
  a location set up: location_setup;
  prepayment discount: prepay_discount x the turn's family fees.
Readings (numbered) are in docs/renaissance/upkeep.md, "Accounts".
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]
Entry = dict[str, Any]

DEFAULT_FEES: dict[str, float] = {"per_family": 5.0, "per_order": 0.0, "conflict_actions": 25, "action": 0.2,
                                  "prepay_discount": 0.1, "location_setup": 10.0}
_CENT = 0.005  # below half a cent a balance is zero


def money(x: float) -> float:
    """Rounded to cents; +0.0 turns a -0.0 into 0.0 for the printout."""
    return round(float(x), 2) + 0.0


def _fee(state: State, key: str) -> float:
    return float(state.get("fees", {}).get(key, DEFAULT_FEES[key]))


def account(state: State, player_code: str) -> dict[str, Any]:
    acc = state["players"][player_code].setdefault("account", {})
    acc.setdefault("balance", 0.0)
    acc.setdefault("history", [])
    return acc


def _post(state: State, player_code: str, turn: int, kind: str, what: str, amount: float) -> Entry:
    acc = account(state, player_code)
    entry = {"turn": turn, "kind": kind, "what": what, "amount": money(amount)}
    acc["balance"] = money(acc["balance"] + entry["amount"])
    acc["history"].append(entry)
    return entry


def record_payment(state: State, player_code: str, amount: float, turn: int, note: str) -> None:
    """The GM records money received. `turn` is the turn whose due date the payment beat (reading 18): a payment
    that arrives after a turn's due date is recorded for the next turn."""
    _post(state, player_code, turn, "payment", f"payment {note}".strip(), amount)


def owes_prior(state: State, player_code: str) -> bool:
    """CREDIT: "No orders will be executed for any player until he has paid his prior month's fees in full."
    Asked before this turn's fees are charged, so a negative balance is an unpaid earlier fee. Every payment
    recorded so far counts, late or not."""
    return account(state, player_code)["balance"] < -_CENT


def family_fee(state: State, orders: int) -> float:
    return money(_fee(state, "per_family") + _fee(state, "per_order") * orders)


def turn_fees(state: State, families_with_orders: dict[str, int]) -> float:
    """The turn's fees before any discount: each family whose orders were executed (family -> its order count)."""
    return money(sum(family_fee(state, n) for n in families_with_orders.values()))


def discounted(state: State, gross: float) -> float:
    return money(gross - money(gross * _fee(state, "prepay_discount")))


def _paid_in_time(state: State, player_code: str, turn: int) -> float:
    """The balance without payments recorded for later turns (they arrived after this turn's due date)."""
    acc = account(state, player_code)
    late = sum(e["amount"] for e in acc["history"] if e.get("kind") == "payment" and e["turn"] > turn)
    return money(acc["balance"] - late)


def prepaid_in_full(state: State, player_code: str, gross: float, turn: int) -> bool:
    """PREPAYMENT DISCOUNT: the turn's fees "(plus any unpaid prior balance)" paid before the due date. The
    balance already nets any unpaid prior balance; it must cover the turn's fees after the discount (reading 17)."""
    return _paid_in_time(state, player_code, turn) >= discounted(state, gross) - _CENT


def charge_turn(state: State, player_code: str, turn: int, families_with_orders: dict[str, int],
                prepaid: bool | None = None) -> list[Entry]:
    """Charge this turn's family fees (families in execution order), then credit the prepayment discount when
    the account qualifies. `prepaid` None: decided by `prepaid_in_full` from the balance before these charges.
    Returns the history entries posted."""
    gross = turn_fees(state, families_with_orders)
    if prepaid is None:
        prepaid = prepaid_in_full(state, player_code, gross, turn)
    per_order = _fee(state, "per_order")
    entries = []
    for family, orders in families_with_orders.items():
        what = f"fee {family}" + (f" ({orders} orders)" if per_order else "")
        entries.append(_post(state, player_code, turn, "fee", what, -family_fee(state, orders)))
    discount = money(gross - discounted(state, gross))
    if prepaid and discount > 0:
        pct = f"{_fee(state, 'prepay_discount') * 100:g}%"
        entries.append(_post(state, player_code, turn, "discount", f"prepayment discount {pct}", discount))
    return entries


def conflict_fee(state: State) -> float:
    """CONFLICT ORDERS: "The conflict initiation fee (25 actions)"."""
    return money(_fee(state, "conflict_actions") * _fee(state, "action"))


def charge_conflict(state: State, player_code: str, turn: int, what: str) -> Entry:
    """Charged when the player's persona initiates a conflict (siege, interception, bombardment, a deadly
    assassination, a battle or assault that changes the data base)."""
    return _post(state, player_code, turn, "conflict", f"conflict initiation: {what}", -conflict_fee(state))


def conflict_allowed(state: State, player_code: str, current_fees: float) -> bool:
    """CREDIT: no conflict order "unless his current month's fees have been prepaid in full by the time these
    conflict orders are to be processed". `current_fees` is the month's fees before discount (`turn_fees`); the
    balance (after any conflict fee already charged this turn) must cover them as the discount reckons them."""
    return account(state, player_code)["balance"] >= discounted(state, current_fees) - _CENT


def charge_location_setup(state: State, player_code: str, turn: int, location: str = "") -> Entry | None:
    """LOCATION SETUPS: the fee is billed in the turn the location is set up; "one new location each turn", so a
    second setup in the same turn is refused (None, nothing charged)."""
    acc = account(state, player_code)
    if any(e.get("kind") == "setup" and e["turn"] == turn for e in acc["history"]):
        return None
    what = f"location setup {location}".strip()
    return _post(state, player_code, turn, "setup", what, -_fee(state, "location_setup"))


def account_lines(state: State, player_code: str, turn: int | None = None) -> list[str]:
    """The printout's account section: balance brought forward, this turn's postings (default: the latest turn
    with any), the balance, and a warning when the player owes."""
    acc = account(state, player_code)
    if turn is None:
        turn = max((e["turn"] for e in acc["history"]), default=0)
    now = [e for e in acc["history"] if e["turn"] == turn]
    balance = acc["balance"]
    later = sum(e["amount"] for e in acc["history"] if e["turn"] > turn)
    closing = money(balance - later)
    opening = money(closing - sum(e["amount"] for e in now))
    width = max([len(e["what"]) for e in now] + [len("Balance brought forward")])
    lines = [f"ACCOUNT {player_code}", f"{'Balance brought forward':<{width}}  {opening:>12,.2f}"]
    lines += [f"{e['what']:<{width}}  {e['amount']:>12,.2f}" for e in now]
    lines.append(f"{'Balance':<{width}}  {closing:>12,.2f}")
    if later:
        lines.append(f"{'Received since':<{width}}  {money(later):>12,.2f}")
    if balance < -_CENT:
        lines.append(f"You owe {-balance:,.2f}. No orders will be executed until your prior fees are paid in full.")
    return lines
