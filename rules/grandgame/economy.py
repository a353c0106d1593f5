"""The Grand Game's prices and tables: GDP development at increasing prices, political spending and the Francs
it yields, atomic research by turn and the bomb, unit prices in GDP and in Francs, railroads, transfers, the
League's reinforcements, the start's Francs and purchase, and the end score of a countable goal. Pure
arithmetic on whole numbers (and Fractions for shares); no board, no I/O.

The rules' words each function rests on are quoted beside it; the readings of open points (GG-OQ-nn) are in
docs/grand-game.md, "Combat, costs and chances".
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from .combat import AIRCRAFT, ARMOR, HEAVY_FLEET, INFANTRY, LIGHT_FLEET

# ---- GDP development ----------------------------------------------------------------------------------------

#: The columns of "Current GDP": (lowest, highest) national GDP, None for no upper bound. GG-OQ-11: a GDP of
#: 120 is in "(81 - 120)", the column that names it; "(120+)" is read as above 120.
DEVELOPMENT_COLUMNS: tuple[tuple[int, int | None], ...] = ((0, 40), (41, 80), (81, 120), (121, None))

#: The table, row by row: the GDP paid for 1 to 20 additional GDP points, one figure per column; None where
#: the text's cell is empty (18 to 20 points in "(0 - 40)").
DEVELOPMENT_TABLE: tuple[tuple[int | None, ...], ...] = (
    (1, 1, 1, 1),
    (2, 2, 2, 2),
    (3, 3, 3, 4),
    (4, 4, 5, 6),
    (5, 6, 7, 9),
    (7, 8, 9, 12),
    (9, 10, 12, 16),
    (11, 12, 15, 20),
    (13, 15, 18, 25),
    (15, 18, 21, 30),
    (18, 21, 25, 36),
    (21, 24, 29, 42),
    (24, 28, 33, 49),
    (27, 32, 38, 56),
    (30, 36, 43, 64),
    (34, 40, 48, 72),
    (38, 45, 54, 81),
    (None, 50, 60, 90),
    (None, 55, 66, 100),
    (None, 60, 73, 110),
)


def development_column(gdp: int) -> int:
    """The table's column (0 to 3) for a national GDP: "the prices are set by the level of national GDP"."""
    if gdp < 0:
        raise ValueError(f"a GDP is not negative, got {gdp}")
    for index, (_, high) in enumerate(DEVELOPMENT_COLUMNS):
        if high is None or gdp <= high:
            return index
    raise AssertionError("the last column has no bound")


def development_cost(gdp: int, points: int) -> int | None:
    """What `points` additional GDP points cost in one turn at national `gdp`: the table's figure, the total for
    the turn (not per point). "if your country has a GDP of 20 (first column, under "Current GDP", "(0 - 40)")
    and you wanted to add 8 GDP ("Additional GDP" column on the left), you would pay 11 GDP."

    None when the table gives no price (GG-OQ-11): more than 20 points, or 18 to 20 at a GDP of 40 or less; the
    purchase is refused. At a GDP of 40 or less 18 points could not be paid anyway: 17 already cost 38 and
    each further point costs at least 4 at that column's rate, more than such a GDP holds."""
    if points < 0:
        raise ValueError(f"points are not negative, got {points}")
    if points == 0:
        return 0
    if points > len(DEVELOPMENT_TABLE):
        return None
    return DEVELOPMENT_TABLE[points - 1][development_column(gdp)]


def development_prices(gdp: int) -> list[int]:
    """The price of each further point within the turn (the 1st, 2nd, ...), as far as the table goes: "the
    development points cost increasing amounts *within* the turn"."""
    prices = []
    paid = 0
    for points in range(1, len(DEVELOPMENT_TABLE) + 1):
        cost = development_cost(gdp, points)
        if cost is None:
            break
        prices.append(cost - paid)
        paid = cost
    return prices


def most_development(gdp: int, budget: int) -> int:
    """The most points `budget` GDP buys in one turn at national `gdp`."""
    best = 0
    for points in range(1, len(DEVELOPMENT_TABLE) + 1):
        cost = development_cost(gdp, points)
        if cost is None or cost > budget:
            break
        best = points
    return best


# ---- politics -----------------------------------------------------------------------------------------------

#: GG-OQ-04: the levels of the section Political Spending ("Players spend either 0%, 15%, or 30% of their GDP
#: on politics") and of the deck names ("15% Dictator"), the detailed section the allocation list sends the
#: reader to ("See the detailed section on politics"). A game may set other levels matching its decks.
POLITICAL_LEVELS = (0, 15, 30)


def political_spending(gdp: int, percent: int, levels: tuple[int, ...] = POLITICAL_LEVELS) -> int:
    """The GDP spent on politics at `percent` of `gdp`, rounded down to a whole GDP unit (GG-OQ-12: GDP is spent
    in whole units, and a share never costs more than it says). "Politics: This is done in four increments"
    of GDP; the levels: `levels`."""
    if percent not in levels:
        raise ValueError(f"political spending is one of {', '.join(f'{p}%' for p in levels)}, not {percent}%")
    if gdp < 0:
        raise ValueError(f"a GDP is not negative, got {gdp}")
    return gdp * percent // 100


def political_francs(spending: int) -> int:
    """The Francs a turn's politics yields before its cards: "You receive the amount of in-game cash equal to
    your political spending (in GDP), subject to modifications on the political cards themselves"."""
    return spending


# ---- atomic research ----------------------------------------------------------------------------------------

#: "The bomb costs 300 atomic research units." (GG-OQ-06: built on reaching 300, used any time.)
BOMB_COST = 300
#: "Democracies get 1 free unit of research per season (3 per turn)."
DEMOCRACY_FREE_RESEARCH_PER_SEASON = 1


def research_price(turn: int) -> int:
    """The GDP price of one unit of atomic research in `turn`: "Turns 1-3: 1 unit costs 1 GDP", "Turns 4-6: 1 unit
    costs 2 GDP", "Turns 7+: 1 unit costs 3 GDP"."""
    if turn < 1:
        raise ValueError(f"turns count from 1, got {turn}")
    return 1 if turn <= 3 else 2 if turn <= 6 else 3


def research_cost(turn: int, units: int) -> int:
    """What `units` of research cost in `turn` (GG-OQ-13: research is ordered in units, so no GDP is left over
    that does not divide by the price)."""
    if units < 0:
        raise ValueError(f"units are not negative, got {units}")
    return units * research_price(turn)


def has_bomb(research: int) -> bool:
    """"When a player reaches 300 units of atomic research, he builds the bomb.\""""
    return research >= BOMB_COST


def research_after_sale(seller: int, buyer: int) -> int:
    """The buyer's research after buying the seller's secrets: "the units are *not* cumulative, so Country B will
    only have 50 units"; a buyer who already has more keeps his own (GG-OQ-13). The seller keeps his: "the
    nation selling its secrets does not lose his level of nuclear research"."""
    return max(seller, buyer)


# ---- prices of units and services ---------------------------------------------------------------------------

#: "Base Combat Value and Cost": the GDP price of each unit, and of a supply. GG-OQ-14: aircraft at 10.
SUPPLY = "supply"
GDP_PRICES: dict[str, int] = {INFANTRY: 5, ARMOR: 5, AIRCRAFT: 10, LIGHT_FLEET: 5, HEAVY_FLEET: 5, SUPPLY: 1}
#: "Francs can now buy infantry and supply at double cost—infantry cost 10 Francs, supply cost 2 Francs."
FRANC_PRICES: dict[str, int] = {INFANTRY: 10, SUPPLY: 2}
#: "A railroad can be constructed on any territory in control of the player for 2 GDP."
RAILROAD_PRICE = 2
#: "you must pay the bank 1 Franc for each unit or territory transferred" ("not including supply").
TRANSFER_FEE = 1


def gdp_cost(order: Mapping[str, int]) -> int:
    """The GDP an allocation's purchase of units and supplies costs (kind -> number)."""
    return sum(GDP_PRICES[kind] * count for kind, count in order.items())


def franc_cost(order: Mapping[str, int]) -> int:
    """The Francs a purchase after a season costs: "Players may only purchase infantry and supply with Francs"."""
    for kind in order:
        if kind not in FRANC_PRICES:
            raise ValueError(f"Francs buy only infantry and supply, not {kind}")
    return sum(FRANC_PRICES[kind] * count for kind, count in order.items())


def transfer_fee(units: int, territories: int) -> int:
    """The Francs the giver pays the bank for a transfer: 1 per unit or territory, supplies free ("Supply costs
    nothing to transfer")."""
    return TRANSFER_FEE * (units + territories)


# ---- the League ---------------------------------------------------------------------------------------------

#: "Every 12 Francs contributed instantaneously adds 1 infantry and 1 supply to the territory being invaded."
LEAGUE_PRICE = 12
#: "Neutral powers obtain 1 unit and 3 supply on every territory they control."
NEUTRAL_UNITS = 1
NEUTRAL_SUPPLY = 3


def league_reinforcements(contributions: Mapping[str, int]) -> int:
    """The infantry (and as many supplies) the League adds: the pooled contributions divided by 12, "rounded
    down" (GG-OQ-25: the pool is rounded, not each player's share, so players may "chip in" together)."""
    if any(amount < 0 for amount in contributions.values()):
        raise ValueError("a contribution is not negative")
    return sum(contributions.values()) // LEAGUE_PRICE


# ---- the start and the end ----------------------------------------------------------------------------------

#: "up to a maximum of 50 Francs"
INITIAL_FRANCS_CAP = 50


def initial_francs(price_paid: int) -> int:
    """"Each player begins the game with the number of Francs equal to the auction price he paid in USD up to a
    maximum of 50 Francs (if he paid $20, he gets 20 Francs; if he paid $50, he gets 50 Francs; if he paid $70,
    he gets 50 Francs)"."""
    return min(price_paid, INITIAL_FRANCS_CAP)


def initial_purchase(gdp: int) -> int:
    """"Each player also starts with 20 + their initial GDP's worth of GDP units to spend on units and
    supplies.\""""
    return 20 + gdp


def goal_score(reached: int, goal: int) -> Fraction:
    """The end score of a countable goal at turn 10, at most 1: "if your victory condition was "Accumulate 400
    Francs" and you accumulated 350, your end game score would be 87.5%"."""
    if goal <= 0:
        raise ValueError(f"a goal is positive, got {goal}")
    return min(Fraction(max(reached, 0), goal), Fraction(1))


def destroy_score(starting_territories: int, territories_now: int) -> Fraction:
    """The end score of "Destroy Player X": the share of his starting territories he has lost (GG-OQ-27). The
    text's "divide his starting territories by the number of territories he currently owns" gives 100% or more
    as soon as he has lost anything, and nothing when he is destroyed (a division by 0); read as the share
    lost, it runs from 0 (he holds as many as at the start) to 100% (he holds none), like every other score."""
    if starting_territories <= 0:
        raise ValueError(f"a player starts with territories, got {starting_territories}")
    lost = starting_territories - max(territories_now, 0)
    return min(max(Fraction(lost, starting_territories), Fraction(0)), Fraction(1))
