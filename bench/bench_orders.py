"""What cleaning and prose recognition cost on top of parsing, per mail.

    .venv/bin/python bench/bench_orders.py [SECONDS]

For Venice and Renaissance, the same orders typed plain, written bold as Gmail's plain part does, and bulleted
with a greeting and a signature: microseconds a mail for `ruleset.parse` alone on the clean text, and for
`intake.orders.read_orders` (clean, parse, and prose when a line did not parse).
"""

from __future__ import annotations

import sys
import timeit
from collections.abc import Callable

from maild.intake.normalize import clean_orders
from maild.intake.orders import names_of, read_orders
from maild.ruleset import load_ruleset

VENICE = ["bid 20$ for 1 of silk tax", 'bid 45$ for 1 of "exile competitor"', "borrow 100$"]
RENAISSANCE = ["/MED *MEDICI", "*Florence .0101", "Bwool100 T0102ducat1000 -- for Giovanni", "*Florence .0102",
               "HC1000"]


def shapes(lines: list[str]) -> dict[str, str]:
    return {
        "plain": "\n".join(lines),
        "gmail bold": "\n".join(f"*{line}*" for line in lines),
        "greeted": "Dear GM,\n\n" + "\n".join(f"\u2022\t{line}" for line in lines) + "\n\nThanks!\nAnna",
    }


def best_us(call: Callable[[], object], seconds: float) -> float:
    """Microseconds a call, the best of five rounds (the machine is shared: the best is the least disturbed)."""
    number = max(1, int(seconds * 1e6 / 5 / max(timeit.timeit(call, number=3) / 3 * 1e6, 1)))
    return min(timeit.repeat(call, number=number, repeat=5)) / number * 1e6


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    names = names_of("Anna Rossi")
    print(f"{'game':12} {'mail':11} {'parse µs':>9} {'read µs':>9} {'cost µs':>8}")
    for game, lines in (("venice", VENICE), ("renaissance", RENAISSANCE)):
        ruleset = load_ruleset(game)
        for shape, text in shapes(lines).items():
            clean = clean_orders(text).text
            parse = best_us(lambda: ruleset.parse(clean), seconds)  # noqa: B023 - called at once
            read = best_us(lambda: read_orders(ruleset, text, names), seconds)  # noqa: B023
            print(f"{game:12} {shape:11} {parse:9.1f} {read:9.1f} {read - parse:8.1f}")


if __name__ == "__main__":
    main()
