"""Appendix D's schedules as data, and the one way every line of them is fired.

Every line of every schedule reads the same way: firers kill `rate × scale` men of a class each (scale G/500 for
cannons, M/1000 for everyone else), "but no more [firers] than would kill" a ceiling of the class as it stands at
that point (10%, 20%; the final, proportional lines 50% of the troops present; a melee line "in excess of that
needed to eliminate" is a ceiling of 100%). As many firers fire as the ceiling allows, a fraction included
(RW-OQ-20); the rest go on to the next line. What a line kills is rounded up on its own (RW-OQ-01) and taken from
the class as field_army.take says.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as F

from .arith import figure, loss
from .field_army import (
    ARCHER,
    ARQUEBUSIER,
    AUXILIARY,
    CREW,
    GARRISON,
    HEAVY,
    LIGHT,
    PIKE,
    RIDER,
    UNHORSED,
    Division,
    available,
    describe,
    take,
)


@dataclass(frozen=True)
class Line:
    target: str  # a class of field_army.CLASSES
    rate: F  # men killed per firer, before the scale
    ceiling: F  # share of the class, as it stands at this line, that the line may kill
    # The final, proportional line of the cannons and of the archers: every firer left fires, the ceiling caps
    # what they kill (war.md, RW-OQ-20); on every other line the ceiling stops firers, who go on to the next.
    final: bool = False
    # The report's words for the rate and the ceiling, written once ("0.8", "ceiling 10%").
    rate_text: str = ""
    ceiling_text: str = ""


def _line(target: str, rate: F, ceiling: F, final: bool = False) -> Line:
    return Line(target, rate, ceiling, final, figure(rate), f"ceiling {figure(ceiling * 100)}%")


def _lines(*rows: tuple[str, str, str]) -> tuple[Line, ...]:
    return tuple(_line(t, F(r), F(c)) for t, r, c in rows)


def _final(lines: tuple[Line, ...]) -> tuple[Line, ...]:
    last = lines[-1]
    return (*lines[:-1], _line(last.target, last.rate, last.ceiling, final=True))


# Stage 1, per cannon (a falconet a tenth), scale G/500.
CANNON = _final(_lines(("pikemen", "20", "1/10"), ("other infantry", "15", "1/10"), ("heavy cavalry", "10", "1/10"),
                       ("pikemen", "10", "1/5"), ("troops", "5", "1/2")))
# "He destroys a number of cannons equal to .2xG/500", per cannon fired (RW-OQ-19).
COUNTER_BATTERY = F("0.2")
# Stage 2, per archer, scale M/1000.
ARCHERY = _final(_lines(("light cavalry", "1", "1/10"), ("heavy cavalry", "0.9", "1/10"), ("infantry", "0.8", "1/10"),
                        ("light cavalry", "0.7", "1/5"), ("infantry", "0.6", "1/5"), ("troops", "0.1", "1/2")))
# Stage 3: "Each arquebusier kills .5xM/1000, but no more than 50% of the troops in the opposing division".
ARQUEBUS_RATE = F("0.5")
ARQUEBUS_CEILING = F(1, 2)
# Melee, parts A to D, scale M/1000; each line "in excess of that needed to eliminate" the one before.
MELEE: dict[str, tuple[Line, ...]] = {
    "A": _lines(("heavy cavalry", "0.1", "1"), ("light cavalry", "1", "1"), ("other infantry", "2", "1"),
                ("pikemen", "0.1", "1")),
    "B": _lines(("light cavalry", "0.5", "1"), ("heavy cavalry", "0.02", "1"), ("other infantry", "1", "1"),
                ("pikemen", "0.1", "1")),
    "C": _lines(("pikemen", "0.2", "1"), ("light cavalry", "0.3", "1"), ("heavy cavalry", "0.1", "1"),
                ("other infantry", "0.5", "1")),
    "D": _lines(("other infantry", "0.1", "1"), ("pikemen", "0.05", "1"), ("light cavalry", "0.03", "1"),
                ("heavy cavalry", "0.01", "1")),
}
PART_FIRERS_NAME = {"A": "heavy cavalry", "B": "light cavalry", "C": "pikemen", "D": "infantry other than pikemen"}


def part_firers(part: str, div: Division) -> int | F:
    """Who strikes in a melee part. NAVIGATION: "Each two crew inflict casualties at the same rate as one
    auxiliary"; the unhorsed heavy cavalry strike as pikemen, the auxiliaries given horses as light cavalry.
    (Whole men are an int: exact all the same, and cheaper than a Fraction.)"""
    if part == "A":
        return div[HEAVY]
    if part == "B":
        return div[LIGHT] + div[RIDER]
    if part == "C":
        return div[PIKE] + div[UNHORSED]
    foot = div[GARRISON] + div[AUXILIARY] + div[ARQUEBUSIER] + div[ARCHER]
    return foot + F(div[CREW], 2) if div[CREW] else foot


@dataclass
class Shot:
    line: Line
    firers: int | F  # firers spent on the line
    per: F  # men killed per firer (rate × scale)
    base: int  # the class as it stood
    exact: F  # what the line kills before rounding (the ceiling applied)
    lost: dict[str, int]

    @property
    def killed(self) -> int:
        return sum(self.lost.values())


def volley(firers: int | F, scale: F, lines: tuple[Line, ...], div: Division) -> tuple[list[Shot], int | F]:
    """Fires `firers` down a schedule at a division (changed in place); returns the shots and the firers left."""
    shots: list[Shot] = []
    if scale == 0:  # nobody is killed at a morale (or gunnery) of 0
        return shots, firers
    for line in lines:
        if firers <= 0:
            break
        base = available(div, line.target)
        if base == 0:
            continue
        per = line.rate * scale
        if line.final:
            used = firers
            exact = min(firers * per, line.ceiling * base)
        else:
            most = (line.ceiling * base if line.ceiling != 1 else base) / per  # the firers the ceiling allows
            used = firers if firers <= most else most
            exact = used * per
        lost = take(div, loss(exact, base), line.target)
        shots.append(Shot(line, used, per, base, exact, lost))
        firers -= used
    return shots, firers


def fmt(x: F | int) -> str:
    """A figure for the report: whole numbers as they are, others to three decimals (arith.figure; the whole
    numbers, most of a report's figures, written here without making a Fraction of them)."""
    if type(x) is int:
        return str(x)
    if x.denominator == 1:
        return str(x.numerator)
    return figure(x)


def scale_text(morale: int, factor: F) -> str:
    """M/1000 with the multipliers written out: "2 × 450/1000"."""
    return f"{morale}/1000" if factor == 1 else f"{fmt(factor)} × {morale}/1000"


def shot_text(shot: Shot, scale_text: str) -> str:
    """"pikemen: 0.625 × 20 × 400/500 = 10 (ceiling 10% of 100) → 10 killed (10 pikemen)"."""
    line = shot.line
    product = shot.firers * shot.per if line.final else shot.exact
    if line.ceiling == 1:
        limit = f" (of {shot.base})"
    elif product > shot.exact:  # the final line, capped: "9.77 × 5 × 500/500 = 48.85, ceiling 50% of 7 = 3.5"
        limit = f", {line.ceiling_text} of {shot.base} = {fmt(shot.exact)}"
    else:
        limit = f" ({line.ceiling_text} of {shot.base})"
    return (f"{line.target}: {fmt(shot.firers)} × {line.rate_text} × {scale_text} = {fmt(product)}{limit}"
            f" → {shot.killed} killed ({describe(shot.lost)})")
