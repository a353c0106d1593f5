"""What cleaning and prose recognition cost on top of parsing: orders a second, per mail.

    .venv/bin/python bench/bench_orders.py [SECONDS]

For Venice and Renaissance, the same orders typed plain, written bold as Gmail's plain part does, and with a
greeting and a signature: `ruleset.parse` alone on the clean text against `intake.orders.read_orders`
(clean, parse, and prose when a line did not parse).
"""

from __future__ import annotations

import sys
import time
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


def rate(call: Callable[[], object], seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            call()
        done += 100
    return done / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    names = names_of("Anna Rossi")
    print(f"{'game':12} {'mail':11} {'parse/s':>9} {'read/s':>9} {'cost µs':>8}")
    for game, lines in (("venice", VENICE), ("renaissance", RENAISSANCE)):
        ruleset = load_ruleset(game)
        for shape, text in shapes(lines).items():
            clean = clean_orders(text).text
            parse = rate(lambda: ruleset.parse(clean), seconds)  # noqa: B023 - called at once
            read = rate(lambda: read_orders(ruleset, text, names), seconds)  # noqa: B023
            print(f"{game:12} {shape:11} {parse:9.0f} {read:9.0f} {1e6 / read - 1e6 / parse:8.1f}")


if __name__ == "__main__":
    main()
