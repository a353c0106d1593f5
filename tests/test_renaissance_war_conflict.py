"""Who fights whom and what a battle does to the game (war/conflict.py and the modules it calls: interception.py,
sides.py, battle.py; travel.py's interception, families.py's order loop): every rule of docs/renaissance/war.md's
"conflict" section against a case worked by hand from the rules' words (BATTLE, ALLIANCE, TRAVEL, SIEGE, THE SWORD
GARRISONS, URBAN BATTLE, TOWERS, CONFLICT ORDERS, CREDIT).

The battle engines are replaced by `Fake`, which returns a BattleResult made by hand and keeps the Sides it was
given: these tests pin what sides.py builds and what battle.py does with a result, not the engines' arithmetic (their
own tests do). The functions other helpers write in control.py and siege.py are stood in for here (`stand_ins`)."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

import pytest

from maild_rules.renaissance import travel
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.war import assault as assault_engine
from maild_rules.renaissance.war import conflict, control, limits, naval, sides, siege, urban
from maild_rules.renaissance.war import field as field_engine
from maild_rules.renaissance.war.forces import ATTACKER, DEFENDER, BattleResult, Side, StageReport
from tests.renaissance_fixtures import month_ctx

TURN = 5  # May 1493
FEE = 5.0  # CONFLICT ORDERS: 25 actions x 0.2 (the fixture's fees)


# ---- the world --------------------------------------------------------------------------------------------------

def persona(pid: str, family: str, where: str | None, *, inside: bool = False, assets: dict[str, int] | None = None,
            morale: int = 400, **extra: Any) -> dict[str, Any]:
    p: dict[str, Any] = {"id": pid, "name": f"P{pid}", "family": family, "religion": "catholic", "alive": True,
                         "popularity": 300, "piety": 0, "morale": morale, "rank": "none", "skills": {},
                         "assets": dict(assets or {}), "location": where, "at_sea": None, "inside": inside,
                         "with": None, "allies": [], "citizenship": None}
    p.update(extra)
    return p


def at_sea(p: dict[str, Any], lat: float, lon: float) -> dict[str, Any]:
    p["location"], p["at_sea"], p["inside"] = None, {"lat": lat, "lon": lon}, False
    return p


COORDS = {"Florence": (43.77, 11.25), "Pistoia": (43.93, 10.91), "Lucca": (43.84, 10.50), "Pisa": (43.72, 10.40),
          "Livorno": (43.55, 10.31)}


def town(name: str, **extra: Any) -> dict[str, Any]:
    lat, lon = COORDS[name]
    loc: dict[str, Any] = {"name": name, "lat": lat, "lon": lon, "landmass": "Europe", "population": 10000,
                           "wealth": 100, "loyalty": 350, "religion": "catholic", "harbor": None, "ferries": [],
                           "far": 20, "fas": 60, "towers": [], "garrison": 0,
                           "offices": {o: None for o in ("sovereign", "feudatory", "tenant", "magistrate", "bishop",
                                                         "archbishop", "dfc")},
                           "ingress": ["MEDICI", "DORIA", "SFORZA", "ORSINI"], "ingress_denied": [],
                           "egress_denied": [], "supplied": {}, "demanded": {}, "tariffs": {"import": 0, "export": 0}}
    if name == "Pisa":
        loc.update(harbor=12, ferries=["Livorno"])
    if name == "Livorno":
        loc.update(harbor=12)
    loc.update(extra)
    return loc


FAMILIES = {"MEDICI": "LMD", "DORIA": "ADR", "SFORZA": "SFO", "ORSINI": "ORS"}


def world(personae: list[dict[str, Any]], locations: list[dict[str, Any]] | None = None, *,
          balance: float = 100.0) -> Ctx:
    locs = locations if locations is not None else [town(n) for n in COORDS]
    families = {f: {"player": code, "religion": "catholic", "personae": [p["id"] for p in personae
                                                                         if p["family"] == f]}
                for f, code in FAMILIES.items()}
    players = {code: {"name": code, "email": f"{code}@x", "account": {"balance": balance, "history": []}}
               for code in FAMILIES.values()}
    return month_ctx(personae, locs, month=1, turn=TURN, families=families, players=players,
                     fees={"per_family": 5.0, "conflict_actions": 25, "action": 0.2})


def fees_of(ctx: Ctx, code: str) -> list[float]:
    return [e["amount"] for e in ctx.state["players"][code]["account"]["history"] if e["kind"] == "conflict"]


# ---- stand-ins: the battle engines and what control.py and siege.py provide --------------------------------------

@dataclass
class Call:
    attacker: Side
    defender: Side
    kw: dict[str, Any]


@dataclass
class Fake:
    """A battle engine that returns a result made by hand: each side loses `losses[role]` (captures included),
    its morale ends at `morale[role]` (default: as it started), over `stages` stages."""

    losses: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)
    victor: str | None = ATTACKER
    retreated: str | None = DEFENDER
    eliminated: list[str] = dataclasses.field(default_factory=list)
    dead: list[str] = dataclasses.field(default_factory=list)
    captured: dict[str, int] = dataclasses.field(default_factory=dict)
    morale: dict[str, int] = dataclasses.field(default_factory=dict)
    stages: int = 2
    outcome: str = "the defender retreated"
    kind: str = "field"
    receiver: str | None = None
    calls: list[Call] = dataclasses.field(default_factory=list)

    def __call__(self, attacker: Side, defender: Side, **kw: Any) -> BattleResult:
        self.calls.append(Call(attacker, defender, kw))
        sides = {ATTACKER: attacker, DEFENDER: defender}
        start = {role: s.morale() for role, s in sides.items()}
        end = {role: self.morale.get(role, start[role]) for role in sides}
        survivors = {role: {item: n - self.losses.get(role, {}).get(item, 0)
                            for item, n in urban.inventory(s.contingents).items()} for role, s in sides.items()}
        stages = [StageReport(number=k, name="melee", lines=[f"fake stage {k}"],
                              losses=self.losses if k == 1 else {}, morale=end) for k in range(1, self.stages + 1)]
        return BattleResult(kind=self.kind, stages=stages, outcome=self.outcome, victor=self.victor,
                            retreated=self.retreated, eliminated=list(self.eliminated), survivors=survivors,
                            captured=dict(self.captured), dead=list(self.dead), morale=end, morale_start=start,
                            stages_fought=self.stages, receiver=self.receiver)


@dataclass
class Record:
    control: list[tuple[Any, ...]] = dataclasses.field(default_factory=list)
    taken: list[tuple[Any, ...]] = dataclasses.field(default_factory=list)
    entries: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    tower_lost: list[tuple[str, int, int]] = dataclasses.field(default_factory=list)
    towers: dict[str, int] = dataclasses.field(default_factory=dict)  # pid -> the tower he is in
    besieger: dict[str, str] = dataclasses.field(default_factory=dict)  # location -> besieger pid
    crops: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)


@pytest.fixture(autouse=True)
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> Record:
    """Minimal stand-ins of control.py's and siege.py's functions that the war modules and travel.py call (the real
    ones come from the war-control and war-siege branches)."""
    rec = Record()

    def tower_of(state: dict[str, Any], p: dict[str, Any]) -> int | None:
        if p.get("outside_towers") or not p.get("inside"):
            return None
        return rec.towers.get(p["id"])

    def besieger(ctx: Ctx, where: str) -> dict[str, Any] | None:
        return ctx.persona(rec.besieger[where]) if where in rec.besieger else None

    sets = {
        (control, "tower_of"): tower_of,
        (control, "tower_room"): lambda loc, n: int(loc["towers"][n - 1]["fas"]),
        (control, "tower_garrison"): lambda ctx, where, n: int(ctx.location(where)["towers"][n - 1]["fas"]) // 10,
        (control, "lose_tower_garrison"): lambda ctx, where, n, k: rec.tower_lost.append((where, n, k)) or k,
        (control, "control_after_battle"): lambda ctx, where, result, a, d, kind: rec.control.append(
            (where, result.outcome if result else None, a, d, kind)),
        (control, "assault_taken"): lambda ctx, where, pid, tower=None: rec.taken.append((where, pid, tower)),
        (siege, "besieger"): besieger,
        (siege, "note_entry"): lambda ctx, where, by: rec.entries.append((where, by)),
        (siege, "crop_troops"): lambda ctx, p: dict(rec.crops.get(p["id"], {})),
    }
    for (module, attr), fn in sets.items():
        monkeypatch.setattr(module, attr, fn, raising=False)
    return rec


@pytest.fixture
def field(monkeypatch: pytest.MonkeyPatch) -> Fake:
    fake = Fake(kind="field")
    monkeypatch.setattr(field_engine, "fight", fake)
    return fake


@pytest.fixture
def urban_fake(monkeypatch: pytest.MonkeyPatch) -> Fake:
    fake = Fake(kind="urban", outcome="the defender left town")
    monkeypatch.setattr(urban, "fight", fake)
    return fake


def keys(side: Side) -> list[str]:
    return [c.key for c in side.contingents]


def move(ctx: Ctx, p: dict[str, Any], to: str, *, via: list[str] | None = None, mode: str = "land") -> Any:
    return travel.move(ctx, p, {"mode": mode, "to": to, "via": via or []})


def interceptor(pid: str, family: str, where: str, targets: list[str], **kw: Any) -> dict[str, Any]:
    return persona(pid, family, where, intercept={"targets": targets, "ferries": False, "turn": TURN}, **kw)


# ---- KI: the interception order ----------------------------------------------------------------------------------

def test_intercept_order_is_for_next_month_charged_and_takes_the_place_of_his_move() -> None:
    p = persona("0301", "SFORZA", "Pistoia", assets={"archer": 50})
    ctx = world([p])
    out = conflict.intercept(ctx, p, {"targets": ["doria", "MEDICI"], "ferries": False})
    assert out.ok, out.text
    # BATTLE: "Intercept orders are valid during the turn subsequent to that in which they are issued".
    assert p["intercept"] == {"targets": ["DORIA", "MEDICI"], "ferries": False, "turn": TURN + 1}
    # CONFLICT ORDERS: the fee "is charged whenever a player issues ... an interception order": 25 x 0.2 = 5.
    assert fees_of(ctx, "SFO") == [-FEE]
    # "In lieu of moving": no move, and no attack, after it this month.
    assert not move(ctx, p, "Lucca").ok
    assert "intercept" in move(ctx, p, "Lucca").text
    assert not conflict.intercept(ctx, p, {"targets": ["ALL"]}).ok


def test_intercept_order_victims_all_or_at_most_seven_known_families() -> None:
    p = persona("0301", "SFORZA", "Pistoia", assets={"archer": 50})
    ctx = world([p])
    assert not conflict.intercept(ctx, p, {"targets": ["ALL", "DORIA"]}).ok
    assert not conflict.intercept(ctx, p, {"targets": ["VISCONTI"]}).ok
    assert fees_of(ctx, "SFO") == []  # nothing charged for an order refused


# ---- interception along a move (RW-OQ-04, RW-OQ-08) -------------------------------------------------------------

def test_intercepted_at_a_waypoint_he_stops_there_and_the_interceptor_attacks(field: Fake) -> None:
    mover = persona("0201", "DORIA", "Florence", assets={"pikeman": 100})
    stop = interceptor("0301", "SFORZA", "Pistoia", ["DORIA"], assets={"archer": 50})
    field.losses = {ATTACKER: {"archer": 10}, DEFENDER: {"pikeman": 5}}
    ctx = world([mover, stop])
    out = move(ctx, mover, "Lucca", via=["Pistoia"])
    assert out.ok and "intercepted at Pistoia" in out.text
    # TRAVEL: "ceases movement at the point of the encounter", outside the walls (RW-OQ-08).
    assert (mover["location"], mover["inside"]) == ("Pistoia", False)
    # BATTLE: "In such battles, the interceptor is the attacker": a field battle.
    (call,) = field.calls
    assert keys(call.attacker) == ["0301"] and keys(call.defender) == ["0201"]
    assert mover["assets"]["pikeman"] == 95 and stop["assets"]["archer"] == 40
    # The interceptor initiated it: the fee and the two stages are his (RW-OQ-05, RW-OQ-45).
    assert fees_of(ctx, "SFO") == [-FEE] and fees_of(ctx, "ADR") == []
    assert limits.stages(ctx, "0301") == 2 and limits.stages(ctx, "0201") == 0
    # The passages the naval bombardment reads are a fleet's under sail: a march by land passes no water.
    assert "war.passages" not in ctx.scratch


def test_intercepted_where_his_move_starts_he_is_outside_the_walls(field: Fake) -> None:
    mover = persona("0201", "DORIA", "Florence", inside=True, assets={"pikeman": 100})
    stop = interceptor("0301", "SFORZA", "Florence", ["ALL"], assets={"archer": 50})
    ctx = world([mover, stop])
    assert move(ctx, mover, "Lucca").ok
    assert (mover["location"], mover["inside"]) == ("Florence", False)
    assert len(field.calls) == 1


def test_intercepted_where_his_move_ends_he_stays_outside_walls_he_may_enter(field: Fake) -> None:
    mover = persona("0201", "DORIA", "Florence", assets={"pikeman": 100})
    stop = interceptor("0301", "SFORZA", "Lucca", ["ALL"], assets={"archer": 50})
    ctx = world([mover, stop])
    assert move(ctx, mover, "Lucca").ok
    # DORIA has ingress to Lucca, but he ceased movement at the encounter, under the walls.
    assert (mover["location"], mover["inside"]) == ("Lucca", False)
    assert "war.passages" not in ctx.scratch


@pytest.mark.parametrize(("family", "targets", "inside", "turn", "stopped"), [
    ("SFORZA", ["ALL"], False, TURN, True),
    ("SFORZA", ["DORIA"], False, TURN, True),
    ("SFORZA", ["MEDICI", "ORSINI"], False, TURN, False),  # his family is not on the list
    ("DORIA", ["ALL"], False, TURN, False),  # "all" never means his own family (K1)
    ("SFORZA", ["ALL"], True, TURN, False),  # inside the walls he intercepts no one passing by (K1)
    ("SFORZA", ["ALL"], False, TURN - 1, False),  # "valid ... only during that turn"
])
def test_who_is_intercepted(field: Fake, family: str, targets: list[str], inside: bool, turn: int,
                            stopped: bool) -> None:
    mover = persona("0201", "DORIA", "Florence", assets={"pikeman": 100})
    stop = persona("0301", family, "Pistoia", inside=inside, assets={"archer": 50},
                   intercept={"targets": targets, "ferries": False, "turn": turn})
    ctx = world([mover, stop])
    assert move(ctx, mover, "Lucca", via=["Pistoia"]).ok
    assert mover["location"] == ("Pistoia" if stopped else "Lucca")
    assert len(field.calls) == int(stopped)


def test_twenty_to_one_counts_troops_and_crew_and_the_interceptor_is_destroyed(field: Fake) -> None:
    # 150 pikemen + 60 crew = 210 against 5 archers + 5 crew = 10: 210 > 20 x 10 = 200, "the intercepting force is
    # destroyed without battle and the moving force continues on to its destination". Slaves do not count.
    mover = persona("0201", "DORIA", "Florence", assets={"pikeman": 150, "crew": 60, "horse": 30})
    stop = interceptor("0301", "SFORZA", "Pistoia", ["ALL"], assets={"archer": 5, "crew": 5, "slave": 500},
                       morale=600)
    ctx = world([mover, stop])
    out = move(ctx, mover, "Lucca", via=["Pistoia"])
    assert out.ok
    assert mover["location"] == "Lucca" and field.calls == []
    assert stop["assets"] == {"archer": 0, "crew": 0, "slave": 500}
    assert stop["morale"] == 0  # MORALE: "neither troops, nor crew, his morale rating is zero"
    assert fees_of(ctx, "SFO") == []  # no battle, no battle fee
    assert any("twenty to one" in n for n in ctx.news)


def test_twenty_to_one_exactly_is_not_more_than_twenty_so_they_fight(field: Fake) -> None:
    # 150 pikemen + 50 crew = 200 against 5 archers + 5 crew = 10: 200 is not more than 200 (by troops alone it would
    # be 150 > 100: the interceptor's crew count too, RW-OQ-04).
    mover = persona("0201", "DORIA", "Florence", assets={"pikeman": 150, "crew": 50, "horse": 25})
    stop = interceptor("0301", "SFORZA", "Pistoia", ["ALL"], assets={"archer": 5, "crew": 5})
    ctx = world([mover, stop])
    assert move(ctx, mover, "Lucca", via=["Pistoia"]).ok
    assert mover["location"] == "Pistoia" and len(field.calls) == 1


def test_several_interceptors_each_compared_on_his_own_one_by_one(field: Fake) -> None:
    # 200 pikemen: 0301's 5 archers are outnumbered 40 to 1 and destroyed; 0302's 50 are not (4 to 1) and attack.
    mover = persona("0201", "DORIA", "Florence", assets={"pikeman": 200})
    weak = interceptor("0301", "SFORZA", "Pistoia", ["ALL"], assets={"archer": 5})
    strong = interceptor("0302", "SFORZA", "Pistoia", ["ALL"], assets={"archer": 50})
    ctx = world([mover, weak, strong])
    assert move(ctx, mover, "Lucca", via=["Pistoia"]).ok
    assert weak["assets"]["archer"] == 0
    assert [keys(c.attacker) for c in field.calls] == [["0302"]]
    assert mover["location"] == "Pistoia"


def test_an_interceptor_without_credit_or_past_twenty_stages_does_not_intercept(field: Fake) -> None:
    mover = persona("0201", "DORIA", "Florence", assets={"pikeman": 100})
    stop = interceptor("0301", "SFORZA", "Pistoia", ["ALL"], assets={"archer": 50})
    ctx = world([mover, stop])
    limits.add_stages(ctx, "0301", 20)  # "may initiate no further battles that turn"
    assert move(ctx, mover, "Lucca", via=["Pistoia"]).ok
    assert mover["location"] == "Lucca" and field.calls == []
    assert any("did not intercept" in m for m in ctx.messages["SFORZA"])


def test_at_sea_an_interceptor_on_his_point_fights_a_naval_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake(kind="naval")
    monkeypatch.setattr(naval, "fight", fake)
    mover = persona("0201", "DORIA", "Pisa", assets={"caravel": 1, "crew": 10})
    stop = at_sea(interceptor("0301", "SFORZA", "Pisa", ["ALL"], assets={"galley": 1, "crew": 40}), 43.60, 10.00)
    ctx = world([mover, stop])
    out = travel.move(ctx, mover, {"mode": "water", "to": "Livorno", "via": ["+43.60+010.00"]})
    assert out.ok, out.text
    assert len(fake.calls) == 1 and keys(fake.calls[0].attacker) == ["0301"]
    assert mover["location"] is None and mover["at_sea"] == {"lat": 43.60, "lon": 10.00}


# ---- siege lines (SIEGE; RW-OQ-05) -------------------------------------------------------------------------------

def test_the_besieger_intercepts_a_land_move_into_the_walls_and_the_crosser_pays(field: Fake,
                                                                                stand_ins: Record) -> None:
    mover = persona("0201", "DORIA", "Florence", assets={"pikeman": 100})
    lines = persona("0401", "ORSINI", "Lucca", assets={"pikeman": 300})
    lucca = town("Lucca", siege={"besieger": "0401", "ordered": 3, "since": 4, "months": 1, "blocked": []})
    stand_ins.besieger["Lucca"] = "0401"
    ctx = world([mover, lines], [town("Florence"), lucca])
    assert move(ctx, mover, "Lucca").ok
    # "A besieging force intercepts all parties attempting to enter the fortification by land movement"; the
    # besieger is the attacker ("the interceptor is the attacker").
    (call,) = field.calls
    assert keys(call.attacker) == ["0401"] and keys(call.defender) == ["0201"]
    assert (mover["location"], mover["inside"]) == ("Lucca", False)
    # "the transgressor of the siege line is deemed to have initiated the conflict": his fee, his stages.
    assert fees_of(ctx, "ADR") == [-FEE] and fees_of(ctx, "ORS") == []
    assert limits.stages(ctx, "0201") == 2
    assert stand_ins.entries == []  # he did not enter the walls


def test_a_move_staying_outside_or_by_water_is_not_stopped_by_the_siege(field: Fake, stand_ins: Record) -> None:
    siege_on = {"besieger": "0401", "ordered": 3, "since": 4, "months": 1, "blocked": []}
    outside = persona("0201", "DORIA", "Florence", assets={"pikeman": 100})
    sailor = persona("0202", "DORIA", "Livorno", assets={"caravel": 1, "crew": 10})
    lines = persona("0401", "ORSINI", "Lucca", assets={"pikeman": 300})
    lines_pisa = persona("0402", "ORSINI", "Pisa", assets={"pikeman": 300})
    stand_ins.besieger.update(Lucca="0401", Pisa="0402")
    ctx = world([outside, sailor, lines, lines_pisa],
                [town("Florence"), town("Lucca", siege=siege_on), town("Pisa", siege=dict(siege_on)),
                 town("Livorno")])
    assert travel.stay_outside(ctx, outside, {}).ok  # MO: the move ends outside the walls
    assert move(ctx, outside, "Lucca").ok
    assert (outside["location"], outside["inside"]) == ("Lucca", False)
    # By water into besieged Pisa: the siege intercepts land movement only; the entry is noted for siege.py.
    assert travel.move(ctx, sailor, {"mode": "water", "to": "Pisa"}).ok
    assert (sailor["location"], sailor["inside"]) == ("Pisa", True)
    assert field.calls == [] and stand_ins.entries == [("Pisa", "water")]


def test_the_besiegers_own_family_passes_the_lines_and_its_entry_is_noted(field: Fake, stand_ins: Record) -> None:
    friend = persona("0403", "ORSINI", "Florence", assets={"pikeman": 10})
    lines = persona("0401", "ORSINI", "Lucca", assets={"pikeman": 300})
    stand_ins.besieger["Lucca"] = "0401"
    ctx = world([friend, lines], [town("Florence"), town("Lucca", siege={"besieger": "0401", "since": 4})])
    assert move(ctx, friend, "Lucca").ok
    assert friend["inside"] and field.calls == [] and stand_ins.entries == [("Lucca", "land")]


def test_a_persona_outside_moving_inside_crosses_the_siege_line(field: Fake, stand_ins: Record) -> None:
    p = persona("0201", "DORIA", "Lucca", assets={"pikeman": 100})
    lines = persona("0401", "ORSINI", "Lucca", assets={"pikeman": 300})
    stand_ins.besieger["Lucca"] = "0401"
    ctx = world([p, lines], [town("Lucca", siege={"besieger": "0401", "since": 4})])
    out = travel.move(ctx, p, {"mode": "inside"})
    assert out.ok and "intercepted at Lucca" in out.text
    assert not p["inside"] and len(field.calls) == 1


# ---- the ferry stopped (CONFLICT ORDERS) --------------------------------------------------------------------------

def blockade(lat: float, lon: float, ferries: bool = True) -> dict[str, Any]:
    return at_sea(persona("0301", "SFORZA", "Pisa", assets={"galley": 1, "crew": 40},
                          intercept={"targets": ["ALL"], "ferries": ferries, "turn": TURN}), lat, lon)


def test_a_fleet_at_the_midpoint_of_a_ferry_route_stops_the_ferry() -> None:
    # Pisa (43.72, 10.40) - Livorno (43.55, 10.31): the midpoint is (43.635, 10.355).
    p = persona("0201", "DORIA", "Pisa", assets={"pikeman": 10, "ducats": 100})
    ctx = world([p, blockade(43.635, 10.355)])
    out = move(ctx, p, "Livorno", mode="ferry")
    assert not out.ok and "does not run" in out.text
    assert p["location"] == "Pisa" and p["assets"]["ducats"] == 100


@pytest.mark.parametrize(("lat", "lon", "ferries"), [(43.635, 10.355, False), (43.67, 10.355, True)])
def test_no_blockade_without_all_traffic_including_ferries_or_off_the_midpoint(lat: float, lon: float,
                                                                              ferries: bool) -> None:
    # 43.67 is 0.035 degrees (2.4 miles) north of the midpoint: more than a mile off (K2).
    p = persona("0201", "DORIA", "Pisa", assets={"pikeman": 10, "ducats": 100})
    ctx = world([p, blockade(lat, lon, ferries)])
    out = move(ctx, p, "Livorno", mode="ferry")
    assert out.ok, out.text
    # TRAVEL's ferry fee: 10 pikemen = 10 cargo, 1/100 ducat each, at least one ducat.
    assert p["location"] == "Livorno" and p["assets"]["ducats"] == 99


# ---- alliances: successive battles, the stronger first (RW-OQ-06) -----------------------------------------------

def allies_at_lucca(ally_troops: int = 300, mutual: bool = True) -> tuple[dict[str, Any], ...]:
    victim = persona("0201", "DORIA", "Lucca", assets={"pikeman": 100}, allies=["SFORZA"])
    ally = persona("0301", "SFORZA", "Lucca", assets={"pikeman": ally_troops}, allies=["DORIA"] if mutual else [])
    enemy = persona("0401", "ORSINI", "Lucca", assets={"pikeman": 500})
    return victim, ally, enemy


def test_the_ally_with_more_troops_fights_the_attacker_first_then_the_victim(field: Fake) -> None:
    victim, ally, enemy = allies_at_lucca()
    field.losses = {ATTACKER: {"pikeman": 50}, DEFENDER: {"pikeman": 20}}
    field.retreated, field.victor = DEFENDER, ATTACKER
    ctx = world([victim, ally, enemy])
    out = conflict.attack(ctx, enemy, {"battle": "field", "target": "0201"})
    assert out.ok, out.text
    # ALLIANCE: "the one with the greater number of troops will fight any attacker before his ally will": 300
    # before 100, even though 0201 was named.
    assert [keys(c.defender) for c in field.calls] == [["0301"], ["0201"]]
    # The second battle is fought with what the first left: 500 - 50 = 450 pikemen.
    assert field.calls[1].attacker.total("pikeman") == 450
    assert enemy["assets"]["pikeman"] == 400 and ally["assets"]["pikeman"] == 280
    assert victim["assets"]["pikeman"] == 80
    # One fee per battle initiated (RW-OQ-45), 2 + 2 stages toward his twenty.
    assert fees_of(ctx, "ORS") == [-FEE, -FEE] and limits.stages(ctx, "0401") == 4


def test_an_attacker_who_retreats_from_the_ally_never_reaches_the_victim(field: Fake) -> None:
    victim, ally, enemy = allies_at_lucca()
    field.victor, field.retreated, field.outcome = DEFENDER, ATTACKER, "the attacker retreated"
    ctx = world([victim, ally, enemy])
    assert conflict.attack(ctx, enemy, {"battle": "field", "target": "0201"}).ok
    assert [keys(c.defender) for c in field.calls] == [["0301"]]


@pytest.mark.parametrize(("ally_troops", "mutual", "moved_in"), [
    (100, True, False),  # as many troops as the victim: the victim, who was attacked, fights first
    (300, False, False),  # "each allied to the other's family": not mutual
    (300, True, True),  # "must be at, and have started the turn at, the same location"
])
def test_no_ally_fights_first(field: Fake, ally_troops: int, mutual: bool, moved_in: bool) -> None:
    victim, ally, enemy = allies_at_lucca(ally_troops, mutual)
    ctx = world([victim, ally, enemy])
    if moved_in:
        ctx.start_location["0301"] = "Pisa"
    assert conflict.attack(ctx, enemy, {"battle": "field", "target": "0201"}).ok
    assert [keys(c.defender) for c in field.calls] == [["0201"]]


def test_alliances_do_not_work_across_walls(field: Fake) -> None:
    victim, ally, enemy = allies_at_lucca()
    ally["inside"] = True
    ctx = world([victim, ally, enemy])
    assert conflict.attack(ctx, enemy, {"battle": "field", "target": "0201"}).ok
    assert [keys(c.defender) for c in field.calls] == [["0201"]]


def test_alliance_orders_up_to_six_families() -> None:
    p = persona("0201", "DORIA", "Lucca")
    ctx = world([p])
    for family in ("MEDICI", "SFORZA", "ORSINI", "DORIA"):
        ctx.state["families"].setdefault(family, {"player": "X"})
    for extra in ("ESTE", "GONZAGA", "VISCONTI"):
        ctx.state["families"][extra] = {"player": "X"}
    for family in ("MEDICI", "SFORZA", "ORSINI", "DORIA", "ESTE", "GONZAGA"):
        assert conflict.alliance(ctx, p, {"target_family": family, "allied": True}).ok
    out = conflict.alliance(ctx, p, {"target_family": "VISCONTI", "allied": True})
    assert not out.ok and "six" in out.text
    assert conflict.alliance(ctx, p, {"target_family": "esTe", "allied": False}).ok
    assert p["allies"] == ["MEDICI", "SFORZA", "ORSINI", "DORIA", "GONZAGA"]
    assert not conflict.alliance(ctx, p, {"target_family": "ESTE", "allied": False}).ok
    assert not conflict.alliance(ctx, p, {"target_family": "NOBODY", "allied": True}).ok


# ---- the garrison and the tenant's family (THE SWORD GARRISONS; RW-OQ-06, RW-OQ-18) ---------------------------

def tenant_family_at_lucca(tenant_inside: bool = True) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    tenant = persona("0101", "MEDICI", "Lucca" if tenant_inside else "Florence", inside=True,
                     assets={"pikeman": 10}, morale=450)
    victim = persona("0102", "MEDICI", "Lucca", inside=True, assets={"auxiliary": 100}, morale=300)
    cousin = persona("0103", "MEDICI", "Lucca", inside=True, assets={"auxiliary": 50}, morale=600)
    enemy = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 400})
    lucca = town("Lucca", garrison=200, loyalty=350)
    lucca["offices"]["tenant"] = "0101"
    return [tenant, victim, cousin, enemy], lucca


def test_garrison_and_tenants_family_fight_as_one_side_and_share_losses_and_morale(urban_fake: Fake) -> None:
    people, lucca = tenant_family_at_lucca()
    tenant, victim, cousin, enemy = people
    # The side at the start: 100 x 300 + 10 x 450 + 50 x 600 + 200 x 450 (the garrison at its tenant's morale, he
    # being with it) = 154,500 over 360 men = 429.17 -> 429. The fake ends it at 409: a change of -20.
    urban_fake.morale = {DEFENDER: 409}
    # 60 auxiliaries lost: shared 100 : 50 -> 40 and 20; 50 garrison troops lost.
    urban_fake.losses = {DEFENDER: {"auxiliary": 60, "garrison": 50}}
    ctx = world(people, [lucca])
    assert conflict.attack(ctx, enemy, {"battle": "urban", "target": "0102"}).ok
    (call,) = urban_fake.calls
    assert keys(call.defender) == ["0102", "0101", "0103", "garrison:Lucca"]
    assert call.defender.commander == "0102" and call.defender.morale() == 429
    assert call.defender.contingents[-1].morale == 450
    assert (victim["assets"]["auxiliary"], cousin["assets"]["auxiliary"], lucca["garrison"]) == (60, 30, 150)
    # "the change in the overall morale ... becomes the change in morale for each": 300-20, 450-20, 600-20.
    assert (victim["morale"], tenant["morale"], cousin["morale"]) == (280, 430, 580)
    assert lucca["loyalty"] == 350  # the garrison's morale was a copy (RW-OQ-18)


def test_the_garrison_without_its_tenant_fights_at_the_loyalty(urban_fake: Fake) -> None:
    people, lucca = tenant_family_at_lucca(tenant_inside=False)
    ctx = world(people, [lucca])
    assert conflict.attack(ctx, people[3], {"battle": "urban", "target": "0102"}).ok
    (call,) = urban_fake.calls
    assert keys(call.defender) == ["0102", "0103", "garrison:Lucca"]
    assert call.defender.contingents[-1].morale == 350  # "their morale is equal to the town's loyalty"


@pytest.mark.parametrize(("refuses", "expected"), [
    ("0103", ["0102", "0101", "garrison:Lucca"]),  # the cousin's KO: his forces stay out
    ("0101", ["0102", "0103"]),  # the tenant's KO: the garrison supports no one (K8)
    ("0102", ["0102"]),  # the victim's KO: no one supports him
])
def test_ko_earlier_in_the_month_ends_the_support(urban_fake: Fake, refuses: str, expected: list[str]) -> None:
    people, lucca = tenant_family_at_lucca()
    ctx = world(people, [lucca])
    by = next(p for p in people if p["id"] == refuses)
    assert conflict.no_support(ctx, by, {}).ok
    assert conflict.attack(ctx, people[3], {"battle": "urban", "target": "0102"}).ok
    assert keys(urban_fake.calls[0].defender) == expected


def test_no_support_across_the_walls(field: Fake) -> None:
    people, lucca = tenant_family_at_lucca()
    victim, enemy = people[1], people[3]
    victim["inside"] = enemy["inside"] = False
    ctx = world(people, [lucca])
    assert conflict.attack(ctx, enemy, {"battle": "field", "target": "0102"}).ok
    assert keys(field.calls[0].defender) == ["0102"]  # the garrison is inside; he is under the walls


# ---- the sortie and the garrison's attack (THE SWORD GARRISONS; K9) --------------------------------------------

def sortie_world() -> tuple[Ctx, dict[str, Any], dict[str, Any], dict[str, Any]]:
    tenant = persona("0101", "MEDICI", "Lucca", inside=True, assets={"pikeman": 20}, morale=400)
    target = persona("0201", "DORIA", "Lucca", assets={"pikeman": 100})
    lucca = town("Lucca", garrison=100)
    lucca["offices"]["tenant"] = "0101"
    return world([tenant, target], [lucca]), tenant, target, lucca


def test_the_tenant_leads_his_garrison_out_in_a_sortie_a_field_battle(field: Fake) -> None:
    ctx, tenant, target, lucca = sortie_world()
    field.losses = {ATTACKER: {"garrison": 30, "pikeman": 6}}
    out = conflict.attack(ctx, tenant, {"battle": "field", "target": "0201"})
    assert out.ok, out.text
    (call,) = field.calls
    # "When accompanied by the location's tenant, a town garrison may be ordered to sortie ... Resulting battles are
    # fought under the rules for field battles"; the garrison at its tenant's morale.
    assert keys(call.attacker) == ["0101", "garrison:Lucca"] and call.attacker.contingents[1].morale == 400
    assert lucca["garrison"] == 70 and tenant["assets"]["pikeman"] == 14
    assert tenant["inside"]  # the sortie goes back inside the walls (RW-OQ-08)


def test_kg_against_one_under_the_walls_is_the_same_sortie(field: Fake) -> None:
    ctx, tenant, _target, _lucca = sortie_world()
    assert conflict.garrison_attack(ctx, tenant, {"target": "0201"}).ok
    assert keys(field.calls[0].attacker) == ["0101", "garrison:Lucca"]


def test_only_the_tenant_inside_the_walls_sorties(field: Fake) -> None:
    ctx, tenant, _target, lucca = sortie_world()
    other = persona("0102", "MEDICI", "Lucca", inside=True, assets={"pikeman": 20})
    ctx.state["personae"]["0102"] = other
    ctx.start_location["0102"], ctx.start_inside["0102"] = "Lucca", True
    out = conflict.attack(ctx, other, {"battle": "field", "target": "0201"})
    assert not out.ok and "tenant" in out.text
    tenant["inside"] = False  # the garrison sorties only "When accompanied by the location's tenant"
    out = conflict.garrison_attack(ctx, tenant, {"target": "0201"})
    assert not out.ok and "accompanies" in out.text
    assert field.calls == []


def test_the_garrison_attacks_inside_the_walls_alone_always_the_home_side(urban_fake: Fake) -> None:
    tenant = persona("0101", "MEDICI", "Florence", inside=True, assets={"pikeman": 20}, morale=420)
    target = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 100}, citizenship="Lucca")
    lucca = town("Lucca", garrison=100, loyalty=350)
    lucca["offices"]["tenant"] = "0101"
    ctx = world([tenant, target], [town("Florence"), lucca])
    assert conflict.garrison_attack(ctx, tenant, {"target": "0201"}).ok
    (call,) = urban_fake.calls
    # "Garrisons not commanded by a persona are always the home side", even against a citizen; the tenant is away:
    # the loyalty, 350.
    assert keys(call.attacker) == ["garrison:Lucca"] and call.attacker.commander is None
    assert call.attacker.contingents[0].morale == 350 and call.kw["home"] == ATTACKER
    # The tenant ordered it: his fee, his stages, and no other orders for him this month.
    assert fees_of(ctx, "LMD") == [-FEE] and limits.stages(ctx, "0101") == 2 and limits.has_fought(ctx, "0101")
    # The defender, not home and with no tower, left town at his retreat point (RW-OQ-08).
    assert target["inside"] is False
    # With the tenant inside the walls it fights at his morale.
    tenant["location"] = "Lucca"
    target["inside"] = True
    ctx2 = world([tenant, target], [town("Florence"), lucca])
    assert conflict.garrison_attack(ctx2, tenant, {"target": "0201"}).ok
    assert urban_fake.calls[1].attacker.contingents[0].morale == 420


# ---- the home side and the withdrawal (URBAN BATTLE; RW-OQ-27, RW-OQ-28) -----------------------------------------

@pytest.mark.parametrize(("attacker_is", "defender_is", "home"), [
    ("citizen", "tenant", ATTACKER),  # "a citizen's" comes first
    ("bishop", "tenant", DEFENDER),  # the tenant's before the bishop's
    ("feudatory", None, ATTACKER),
    (None, "sovereign", DEFENDER),
    (None, None, DEFENDER),  # "Should neither participant be a member of any of these families"
    ("citizen", "citizen", DEFENDER),  # "or should both participants be citizens"
])
def test_the_home_side(attacker_is: str | None, defender_is: str | None, home: str) -> None:
    holders = {"tenant": "0901", "bishop": "0902", "feudatory": "0903", "sovereign": "0904"}
    fam = {"tenant": "MEDICI", "bishop": "SFORZA", "feudatory": "ORSINI", "sovereign": "ESTE"}
    lucca = town("Lucca")
    people = [persona(pid, fam[office], "Florence") for office, pid in holders.items()]
    lucca["offices"].update(holders)

    def fighter(pid: str, what: str | None) -> dict[str, Any]:
        if what == "citizen":
            return persona(pid, "GONZAGA", "Lucca", citizenship="Lucca")
        return persona(pid, fam[what] if what else "DORIA", "Lucca")

    a, d = fighter("0201", attacker_is), fighter("0202", defender_is)
    state = {"personae": {p["id"]: p for p in [*people, a, d]}}
    assert sides.home_side(state, lucca, a, d) == home


def test_a_home_attacker_with_a_tower_withdraws_unless_ordered_to_continue(urban_fake: Fake,
                                                                          stand_ins: Record) -> None:
    home = persona("0101", "MEDICI", "Lucca", inside=True, assets={"pikeman": 100}, citizenship="Lucca")
    other = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 100})
    other2 = persona("0202", "DORIA", "Lucca", inside=True, assets={"pikeman": 100})
    stand_ins.towers["0101"] = 1
    lucca = town("Lucca", towers=[{"name": "Torre", "fas": 300, "owner": "MEDICI"}])
    urban_fake.victor, urban_fake.retreated, urban_fake.outcome = None, ATTACKER, "the attacker withdrew"
    ctx = world([home, other, other2], [lucca])
    assert conflict.attack(ctx, home, {"battle": "urban", "target": "0201"}).ok
    kw = urban_fake.calls[0].kw
    assert kw["home"] == ATTACKER and kw["withdraw"] is True and kw["tower_room"] == {ATTACKER: 300, DEFENDER: None}
    assert home["inside"]  # a withdrawal stays inside
    # "A persona who has withdrawn from an urban battle under this rule may not attack the same persona again".
    again = conflict.attack(ctx, home, {"battle": "urban", "target": "0201"})
    assert not again.ok and "withdrew" in again.text
    assert conflict.attack(ctx, home, {"battle": "urban", "target": "0202", "continue": True}).ok
    assert urban_fake.calls[1].kw["withdraw"] is False


def test_the_non_home_side_denied_egress_is_told_to_the_engine(urban_fake: Fake) -> None:
    a = persona("0101", "MEDICI", "Lucca", inside=True, assets={"pikeman": 100})
    d = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 100}, citizenship="Lucca")
    ctx = world([a, d], [town("Lucca", egress_denied=["MEDICI"])])
    assert conflict.attack(ctx, a, {"battle": "urban", "target": "0201"}).ok
    assert urban_fake.calls[0].kw["home"] == DEFENDER and urban_fake.calls[0].kw["egress_denied"] is True


# ---- which battle an attack order makes (K6, RW-OQ-41) ------------------------------------------------------------

@pytest.mark.parametrize(("battle", "a_inside", "d_inside", "error"), [
    ("urban", False, False, "field battle"),
    ("field", True, True, "urban"),
    ("urban", False, True, "assault"),
    ("field", False, True, "assault"),
])
def test_an_attack_of_the_wrong_kind_for_the_walls_fails(field: Fake, battle: str, a_inside: bool, d_inside: bool,
                                                        error: str) -> None:
    a = persona("0201", "DORIA", "Lucca", inside=a_inside, assets={"pikeman": 100})
    d = persona("0301", "SFORZA", "Lucca", inside=d_inside, assets={"pikeman": 100})
    ctx = world([a, d])
    out = conflict.attack(ctx, a, {"battle": battle, "target": "0301"})
    assert not out.ok and error in out.text
    assert not limits.has_fought(ctx, "0201") and fees_of(ctx, "ADR") == []


def test_a_naval_battle_in_port_is_fought_as_a_land_battle(field: Fake) -> None:
    a = persona("0201", "DORIA", "Pisa", assets={"galley": 1, "crew": 40})
    d = persona("0301", "SFORZA", "Pisa", assets={"caravel": 2, "crew": 20})
    ctx = world([a, d])
    out = conflict.attack(ctx, a, {"battle": "naval", "target": "0301"})
    # BATTLE: "Fleets in port fight under the rules for land battles, not under the rules for naval battles".
    assert out.ok and "land battles" in out.text and len(field.calls) == 1


def test_at_sea_only_a_naval_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake(kind="naval")
    monkeypatch.setattr(naval, "fight", fake)
    a = at_sea(persona("0201", "DORIA", None, assets={"galley": 1, "crew": 40}), 43.0, 9.0)
    d = at_sea(persona("0301", "SFORZA", None, assets={"caravel": 2, "crew": 20}), 43.005, 9.0)
    ctx = world([a, d])
    assert not conflict.attack(ctx, a, {"battle": "field", "target": "0301"}).ok
    assert conflict.attack(ctx, a, {"battle": "naval", "target": "0301"}).ok  # 0.35 miles apart: one point
    assert len(fake.calls) == 1


# ---- the twenty stages, fight xor move, no orders after a battle, CREDIT (RW-OQ-03, RW-OQ-45) --------------------

def test_twenty_stages_initiated_end_his_battles_for_the_month(field: Fake) -> None:
    a = persona("0201", "DORIA", "Lucca", assets={"pikeman": 900})
    victims = [persona(f"030{n}", "SFORZA", "Lucca", assets={"pikeman": 10}) for n in (1, 2, 3)]
    field.stages = 12
    ctx = world([a, *victims])
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0301"}).ok
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0302"}).ok  # 12 < 20: he may initiate another
    third = conflict.attack(ctx, a, {"battle": "field", "target": "0303"})
    # 12 + 12 = 24: "A persona who has initiated battles lasting twenty, or more, stages may initiate no further".
    assert not third.ok and "24 stages" in third.text
    assert len(field.calls) == 2 and fees_of(ctx, "ADR") == [-FEE, -FEE]


def test_a_battle_that_changes_nothing_costs_no_fee(field: Fake) -> None:
    a = persona("0201", "DORIA", "Lucca", assets={"pikeman": 10})
    d = persona("0301", "SFORZA", "Lucca", assets={"pikeman": 10})
    field.stages = 0
    ctx = world([a, d])
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0301"}).ok
    assert fees_of(ctx, "ADR") == []


def test_one_who_moved_may_not_fight_and_one_who_fought_may_not_move(field: Fake) -> None:
    mover = persona("0201", "DORIA", "Florence", assets={"pikeman": 10})
    fighter = persona("0202", "DORIA", "Lucca", assets={"pikeman": 10})
    d = persona("0301", "SFORZA", "Lucca", assets={"pikeman": 10})
    ctx = world([mover, fighter, d])
    assert move(ctx, mover, "Lucca").ok
    out = conflict.attack(ctx, mover, {"battle": "field", "target": "0301"})
    assert not out.ok and "moved" in out.text
    assert conflict.attack(ctx, fighter, {"battle": "field", "target": "0301"}).ok
    out = move(ctx, fighter, "Florence")
    assert not out.ok and "battle orders" in out.text and fighter["location"] == "Lucca"


def test_a_conflict_order_is_refused_unless_the_months_fees_are_prepaid(field: Fake) -> None:
    a = persona("0201", "DORIA", "Lucca", assets={"pikeman": 10})
    d = persona("0301", "SFORZA", "Lucca", assets={"pikeman": 10})
    ctx = world([a, d], balance=-1.0)
    out = conflict.attack(ctx, a, {"battle": "field", "target": "0301"})
    assert not out.ok and "CREDIT" in out.text and field.calls == []
    assert not conflict.intercept(ctx, a, {"targets": ["ALL"]}).ok


def test_no_other_order_after_a_battle_order_in_the_month_loop(urban_fake: Fake) -> None:
    from maild.ruleset import Order, PlacedOrder
    from maild_rules.renaissance.families import Month, families_orders
    from maild_rules.renaissance.registry import ACTIONS, PHASE_ORDER

    a = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 100})
    d1 = persona("0301", "SFORZA", "Lucca", inside=True, assets={"pikeman": 10})
    d2 = persona("0302", "SFORZA", "Lucca", inside=True, assets={"pikeman": 10})
    ctx = world([a, d1, d2])

    def order(line: int, kind: str, **args: Any) -> PlacedOrder:
        return PlacedOrder(Order(line, kind, kind, {"family": "DORIA", "persona": "0201", **args}, kind), 1)

    placed = [order(1, "attack", battle="urban", target="0301"), order(2, "move", mode="land", to="Florence"),
              order(3, "attack", battle="urban", target="0302"), order(4, "loot")]
    month = Month(state=ctx.state, turn=TURN, rng=random.Random(1), orders={"ADR": placed}, phase_order=PHASE_ORDER,
                  actions=ACTIONS)
    month.start_location.update(ctx.start_location)
    month.start_inside.update(ctx.start_inside)
    families_orders(month)
    done = [(o["code"], o["ok"]) for o in month.result.outcomes["DORIA"]]
    # "A persona may not execute other orders subsequently in the same turn after having executed battle orders":
    # the move and the looting fail; a second battle order may follow the first (RW-OQ-03).
    assert done == [("attack", True), ("move", False), ("attack", True), ("loot", False)]
    assert "subsequently in the same turn" in month.result.outcomes["DORIA"][1]["text"]
    assert a["location"] == "Lucca" and len(urban_fake.calls) == 2


# ---- what a result does to the state (K10, K11; RW-OQ-07) ---------------------------------------------------------

def test_losses_split_back_to_two_contingents_by_what_each_brought(urban_fake: Fake) -> None:
    people, lucca = tenant_family_at_lucca()
    tenant, victim, cousin, enemy = people
    victim["assets"], cousin["assets"] = {"auxiliary": 70, "horse": 10}, {"auxiliary": 30, "horse": 30}
    # The side loses 7 auxiliaries and 6 horses (forces.split_losses, arith.share): auxiliaries 7 x 70/100 = 4.9
    # and 7 x 30/100 = 2.1, whole parts 4 and 2, the one left to the larger remainder (.9): 5 and 2; horses
    # 6 x 10/40 = 1.5 and 6 x 30/40 = 4.5, whole parts 1 and 4, the one left to the first written of equal
    # remainders: 2 and 4.
    urban_fake.losses = {DEFENDER: {"auxiliary": 7, "horse": 6}}
    ctx = world(people, [lucca])
    assert conflict.attack(ctx, enemy, {"battle": "urban", "target": "0102"}).ok
    assert victim["assets"] == {"auxiliary": 65, "horse": 8} and cousin["assets"] == {"auxiliary": 28, "horse": 26}
    assert tenant["assets"] == {"pikeman": 10} and lucca["garrison"] == 200


def test_the_victor_takes_what_is_captured_and_the_dead_are_marked(field: Fake) -> None:
    a = persona("0201", "DORIA", "Lucca", assets={"pikeman": 500, "ducats": 10})
    d = persona("0301", "SFORZA", "Lucca", assets={"pikeman": 20, "cannon": 2, "ducats": 1000, "horse": 40})
    # Eliminated: his 20 pikemen die, his mobile assets (2 cannons, 40 horses, 1,000 ducats) are the victor's.
    field.losses = {ATTACKER: {"pikeman": 15}, DEFENDER: {"pikeman": 20, "cannon": 2, "ducats": 1000, "horse": 40}}
    field.captured = {"cannon": 2, "ducats": 1000, "horse": 40}
    field.dead, field.eliminated, field.retreated = ["0301"], [DEFENDER], None
    field.outcome = "the defender was eliminated"
    ctx = world([a, d])
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0301"}).ok
    assert a["assets"] == {"pikeman": 485, "ducats": 1010, "cannon": 2, "horse": 40}
    assert d["assets"] == {} and d["alive"] is False and d["died"].startswith("killed in battle")
    (entry,) = ctx.scratch["war.reports"]
    assert "Taken by P0201 (0201): 2 cannons, 1,000 ducats, 40 horses." in entry["lines"]
    assert "Killed: P0301 (0301)." in entry["lines"]


def test_not_to_be_killed_reaches_the_engine_as_spare(field: Fake) -> None:
    a = persona("0201", "DORIA", "Lucca", assets={"pikeman": 500})
    d = persona("0301", "SFORZA", "Lucca", assets={"pikeman": 20})
    ctx = world([a, d])
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0301", "spare": True}).ok
    assert field.calls[0].defender.spare is True and field.calls[0].attacker.spare is False


def test_a_fallen_commanders_captures_go_to_his_side_s_persona_with_the_most_troops(urban_fake: Fake) -> None:
    people, lucca = tenant_family_at_lucca()
    tenant, victim, cousin, enemy = people
    enemy["assets"]["horse"] = 5
    # The defenders win, but their commander 0102 fell: the attacker's 5 horses go to the living persona of the side
    # with the most troops, 0103 (50 auxiliaries) before the tenant (10 pikemen) (K11).
    urban_fake.victor, urban_fake.retreated, urban_fake.outcome = DEFENDER, ATTACKER, "the attacker left town"
    urban_fake.losses = {ATTACKER: {"horse": 5}}
    urban_fake.captured, urban_fake.dead = {"horse": 5}, ["0102"]
    ctx = world(people, [lucca])
    assert conflict.attack(ctx, enemy, {"battle": "urban", "target": "0102"}).ok
    assert cousin["assets"]["horse"] == 5 and "horse" not in tenant["assets"] and "horse" not in enemy["assets"]
    assert victim["alive"] is False and enemy["inside"] is False  # he left town (RW-OQ-08)


def test_a_garrisons_captures_go_to_its_tenant(urban_fake: Fake) -> None:
    tenant = persona("0101", "MEDICI", "Florence", inside=True, assets={"pikeman": 20})
    target = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 10, "ducats": 700})
    lucca = town("Lucca", garrison=100)
    lucca["offices"]["tenant"] = "0101"
    urban_fake.losses = {DEFENDER: {"pikeman": 10, "ducats": 700}}
    urban_fake.captured, urban_fake.dead, urban_fake.retreated = {"ducats": 700}, ["0201"], None
    ctx = world([tenant, target], [town("Florence"), lucca])
    assert conflict.garrison_attack(ctx, tenant, {"target": "0201"}).ok
    assert tenant["assets"]["ducats"] == 700 and target["assets"] == {}


def test_morale_change_and_the_confucian_halving_and_doubling(field: Fake) -> None:
    a = persona("0201", "DORIA", "Lucca", assets={"pikeman": 100}, morale=501, religion="confucian")
    d = persona("0301", "SFORZA", "Lucca", assets={"pikeman": 100}, morale=400)
    # MORALE: halved "(with the result rounded down)" at the start: 501 -> 250; the fake ends it at 260 (+10);
    # "doubled at the end": 520. The defender: 400 -> 390 (-10).
    field.morale = {ATTACKER: 260, DEFENDER: 390}
    ctx = world([a, d])
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0301"}).ok
    assert field.calls[0].attacker.contingents[0].morale == 250
    assert (a["morale"], d["morale"]) == (520, 390)


def test_a_persona_left_with_no_men_has_no_morale(field: Fake) -> None:
    a = persona("0201", "DORIA", "Lucca", assets={"pikeman": 100})
    d = persona("0301", "SFORZA", "Lucca", assets={"pikeman": 10}, morale=400)
    field.losses = {DEFENDER: {"pikeman": 10}}
    field.morale = {DEFENDER: 380}
    ctx = world([a, d])
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0301", "spare": True}).ok
    assert d["morale"] == 0 and d["alive"]


def test_the_z_orders_of_the_month_reach_the_battle(field: Fake, stand_ins: Record) -> None:
    a = persona("0201", "DORIA", "Lucca", assets={"pikeman": 100, "cannon": 2})
    d = persona("0301", "SFORZA", "Lucca", assets={"pikeman": 10})
    stand_ins.crops["0201"] = {"pikeman": 30}
    ctx = world([a, d])
    assert conflict.dispose(ctx, a, {"place": "3", "item": "pikeman", "qty": 50}).ok
    assert conflict.dispose(ctx, a, {"place": "N", "item": "pikeman", "qty": 50}).ok  # a wall: not in a field
    assert conflict.post(ctx, a, {"place": "6"}).ok
    assert not conflict.dispose(ctx, a, {"place": "9", "item": "pikeman", "qty": 5}).ok
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0301"}).ok
    side = field.calls[0].attacker
    assert side.dispositions == [("center", "pikeman", 50)] and side.places == {"0201": "reserves"}
    # CROP DESTRUCTION: "all troops ordered to destroy crops are omitted from the initial arrangement".
    assert side.held_back == {"pikeman": 30}


# ---- where the survivors stand (RW-OQ-08) -------------------------------------------------------------------------

def test_the_non_home_side_without_a_tower_leaves_town_and_stands_outside(urban_fake: Fake,
                                                                         stand_ins: Record) -> None:
    a = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 100}, citizenship="Lucca")
    d = persona("0301", "SFORZA", "Lucca", inside=True, assets={"pikeman": 100})
    # 0302 stays out of all towers (MTO, TOWERS), so an urban battle reaches him, but he still controls the tower.
    d2 = persona("0302", "SFORZA", "Lucca", inside=True, assets={"pikeman": 100}, outside_towers=True)
    ctx = world([a, d, d2], [town("Lucca", towers=[{"name": "Torre", "fas": 500, "owner": "SFORZA"}])])
    assert conflict.attack(ctx, a, {"battle": "urban", "target": "0301"}).ok
    assert d["location"] == "Lucca" and d["inside"] is False
    # With a tower he controls, the retreat is into it: he stays inside the walls.
    stand_ins.towers["0302"] = 1
    urban_fake.outcome = "the defender retreated into its tower"
    assert conflict.attack(ctx, a, {"battle": "urban", "target": "0302"}).ok
    assert urban_fake.calls[1].kw["tower_room"][DEFENDER] == 500
    assert d2["inside"] is True


def test_an_urban_attack_on_one_in_his_tower_is_no_battle(urban_fake: Fake, stand_ins: Record) -> None:
    a = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 100})
    d = persona("0301", "SFORZA", "Lucca", inside=True, assets={"pikeman": 100})
    stand_ins.towers["0301"] = 1
    ctx = world([a, d], [town("Lucca", towers=[{"name": "Torre", "fas": 500, "owner": "SFORZA"}])])
    out = conflict.attack(ctx, a, {"battle": "urban", "target": "0301"})
    # TOWERS: "To capture assets from a defender who is inside a location at which he controls a tower, an aggressor
    # must successfully assault the tower".
    assert not out.ok and "KT" in out.text and urban_fake.calls == []


def test_urban_orders_against_the_tenant_in_his_tower_meet_his_garrison(urban_fake: Fake,
                                                                       stand_ins: Record) -> None:
    a = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 100})
    tenant = persona("0101", "MEDICI", "Lucca", inside=True, assets={"pikeman": 10}, morale=420)
    stand_ins.towers["0101"] = 1
    lucca = town("Lucca", garrison=80, towers=[{"name": "Torre", "fas": 500, "owner": "MEDICI"}])
    lucca["offices"]["tenant"] = "0101"
    ctx = world([a, tenant], [lucca])
    out = conflict.attack(ctx, a, {"battle": "urban", "target": "0101"})
    assert out.ok, out.text
    (call,) = urban_fake.calls
    assert keys(call.defender) == ["garrison:Lucca"] and call.defender.commander is None
    assert call.kw["home"] == DEFENDER  # a garrison not commanded by a persona is always the home side (K7)
    assert stand_ins.control[0][2:] == ("0201", "0101", "urban")


def test_urban_orders_against_an_unreachable_tenant_with_no_garrison_ask_de_facto_control(
        urban_fake: Fake, stand_ins: Record) -> None:
    a = persona("0201", "DORIA", "Lucca", inside=True, assets={"pikeman": 100})
    tenant = persona("0101", "MEDICI", "Florence", inside=True, assets={"pikeman": 10})
    lucca = town("Lucca")
    lucca["offices"]["tenant"] = "0101"
    ctx = world([a, tenant], [town("Florence"), lucca])
    out = conflict.attack(ctx, a, {"battle": "urban", "target": "0101"})
    # DE FACTO CONTROL reads the order even when there is no one to fight (control.py decides: here, nothing).
    assert stand_ins.control == [("Lucca", None, "0201", "0101", "urban")]
    assert not out.ok and urban_fake.calls == [] and fees_of(ctx, "ADR") == []


# ---- assaults (SIEGE BOMBARDMENT ... ASSAULT, TOWERS; RW-OQ-03, RW-OQ-35) ---------------------------------------

def assault_world(stand_ins: Record, *, siege_on: bool = True) -> tuple[Ctx, dict[str, Any], dict[str, Any]]:
    attacker = persona("0201", "DORIA", "Lucca", assets={"pikeman": 1000}, religion="sunni")
    inside = persona("0301", "SFORZA", "Lucca", inside=True, assets={"pikeman": 100, "cannon": 3})
    towered = persona("0302", "SFORZA", "Lucca", inside=True, assets={"archer": 50})
    kin = persona("0202", "DORIA", "Lucca", inside=True, assets={"pikeman": 5})
    stand_ins.towers["0302"] = 1
    lucca = town("Lucca", far=30, fas=80, garrison=40, population=12345,
                 towers=[{"name": "Torre", "fas": 400, "owner": "SFORZA"}])
    lucca["offices"]["dfc"] = "0301"
    if siege_on:
        lucca["siege"] = {"besieger": "0201", "since": 4}
    return world([attacker, inside, towered, kin], [lucca]), attacker, lucca


def test_an_assault_of_the_walls_is_met_by_everyone_inside_and_the_garrison(monkeypatch: pytest.MonkeyPatch,
                                                                            stand_ins: Record) -> None:
    fake = Fake(kind="assault", victor=ATTACKER, retreated=None, outcome="the assaulter takes the fortification")
    monkeypatch.setattr(assault_engine, "walls", fake)
    ctx, attacker, lucca = assault_world(stand_ins)
    assert conflict.dispose(ctx, ctx.persona("0301"), {"place": "E", "item": "pikeman", "qty": 60}).ok
    assert conflict.post(ctx, ctx.persona("0302"), {"place": "S"}).ok
    out = conflict.assault(ctx, attacker, {"target": "walls"})
    assert out.ok, out.text
    (call,) = fake.calls
    # "all forces (excluding tower garrisons, but including forces attached to personae who would otherwise be inside
    # a tower) within the walls ... participate in its defense"; the garrison too; his own family's 0202 not (K13).
    assert keys(call.defender) == ["0301", "0302", "garrison:Lucca"]
    assert call.defender.commander == "0301"  # the de facto controller commands (RW-OQ-16)
    assert call.defender.dispositions == [("east", "pikeman", 60)] and call.defender.places == {"0302": "south"}
    assert call.kw == {"far": 30, "fas": 80, "retreat_room": None}
    # Taken: he is inside the walls, control passes (control.assault_taken), the entry is noted for the siege.
    assert attacker["inside"] and stand_ins.taken == [("Lucca", "0201", None)]
    assert stand_ins.entries == [("Lucca", "land")]
    # Appendix E: a sovereign of another religion (here the town's, catholic, for want of a persona): 1% of 12,345
    # enslaved, rounded down to 123, out of the population (RW-OQ-35).
    assert attacker["assets"]["slave"] == 123 and lucca["population"] == 12222
    assert limits.has_assaulted(ctx, "0201")
    assert not conflict.attack(ctx, attacker, {"battle": "field", "target": "0301"}).ok


def test_an_assault_repulsed_returns_to_the_siege_lines(monkeypatch: pytest.MonkeyPatch, stand_ins: Record) -> None:
    fake = Fake(kind="assault", victor=DEFENDER, retreated=ATTACKER, outcome="the assaulters withdrew")
    monkeypatch.setattr(assault_engine, "walls", fake)
    ctx, attacker, lucca = assault_world(stand_ins)
    assert conflict.assault(ctx, attacker, {"target": "walls"}).ok
    assert attacker["inside"] is False and stand_ins.taken == [] and stand_ins.entries == []
    assert stand_ins.control == [("Lucca", "the assaulters withdrew", "0201", "0301", "assault")]
    assert "slave" not in attacker["assets"]


def test_an_assault_only_by_one_who_began_the_month_outside_and_before_no_other_military_order(
        monkeypatch: pytest.MonkeyPatch, stand_ins: Record) -> None:
    fake = Fake(kind="assault")
    monkeypatch.setattr(assault_engine, "walls", fake)
    ctx, attacker, _ = assault_world(stand_ins)
    ctx.start_inside["0201"] = True
    out = conflict.assault(ctx, attacker, {"target": "walls"})
    assert not out.ok and "began the month outside" in out.text
    ctx.start_inside["0201"] = False
    conflict.note_executed(ctx, "0201", "siege")  # "may not execute other military orders in the month"
    assert not conflict.assault(ctx, attacker, {"target": "walls"}).ok
    ctx2, attacker2, _ = assault_world(stand_ins)
    conflict.note_executed(ctx2, "0201", "bombard")  # "A persona may 'siege bombard' a location before assaulting"
    assert conflict.assault(ctx2, attacker2, {"target": "walls"}).ok
    assert len(fake.calls) == 1


def test_an_assaulting_force_eliminated_leaves_its_assets_to_the_de_facto_controller_present(
        monkeypatch: pytest.MonkeyPatch, stand_ins: Record) -> None:
    fake = Fake(kind="assault", victor=DEFENDER, retreated=None, eliminated=[ATTACKER], dead=["0201"],
                outcome="the assaulting force was eliminated")
    fake.losses = {ATTACKER: {"pikeman": 1000, "horse": 60}}
    fake.captured = {"horse": 60}
    monkeypatch.setattr(assault_engine, "walls", fake)
    fake.receiver = "0302"  # the engine's pick, the defender with the most troops left
    ctx, attacker, lucca = assault_world(stand_ins)
    attacker["assets"]["horse"] = 60
    assert conflict.assault(ctx, attacker, {"target": "walls"}).ok
    # Appendix E: "all of his mobile assets become the property of the de facto controller of the fortification
    # which he assaulted": 0301, inside the walls, before the engine's pick.
    assert ctx.persona("0301")["assets"]["horse"] == 60 and "horse" not in ctx.persona("0302")["assets"]
    assert attacker["alive"] is False
    # "When the de facto controller is not present, they become the property of the defending persona with the
    # greatest number of troops under his control" (the engine names him).
    ctx2, attacker2, lucca2 = assault_world(stand_ins)
    lucca2["offices"]["dfc"] = "0999"
    attacker2["assets"]["horse"] = 60
    assert conflict.assault(ctx2, attacker2, {"target": "walls"}).ok
    assert ctx2.persona("0302")["assets"]["horse"] == 60


def test_a_tower_assault_by_one_who_started_inside(monkeypatch: pytest.MonkeyPatch, stand_ins: Record) -> None:
    fake = Fake(kind="tower", victor=ATTACKER, retreated=None, outcome="the assaulter takes the fortification")
    fake.losses = {DEFENDER: {"garrison": 40, "archer": 50}}
    monkeypatch.setattr(assault_engine, "tower", fake)
    ctx, _, lucca = assault_world(stand_ins)
    kin = ctx.persona("0202")
    out = conflict.assault(ctx, kin, {"target": "tower", "tower": None, "occupant": "0302"})
    assert out.ok, out.text
    (call,) = fake.calls
    # The occupants of tower 1 and its tower garrison: 10% of FAS 400 = 40 at morale 500 (TOWERS).
    assert keys(call.defender) == ["0302", "tower:Lucca:1"]
    assert call.defender.contingents[1].men == {"garrison": 40} and call.defender.contingents[1].morale == 500
    assert call.kw == {"fas": 400, "room": 400, "attacker_room": None, "egress_denied": False}
    assert stand_ins.tower_lost == [("Lucca", 1, 40)] and stand_ins.taken == [("Lucca", "0202", 1)]
    outsider = ctx.persona("0201")
    out = conflict.assault(ctx, outsider, {"target": "tower", "tower": 1, "occupant": None})
    assert not out.ok and "started the month inside" in out.text


# ---- the same battle, the same report ----------------------------------------------------------------------------

def test_a_battle_gives_the_same_report_under_two_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    def once(seed: int) -> tuple[list[str], dict[str, Any]]:
        fake = Fake(kind="urban", losses={ATTACKER: {"pikeman": 12}, DEFENDER: {"auxiliary": 40}},
                    morale={ATTACKER: 390, DEFENDER: 350})
        monkeypatch.setattr(urban, "fight", fake)
        people, lucca = tenant_family_at_lucca()
        ctx = world(people, [lucca])
        ctx.rng = random.Random(seed)
        assert conflict.attack(ctx, people[3], {"battle": "urban", "target": "0102"}).ok
        return ctx.scratch["war.reports"][0]["lines"], ctx.state

    lines1, state1 = once(1)
    lines2, state2 = once(2)
    assert lines1 == lines2 and state1 == state2


# ---- captures both ways at sea, and the Shia/Sunni gunners' piety ------------------------------------------------

def test_a_naval_battles_captures_go_to_each_capturing_side(monkeypatch: pytest.MonkeyPatch) -> None:
    # Appendix F: "Should all the troops and crew in a division be eliminated, then all the remaining ships in that
    # division (and their trade goods) are captured intact by the opposing force": either side may capture a
    # division, so the side that did not win the battle keeps what it captured (RW-OQ-41).
    from maild_rules.renaissance.war.naval_battle import NavalResult

    a = at_sea(persona("0201", "DORIA", None, assets={"galley": 2, "crew": 80}), 43.0, 9.0)
    d = at_sea(persona("0301", "SFORZA", None, assets={"caravel": 3, "crew": 30, "wine": 40}), 43.0, 9.0)
    ctx = world([a, d])

    def fake(attacker: Side, defender: Side) -> BattleResult:
        # The attacker won and took a caravel with its 40 wine; the defender took one galley.
        return NavalResult(kind="naval", outcome="the defender retreated", victor=ATTACKER, retreated=DEFENDER,
                           survivors={ATTACKER: {"galley": 1, "crew": 80},
                                      DEFENDER: {"caravel": 2, "crew": 30, "wine": 0}},
                           captured={"caravel": 1, "wine": 40}, morale={ATTACKER: 400, DEFENDER: 400},
                           morale_start={ATTACKER: 400, DEFENDER: 400}, stages_fought=4,
                           taken={ATTACKER: {"caravel": 1, "wine": 40}, DEFENDER: {"galley": 1}})

    monkeypatch.setattr(naval, "fight", fake)
    assert conflict.attack(ctx, a, {"battle": "naval", "target": "0301"}).ok
    # 0201: 2 galleys - 1 lost + the caravel and the wine he took; 0301: 3 caravels - 1 + the galley he took.
    assert a["assets"] == {"galley": 1, "crew": 80, "caravel": 1, "wine": 40}
    assert d["assets"] == {"caravel": 2, "crew": 30, "galley": 1}


def test_a_sunni_whose_guns_fire_in_a_field_battle_loses_piety_once_a_month(field: Fake) -> None:
    # REPUTATION FOR PIETY: "The piety rating of a Sunni, or Shia, persona diminishes by 100 points in any month in
    # which he fires cannons, or falconets." A field battle opens with the cannons' volley (Appendix D).
    a = persona("0201", "DORIA", "Lucca", religion="sunni", piety=250, assets={"pikeman": 100, "cannon": 2})
    d = persona("0301", "SFORZA", "Lucca", religion="shia", piety=80, assets={"pikeman": 100})
    e = persona("0302", "SFORZA", "Lucca", assets={"pikeman": 100})
    ctx = world([a, d, e])
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0301"}).ok
    assert a["piety"] == 150  # 250 - 100: his cannons fired
    assert d["piety"] == 80  # the Shia defender had no guns: nothing fired, nothing lost
    assert conflict.attack(ctx, a, {"battle": "field", "target": "0302"}).ok
    assert a["piety"] == 150  # "in any month": once, however many battles


def test_a_fleet_under_sail_leaves_its_passages_for_the_naval_bombardment() -> None:
    # NAVAL BOMBARDMENT: cannons fire "at ships anchored in, or passing through, that body of water": the places a
    # fleet's move starts at, passes and ends at are noted; a march by land notes none (the tests above).
    p = persona("0201", "DORIA", "Pisa", assets={"galley": 1, "crew": 40, "slave": 250}, skills={"navigation": 400})
    ctx = world([p])
    assert move(ctx, p, "Livorno", mode="water").ok
    assert ctx.scratch["war.passages"] == {"Pisa": ["0201"], "Livorno": ["0201"]}
