"""Where the hierarchies' parts meet (issue 25): a grandmastership is an ecclesiastical position (RH-OQ-29), so the
church's one `resign_others` ends it and a grandmaster's acceptance ends his church offices through it; the Pope's one
act a month is shared by the June founding of a military order ("in lieu of appointing an archbishop", RH-OQ-33);
elected sovereigns bar apostasy (RH-OQ-34, RH-OQ-45); a change of faith loses every church position in one place
(RH-OQ-26, RH-OQ-43); the titles that pass at a death are read from one table (RH-OQ-02, RH-OQ-47)."""

from __future__ import annotations

from typing import Any

from maild_rules.renaissance import apostasy, church_offices, military_orders, nobility, succession
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.ranks import rank_of_titles
from maild_rules.renaissance.setup import new_game
from tests.renaissance_fixtures import month_ctx, small_setup, war_persona, war_town

JUNE = 6


def catholic(pid: str, family: str = "MEDICI", where: str = "Florence", **kw: Any) -> dict[str, Any]:
    return war_persona(pid, family, where, religion="catholic", **kw)


def order_of(grandmaster: str | None, holds: list[list[str]] | None = None, **kw: Any) -> dict[str, Any]:
    return {"name": "Rhodes", "seat": "Rhodes", "grandmaster": grandmaster,
            "holds": holds if holds is not None else [["Rhodes", "tenant"], ["Rhodes", "sovereign"]],
            "election": None, "elected": None, **kw}


def world(personae: list[dict[str, Any]], month: int = 1, turn: int = 1, gm: str | None = "0102",
          holds: list[list[str]] | None = None, **state: Any) -> Ctx:
    """Florence an archbishopric (its own see), Rome the Pope's (0101), Rhodes the seat of the order whose
    grandmaster is 0102 (its tenancy and sovereignty his)."""
    state.setdefault("pope", "0101")
    held = holds if holds is not None else [["Rhodes", "tenant"], ["Rhodes", "sovereign"]]
    rhodes_offices = {office: gm for _where, office in held}
    towns = [war_town("Florence", religion="catholic", see="Florence"),
             war_town("Rome", religion="catholic", see="Rome",
                      offices={"bishop": state["pope"], "archbishop": state["pope"]}),
             war_town("Rhodes", religion="catholic", offices=rhodes_offices)]
    ctx = month_ctx(personae, towns, month=month, turn=turn,
                    military_orders={"rhodes": order_of(gm, held)}, **state)
    return ctx


def pope() -> dict[str, Any]:
    return catholic("0101", "BORGIA", "Rome", titles=["Pope"], rank="pope", rank_before_papacy="count",
                    assets={"ducats": 150_000})


# ---- (a) RH-OQ-29: one rule ends church positions and grandmasterships ---------------------------------------------

def test_a_grandmaster_who_accepts_an_archbishopric_gives_up_his_grandmastership() -> None:
    # The Pope invests 0102, grandmaster and bishop of Rhodes, with Florence; 0102 accepts the next month: "must
    # then resign all other ecclesiastical positions", the grandmastership among them (RH-OQ-29).
    gm = catholic("0102", titles=["Grandmaster of Rhodes"], piety=500, skills={"sermonizing": 400})
    ctx = world([pope(), gm])
    ctx.state["locations"]["Rhodes"]["offices"]["bishop"] = "0102"
    assert church_offices.invest_archbishop(ctx, ctx.persona("0101"), {"appointee": "0102", "location": "Florence"}).ok
    nxt = Ctx(state=ctx.state, turn=2, rng=ctx.rng)
    outcome = church_offices.accept_office(nxt, gm, {"office": "Florence"})
    assert outcome.ok, outcome
    assert "bishop of Rhodes" in outcome.text and "Grandmaster of Rhodes" in outcome.text
    order = nxt.state["military_orders"]["rhodes"]
    assert order["grandmaster"] is None and order["election"] == {"turn": 3, "votes": {}}
    assert nxt.state["locations"]["Rhodes"]["offices"]["tenant"] == "Rhodes"  # the order holds it, vacant
    assert nxt.state["locations"]["Rhodes"]["offices"]["sovereign"] == "Rhodes"
    assert gm["titles"] == [] and nxt.state["locations"]["Florence"]["offices"]["archbishop"] == "0102"
    assert any("grandmaster of Rhodes will be elected" in n for n in nxt.news)


def test_a_pope_who_accepts_a_grandmastership_leaves_the_throne_and_the_conclave_opens() -> None:
    # The grandmaster's acceptance ends his church positions through the same resign_others: the Pope elected
    # grandmaster gives up the throne (and Rome's see); the conclave sits from the next turn (RH-OQ-16).
    ctx = world([pope()], turn=8, gm=None)
    ctx.state["military_orders"]["rhodes"]["elected"] = {"persona": "0101", "turn": 7}
    outcome = military_orders.accept_grandmastership(ctx, ctx.persona("0101"), {})
    assert outcome.ok and "the papal throne" in outcome.text, outcome
    assert ctx.state["pope"] is None and ctx.state["conclave"] == {"opened": 9, "elect": None}
    assert ctx.state["locations"]["Rome"]["offices"] == {**ctx.state["locations"]["Rome"]["offices"],
                                                         "bishop": None, "archbishop": None}
    p = ctx.persona("0101")
    assert p["rank"] == "count" and p["titles"] == ["Grandmaster of Rhodes"]
    assert ctx.state["military_orders"]["rhodes"]["grandmaster"] == "0101"


def test_a_grandmaster_elected_to_another_order_gives_up_the_first() -> None:
    ctx = world([catholic("0102", titles=["Grandmaster of Rhodes"])], turn=8)
    ctx.state["military_orders"]["santiago"] = {"name": "Santiago", "seat": "Florence", "grandmaster": None,
                                               "holds": [], "election": None,
                                               "elected": {"persona": "0102", "turn": 7}}
    outcome = military_orders.accept_grandmastership(ctx, ctx.persona("0102"), {"order": "santiago"})
    assert outcome.ok and "resigned Grandmaster of Rhodes" in outcome.text, outcome
    assert ctx.state["military_orders"]["rhodes"]["grandmaster"] is None
    assert ctx.persona("0102")["titles"] == ["Grandmaster of Santiago"]


# ---- (b) the Pope's one act: an archbishop or, in June, a military order ------------------------------------------

def june_pope() -> Ctx:
    bishop = catholic("0103", "DORIA", piety=500, skills={"sermonizing": 400})
    ctx = world([pope(), bishop], month=JUNE, gm=None)
    ctx.state["locations"]["Rhodes"]["offices"]["bishop"] = "0103"
    ctx.state["locations"]["Florence"]["population"] = 20_000
    return ctx


def test_a_founding_in_june_is_in_lieu_of_the_months_investiture() -> None:
    # "Each June, in lieu of appointing an archbishop, the Pope may create a new military order": one act.
    ctx = june_pope()
    p = ctx.persona("0101")
    assert military_orders.found_order(ctx, p, {"order": "Santo Stefano", "seat": "Florence"}).ok
    invest = church_offices.invest_archbishop(ctx, p, {"appointee": "0103", "location": "Florence"})
    assert not invest.ok and "already created a military order this month" in invest.text


def test_an_investiture_in_june_leaves_no_founding() -> None:
    ctx = june_pope()
    p = ctx.persona("0101")
    assert church_offices.invest_archbishop(ctx, p, {"appointee": "0103", "location": "Florence"}).ok
    found = military_orders.found_order(ctx, p, {"order": "Santo Stefano", "seat": "Florence"})
    assert not found.ok and "already invested an archbishop this month" in found.text


def test_only_the_pope_founds_an_order() -> None:
    ctx = june_pope()
    found = military_orders.found_order(ctx, ctx.persona("0103"), {"order": "Santo Stefano", "seat": "Florence"})
    assert not found.ok and "only the Pope" in found.text and "military orders" in found.text


# ---- (c) elected sovereigns and apostasy ---------------------------------------------------------------------------

def families(ctx: Ctx) -> Ctx:
    ctx.state["families"] = {"MEDICI": {"player": "LMD", "religion": "catholic", "personae": ["0102"]},
                             "BORGIA": {"player": "LBO", "religion": "catholic", "personae": ["0101"]}}
    return ctx


def test_a_grandmaster_whose_order_exercises_sovereignty_bars_his_familys_conversion() -> None:
    # RH-OQ-34: the order's sovereignty is its elected grandmaster's: "Families which include a hereditary,
    # elective, or appointive, sovereign may not change religion".
    ctx = families(world([pope(), catholic("0102", titles=["Grandmaster of Rhodes"])], turn=13))
    why = apostasy.why_not(ctx.state, "LMD", "sunni", 13)
    assert why is not None and "0102 is elected sovereign of Rhodes" in why


def test_an_elected_ruler_bars_and_a_hereditary_sovereign_is_named_as_such() -> None:
    ruler = catholic("0102")
    ctx = families(world([pope(), ruler], turn=13, gm=None, holds=[]))
    ctx.state["locations"]["Florence"]["offices"]["sovereign"] = "0102"
    assert "0102 is elected sovereign of Florence" in (apostasy.why_not(ctx.state, "LMD", "sunni", 13) or "")
    ctx.state["locations"]["Florence"]["offices"]["sovereign"] = None
    ctx.state["locations"]["Rome"]["offices"]["sovereign"] = "0102"
    assert "0102 is sovereign of Rome" in (apostasy.why_not(ctx.state, "LMD", "sunni", 13) or "")


def test_a_grandmaster_of_an_order_holding_only_a_tenancy_converts_and_loses_the_grandmastership() -> None:
    # A grandmaster must be Catholic (RH-OQ-29): his family may convert (a tenant is no sovereign, RH-OQ-45), and the
    # conversion ends the grandmastership at once, as it ends a see (RH-OQ-43), through church_offices.faith_lost.
    ctx = families(world([pope(), catholic("0102", titles=["Grandmaster of Rhodes"])], turn=13,
                         holds=[["Rhodes", "tenant"]]))
    outcome = apostasy.convert(ctx, {}, {"family": "MEDICI", "religion": "sunni"})
    assert outcome.ok, outcome
    assert ctx.state["military_orders"]["rhodes"]["grandmaster"] is None
    assert ctx.state["locations"]["Rhodes"]["offices"]["tenant"] == "Rhodes"
    assert any("no longer Grandmaster of Rhodes" in m for m in ctx.messages["MEDICI"])


def test_the_months_faith_step_ends_a_grandmastership_too() -> None:
    ctx = world([pope(), war_persona("0102", "MEDICI", religion="orthodox", titles=["Grandmaster of Rhodes"])],
                holds=[["Rhodes", "tenant"]])
    church_offices.faith_keeps_office(ctx)
    assert ctx.state["military_orders"]["rhodes"]["grandmaster"] is None


def test_who_may_be_grandmaster_is_who_may_hold_a_church_position() -> None:
    for p in (catholic("0102", female=True), war_persona("0103", "X", religion="sunni"),
              catholic("0104", alive=False), None):
        assert not military_orders.may_serve(p)
        assert church_offices.unfit(p, "catholic") is not None
    assert military_orders.may_serve(catholic("0105"))


# ---- (d) one test of the titles that pass ---------------------------------------------------------------------------

def test_one_table_of_hereditary_titles() -> None:
    passes = {t: nobility.hereditary_title(t) for t in (
        "King of Naples", "Duke of Bari", "Lord of Florence", "Sultan of Tunis", "Knight of the Golden Spur",
        "Sir Galeazzo", "Holy Roman Emperor", "Pope Alexander VI", "Cardinal of San Marco", "Grandmaster of Rhodes",
        "Emir of Bona", "Khan")}
    assert [t for t, kept in passes.items() if kept] == ["King of Naples", "Duke of Bari", "Lord of Florence",
                                                         "Sultan of Tunis"]


def test_a_member_who_takes_the_positions_keeps_his_own_higher_rank_and_his_knighthood() -> None:
    # RH-OQ-47: a Sunni count dies; his named member is a king by rank and a knight by title: he stays king, keeps
    # "Knight of Rhodes" (his own, not the dead man's) and receives "Count of Bona".
    dead = war_persona("0501", "HAFSID", religion="sunni", rank="count", titles=["Count of Bona", "Knight of Tunis"],
                       alive=False, died="fever", successor_named="0502")
    member = war_persona("0502", "HAFSID", religion="sunni", rank="king", titles=["Knight of Rhodes"])
    ctx = month_ctx([dead, member], [war_town("Tunis")], turn=5)
    ctx.state["families"] = {"HAFSID": {"player": "LHA", "religion": "sunni", "personae": ["0501", "0502"]}}
    succession.succession(ctx)
    taker = ctx.state["personae"]["0502"]
    assert taker["rank"] == "king" and taker["titles"] == ["Knight of Rhodes", "Count of Bona"]
    assert ctx.state["personae"]["0501"]["rank"] == "none"


def test_a_setup_that_writes_titles_and_no_rank_reads_the_rank_from_the_highest_title() -> None:
    # "Feudal rank is based upon a persona's highest title" (RH-OQ-02): "King of the Romans" and "Archduke of
    # Austria" make a king; a lord, a regent, a burgher or a countess's title (no row of the table) make none.
    assert rank_of_titles(["King of the Romans", "Archduke of Austria"]) == "king"
    assert rank_of_titles(["Duke of Bari", "Regent of Milan"]) == "duke"
    assert rank_of_titles(["Lord of Florence", "Burgher of Augsburg", "Countess of Forli"]) == "none"
    assert rank_of_titles(["Sultan"]) == "sultan" and rank_of_titles([]) == "none"
    setup = small_setup()
    persona = setup["families"][0]["personae"][0]
    persona.pop("rank", None)
    persona["titles"] = ["Marquis of Pisa", "Knight of the Golden Spur"]
    assert new_game(setup)["personae"][persona["id"]]["rank"] == "marquis"
    persona["rank"] = "count"  # a rank written stands
    assert new_game(setup)["personae"][persona["id"]]["rank"] == "count"
