"""Acceptance (issue 25, test 1): a year of the hierarchies played by mail through the daemon, twenty families.

The 1493 world (examples/renaissance/setup.toml, eighteen families) with two families added, HAFSID (Sunni, the
sultan of Tunis and his brother) and GRIMALDI (a Genoese assassin at Tunis), and every player in credit for the
year. Each month the players mail their orders, the daemon takes them in, the GM runs the month and the
printouts and newsletter go out. What happens, month by month (turn 1 is January 1493):

 1 Jan  the sultan names his brother to succeed him (OH); Cesare Borgia, archbishop of Valencia, appoints Juan
        bishop of Gandia (OP: a bishop made)
 2 Feb  elevations: the Pope makes Giuliano de' Medici a knight ("Knight of Florence"), Henry Tudor, King of
        England (a king by his title: RH-OQ-02), makes Andrea Doria a knight; the Pope invests Juan with the
        vacant archbishopric of Messina (OI)
 3 Mar  Juan accepts Messina (an archbishop made; his bishopric of Gandia ends)
 4 Apr  Grimaldi assassinates the sultan at Tunis; at the month's end his brother, named in January, takes the
        sultanate (a succession under the Islamic rules) and Tunis's loyalty falls to zero (civil strife)
 5 May  Giuliano rides to Pisa
 6 Jun  the Pope founds the order of Santo Stefano at Pisa (OGF) and Piero, Pisa's sovereign, gives it Pisa's
        tenancy (OGT): a military order founded
 7 Jul  the grandmaster is elected at Pisa: Giuliano votes for himself (VG)
 8 Aug  Giuliano accepts (OGA): Grandmaster of Santo Stefano
 9 Sep  the Pope grants Juan a cardinal's hat (OK)
10 Oct  Juan accepts the hat (a cardinal made); the Pope resigns the papacy (OQpope): the conclave sits from November
11 Nov  the cardinals in Rome elect Giovanni de' Medici (VP): a papal election
12 Dec  Giovanni accepts the throne (OApope); Florence's citizens vote for their ruler (VR)
13 Jan  1494: Florence's election is counted as the month begins (an elective state's election), and the ABRAVANEL
        family, in its player's thirteenth turn, the first a family may change religion (RH-OQ-44), turns
        Catholic (HR: an apostasy)

So the year is thirteen months: the twelve of 1493 and the first of 1494, because "No player may order a family to
change religion prior to his thirteenth turn as player for that family".
"""

from __future__ import annotations

import copy
import re
import tomllib
from functools import cache
from typing import Any

import pytest

from maild.testing import Table
from tests.mailcheck import long_prose_lines, repeated_lines
from tests.paths import ROOT

GAME = "ren"
MONTHS = 13


def address(player: str) -> str:
    return f"{player.lower()}@example.org"


@cache
def _example() -> dict[str, Any]:
    return tomllib.loads((ROOT / "examples" / "renaissance" / "setup.toml").read_text())


def year_setup() -> dict[str, Any]:
    setup = copy.deepcopy(_example())
    for player in setup["players"]:
        player["balance"] = 1000.0  # a year of fees for every player
        player.pop("password", None)
    setup["players"] += [{"code": "HAF", "name": "Hafsid player", "email": address("HAF"), "balance": 1000.0},
                         {"code": "GRI", "name": "Grimaldi player", "email": address("GRI"), "balance": 1000.0}]
    people = {p["id"]: p for f in setup["families"] for p in f["personae"]}
    people["0201"]["assets"]["ducats"] = 300_000  # the Pope: an order's 100,000 ducats, after a year's upkeep
    setup["families"] += [
        {"name": "HAFSID", "number": 19, "player": "HAF", "religion": "sunni", "origin": "european", "personae": [
            {"id": "1901", "name": "Abu Umar Uthman", "age": 60, "popularity": 400, "piety": 300, "rank": "sultan",
             "titles": ["Sultan of Tunis"], "assets": {"ducats": 50_000}, "location": "Tunis", "inside": True,
             "citizenship": "Tunis", "bonus_city": "Tunis"},
            {"id": "1902", "name": "Abu Abdallah Muhammad", "age": 30, "popularity": 300, "piety": 200,
             "assets": {"ducats": 20_000}, "location": "Tunis", "inside": True, "citizenship": "Tunis"}]},
        {"name": "GRIMALDI", "number": 20, "player": "GRI", "religion": "catholic", "origin": "european",
         "personae": [
             {"id": "2001", "name": "Lamberto Grimaldi", "age": 35, "popularity": 250, "piety": 50,
              "skills": {"assassination": 300}, "assets": {"ducats": 20_000}, "location": "Tunis", "inside": True,
              "citizenship": "Genoa"}]},
    ]
    tunis = next(loc for loc in setup["locations"] if loc["name"] == "Tunis")
    tunis["offices"] = {"sovereign": "1901", "tenant": "1901"}
    return setup


# Each month's mail, by player: the family's header line, then each persona's orders.
ORDERS: dict[int, dict[str, str]] = {
    1: {"HAF": "/HAF *HAFSID\n*Tunis .1901\nOH1902\n",
        "BOR": "/BOR *BORGIA\n*Rome .0202\nOP0203Gandia\n"},
    2: {"BOR": "/BOR *BORGIA\n*Rome .0201\nOE0103knight/Florence OI0203Messina\n",
        "TUD": "/TUD *TUDOR\n*London .0601\nOE1001knight\n"},
    3: {"BOR": "/BOR *BORGIA\n*Rome .0203\nOAMessina\n"},
    4: {"GRI": "/GRI *GRIMALDI\n*Tunis .2001\nKK1901\n"},
    5: {"MED": "/MED *MEDICI\n*Florence .0103\nMLPisa\n"},
    6: {"BOR": "/BOR *BORGIA\n*Rome .0201\nOGFSantoStefano/Pisa\n",
        "MED": "/MED *MEDICI\n*Florence .0101\nOGTSantoStefano/Pisa\n"},
    7: {"MED": "/MED *MEDICI\n*Pisa .0103\nVG0103\n"},
    8: {"MED": "/MED *MEDICI\n*Pisa .0103\nOGA\n"},
    9: {"BOR": "/BOR *BORGIA\n*Rome .0201\nOK0203\n"},
    10: {"BOR": "/BOR *BORGIA\n*Rome .0203\nOAhat\n*Rome .0201\nOQpope\n"},
    11: {"MED": "/MED *MEDICI\n*Rome .0102\nVP0102\n",
         "BOR": "/BOR *BORGIA\n*Rome .0202\nVP0102\n*Rome .0203\nVP0102\n",
         "SFZ": "/SFZ *SFORZA\n*Rome .0303\nVP0102\n"},
    12: {"MED": "/MED *MEDICI\n*Rome .0102\nOApope\n*Florence .0101\nVR0101\n"},
    13: {"ABR": "/ABR *ABRAVANEL\nHRcatholic\n"},
}


class Year:
    """The year played: every printout and newsletter by turn, and the acks."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.players = [p["code"] for p in year_setup()["players"]]

    def printout(self, turn: int, player: str) -> str:
        return self.table.printout(GAME, turn, player)

    def newsletter(self, turn: int) -> str:
        return self.table.newsletter(GAME, turn)


@pytest.fixture(scope="module")
def year(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with Table(tmp_path_factory.mktemp("year")) as table:
        table.create_game(GAME, "renaissance", year_setup(), seed=1493)
        table.intake()  # the welcomes
        for turn in range(1, MONTHS + 1):
            for player, body in ORDERS.get(turn, {}).items():
                table.send(address(player), body, subject=f"turn {turn}")
            table.intake()
            table.run_turn(GAME)
        yield Year(table)


def unwrapped(text: str) -> str:
    """The text with each wrapped line joined to the line it continues (indented deeper, under a line filled
    towards the margin): two messages may end in the same words ("not maintained, 1 lost."), which is no line
    said twice."""
    out: list[str] = []
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if out and line.strip() and len(out[-1]) > 60 and indent > len(out[-1]) - len(out[-1].lstrip()):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


def flat(text: str) -> str:
    return " ".join(text.split())


def test_twenty_families_play_the_year(year: Year) -> None:
    assert len(year_setup()["families"]) == 20
    assert "JANUARY 1494" in year.newsletter(MONTHS)


def test_every_mail_reads_well_in_a_terminal(year: Year) -> None:
    for m in year.table.mails():
        text = m.get_content()
        subject = str(m["Subject"])
        if "printout" in subject or "newsletter" in subject:
            text = text.split("\nORDERS NOT CARRIED OUT\n")[0]
        assert long_prose_lines(text) == [], f"{m['To']}: {subject}"
        # Each persona's sheet and each location's section names a thing once; the sections repeat their
        # headings ("ITEMS SUPPLIED BY THE LOCALS") by design, two personae may keep the same horses.
        for part in re.split(r"\n[-=]{20,}\n|\n(?=\.\d{4}  )", unwrapped(text)):
            assert repeated_lines(part) == {}, f"{m['To']}: {subject}"


def test_no_order_of_the_year_was_refused(year: Year) -> None:
    for turn, mails in ORDERS.items():
        for player in mails:
            text = year.printout(turn, player)
            executed = flat(text.split("ORDERS EXECUTED")[1].split("MESSAGES")[0])
            assert " FAILED " not in executed and "NOT ACCEPTED" not in text, (turn, player, executed)
            assert "done" in executed, (turn, player, executed)


def test_a_bishop_an_archbishop_and_a_cardinal_made(year: Year) -> None:
    # January: Cesare, archbishop of Valencia, appoints Juan (piety 30: unsuitable, 20 of Cesare's popularity).
    assert "Cesare Borgia (0202) has appointed Juan Borgia (0203) bishop of Gandia." in flat(year.newsletter(1))
    # February: invested with Messina; March: accepted, Gandia's bishopric resigned.
    assert "The Pope has invested Juan Borgia (0203) with the archbishopric of Messina." in flat(year.newsletter(2))
    march = flat(year.printout(3, "BOR"))
    assert "accepted the archbishopric of Messina; resigned: bishop of Gandia" in march
    assert "Juan Borgia (0203) has accepted the archbishopric of Messina." in flat(year.newsletter(3))
    # September: the hat; October: accepted, Messina kept.
    assert "The Pope has granted a cardinal's hat to Juan Borgia (0203)." in flat(year.newsletter(9))
    october = flat(year.printout(10, "BOR"))
    assert "accepted a cardinal's hat" in october
    juan = flat(year.printout(10, "BOR").split(".0203  Juan Borgia")[1].split("\n.02")[0])
    assert "TITLES Cardinal" in juan and "archbishop of Messina" in juan


def test_elevations_in_february(year: Year) -> None:
    news = flat(year.newsletter(2))
    assert "Rodrigo Borgia has elevated Giuliano de' Medici to the rank of knight: Knight of Florence." in news
    assert "Henry Tudor has elevated Andrea Doria to the rank of knight: Knight." in news
    giuliano = flat(year.printout(2, "MED").split(".0103  Giuliano de' Medici")[1])
    assert giuliano.startswith(": ") and "TITLES Knight of Florence" in giuliano


def test_a_succession_under_the_islamic_rules(year: Year) -> None:
    april = flat(year.newsletter(4))
    assert "Abu Umar Uthman (1901) has been assassinated at Tunis." in april
    assert "Abu Abdallah Muhammad (1902) succeeds Abu Umar Uthman in his hereditary positions." in april
    haf = flat(year.printout(4, "HAF"))
    assert "Abu Abdallah Muhammad succeeds to the throne as sultan" in haf
    assert "Civil strife: the loyalty of Tunis falls to zero." in haf
    assert "the civil strife brings the loyalty of Tunis to zero" in april
    assert "LOCATION TUNIS population 60,360 wealth 179 loyalty 0 sunni" in haf
    may = year.printout(5, "HAF")
    brother = flat(may.split(".1902  Abu Abdallah Muhammad")[1].split("\n.19")[0])
    assert "TITLES Sultan of Tunis" in brother and "sovereign of Tunis" in brother


def test_a_military_order_founded_and_its_grandmaster_elected(year: Year) -> None:
    june = flat(year.newsletter(6))
    assert "The Pope creates the military order of SantoStefano" in june
    assert "will be elected in July 1493 by the male Catholic personae at Pisa" in june
    july = flat(year.newsletter(7))
    # One vote, his own, and the two of the highest piety among the vote-getters (he is the only one): 3.
    assert ("Giuliano de' Medici (0103) is elected grandmaster of SantoStefano with 3 votes (+2 for the highest "
            "piety to 0103)") in july
    august = flat(year.newsletter(8))
    assert "Giuliano de' Medici (0103) accepts the grandmastership of SantoStefano." in august
    giuliano = flat(year.printout(8, "MED").split(".0103  Giuliano de' Medici")[1])
    assert "Grandmaster of SantoStefano" in giuliano and "tenant of Pisa" in giuliano


def test_a_papal_election(year: Year) -> None:
    assert ("The papal throne is vacant: the cardinals present in Rome elect the Pope from the turn 11 on."
            in flat(year.newsletter(10)))
    # Four cardinals in Rome vote for Giovanni (Ascanio Sforza, Cesare and Juan Borgia, and himself): the most
    # pious and the best preacher among those with a cardinal's vote is he alone, so the 20 non-player votes are
    # all his (RH-OQ-15): 4 + 20 = 24.
    november = flat(year.newsletter(11))
    assert "The conclave has elected Giovanni de' Medici (0102) Pope (Giovanni de' Medici (0102) 24)" in november
    december = flat(year.newsletter(12))
    assert "Giovanni de' Medici (0102) has accepted the papal throne." in december
    giovanni = flat(year.printout(12, "MED").split(".0102  Giovanni de' Medici")[1].split("\n.01")[0])
    assert "TITLES Pope" in giovanni


def test_an_elective_states_election(year: Year) -> None:
    # Piero's own vote, and the four of the most popular vote-getter (he is the only one): 5. The votes of
    # December are counted as January begins (RH-OQ-36: loyalty unchanged).
    january = flat(year.newsletter(13))
    assert "Piero de' Medici (0101) is reelected ruler of Florence for 1494, with 5 votes." in january


def test_an_apostasy(year: Year) -> None:
    assert "The ABRAVANEL family has embraced the catholic faith." in flat(year.newsletter(13))
    abr = flat(year.printout(13, "ABR"))
    assert "FAMILY ABRAVANEL (catholic)" in abr
    # Isaac Abravanel: popularity 300 less 90% = 30, piety 400 to 0.
    assert "1801: now catholic; popularity 30" in abr


def test_a_gm_correction_of_an_earlier_month_re_run_to_a_new_result(year: Year) -> None:
    # ERRORS: the GM finds in the last month that November's processing wronged Giovanni de' Medici (.0102): he
    # records 5,000 ducats of compensation for month 11 and re-runs from it. Months 11 to 13 come out anew,
    # mailed "(corrected)"; November's newsletter announces it. Run last: it changes the game's later state.
    from maild.turn import rerun_turn

    table = year.table
    said = table.gm(GAME, "compensate", "--turn", "11", "0102", "5000", "--note", "a sale booked at the wrong price")
    assert "recorded for turn 11" in said
    assert [o.status for o in rerun_turn(table.app, GAME, 11, mail=True)] == ["changed"] * (MONTHS - 10)
    table.intake()
    corrected = [m for m in table.mails() if str(m["Subject"]) == f"[{GAME}] turn 11 newsletter (corrected)"]
    assert len(corrected) == 1
    news = flat(corrected[0].get_body(("plain",)).get_content() if corrected[0].is_multipart()
                else corrected[0].get_content())
    assert "The GM corrects an error of processing (ERRORS): 5,000 ducats to" in news
    assert "a sale booked at the wrong price" in news
