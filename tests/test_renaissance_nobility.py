"""THE HIERARCHIES: the feudal table, elevation each February, the retreat point it sets, what passes to a successor,
and the Islamic titles. Readings RH-OQ-02 ... RH-OQ-14 in docs/renaissance/hierarchies.md; figures by hand from the
rules' table (the reader's notes' reading of it)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from maild.ruleset import OrderSet, PlacedOrder
from maild_rules.renaissance import RULESET, engine, islamic_titles, nobility, ranks
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.succession import pass_on_positions, successor
from maild_rules.renaissance.war import ranks as war_ranks
from tests.renaissance_fixtures import month_ctx, small_state, war_persona, war_town

FEBRUARY = 2


# ---- the table --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("rank", "value", "rights", "cost"), [
    ("hre", 200, 5, None), ("pope", 200, 5, None), ("king", 180, 3, 5), ("grand duke", 160, 1, 4),
    ("sovereign prince", 160, 1, 4), ("sovereign duke", 160, 1, 4), ("archduke", 160, 1, 4), ("duke", 140, 0, 3),
    ("prince", 140, 0, 3), ("marquis", 120, 0, 2), ("marquess", 120, 0, 2), ("markgraf", 120, 0, 2),
    ("count", 100, 0, 2), ("earl", 100, 0, 2), ("graf", 100, 0, 2), ("viscount", 80, 0, 2), ("baron", 60, 0, 2),
    ("baronet", 40, 0, 1), ("chevalier", 40, 0, 1), ("knight", 20, 0, 1), ("bourgeois", 0, 0, 0),
    ("burger", 0, 0, 0), ("none", 0, 0, 0),
])
def test_the_feudal_table(rank: str, value: int, rights: int, cost: int | None) -> None:
    row = ranks.feudal_row(rank)
    assert row is not None and (row.value, row.rights, row.cost) == (value, rights, cost)
    assert ranks.rank_value({"rank": rank}) == value


def test_spellings_of_a_rank() -> None:
    assert ranks.canonical_rank("GrandDuke") == "grand duke"
    assert ranks.canonical_rank("gd.dk.") == "grand duke"
    assert ranks.canonical_rank("sovprince") == "sovereign prince"
    assert ranks.canonical_rank("Emir") == "emir"
    assert ranks.canonical_rank("cardinal") is None
    # Knighthood and the HRE's row are "non-hereditary"; every other row is hereditary.
    assert [r.name for r in ranks.FEUDAL_TABLE if not r.hereditary] == ["hre", "knight"]


def test_the_islamic_titles_retreat_values() -> None:
    # "Emirs have a retreat value of 140. Beys and khans have the same characteristics as emirs. Sultans have a
    # retreat value of 200. Shahs have the same characteristics as sultans."
    for title, value in (("emir", 140), ("bey", 140), ("khan", 140), ("sultan", 200), ("shah", 200)):
        assert ranks.rank_value({"islamic_title": title}) == value
        assert ranks.rank_value({"rank": title}) == value  # a world written before the hierarchies
        assert ranks.feudal_value({"rank": title}) == 0


# ---- the retreat point (MORALE) ---------------------------------------------------------------------------------

def test_rh_oq_09_ten_percent_of_popularity_is_rounded_down() -> None:
    # The readings' example: a duke (140), popularity 305, morale 229. 10% of 305 = 30.5, rounded down 30:
    # 229 + 140 + 30 = 399 < 400: he retreats (rounded half up it would be 400 and he would hold).
    duke = {"rank": "duke", "popularity": 305}
    assert war_ranks.retreat_value(duke) == 170
    assert war_ranks.retreats(229, war_ranks.retreat_value(duke))
    assert not war_ranks.retreats(230, war_ranks.retreat_value(duke))


def test_rh_oq_12_a_moslem_with_a_feudal_title_counts_the_higher_value_in_retreat() -> None:
    assert ranks.rank_value({"rank": "count", "islamic_title": "emir"}) == 140  # 140 > 100
    assert ranks.rank_value({"rank": "king", "islamic_title": "emir"}) == 180  # 180 > 140
    assert ranks.rank_value({"rank": "king", "islamic_title": "sultan"}) == 200
    # A sultan-count, popularity 250, morale 180: 180 + 200 + 25 = 405: he holds; morale 174: 399, he retreats.
    value = war_ranks.retreat_value({"rank": "count", "islamic_title": "sultan", "popularity": 250})
    assert value == 225 and not war_ranks.retreats(180, value) and war_ranks.retreats(174, value)


def test_rh_oq_12_an_islamic_title_is_no_rank_in_the_feudal_hierarchy_for_duels() -> None:
    # DUELING: "who is not higher ranking in the feudal hierarchy": a knight may challenge an emir, not a baron.
    assert not war_ranks.outranks({"islamic_title": "emir"}, {"rank": "knight"})
    assert war_ranks.outranks({"rank": "baron"}, {"rank": "knight"})
    assert war_ranks.outranks({"rank": "knight"}, {"islamic_title": "sultan"})


@pytest.mark.parametrize(("persona", "office", "barred"), [
    ({"rank": "baron"}, "sovereign", True), ({"rank": "marquis"}, "sovereign", True),
    ({"rank": "duke"}, "sovereign", False), ({"rank": "none"}, "sovereign", False),
    ({"rank": "viscount"}, "feudatory", True), ({"rank": "chevalier"}, "feudatory", True),
    ({"rank": "count"}, "feudatory", False), ({"rank": "knight"}, "tenant", False),
    # RH-OQ-11, RH-OQ-12: an emir who is also a baron holds a title that is no feudal one: he qualifies.
    ({"rank": "baron", "islamic_title": "emir"}, "sovereign", False),
    ({"rank": "knight", "islamic_title": "bey"}, "feudatory", False),
    # RH-OQ-11: a Shia or Sunni without a title is barred from nothing.
    ({"rank": "none", "religion": "sunni"}, "sovereign", False),
])
def test_who_may_receive_sovereignty_and_feudatory_status(persona: dict[str, Any], office: str,
                                                          barred: bool) -> None:
    assert ranks.barred_from(office, persona) is barred


# ---- elevation ----------------------------------------------------------------------------------------------------

def court(month: int = FEBRUARY, **ranks_by_pid: str) -> Ctx:
    """Personae 0101..0109 of one family at Pisa with the ranks given (else none); 0101 is sovereign of Pisa and
    Lucca, 0102 of Florence (an elected ruler's)."""
    personae = [war_persona(f"01{n:02d}", "MEDICI", rank=ranks_by_pid.get(f"p01{n:02d}", "none"))
                for n in range(1, 10)]
    towns = [war_town("Pisa", offices={"sovereign": "0101"}), war_town("Lucca", offices={"sovereign": "0101"}),
             war_town("Florence", offices={"sovereign": "0102"})]
    return month_ctx(personae, towns, month=month)


def elevate(ctx: Ctx, by: str, target: str, rank: str, place: str | None = None) -> Any:
    return nobility.elevate(ctx, ctx.state["personae"][by], {"target": target, "rank": rank, "place": place})


def test_a_king_spends_his_three_rights_a_year() -> None:
    # A king has 3 rights a year: a count made marquis costs 2, leaving 1; a baron made viscount (2) is then refused;
    # a knight made baronet (1) is not.
    ctx = court(p0101="king", p0103="count", p0104="baron", p0105="knight")
    done = elevate(ctx, "0101", "0103", "marquis", "Lucca")
    assert done.ok and "1 left this year" in done.text
    assert ctx.state["personae"]["0103"]["rank"] == "marquis"
    assert ctx.state["personae"]["0103"]["titles"] == ["Marquis of Lucca"]
    refused = elevate(ctx, "0101", "0104", "viscount")
    assert not refused.ok and "expends 2 rights and he has 1 left" in refused.text
    assert elevate(ctx, "0101", "0105", "chevalier").ok
    assert ctx.state["personae"]["0105"]["rank"] == "chevalier"
    assert rights(ctx, "0101") == 0
    assert any("elevated P0103 to the rank of marquis: Marquis of Lucca" in n for n in ctx.news)


def rights(ctx: Ctx, pid: str) -> int:
    return nobility.rights_left(ctx, ctx.state["personae"][pid])


def test_only_in_february() -> None:
    ctx = court(month=3, p0101="king", p0103="count")
    outcome = elevate(ctx, "0101", "0103", "marquis")
    assert not outcome.ok and "February" in outcome.text


def test_who_has_rights() -> None:
    # "The HRE, the Pope, kings, grand dukes, archdukes, sovereign princes and sovereign dukes": 5, 5, 3, 1.
    ctx = court(p0101="hre", p0102="archduke", p0103="duke", p0104="sovereign prince")
    ctx.state["pope"] = "0105"  # the Pope, whatever his rank word
    assert [nobility.elevation_rights(ctx, ctx.state["personae"][p]) for p in ("0101", "0102", "0103", "0104",
                                                                                "0105", "0106")] == [5, 1, 0, 1, 5, 0]
    refused = elevate(ctx, "0103", "0106", "knight")
    assert not refused.ok and "only the HRE, the Pope, kings" in refused.text
    assert elevate(ctx, "0105", "0106", "knight").ok  # the Pope: 1 of his 5


def test_rh_oq_05_one_row_of_the_table_a_year() -> None:
    ctx = court(p0101="hre", p0103="count", p0104="none")
    refused = elevate(ctx, "0101", "0103", "duke")  # two rows above count
    assert not refused.ok and "only one rank per year" in refused.text and "marquis" in refused.text
    refused = elevate(ctx, "0101", "0104", "baronet")  # a bourgeois is first made knight
    assert not refused.ok and "knight" in refused.text
    assert not elevate(ctx, "0101", "0103", "earl").ok  # the same row: no elevation
    assert elevate(ctx, "0101", "0104", "knight").ok


def test_one_elevation_a_year_and_the_rights_of_one_persona() -> None:
    # "No single persona may benefit from the elevation rights of more than one persona per year. A persona may be
    # elevated only one rank per year."
    ctx = court(p0101="king", p0102="king", p0103="baron")
    assert elevate(ctx, "0101", "0103", "viscount").ok
    refused = elevate(ctx, "0102", "0103", "count")
    assert not refused.ok and "elevated this year already, with the rights of P0101" in refused.text
    assert rights(ctx, "0102") == 3  # nothing spent on a refused elevation


def test_rh_oq_06_no_one_elevates_himself() -> None:
    ctx = court(p0101="king")
    refused = elevate(ctx, "0101", "0101", "king")
    assert not refused.ok and "never by himself" in refused.text


def test_rh_oq_06_rights_of_a_rank_reached_this_february_wait_for_next_year() -> None:
    # 0101, a duke and sovereign of Pisa, is made grand duke with 4 of the HRE's 5 rights; as grand duke he has 1
    # right a year, but only from next February: this February he had none.
    ctx = court(p0101="duke", p0103="none")
    ctx.state["personae"]["0109"]["rank"] = "hre"
    assert elevate(ctx, "0109", "0101", "grand duke", "Pisa").ok
    refused = elevate(ctx, "0101", "0103", "knight")
    assert not refused.ok and "only the HRE" in refused.text and "he is duke" in refused.text


@pytest.mark.parametrize("rank", ["grand duke", "archduke", "sovereign prince", "sovereign duke"])
def test_rh_oq_03_04_the_grand_duke_row_needs_a_hereditary_sovereign(rank: str) -> None:
    # 0103 is a duke sovereign of nothing; 0102 is the elected ruler of Florence (ELECTIVE STATES); 0101 is
    # sovereign of Pisa and Lucca through his titles.
    ctx = court(p0101="duke", p0102="duke", p0103="duke", p0109="hre")
    refused = elevate(ctx, "0109", "0103", rank)
    assert not refused.ok and "unless he is a hereditary sovereign" in refused.text
    assert not elevate(ctx, "0109", "0102", rank).ok
    assert elevate(ctx, "0109", "0101", rank).ok


def test_a_king_is_made_by_five_rights_of_a_hereditary_sovereign() -> None:
    ctx = court(p0101="grand duke", p0103="grand duke", p0109="hre")
    assert not elevate(ctx, "0109", "0103", "king").ok  # sovereign of nothing
    outcome = elevate(ctx, "0109", "0101", "king")
    assert outcome.ok and "expending 5 of his rights (0 left" in outcome.text


@pytest.mark.parametrize("rank", ["hre", "pope", "emperor"])
def test_rh_oq_10_the_hre_is_reached_by_election_only(rank: str) -> None:
    ctx = court(p0101="king", p0109="hre")
    outcome = elevate(ctx, "0109", "0101", rank)
    assert not outcome.ok and "by election only" in outcome.text


def test_the_place_of_a_title_is_a_location() -> None:
    ctx = court(p0101="king", p0103="none")
    outcome = elevate(ctx, "0101", "0103", "knight", "Atlantis")
    assert not outcome.ok and "no location 'Atlantis'" in outcome.text
    assert elevate(ctx, "0101", "0103", "knight", "pisa").ok
    assert ctx.state["personae"]["0103"]["titles"] == ["Knight of Pisa"]


def test_a_moslem_is_elevated_as_anyone_and_keeps_his_islamic_title() -> None:
    # RH-OQ-06: no religion is asked. An emir written as his rank (an older world) is made knight and stays emir:
    # his retreat value is the higher, 140.
    ctx = court(p0101="king", p0103="emir")
    ctx.state["personae"]["0103"]["religion"] = "sunni"
    assert elevate(ctx, "0101", "0103", "knight").ok
    p = ctx.state["personae"]["0103"]
    assert (p["rank"], p["islamic_title"], ranks.rank_value(p)) == ("knight", "emir", 140)


# ---- the Islamic titles ---------------------------------------------------------------------------------------

def moslem(**kw: Any) -> dict[str, Any]:
    base = war_persona("0301", "OSMAN", religion="sunni", morale=800, popularity=800, piety=800,
                       assets={"pikeman": 601, "archer": 400, "crew": 500})
    return {**base, **kw}


def declare(p: dict[str, Any], title: str = "emir", by: dict[str, Any] | None = None) -> Any:
    ctx = month_ctx([p] + ([by] if by else []), [war_town()], month=7)
    return nobility.elevate(ctx, by or p, {"target": p["id"], "rank": title, "place": None}), ctx


def test_rh_oq_13_a_sunni_with_over_1000_troops_and_2400_in_ratings_declares_himself_emir() -> None:
    # 601 pikemen + 400 archers = 1,001 troops (the 500 crew do not count); 800 + 800 + 800 = 2,400. Any month.
    p = moslem()
    outcome, ctx = declare(p)
    assert outcome.ok and "retreat value is now 140" in outcome.text
    assert p["islamic_title"] == "emir" and p["titles"] == ["Emir"] and ranks.rank_value(p) == 140
    assert any("declared himself emir" in n for n in ctx.news)
    again, _ = declare(p, "khan")
    assert not again.ok and "already emir" in again.text


@pytest.mark.parametrize(("change", "why"), [
    ({"assets": {"pikeman": 600, "archer": 400, "crew": 5000}}, "1,000 troops"),  # 1,000 is not over 1,000
    ({"piety": 799}, "2,399"),
    ({"religion": "catholic"}, "only a Shia or Sunni"),
])
def test_rh_oq_13_the_conditions(change: dict[str, Any], why: str) -> None:
    outcome, _ = declare(moslem(**change))
    assert not outcome.ok and why in outcome.text


def test_rh_oq_13_beys_and_khans_as_emirs_sultans_and_shahs_by_no_order() -> None:
    assert declare(moslem(), "khan")[0].ok
    assert declare(moslem(), "bey")[0].ok
    for title in ("sultan", "shah"):
        outcome, _ = declare(moslem(), title)
        assert not outcome.ok and "no way to become a sultan or shah" in outcome.text
    other = war_persona("0302", "OSMAN", religion="sunni")
    outcome, _ = declare(moslem(), "emir", by=other)
    assert not outcome.ok and "only himself" in outcome.text


# ---- succession ---------------------------------------------------------------------------------------------------

def heir_of(ctx: Ctx, pid: str) -> tuple[dict[str, Any], list[str]]:
    dead = ctx.state["personae"][pid]
    dead["alive"] = False
    heir = successor(ctx.state, pid, None, 1)
    pass_on_positions(ctx, dead, heir, [])  # as succession.succession does before it asks nobility.succeed
    return heir, nobility.succeed(ctx, dead, heir)


def test_rh_oq_02_the_heir_receives_the_hereditary_titles_and_their_rank() -> None:
    ctx = court(p0101="king", p0102="hre", p0103="knight")
    ctx.state["personae"]["0101"]["titles"] = ["King of Naples", "Duke of Bari", "Knight of Pisa"]
    ctx.state["personae"]["0102"]["titles"] = ["Holy Roman Emperor", "King of Bohemia"]
    ctx.state["personae"]["0103"]["titles"] = ["Knight of Lucca"]
    king, _ = heir_of(ctx, "0101")
    assert king["rank"] == "king" and king["titles"] == ["King of Naples", "Duke of Bari"]
    emperor, said = heir_of(ctx, "0102")
    assert emperor["rank"] == "king" and emperor["titles"] == ["King of Bohemia"]
    assert "is king by his inherited titles" in said[0]
    knight, _ = heir_of(ctx, "0103")
    assert knight["rank"] == "none" and knight["titles"] == []
    # The positions stay with the persona id: the heir of 0101 is sovereign of Pisa and Lucca.
    assert ctx.state["locations"]["Pisa"]["offices"]["sovereign"] == "0101"


def test_rh_oq_13_an_emirs_title_dies_with_him() -> None:
    ctx = court()
    ctx.state["personae"]["0104"].update(islamic_title="emir", titles=["Emir"], religion="sunni")
    heir, _ = heir_of(ctx, "0104")
    assert "islamic_title" not in heir and heir["titles"] == [] and ranks.rank_value(heir) == 0
    ctx.state["personae"]["0105"].update(rank="emir")  # a world written before the hierarchies
    heir, _ = heir_of(ctx, "0105")
    assert heir["rank"] == "none"


def sultanate() -> Ctx:
    towns = [war_town("Tunis", population=40000, loyalty=500, offices={"sovereign": "0301"}),
             war_town("Bone", population=12000, loyalty=400, offices={"sovereign": "0301"}),
             war_town("Bizerte", population=12000, loyalty=300, offices={"sovereign": "0301"}),
             war_town("Sousse", population=9000, loyalty=350, offices={"sovereign": "0301"}),
             war_town("Kairouan", population=90000, loyalty=450, offices={"sovereign": "0999"})]
    sultan = war_persona("0301", "HAFSID", religion="sunni", islamic_title="sultan", titles=["Sultan of Tunis"],
                         popularity=350)
    return month_ctx([sultan], towns, month=5)


def test_rh_oq_14_a_sultans_death_brings_his_three_most_populous_cities_loyalty_to_zero() -> None:
    # His cities: Tunis 40,000, Bone and Bizerte 12,000 each (equal: in name order), Sousse 9,000. Kairouan is not
    # his. The three first lose all loyalty; Sousse keeps its 350.
    ctx = sultanate()
    assert islamic_titles.sultanate_cities(ctx.state, "0301") == ["Tunis", "Bizerte", "Bone", "Sousse"]
    heir, said = heir_of(ctx, "0301")
    loyalty = {name: loc["loyalty"] for name, loc in ctx.state["locations"].items()}
    assert loyalty == {"Tunis": 0, "Bone": 0, "Bizerte": 0, "Sousse": 350, "Kairouan": 450}
    assert heir["islamic_title"] == "sultan" and heir["titles"] == ["Sultan of Tunis"]
    assert ranks.rank_value(heir) == 200
    assert any("civil strife" in n for n in ctx.news) and "succeeds to the throne as sultan" in said[0]


def test_rh_oq_14_a_shah_as_a_sultan_and_fewer_than_three_cities() -> None:
    ctx = sultanate()
    ctx.state["personae"]["0301"]["islamic_title"] = "shah"
    for name in ("Bone", "Bizerte", "Sousse"):
        ctx.state["locations"][name]["offices"]["sovereign"] = None
    heir, _ = heir_of(ctx, "0301")
    assert ctx.state["locations"]["Tunis"]["loyalty"] == 0 and ctx.state["locations"]["Bone"]["loyalty"] == 400
    assert heir["islamic_title"] == "shah"


# ---- through the month ------------------------------------------------------------------------------------------

def run(text: str, turn: int, state: dict[str, Any]) -> Any:
    parsed = RULESET.parse(text)
    assert parsed.diagnostics == []
    orders: dict[str, list[PlacedOrder]] = {"LMD": RULESET.effective([OrderSet("LMD", 1, parsed.orders)]),
                                            "ADR": []}
    return engine.run_month(state, turn, orders, random.Random(1))


def test_an_elevation_in_february_through_the_month() -> None:
    # The small world starts in January 1493: turn 2 is February. Piero (0101), made king, elevates Domenico Doria
    # (0202), a count, to marquis, naming the title for Genoa: 2 of his 3 rights.
    state = small_state()
    state["personae"]["0101"]["rank"] = "king"
    state["personae"]["0202"]["rank"] = "count"
    text = "/LMD *MEDICI\n*Florence .0101\nOE0202marquis/Genoa\n"
    january = run(text, 1, state)
    assert not january.outcomes["MEDICI"][0]["ok"]
    assert january.ctx.state["personae"]["0202"]["rank"] == "count"
    february = run(text, 2, state)
    outcome = february.outcomes["MEDICI"][0]
    assert outcome["ok"] and "1 left this year" in outcome["text"]
    doria = february.ctx.state["personae"]["0202"]
    assert doria["rank"] == "marquis" and doria["titles"] == ["Marquis of Genoa"]
    assert any("to the rank of marquis" in n for n in february.ctx.news)
    assert ranks.rank_value(doria) == 120


def test_the_ack_notes_an_elevation_outside_february_and_one_to_the_hre() -> None:
    # The small world's turn 1 is January 1493: the elevation "will fail"; marked for February it is not noted; an
    # emir declares himself in any month.
    state = small_state()
    january = RULESET.parse("/LMD *MEDICI\n*Florence .0101\nOE0102duke\nOE0102hre\nOE0101emir\n")
    notes = [d.message for d in RULESET.check(state, 1, "LMD", january.orders)]
    assert len(notes) == 2
    assert "it will fail" in notes[0] and "elevated each February only" in notes[0] and "January 1493" in notes[0]
    assert "reached by election only" in notes[1]
    february = RULESET.parse("/LMD *MEDICI\n!FEB1493\n*Florence .0101\nOE0102duke\n")
    assert RULESET.check(state, 1, "LMD", february.orders) == []


def test_an_emir_declares_himself_through_the_month_in_any_month() -> None:
    # July 1493 (turn 7): Giuliano (0103) at Pisa, a Sunni with 1,200 pikemen and 900 + 900 + 600 = 2,400.
    state = small_state()
    giuliano = state["personae"]["0103"]
    giuliano.update(religion="sunni", morale=900, popularity=900, piety=600)
    giuliano["assets"].update(pikeman=1200, grain=100000)
    result = run("/LMD *MEDICI\n*Pisa .0103\nOE0103emir\n", 7, state)
    outcome = result.outcomes["MEDICI"][0]
    assert outcome["ok"], outcome
    assert result.ctx.state["personae"]["0103"]["islamic_title"] == "emir"
