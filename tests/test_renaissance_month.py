"""The month's order is registry.py's table (Renaissance, ORDERS: "Orders are not simultaneous. They are executed
sequentially."): its order against the rules text, the engine walking it, the phases it gives a persona's orders,
the dispatch table of order kinds, and the copy of the table in docs/renaissance.md."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from maild.ruleset import OrderSet, PlacedOrder
from maild_rules.renaissance import RULESET, engine, registry
from maild_rules.renaissance.context import Phase
from maild_rules.renaissance.families import BOOKKEEPING, Month
from maild_rules.renaissance.orderkinds import KINDS
from maild_rules.renaissance.registry import ACTIONS, HANDLERS, MONTH, ORDER_PHASES, STEPS
from tests.renaissance_fixtures import small_state

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules" / "renaissance"
DOC = ROOT / "docs" / "renaissance.md"


def steps() -> list[str]:
    return [row.fn.__name__ for row in MONTH]


# (earlier, later, the rules' words that put them so), section by section of the Renaissance rules.
RULES_ORDER: list[tuple[str, str, str]] = [
    # CREDIT: "No orders will be executed for any player until he has paid his prior month's fees in full":
    # the payments the GM records for this month come before the families' orders are let through.
    ("gm_orders", "families_orders", "CREDIT"),
    # COMMERCE: trade "at a persona's starting location for the turn": noted before any order moves anyone.
    ("note_starting_places", "families_orders", "COMMERCE"),
    # INGRESS (docs/renaissance/ingress.md, I4): a family on the waiting list "receives ingress" at the start of
    # a turn, so its personae may enter the walls by that turn's orders; where they began is noted first.
    ("note_starting_places", "admit_waiting", "INGRESS"),
    ("admit_waiting", "families_orders", "INGRESS"),
    # WEALTH: "Each March, after the markets have been reset, but before March actions are executed".
    ("quota_completions", "wealth_growth", "WEALTH"),
    ("wealth_growth", "families_orders", "WEALTH"),
    # QUOTA COMPLETIONS: "At the beginning of March ... At the beginning of September".
    ("quota_completions", "families_orders", "QUOTA COMPLETIONS"),
    # MAINTENANCE: "automatically maintained at the start of each turn (prior to the execution of any actions
    # ordered for that turn)"; "Naval maintenance is required at the start of the April turn".
    ("maintenance", "families_orders", "MAINTENANCE"),
    ("naval_maintenance", "families_orders", "MAINTENANCE"),
    # PESTILENCE closes the MAINTENANCE section ("Each turn in which Europeans ... are present"): judged at the
    # start of the turn, after maintenance (docs/renaissance/upkeep.md, reading 8).
    ("maintenance", "pestilence", "PESTILENCE"),
    ("pestilence", "families_orders", "PESTILENCE"),
    # MAGISTRATES: "Terms of office for elective magistrates run from November 1": October's ballots are counted
    # before November's orders, which the new magistrate gives.
    ("elections", "families_orders", "MAGISTRATES"),
    # SOVEREIGNS, BISHOPS: a collector is appointed "for the subsequent turn": last month's appointments for
    # this turn stand through its orders, older ones lapse before them.
    ("expire_collectors", "families_orders", "SOVEREIGNS"),
    # PROFESSIONAL SOLDIERS: a month's recruits are there to be hired by its orders.
    ("recruit_pools", "families_orders", "PROFESSIONAL SOLDIERS"),
    # SIEGE: "Siege orders take effect the turn after their issuance": before the orders that may cross the line;
    # where each persona started is known first (the besieger "begin[s] the turn outside the walls").
    ("note_starting_places", "sieges_take_effect", "SIEGE"),
    ("sieges_take_effect", "families_orders", "SIEGE"),
    # SIEGE, TOWERS: a tower's siege is tested and takes effect as a location's, before the month's orders.
    ("note_starting_places", "tower_sieges_take_effect", "SIEGE"),
    ("tower_sieges_take_effect", "families_orders", "SIEGE"),
    # NAVAL BOMBARDMENT: at ships "anchored in, or passing through": after every move of the month.
    ("families_orders", "naval_bombardments", "NAVAL BOMBARDMENT"),
    # TENANTS, FEUDATORIES: "the simultaneous order" of several holders, once all their orders are in.
    ("families_orders", "settle_office_transfers", "TENANTS"),
    # ASSASSINATION: ratings of every attempt of the turn "added together"; DUELING: challenges of the month.
    ("families_orders", "settle_assassinations", "ASSASSINATION"),
    ("families_orders", "settle_duels", "DUELING"),
    ("settle_assassinations", "succession", "THE PERSONAE FAMILIES"),
    # SIEGE: "At the end of the first turn of successful siege": when nobody can enter any more this month.
    ("families_orders", "siege_attrition", "SIEGE"),
    ("families_orders", "tower_siege_attrition", "SIEGE"),
    # COLONIES: "Should more than 100 be planted in a given turn, only 100 survive the turn": after the plantings.
    ("families_orders", "colonists_survive", "COLONIES"),
    # MERCHANTRY: approvals "during the November turn" of masters: counted once every guild order has run.
    ("families_orders", "guild_ranks", "MERCHANTRY"),
    # REPUTATION FOR PIETY: relics or icons "in his possession at the end of his turn".
    ("families_orders", "settle_veneration", "REPUTATION FOR PIETY"),
    # TRAVEL: a passenger's "location becomes 'with' the owner of the ship": where the ship ended its moves.
    ("families_orders", "passengers_follow_their_ship", "TRAVEL"),
    # ARCHITECTURE: "A persona who remains at one location during the entire August turn": judged after every
    # move, a passenger's carrying-away included.
    ("passengers_follow_their_ship", "settle_architecture", "ARCHITECTURE"),
    # TRAVEL: "Should the owner of the ships die, his passengers all die with him": succession after every step
    # that moves or kills; THE PERSONAE FAMILIES: the heir takes the dead man's place.
    ("passengers_follow_their_ship", "succession", "TRAVEL"),
    ("settle_architecture", "succession", "THE PERSONAE FAMILIES"),
    ("families_orders", "succession", "THE PERSONAE FAMILIES"),
    # THE ECCLESIASTICAL OFFICES: an offer is accepted "no later than the end of the subsequent turn": one older
    # lapses before the month's acceptances; elections are counted after every vote; a Pope's death is known before
    # the heir replaces him (THE PERSONAE FAMILIES: the heir inherits no office).
    ("expire_offers", "families_orders", "THE ECCLESIASTICAL OFFICES"),
    ("families_orders", "faith_keeps_office", "THE ECCLESIASTICAL OFFICES"),
    ("families_orders", "count_papal_votes", "THE ECCLESIASTICAL OFFICES"),
    ("families_orders", "count_congress_votes", "THE ECCLESIASTICAL OFFICES"),
    ("church_deaths", "succession", "THE PERSONAE FAMILIES"),
    ("count_papal_votes", "church_deaths", "THE ECCLESIASTICAL OFFICES"),
    # ELECTIVE STATES: December's votes counted as January begins ("terms of office commencing January 1"), before
    # any order of the new ruler's first month.
    ("note_starting_places", "count_elections", "ELECTIVE STATES"),
    ("count_elections", "families_orders", "ELECTIVE STATES"),
    # MILITARY ORDERS: a founding needs its seat's tenancy transferred the same month, so after the office transfers;
    # the election month's votes are all in after the orders; a dead grandmaster's office is the order's before
    # succession gives his heir his hereditary positions. ELECTIVE STATES: a ruler for life dead this month.
    ("settle_office_transfers", "military_orders", "MILITARY ORDERS"),
    ("settle_duels", "military_orders", "MILITARY ORDERS"),
    ("military_orders", "succession", "MILITARY ORDERS"),
    ("settle_duels", "ruler_vacancies", "ELECTIVE STATES"),
    ("ruler_vacancies", "succession", "ELECTIVE STATES"),
    # CREDIT, PREPAYMENT DISCOUNT: the fees are those of the month's executed orders, so charged after them.
    ("families_orders", "charge_fees", "CREDIT"),
    ("succession", "charge_fees", "CREDIT"),
]


@pytest.mark.parametrize(("earlier", "later", "section"), RULES_ORDER, ids=[f"{a}<{b}" for a, b, _ in RULES_ORDER])
def test_the_table_puts_the_steps_in_the_rules_order(earlier: str, later: str, section: str) -> None:
    assert steps().index(earlier) < steps().index(later), f"{section}: {earlier} must run before {later}"


def test_every_step_is_in_the_table_once_and_every_step_is_ordered_by_the_rules() -> None:
    assert len(steps()) == len(set(steps()))
    assert set(steps()) == {name for pair in RULES_ORDER for name in pair[:2]}


def test_a_personas_phases_are_the_rules_order() -> None:
    # ORDERS: "A persona's transfer orders must be executed before any other other orders for that persona, sell
    # orders must be executed next, buy orders must be executed next, training orders must be executed next and
    # movement orders must be executed last." The others, unplaced by the text, between training and movement
    # (docs/renaissance.md, reading 5).
    assert [row.phase for row in ORDER_PHASES] == [Phase.TRANSFER, Phase.SELL, Phase.BUY, Phase.TRAIN, Phase.OTHER,
                                                  Phase.MOVE]
    assert {row.phase for row in ORDER_PHASES} == set(Phase)


def recorded_month(monkeypatch: pytest.MonkeyPatch, table: tuple[registry.MonthStep, ...]) -> list[str]:
    """Run a month of the small world through `table`, each row still doing its work; the rows in the order run."""
    ran: list[str] = []

    def recording(fn: Callable[[Month], None]) -> Callable[[Month], None]:
        def run(m: Month) -> None:
            ran.append(fn.__name__)
            fn(m)
        return run

    monkeypatch.setattr(engine, "MONTH", tuple(replace(row, fn=recording(row.fn)) for row in table))
    engine.run_month(small_state(), 1, {}, random.Random(1))
    return ran


def test_the_engine_walks_the_table_from_first_row_to_last(monkeypatch: pytest.MonkeyPatch) -> None:
    assert recorded_month(monkeypatch, MONTH) == steps()
    # A row taken out of the table is not run: nothing else calls a step.
    without = tuple(row for row in MONTH if row.fn.__name__ != "pestilence")
    assert "pestilence" not in recorded_month(monkeypatch, without)


def medici_month(text: str) -> tuple[list[tuple[str, bool]], int]:
    """The MEDICI's outcomes (code, done) in the order run, and the ducats 0101 Piero ends the month with."""
    parsed = RULESET.parse(text)
    assert parsed.diagnostics == []
    orders: dict[str, list[PlacedOrder]] = {"LMD": RULESET.effective([OrderSet("LMD", 1, parsed.orders)]),
                                            "ADR": []}
    result = engine.run_month(small_state(), 1, orders, random.Random(1))
    outcomes = [(o["code"], o["ok"]) for o in result.outcomes["MEDICI"]]
    return outcomes, result.ctx.state["personae"]["0101"]["assets"]["ducats"]


def test_the_phases_run_in_the_tables_order(monkeypatch: pytest.MonkeyPatch) -> None:
    # Written: buy 10 wool, then give away all 50,000 ducats. In the rules' order the transfer runs first and the
    # purchase finds no money. With the table's phases reversed the purchase runs first: 10 wool at 12 plus the
    # 3% export tariff = 120 + 3.6 -> 124 ducats, leaving 49,876, so the transfer of 50,000 fails.
    code = "/LMD *MEDICI\n*Florence .0101\nBwool10 T0102ducat50000\n"
    assert medici_month(code) == ([("T0102ducat50000", True), ("Bwool10", False)], 0)
    monkeypatch.setattr(engine, "PHASE_ORDER", tuple(reversed(registry.PHASE_ORDER)))
    assert medici_month(code) == ([("Bwool10", True), ("T0102ducat50000", False)], 50000 - 124)


def test_every_order_kind_has_one_handler_in_the_dispatch_table_with_its_kinds_phase() -> None:
    assert set(HANDLERS) == {k.kind for k in KINDS} - BOOKKEEPING
    for k in KINDS:
        if k.kind in HANDLERS:
            assert ACTIONS[k.kind].phase is k.phase and ACTIONS[k.kind].handler is HANDLERS[k.kind]


def test_no_rule_module_registers_a_step_or_a_handler_of_its_own() -> None:
    for path in sorted(RULES.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^@(step|action)\(", text, re.M), path.name


def test_the_old_registry_view_lists_the_rule_steps_in_the_tables_order() -> None:
    orders_at = steps().index("families_orders")
    start = [name for _, name, _ in STEPS["start"]]
    end = [name for _, name, _ in STEPS["end"]]
    assert start == [n for n in steps()[:orders_at] if n not in ("gm_orders", "note_starting_places")]
    assert end == [n for n in steps()[orders_at + 1:] if n != "charge_fees"]


def test_the_docs_show_the_table_as_the_code_has_it() -> None:
    doc = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- month table: start -->\n(.*?)<!-- month table: end -->", doc, re.S)
    assert found is not None
    assert found.group(1) == registry.markdown(), "paste registry.markdown() between the markers in docs/renaissance.md"
