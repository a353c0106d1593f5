"""Money and resource ledgers kept inside a game's JSON state: balances per holder and currency, postings.

For games that keep accounts: The Law of the Jungle's house stores of gold and food, Galilei's public luck
ledger (every posting a four-digit decimal, GA-OQ-04), Venice-like money.

A `Ledger` is a view over a JSON dict that the ruleset owns and keeps in its state; every change is written
into that dict at once, so the state stays the single truth and is stored as it is. Its form:

    {"balances": {holder: {currency: amount}}, "postings": [posting, ...]}

with each posting ``{"turn": int, "holder": str, "currency": str, "amount": amount, "balance": amount,
"reason": str}`` (``balance`` is the holder's balance in that currency after the posting). An amount is a
JSON int when it is whole and a string "p/q" (`fractions.Fraction`'s own form) when it is not, so integer
ledgers (gold) read as plain numbers and fractional ones stay exact; a ledger made with ``decimals=4`` writes
an amount of at most four decimals as the decimal string "-0.0972" (Galilei's luck), still exact. Floats are
refused: a ledger adds exactly or not at all (write Fraction("0.9027") for a decimal figure).

Semantics:

- A holder or currency never posted to has balance 0; ``balances`` only holds what has been posted.
- `post` adds a signed amount. A posting that would take a balance below zero raises `Overdrawn` and
  changes nothing, unless the currency is one the ledger allows to go negative (``negative=``, e.g.
  ``{"luck"}``) or the call says ``overdraw=True``. A posting that lowers a balance already below zero in a
  currency that may not go negative is refused too. A zero amount is recorded (a battle that scored nothing
  is still in the public history).
- `transfer` posts ``-amount`` to one holder and ``+amount`` to another, both or neither.
- ``keep_postings=False`` keeps balances only, for stores whose history nobody reads.

`display(x, digits=4)` writes an amount rounded half up on its magnitude, the sign kept: 0.16666 -> 0.1667,
0.83333 -> 0.8333, -0.90275 -> -0.9028 (Galilei 3.10: "rounding 4th digit to closest number depending on next
digit being lower than 5 or not"). Rounding the magnitude makes a gain and the matching loss show the same
digits. A result that rounds to zero shows without a sign. `round_half_up` gives the same rounding as a
Fraction, for a game that keeps rounded entries.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

Amount = int | Fraction
JsonAmount = int | str


class Overdrawn(ValueError):
    """A posting that would take a balance below zero where the ledger does not allow it."""

    def __init__(self, holder: str, currency: str, balance: Amount, amount: Amount) -> None:
        super().__init__(f"{holder} has {display_plain(balance)} {currency}, cannot pay {display_plain(-amount)}")
        self.holder = holder
        self.currency = currency
        self.balance = balance
        self.amount = amount


def to_json(amount: Amount, decimals: int | None = None) -> JsonAmount:
    """An amount for the JSON state: an int when whole; with `decimals`, a decimal string when the amount has
    at most that many decimals ("-0.0972"); else "p/q". `from_json` reads all three exactly."""
    exact = _exact(amount)
    if exact.denominator == 1:
        return exact.numerator
    if decimals is not None and (exact * 10 ** decimals).denominator == 1:
        return display(exact, decimals)
    return str(exact)


def from_json(value: JsonAmount) -> Amount:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"not a ledger amount: {value!r}")
    if isinstance(value, int):
        return value
    f = Fraction(value)
    return f.numerator if f.denominator == 1 else f


def _exact(amount: Amount) -> Fraction:
    if isinstance(amount, bool) or not isinstance(amount, int | Fraction):
        raise TypeError(f"a ledger amount is an int or a Fraction, got {amount!r}")
    return Fraction(amount)


def _simplest(f: Fraction) -> Amount:
    return f.numerator if f.denominator == 1 else f


def round_half_up(amount: Amount, digits: int = 4) -> Fraction:
    """`amount` rounded to `digits` decimals, halves away from zero (on the magnitude, sign kept)."""
    f = _exact(amount)
    scale = 10 ** digits
    magnitude = (abs(f) * scale * 2 + 1) // 2  # floor(x + 1/2) on the magnitude
    return Fraction(magnitude if f >= 0 else -magnitude, scale)


def display(amount: Amount, digits: int = 4) -> str:
    """`amount` with exactly `digits` decimals, rounded half up on its magnitude: 1/6 -> "0.1667"."""
    r = round_half_up(amount, digits)
    scale = 10 ** digits
    units = abs(r.numerator * (scale // r.denominator))
    sign = "-" if r < 0 else ""
    whole, part = divmod(units, scale)
    return f"{sign}{whole}.{part:0{digits}d}" if digits else f"{sign}{whole}"


def display_plain(amount: Amount) -> str:
    """A whole amount as an integer, a fractional one to four digits."""
    f = _exact(amount)
    return str(f.numerator) if f.denominator == 1 else display(f)


@dataclass(frozen=True)
class Posting:
    turn: int
    holder: str
    currency: str
    amount: Amount
    balance: Amount  # after the posting
    reason: str


class Ledger:
    """Accounts over the JSON dict `data` (changed in place; an empty dict starts an empty ledger)."""

    def __init__(self, data: dict[str, Any], *, negative: Collection[str] = (), keep_postings: bool = True,
                 decimals: int | None = None) -> None:
        data.setdefault("balances", {})
        if keep_postings:
            data.setdefault("postings", [])
        self.data = data
        self.negative = frozenset(negative)
        self.keep_postings = keep_postings
        self.decimals = decimals  # write such amounts as decimal strings (to_json), e.g. a luck of 4 digits

    def balance(self, holder: str, currency: str) -> Amount:
        return from_json(self.data["balances"].get(holder, {}).get(currency, 0))

    def balances(self, currency: str) -> dict[str, Amount]:
        """Every holder's balance in `currency`, for those who have one."""
        return {h: from_json(acc[currency]) for h, acc in self.data["balances"].items() if currency in acc}

    def can_pay(self, holder: str, currency: str, amount: Amount) -> bool:
        return currency in self.negative or self.balance(holder, currency) >= amount

    def _check(self, holder: str, currency: str, amount: Amount, overdraw: bool) -> Fraction:
        after = _exact(self.balance(holder, currency)) + _exact(amount)
        if after < 0 and amount < 0 and not (overdraw or currency in self.negative):
            raise Overdrawn(holder, currency, self.balance(holder, currency), amount)
        return after

    def _write(self, turn: int, holder: str, currency: str, amount: Amount, after: Fraction, reason: str) -> None:
        self.data["balances"].setdefault(holder, {})[currency] = to_json(after, self.decimals)
        if self.keep_postings:
            self.data["postings"].append({"turn": turn, "holder": holder, "currency": currency,
                                          "amount": to_json(amount, self.decimals),
                                          "balance": to_json(after, self.decimals), "reason": reason})

    def post(self, turn: int, holder: str, currency: str, amount: Amount, reason: str, *,
             overdraw: bool = False) -> Amount:
        """Add `amount` (negative to take) to `holder`'s `currency`; the new balance. Raises `Overdrawn`."""
        after = self._check(holder, currency, amount, overdraw)
        self._write(turn, holder, currency, amount, after, reason)
        return _simplest(after)

    def transfer(self, turn: int, payer: str, payee: str, currency: str, amount: Amount, reason: str, *,
                 overdraw: bool = False) -> None:
        """Move `amount` from `payer` to `payee`: both postings or, if the payer cannot pay, neither."""
        if payer == payee:
            raise ValueError(f"a transfer needs two holders, got {payer} twice")
        if amount < 0:
            raise ValueError(f"a transfer moves a positive amount, got {display_plain(amount)}")
        paid = self._check(payer, currency, -_exact(amount), overdraw)
        got = self._check(payee, currency, amount, overdraw)
        self._write(turn, payer, currency, _simplest(-_exact(amount)), paid, reason)
        self._write(turn, payee, currency, amount, got, reason)

    def postings(self, holder: str | None = None, currency: str | None = None) -> Iterator[Posting]:
        """The postings in the order they were made, of one holder and/or currency if given."""
        for p in self.data.get("postings", []):
            if (holder is None or p["holder"] == holder) and (currency is None or p["currency"] == currency):
                yield Posting(p["turn"], p["holder"], p["currency"], from_json(p["amount"]),
                              from_json(p["balance"]), p["reason"])
