"""The siege and bombardment of a tower (KSTn, KBTnqqq; rules/renaissance/war/tower_siege.py), against figures
worked by hand from the rules' words. SIEGE: "Siege orders fail when issued by a persona with fewer troops and crew
than the total number inside the fortification which he is besieging. (Tower garrisons are not included in this
computation unless the besieged fortification is a tower.)" Reading RW-S2 in docs/renaissance/war.md."""

from __future__ import annotations

from typing import Any

from maild_rules.renaissance import reports
from maild_rules.renaissance.codes import parse
from maild_rules.renaissance.registry import HANDLERS
from maild_rules.renaissance.war import control, siege, tower_siege
from tests.renaissance_fixtures import month_ctx
from tests.renaissance_siege_fixtures import next_turn, person, pisa

# Pisa (FAR 30, FAS 80) has one tower, the Torre (FAS 300, the MEDICI family's): its tower garrison is 10% of 300,
# 30. Giuliano (MEDICI) is inside Pisa, hence inside the Torre, with 40 archers, 10 crew, 20 horses and 10 slaves.
# Andrea (DORIA) began the month inside Pisa's walls too, outside the tower (DORIA owns none).
GIULIANO = {"archer": 40, "crew": 10, "horse": 20, "slave": 10}


def world(andrea_assets: dict[str, int], *, andrea_inside: bool = True, giuliano: dict[str, int] | None = None,
          **andrea_more: Any) -> Any:
    personae = [person("0201", "DORIA", andrea_inside, andrea_assets, **andrea_more),
                person("0103", "MEDICI", True, giuliano or GIULIANO)]
    return month_ctx(personae, [pisa(towers=[{"name": "Torre", "fas": 300, "owner": "MEDICI"}])])


def torre(ctx: Any) -> dict[str, Any]:
    return ctx.state["locations"]["Pisa"]["towers"][0]


def order(ctx: Any, code: str) -> Any:
    """One of Andrea's codes, parsed as a player writes it and run by its handler."""
    parsed = parse(f"/ADR *DORIA\n*Pisa .0201\n{code}\n")
    assert parsed.diagnostics == [], parsed.diagnostics
    (o,) = parsed.orders
    return HANDLERS[o.kind](ctx, ctx.state["personae"]["0201"], o.args)


def test_the_tower_garrison_counts_when_the_besieged_fortification_is_a_tower() -> None:
    # Inside the Torre: its garrison 30 + Giuliano's 40 archers + 10 crew = 80 (horses and slaves are neither).
    # Andrea's 80 pikemen are not fewer: KST1 is ordered. The walls' count leaves the tower garrison out and takes
    # everyone within the walls, Andrea too: 50 + 80 = 130.
    ctx = world({"pikeman": 80})
    assert tower_siege.inside_count(ctx, "Pisa", 1) == 80 and siege.inside_count(ctx, "Pisa") == 130
    out = order(ctx, "KST1")
    assert out.ok, out.text
    assert torre(ctx)["siege"] == {"besieger": "0201", "ordered": 1, "since": None, "months": 0, "blocked": []}
    assert not ctx.state["locations"]["Pisa"].get("siege")  # the walls are not besieged
    # The newsletter publishes it with the location's sieges (CONFLICT ORDERS: "a siege line whose existence has
    # been published in the Newsletter").
    assert reports.sieges(ctx.state) == ["Pisa, tower 1 (Torre): siege ordered by P0201 (DORIA .0201), in effect "
                                         "from February 1493"]
    # 79 are fewer than 80: "Siege orders fail".
    ctx = world({"pikeman": 79})
    out = order(ctx, "besiege tower 1")
    assert not out.ok and "79" in out.text and "80" in out.text and not torre(ctx).get("siege")


def test_a_tower_is_besieged_from_inside_the_walls_and_not_from_inside_the_tower() -> None:
    ctx = world({"pikeman": 500}, andrea_inside=False)  # outside the town's walls: no way to the tower
    assert not order(ctx, "KST1").ok
    ctx = world({"pikeman": 500})
    ctx.state["personae"]["0201"]["family"] = "MEDICI"  # a Medici is inside the Torre himself
    out = order(ctx, "KST1")
    assert not out.ok and "inside tower 1" in out.text
    ctx = world({"pikeman": 500})
    out = order(ctx, "KST2")
    assert not out.ok and "no tower 2" in out.text


def test_a_month_of_successful_siege_attrits_those_in_the_tower_then_bombardment_cuts_its_fas() -> None:
    ctx = world({"pikeman": 80, "cannon": 10}, skills={"gunnery": 500})
    ctx.state["personae"]["0103"]["assets"]["cannon"] = 5
    ctx.state["personae"]["0103"]["skills"] = {"gunnery": 400}
    assert order(ctx, "KST1").ok
    # Turn 2: the siege takes effect; a bombardment now fails (no month of siege has held yet).
    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    tower_siege.tower_sieges_take_effect(ctx)
    assert torre(ctx)["siege"]["since"] == 2
    assert not order(ctx, "KBT110").ok
    # The Torre may not be given away while under siege (TOWERS).
    gift = control.transfer_tower(ctx, ctx.state["personae"]["0103"], {"tower": 1, "to": "DORIA"})
    assert not gift.ok and "under siege" in gift.text
    # No one entered it all month: 1% siege attrition, each type rounded up on its own: archers 40 x 1% = 0.4 -> 1,
    # crew 0.1 -> 1, horses 0.2 -> 1, slaves 0.1 -> 1.
    tower_siege.tower_siege_attrition(ctx)
    assert torre(ctx)["siege"]["months"] == 1 and torre(ctx)["siege"]["blocked"] == [2]
    g = ctx.state["personae"]["0103"]["assets"]
    assert (g["archer"], g["crew"], g["horse"], g["slave"]) == (39, 9, 19, 9)
    # Turn 3: the month follows one that kept everyone out. 10 cannons at gunnery 500 against the tower's FAR 0:
    # 10 x (500 - 0)/1000 = 5 off the FAS, 300 -> 295; 2% of 10 = 0.2 -> 1 cannon self-destructs, 10 -> 9. A
    # tower's FAR is zero, so Giuliano's 5 cannons fire no counter-battery and none of his self-destruct.
    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    tower_siege.tower_sieges_take_effect(ctx)
    out = order(ctx, "KBT110")
    assert out.ok, out.text
    assert torre(ctx)["fas"] == 295 and ctx.state["personae"]["0201"]["assets"]["cannon"] == 9
    assert g["cannon"] == 5
    assert ctx.state["locations"]["Pisa"]["fas"] == 80  # the town's walls are untouched
    # "A persona may 'siege bombard' a location before assaulting it later in the same turn": the Torre keeps the
    # garrison it started the turn with, 10% of 300 = 30, this month; next month it has 10% of 295 = 29.
    assert control.tower_garrison(ctx, "Pisa", 1) == 30
    assert control.tower_garrison(next_turn(ctx), "Pisa", 1) == 29
    # Month two of successful siege: 2% (39 x 2% = 0.78 -> 1 archer).
    tower_siege.tower_siege_attrition(ctx)
    assert torre(ctx)["siege"]["months"] == 2 and g["archer"] == 38


def test_someone_entering_the_tower_breaks_the_month_and_ksx_lifts_the_siege() -> None:
    ctx = world({"pikeman": 200})
    assert order(ctx, "KST1").ok
    ctx = next_turn(ctx)
    tower_siege.tower_sieges_take_effect(ctx)
    # A Medici comes into Pisa this month: he is in the family's tower, an entry (over land: it stands in the town).
    ctx.state["personae"]["0104"] = person("0104", "MEDICI", True, {"archer": 5})
    tower_siege.tower_siege_attrition(ctx)
    assert torre(ctx)["siege"]["months"] == 0 and torre(ctx)["siege"]["blocked"] == []
    assert ctx.state["personae"]["0103"]["assets"]["archer"] == 40
    ctx = next_turn(ctx)
    tower_siege.tower_sieges_take_effect(ctx)
    out = order(ctx, "KBT15")
    assert not out.ok and "did not keep everyone out" in out.text
    out = order(ctx, "KSX")
    assert out.ok and "lifted his siege of tower 1 (Torre) of Pisa" in out.text and not torre(ctx).get("siege")
