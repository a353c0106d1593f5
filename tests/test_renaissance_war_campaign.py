"""The Renaissance war by mail, end to end (the war issue's acceptance test), on SQLite and on PostgreSQL.

Two families fight over Siena from July to December 1493 (the world is tests/renaissance_war_campaign.toml). Their
players mail coded orders; the daemon reads them and answers with acks; each month runs at its deadline and the
printouts and newsletters come back by mail. Every figure asserted below was worked by hand from the rules
(/work/shared/rules/renaissance.md) and the readings of docs/renaissance/war.md; the working is in the comments.

- July: both feudatories raise their levies (Florence 1% of 3,000 = 30, Siena 1% of 2,000 = 20); the Medici buy
  mercenary pikemen at Florence, the Petrucci mercenary archers at Siena; Borghese Petrucci, outside Siena, orders
  the interception of the Medici for August; both fleets sail to the open water at 43.25 N 10.20 E.
- August: Pandolfo hands his levy to Borghese; Lorenzo de' Medici marches on Siena and is intercepted there (a
  field battle: the Petrucci retreat, leaving their wine); at sea Piero de' Medici attacks Giacomo Petrucci (a
  naval battle, broken at its sixth stage). One malformed disposition is refused with its diagnostic.
- September: Lorenzo besieges Siena; Giuliano brings the family's cannons from Florence.
- October: the siege takes effect and blocks all overland ingress: Siena's garrison suffers 1% siege attrition;
  Lorenzo gives his men the captured wine.
- November: Giuliano hands the cannons to Lorenzo, who bombards Siena and assaults its walls: the garrison is
  eliminated and de facto control of Siena passes to him.
- December: Lorenzo loots Siena; Borghese's archers, with no food, suffer December's maintenance attrition.

`test_a_battle_is_the_same_under_two_seeds` runs July and August, then resolves August again under two other seeds:
battles are formulas, not dice (RW-OQ-02).
"""

from __future__ import annotations

import random
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from maild.app import App
from maild.cli import game_export
from maild.games import get_game
from maild.turn import release_turn
from tests.conftest import make_app
from tests.mailcheck import long_prose_lines
from tests.mailflow import ROME, by_subject, drop, mail, run_pass, sent
from tests.renaissance_fixtures import flat

SETUP = Path(__file__).with_name("renaissance_war_campaign.toml")
GAME = "war1"
MED, PET = "med@example.org", "pet@example.org"
AT_SEA = {"lat": 43.25, "lon": 10.2}

# Turn n (July 1493 + n - 1) is due on the first of a month at noon, Rome time; its orders are mailed on the 25th
# of the month before.
DUE = [(2026, 12), (2027, 1), (2027, 2), (2027, 3), (2027, 4), (2027, 5), (2027, 6)]
DEADLINES = [datetime(y, m, 1, 12, 0, tzinfo=ROME) for y, m in DUE]

# The families' orders, turn by turn, in the order they are mailed (the Petrucci's first: in August their
# transfer must run before the Medici march, ORDERS: "Each family's orders are executed in the sequence in which I
# receive them").
ORDERS: dict[int, list[tuple[str, str]]] = {
    1: [(PET, "/PET *PETRUCCI\n*Siena .0201\nEL\n*Siena .0202\nBarcher10 KIMEDICI\n*Piombino .0203\n"
              "MW+43.25+010.20\n"),
        (MED, "/MED *MEDICI\n*Florence .0101\nBpikeman20 EL\n*Livorno .0103\nMW+43.25+010.20\n")],
    2: [(PET, "/PET *PETRUCCI\n*Siena .0201\nT0202auxiliary20\n"),
        (MED, "/MED *MEDICI\n*Florence .0101\nZ9pikeman5\nMLSiena\n*+43.25+010.20 .0103\nKN0203\n")],
    3: [(MED, "/MED *MEDICI\n*Siena .0101\nKS\n*Florence .0102\nMLSiena\n")],
    4: [(MED, "/MED *MEDICI\n*Siena .0101\nUAwine10\n")],
    # Giuliano's block first: his transfer runs before Lorenzo's bombardment (a family's personae run in the order
    # their blocks appear, ORDERS).
    5: [(MED, "/MED *MEDICI\n*Siena .0102\nT0101cannon3\n*Siena .0101\nZNpikeman20 ZNauxiliary24\nKB3 KA\n")],
    6: [(MED, "/MED *MEDICI\n*Siena .0101\nOL\n")],
}


# ---- the game by mail -----------------------------------------------------------------------------------------

def campaign_app(tmp_path: Path, db_url: str) -> App:
    setup = tmp_path / "campaign.toml"
    setup.write_text(SETUP.read_text())
    schedule = {"timezone": "Europe/Rome", "at": [d.strftime("%Y-%m-%dT%H:%M") for d in DEADLINES]}
    return make_app(tmp_path, db_url, datetime(2026, 11, 20, 9, 0, tzinfo=ROME), setup, name=GAME,
                    ruleset="renaissance", schedule=schedule)


def subject(turn: int, sender: str) -> str:
    return f"turn {turn} orders of {sender[:3].upper()}"


def mail_orders(app: App, turn: int) -> dict[str, str]:
    """The month's mails arrive on the 25th of the month before its deadline, one pass of the daemon after each
    (so that the order of receipt is the order written); the acks by sender."""
    year, month = DUE[turn - 1]
    year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    acks = {}
    for minute, (sender, body) in enumerate(ORDERS[turn]):
        when = datetime(year, month, 25, 9, minute, tzinfo=ROME)
        drop(app, mail(sender, body, 100 * turn + minute, subject=subject(turn, sender)), when)
        run_pass(app, when)
        acks[sender] = by_subject(sent(app), f"Re: {subject(turn, sender)}").get_content()
    return acks


def month_runs(app: App, turn: int) -> tuple[dict[str, str], str]:
    """The deadline passes and the month runs; when one player sent nothing the safety gate holds it and the GM
    releases it (as `maild turn release`). The printouts by player code, and the newsletter."""
    at = DEADLINES[turn - 1].replace(minute=1)
    run_pass(app, at)
    if turn_now(app) == turn:
        assert release_turn(app, GAME).status == "done"
        run_pass(app, at)
    assert turn_now(app) == turn + 1
    mails = sent(app)
    printouts = {code: one(mails, f"[{GAME}] turn {turn} printout for {code}") for code in ("MED", "PET")}
    news = one(mails, f"[{GAME}] turn {turn} newsletter")
    # Battles, sieges and upkeep wrap to 78 columns as the rest does ("Orders not carried out" is the framework's).
    for text in (*printouts.values(), news):
        assert long_prose_lines(text.split("\nORDERS NOT CARRIED OUT\n")[0]) == [], turn
    return printouts, news


def one(mails: list[EmailMessage], exact: str) -> str:
    found = [m for m in mails if str(m["Subject"]) == exact]
    assert len(found) == 1, (exact, [str(m["Subject"]) for m in mails])
    return str(found[0].get_content())


def export(app: App) -> dict[str, Any]:
    with app.db.session() as s:
        return game_export(s, app, get_game(s, GAME))


def turn_now(app: App) -> int:
    return int(export(app)["turn"])


def men_and_morale(state: dict[str, Any]) -> dict[str, tuple[dict[str, int], int]]:
    """Each persona's assets and morale."""
    return {pid: (p["assets"], p["morale"]) for pid, p in state["personae"].items()}


def where(state: dict[str, Any], pid: str) -> tuple[str | None, bool, dict[str, float] | None]:
    p = state["personae"][pid]
    return p["location"], p["inside"], p["at_sea"]


def siena(state: dict[str, Any]) -> dict[str, Any]:
    """What the campaign changes at Siena: its walls, garrison, ratings, siege and who holds it."""
    town = state["locations"]["Siena"]
    return {"far": town["far"], "fas": town["fas"], "garrison": town["garrison"], "loyalty": town["loyalty"],
            "wealth": town["wealth"], "population": town["population"], "siege": town.get("siege"),
            "offices": {k: v for k, v in town["offices"].items() if v}, "dfc_since": town.get("dfc_since")}


PETRUCCI_SIENA = {"sovereign": "the Balia of Siena", "feudatory": "0201", "tenant": "0201"}


def balances(data: dict[str, Any]) -> dict[str, float]:
    return {code: p["balance"] for code, p in data["players"].items()}


def section(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0]


# ---- the campaign ---------------------------------------------------------------------------------------------

def test_a_renaissance_war_by_mail(tmp_path: Path, db_url: str) -> None:
    app = campaign_app(tmp_path, db_url)
    july(app)
    august(app)
    september(app)
    october(app)
    november(app)
    december(app)


def july(app: App) -> None:
    acks = mail_orders(app, 1)
    # The acks list the war orders as understood.
    assert "line 3: .0201 EL: raise a feudal levy" in acks[PET]
    assert "line 5: .0202 Barcher10: buy 10 archer" in acks[PET]
    assert "line 5: .0202 KIMEDICI: intercept MEDICI next month" in acks[PET]
    assert "line 3: .0101 Bpikeman20: buy 20 pikeman" in acks[MED]
    assert "line 3: .0101 EL: raise a feudal levy" in acks[MED]
    assert "line 5: .0103 MW+43.25+010.20: move by water to +43.25 +10.20" in acks[MED]
    printouts, _news = month_runs(app, 1)
    med, pet = printouts["MED"], printouts["PET"]
    data = export(app)
    state = data["state"]

    # MAINTENANCE, July: ten ducats a man for heavy cavalry, auxiliaries and crew, at the start of the month, before
    # any levy: Piero's and Giacomo's 10 crew, 100 ducats each (500 -> 400); nobody else has men yet.
    # MERCENARIES: Lorenzo buys 20 pikemen at Florence at 30: 600 ducats and 10% export tariff, 60 (1,000 -> 340);
    # they join at the pikemen's 500 (he had no men: his morale becomes 500). FEUDAL LEVIES: 1% of Florence's 3,000
    # = 30 auxiliaries at 200, armed with his 30 small arms; weighted average (20 x 500 + 30 x 200) / 50 = 16,000 /
    # 50 = 320. Loyalty 500 - 10 = 490, popularity 300 - 10 = 290.
    assert ".0101 Bpikeman20 done bought 20 pikeman for 600 ducats, 60 ducats export tariff" in flat(med)
    assert ("raised a feudal levy of 30 at Florence: 30 auxiliaries armed with small arms; loyalty now 490, "
            "popularity 290, morale 320") in flat(med)
    # Pandolfo: 1% of Siena's 2,000 = 20 auxiliaries at 200 (his first men: morale 200); loyalty 400 - 10 = 390,
    # popularity 200 - 10 = 190. Borghese buys 10 archers at Siena at 20 (no tariff): 500 - 200 = 300, morale 200
    # (MERCENARIES: "All other mercenaries have an initial morale of 200"). His interception order is for August
    # (BATTLE: "valid during the turn subsequent"), charged now: 25 actions x 0.2 = 5.00.
    assert ("raised a feudal levy of 20 at Siena: 20 auxiliaries armed with small arms; loyalty now 390, "
            "popularity 190, morale 200") in flat(pet)
    assert ".0202 KIMEDICI done he will intercept MEDICI next month where he then stands" in flat(pet)
    # Both fleets reach the open water in summer: navigation - 600 (open water) + 600 (caravels only).
    assert "sailed from Livorno to +43.25 +10.20, 21 miles" in flat(med)
    assert "sailed from Piombino to +43.25 +10.20, 28 miles" in flat(pet)
    assert men_and_morale(state) == {
        "0101": ({"ducats": 340, "pikeman": 20, "auxiliary": 30}, 320),
        "0102": ({"ducats": 100, "cannon": 3, "horse": 60}, 0),
        "0103": ({"ducats": 400, "caravel": 1, "crew": 10, "archer": 10, "falconet": 1, "grain": 20}, 500),
        "0201": ({"ducats": 200, "auxiliary": 20}, 200),
        "0202": ({"ducats": 300, "wine": 10, "archer": 10}, 200),
        "0203": ({"ducats": 400, "caravel": 1, "crew": 10, "pikeman": 10, "grain": 20}, 388),
    }
    assert state["personae"]["0101"]["popularity"] == 290 and state["personae"]["0201"]["popularity"] == 190
    assert state["personae"]["0202"]["intercept"] == {"targets": ["MEDICI"], "ferries": False, "turn": 2}
    assert where(state, "0103") == (None, False, AT_SEA) and where(state, "0203") == (None, False, AT_SEA)
    assert state["locations"]["Florence"]["loyalty"] == 490
    assert siena(state) == {"far": 100, "fas": 60, "garrison": 5, "loyalty": 390, "wealth": 150,
                            "population": 2000, "siege": None, "offices": PETRUCCI_SIENA, "dfc_since": None}
    assert state["locations"]["Florence"]["supplied"]["pikeman"]["qty"] == 80
    assert state["locations"]["Siena"]["supplied"]["archer"]["qty"] == 30
    # The accounts: each family's fee, 5.00 less the 10% prepayment discount = 4.50; the Petrucci's interception
    # order 5.00 more. MED 100 - 4.50 = 95.50; PET 100 - 5 - 4.50 = 90.50.
    assert balances(data) == {"MED": 95.5, "PET": 90.5}


def august(app: App) -> None:
    acks = mail_orders(app, 2)
    assert "line 3: .0201 T0202auxiliary20" in acks[PET]
    assert "line 4: .0101 MLSiena: move by land to Siena" in acks[MED]
    assert "line 6: .0103 KN0203: attack 0203 in a naval battle" in acks[MED]
    # The malformed disposition (there is no place 9): named with its line, and what a disposition should be.
    refused = flat(section(acks[MED], "Not understood (1) - these lines were ignored:", "The first orders"))
    assert "line 3: Z9pikeman5" in refused
    assert '"Z9pikeman5": a disposition is Z, the place (1 left wing, 2 left, 3 center, 4 right, 5 right wing, ' \
           "6 reserves; N, E, S, W the walls)" in refused
    printouts, news = month_runs(app, 2)
    med, pet = printouts["MED"], printouts["PET"]
    data = export(app)
    state = data["state"]

    # MAINTENANCE, August: heavy cavalry and archers, ten ducats each: Piero's 10 archers (400 -> 300), Borghese's
    # 10 (300 -> 200).
    # The transfer: Pandolfo's 20 auxiliaries join Borghese at the giver's morale, 200; (10 x 200 + 20 x 200) / 30 =
    # 200. Pandolfo, left with no men, has no morale (MORALE: "When a persona controls neither troops, nor crew, his
    # morale rating is zero").
    #
    # THE FIELD BATTLE. Lorenzo's march from Florence to Siena (31 miles, within his 200) ends at Siena, where
    # Borghese stands outside the walls with orders to intercept the Medici: "In such battles, the interceptor is the
    # attacker". 50 men do not outnumber 30 twenty to one. Lorenzo ceases movement there, outside the walls.
    # The attacker: 10 archers, 20 auxiliaries, morale 200; retreat value 0 (no rank) + 150 / 10 = 15.
    # The defender: 20 pikemen, 30 auxiliaries, morale 320; retreat value 100 (count) + 290 / 10 = 129.
    # Standard dispositions (RW-OQ-22: each type divided equally among its legal divisions, Left, Center, Right and
    # Reserves for infantry, the remainder to the Center, then the Left):
    #   defender: 20 pikemen 5 each; 30 auxiliaries 7 each and 2 over: Left 5p 8x, Center 5p 8x, Right 5p 7x,
    #     Reserves 5p 7x; attacker: 10 archers 2 each and 2 over: Left 3a 5x, Center 3a 5x, Right 2a 5x,
    #     Reserves 2a 5x. The wings stay empty (only cavalry may stand there, and no one has any).
    assert ("the defender: standard dispositions (none ordered): Left: 5 pikemen, 8 auxiliaries; Center: 5 pikemen, "
            "8 auxiliaries; Right: 5 pikemen, 7 auxiliaries; Reserves: 5 pikemen, 7 auxiliaries") in flat(med)
    # Stage 1: no cannons on either side; no losses, no morale change (2 x 0 - 0 = 0).
    # Stage 2, archery: the defender has no archers. The attacker's archers at M 200 kill infantry at .8 x 200/1000 =
    # .16 each, at most 10% of the division's infantry: the Left's 3 at the defender's Right (12 infantry, ceiling
    # 1.2): 3 x .16 = .48 -> 1 (a loss is rounded up, RW-OQ-01), an auxiliary (shared in proportion, 7 of the 12,
    # the larger remainder); the Center's 3 at the Center (13): .48 -> 1 auxiliary; the Right's 2 at the Left (13):
    # .32 -> 1 auxiliary.
    assert "infantry: 3 × 0.8 × 200/1000 = 0.48 (ceiling 10% of 12) → 1 killed (1 auxiliary)" in flat(med)
    assert "infantry: 2 × 0.8 × 200/1000 = 0.32 (ceiling 10% of 13) → 1 killed (1 auxiliary)" in flat(med)
    # Morale: defender 2 x 3 suffered - 0 = 6 -> -3 (the root of 6, 2.45, rounded up: a fall); 320 -> 317.
    # Attacker 2 x 0 - 3 = -3 -> +1 (the root of 3, 1.73, rounded down: a rise); 200 -> 201.
    assert "morale, the defender: 2 × 3 suffered − 0 inflicted = 6 → -3: 320 → 317" in flat(med)
    # Stage 3: no arquebusiers; no change.
    # Stage 4, the first melee. The defense strikes first, M 317: part C, each division's 5 pikemen find no pikemen,
    # light or heavy cavalry, and kill other infantry at .5 x 317/1000: 5 x .1585 = .7925 -> 1 auxiliary in each of
    # the attacker's Right (2a 5x), Center (3a 5x) and Left (3a 5x) (auxiliaries the larger share each time). Part D,
    # infantry other than pikemen at .1 x 317/1000 = .0317: the Left's 7 auxiliaries at the Right (now 2a 4x): .2219
    # -> 1 auxiliary; the Center's 7 at the Center (3a 4x): .2219 -> 1 auxiliary; the Right's 6 at the Left (3a 4x):
    # .1902 -> 1 auxiliary. The attacker loses 6 auxiliaries: Left 3a 3x, Center 3a 3x, Right 2a 3x.
    assert "other infantry: 5 × 0.5 × 317/1000 = 0.792 (of 7) → 1 killed (1 auxiliary)" in flat(med)
    assert "other infantry: 6 × 0.1 × 317/1000 = 0.19 (of 7) → 1 killed (1 auxiliary)" in flat(med)
    # Then the attack, M 201, only part D (archers and auxiliaries): .1 x 201/1000 = .0201 each; the Left's 6 at the
    # defender's Right: .1206 -> 1 auxiliary; the Center's 6: .1206 -> 1; the Right's 5 at the Left: .1005 -> 1.
    assert "other infantry: 5 × 0.1 × 201/1000 = 0.101 (of 7) → 1 killed (1 auxiliary)" in flat(med)
    # Morale: defender 2 x 3 - 6 = 0 -> 317; attacker 2 x 6 - 3 = 9 -> -3 -> 198.
    # The retreat test, from the end of the first melee stage (Appendix D: "Retreats never occur before the
    # completion of one melee stage"): the defender 317 + 129 = 446, holds; the attacker 198 + 15 = 213 < 400,
    # retreats.
    assert "retreat test, the attacker: morale 198 + retreat value 15 = 213 < 400" in flat(med)
    # Stage 5, the retreat stage: the mass is 10 archers and 14 auxiliaries; the victor has no cavalry, so it kills
    # no one: the captured portion is 0/24. Trade goods that had no horse all go to the victor: Borghese's 10 wine
    # (he has no horses); his ducats weigh nothing and need none, so he loses 0/24 of them.
    assert "the attacker retreats: 24 men in one mass (10 archers, 14 auxiliaries)" in flat(med)
    assert "wine: 10 without horses + 0 × 0 with them → 10 captured" in flat(med)
    assert "Taken by Lorenzo de' Medici (0101): 10 wine." in flat(med)
    assert "Outcome: the attacker retreated. Victor: the defender." in flat(pet)  # both families read the whole report
    # Each persona takes his side's change of morale: Lorenzo 320 - 3 = 317, Borghese 200 - 2 = 198.
    assert "Morale of Borghese Petrucci (0202): 200 -> 198." in flat(pet)
    assert ".0101 MLSiena done moved by land from Florence to Siena, 31 miles (attrition-free " \
           "200); intercepted at Siena, where he ceases movement" in flat(med)

    # THE NAVAL BATTLE at 43.25 N 10.20 E. Piero (attacker): 1 caravel, 10 crew, 10 archers, 1 falconet, morale
    # 500, navigation 600, gunnery 40, retreat value 300 / 10 = 30. Giacomo (defender): 1 caravel, 10 crew, 10
    # pikemen, morale 388, navigation 400, retreat value 20. Both fully manned (10 crew, a caravel's complement):
    # effective navigation 600 against 400, the initiative is Piero's. One caravel each: standard dispositions put
    # it in the Center (RW-OQ-39: the remainder to the Center first), with all it carries.
    assert "the attacker has the initiative: higher effective navigation (600 against 400)" in flat(med)
    # Stage 1: his falconet (at most 1 a caravel) kills 100 x 40/1000 x 600/1000 = 2.4 -> 3, shared over the
    # defender's 10 pikemen and 10 crew: 1.5 each, the odd man to the pikemen (first of equals): 2 pikemen, 1 crew.
    # 2% of 1 falconet fired self-destructs: .02 -> 1. Morale: attacker -3 -> +1 (501), defender 6 -> -3 (385).
    assert ("the attacker's Center fires 1 falconets (at most 1 from its ships) at the defender's Center: 1 x 100 x "
            "40/1000 x 600/1000 = 2.4, 3 killed (2 pikemen, 1 crew)") in flat(med)
    # Stages 2 and 3: no galleys, nothing rammed, no excess cargo. End of stage 3 (the first a break may come):
    # 501 + 30 and 385 + 20 = 405, both hold.
    # Stage 4: his 10 archers kill 10 x 1 x 600/1000 = 6 of the 8 pikemen and 9 crew: 6 x 8/17 = 2.82 and
    # 6 x 9/17 = 3.18, the odd one to the larger remainder: 3 pikemen, 3 crew. Morale: attacker +2 (root of 6 down)
    # -> 503; defender 2 x 6 = 12 -> -4 -> 381; 381 + 20 = 401 holds. Stage 5: no arquebusiers.
    assert "10 x 1 x 600/1000 = 6, 6 killed (3 pikemen, 3 crew)" in flat(med)
    # Stage 6, the naval melee: his 20 troops and crew kill 20 x .1 x 503/1000 = 1.006 -> 2 of 5 pikemen and 6 crew
    # (10/11 and 12/11: 0 and 1, the odd one to the pikemen): 1 pikeman, 1 crew. Giacomo's 9 reply: 9 x .1 x
    # 381/1000 = .3429 -> 1, of 10 archers and 10 crew: an archer (first of equals). Morale: attacker 2 x 1 - 2 = 0
    # -> 503; defender 2 x 2 - 1 = 3 -> -2 -> 379; 379 + 20 = 399 < 400: the engagement is broken.
    assert "9 x .1 x 381/1000 = 0.3429, 1 killed (1 archer)" in flat(med)
    assert ("Outcome: the engagement was broken: the defender's morale 379 + retreat value 20 fell below 400. "
            "Victor: the attacker.") in flat(pet)
    assert "Giacomo Petrucci (0203) lost 5 crew, 6 pikemen." in flat(pet)
    # The newsletter: who fought whom where, and the men lost in round figures (K15): 6 and 6 are "a few"; Giacomo's
    # 11 "about 10", Piero's 1 "a few".
    events = flat(section(news, "THE MONTH'S EVENTS", "OFFICES HELD"))
    assert ("Field battle at Siena: Borghese Petrucci (0202) attacked Lorenzo de' Medici (0101); the attacker "
            "retreated. Men lost: the attacker a few, the defender a few.") in events
    assert ("Naval battle at sea: Piero de' Medici (0103) attacked Giacomo Petrucci (0203); the engagement was "
            "broken: the defender's morale 379 + retreat value 20 fell below 400. Men lost: the attacker a few, the "
            "defender about 10.") in events
    assert men_and_morale(state) == {
        "0101": ({"ducats": 340, "pikeman": 20, "auxiliary": 24, "wine": 10}, 317),
        "0102": ({"ducats": 100, "cannon": 3, "horse": 60}, 0),
        "0103": ({"ducats": 300, "caravel": 1, "crew": 10, "archer": 9, "grain": 20}, 503),
        "0201": ({"ducats": 200}, 0),
        "0202": ({"ducats": 200, "archer": 10, "auxiliary": 14}, 198),
        "0203": ({"ducats": 400, "caravel": 1, "crew": 5, "pikeman": 4, "grain": 20}, 379),
    }
    assert where(state, "0101") == ("Siena", False, None) and where(state, "0202") == ("Siena", False, None)
    assert where(state, "0103") == (None, False, AT_SEA) and where(state, "0203") == (None, False, AT_SEA)
    assert siena(state) == {"far": 100, "fas": 60, "garrison": 5, "loyalty": 390, "wealth": 150,
                            "population": 2000, "siege": None, "offices": PETRUCCI_SIENA, "dfc_since": None}
    # The fees: the field battle is charged to its initiator, the interceptor ("the interceptor is deemed to have
    # initiated the conflict"), the naval battle to Piero's player: 5.00 each, and the month's 4.50.
    # MED 95.50 - 5 - 4.50 = 86.00; PET 90.50 - 5 - 4.50 = 81.00.
    assert "conflict initiation: field battle Siena         -5.00" in pet
    assert "conflict initiation: naval battle at sea         -5.00" in med
    assert balances(data) == {"MED": 86.0, "PET": 81.0}


def september(app: App) -> None:
    acks = mail_orders(app, 3)
    assert "line 3: .0101 KS: besiege the location" in acks[MED]
    printouts, news = month_runs(app, 3)
    med = printouts["MED"]
    data = export(app)
    state = data["state"]
    # MAINTENANCE, September: heavy cavalry, archers, pikemen, arquebusiers and crew, ten ducats each: Lorenzo's 20
    # pikemen 200 (340 -> 140); Piero's 9 archers and 10 crew 190 (300 -> 110); Borghese's 10 archers 100 (200 ->
    # 100); Giacomo's 4 pikemen and 5 crew 90 (400 -> 310). Auxiliaries are not due.
    # SIEGE: Lorenzo began the month outside Siena's walls; his 44 troops are not fewer than the 5 garrison troops
    # inside. It takes effect next month; the order costs 5.00.
    assert ("ordered the siege of Siena (44 troops and crew against 5 inside the walls): it takes effect next "
            "month") in flat(med)
    # Giuliano carries the 3 cannons (120 cargo) on his 60 horses (2 cargo each): no excess; no one intercepts him
    # (Borghese's order was August's only), and without ingress to Siena he stays outside its walls.
    assert ".0102 MLSiena done moved by land from Florence to Siena, 31 miles" in flat(med)
    assert "Siena: siege ordered by Lorenzo de' Medici (MEDICI .0101), in effect from October 1493" in flat(news)
    assert men_and_morale(state) == {
        "0101": ({"ducats": 140, "pikeman": 20, "auxiliary": 24, "wine": 10}, 317),
        "0102": ({"ducats": 100, "cannon": 3, "horse": 60}, 0),
        "0103": ({"ducats": 110, "caravel": 1, "crew": 10, "archer": 9, "grain": 20}, 503),
        "0201": ({"ducats": 200}, 0),
        "0202": ({"ducats": 100, "archer": 10, "auxiliary": 14}, 198),
        "0203": ({"ducats": 310, "caravel": 1, "crew": 5, "pikeman": 4, "grain": 20}, 379),
    }
    assert where(state, "0102") == ("Siena", False, None)
    assert siena(state) == {"far": 100, "fas": 60, "garrison": 5, "loyalty": 390, "wealth": 150,
                            "population": 2000, "offices": PETRUCCI_SIENA, "dfc_since": None,
                            "siege": {"besieger": "0101", "ordered": 3, "since": None, "months": 0, "blocked": []}}
    # MED 86.00 - 5 (siege) - 4.50 = 76.50. The Petrucci sent nothing: no fee.
    assert balances(data) == {"MED": 76.5, "PET": 81.0}


def october(app: App) -> None:
    acks = mail_orders(app, 4)
    assert "line 3: .0101 UAwine10: give 10 wine to his troops" in acks[MED]
    printouts, news = month_runs(app, 4)
    med = printouts["MED"]
    data = export(app)
    state = data["state"]
    # October maintenance: half a unit of food for horses, sheep and cattle, the first 1,000 free: nothing is due.
    # The siege takes effect as October begins (44 still against 5). MORALE, alcohol: 20 / 44 men a unit, 10 units:
    # 200 / 44 = 4.5 -> +4 (a gain, rounded down): 317 -> 321.
    assert "issued 10 wine to 44 troops and crew: morale +4, now 321" in flat(med)
    # No one entered Siena all month: October is a month of successful siege, and blocked overland. Siege
    # attrition 1% of the garrison: .05 -> 1 (rounded up): 5 -> 4.
    events = flat(section(news, "THE MONTH'S EVENTS", "SIEGES"))
    assert "Siena is under siege by Lorenzo de' Medici (0101)." in events
    assert "Siena, besieged, suffered 1% siege attrition." in events
    assert ("under siege by Lorenzo de' Medici (MEDICI .0101) since October 1493; 1 month of successful siege"
            in flat(med))
    assert men_and_morale(state) == {
        "0101": ({"ducats": 140, "pikeman": 20, "auxiliary": 24}, 321),
        "0102": ({"ducats": 100, "cannon": 3, "horse": 60}, 0),
        "0103": ({"ducats": 110, "caravel": 1, "crew": 10, "archer": 9, "grain": 20}, 503),
        "0201": ({"ducats": 200}, 0),
        "0202": ({"ducats": 100, "archer": 10, "auxiliary": 14}, 198),
        "0203": ({"ducats": 310, "caravel": 1, "crew": 5, "pikeman": 4, "grain": 20}, 379),
    }
    assert siena(state) == {"far": 100, "fas": 60, "garrison": 4, "loyalty": 390, "wealth": 150,
                            "population": 2000, "offices": PETRUCCI_SIENA, "dfc_since": None,
                            "siege": {"besieger": "0101", "ordered": 3, "since": 4, "months": 1, "blocked": [4]}}
    assert balances(data) == {"MED": 72.0, "PET": 81.0}  # 76.50 - 4.50


def november(app: App) -> None:
    acks = mail_orders(app, 5)
    assert "line 3: .0102 T0101cannon3: transfer 3 cannon to 0101" in acks[MED]
    assert "line 5: .0101 ZNpikeman20: put 20 pikemen on the north wall" in acks[MED]
    assert "line 6: .0101 KB3: bombard the walls with 3 cannons" in acks[MED]
    assert "line 6: .0101 KA: assault the walls" in acks[MED]
    # He holds no cannons when the mail is read: a note, the order stands (the transfer comes first).
    assert "0101 holds 0 cannons now, fewer than 3" in acks[MED]
    printouts, news = month_runs(app, 5)
    med, pet = printouts["MED"], printouts["PET"]
    data = export(app)
    state = data["state"]

    # MAINTENANCE, November (food): horses (the first 1,000 free), heavy cavalry and crew: Piero's 10 crew eat 5
    # grain (20 -> 15); Giacomo's 5 crew 2.5 units, so 3 grain are opened (20 -> 17).
    # SIEGE BOMBARDMENT (October blocked all overland ingress): Lorenzo's 3 cannons, gunnery 850, FAR 100: 3 x
    # (850 - 100) / 1000 = 2.25 -> 3 points (a loss, rounded up): FAS 60 -> 57. 2% of 3 = .06 -> 1 self-destructs.
    # No one inside has cannons: no counter-battery. Charged twice (the order and the bombardment): 10.00.
    assert ("bombarded Siena with 3 cannons at gunnery 850 against FAR 100: FAS 60 -> 57; 1 of his cannons "
            "self-destructed") in flat(med)
    # THE ASSAULT. Lorenzo (began the month outside): 20 pikemen, 24 auxiliaries, morale 321, retreat value 129, all
    # on the North wall by his dispositions. The defence: the garrison alone (the Petrucci stand outside), 4 men at
    # the town's loyalty, 390 (its tenant is not with it); one a wall. The North is outnumbered, so the East, South and
    # West send it their supernumerary defender each: 4 on the North.
    assert "The north wall (short by 43 of 43) receives 3 (3 garrison troops)." in flat(med)
    # Stage 1: FAR 100 but no cannons inside: nothing. Stage 2: 4 x 4 x 390/1000 x 57/1000 = .356 -> 1 auxiliary.
    # Morale: assaulters 2 x 1 - 0 = 2 -> -2 (321 -> 319); garrison -1 -> +1 (390 -> 391).
    assert "North: 4 defenders x 4 x 390/1000 x 57/1000 = 0.356: the assaulters lose 1 auxiliary." in flat(med)
    # From stage 3, (stage - 2)% of the foot climbs, rounded down, and the defenders kill M/1000 x (.3 + 57/1000)
    # each, on the top first and the balance at the foot:
    #   3: 1% of 43 = .43 -> 0 climb; 4 x .391 x .357 = .558 -> 1 auxiliary at the foot; 317 / 392.
    #   4: 2% of 42 = .84 -> 0; 4 x .392 x .357 = .560 -> 1 auxiliary at the foot; 315 / 393.
    #   5: 3% of 41 (21 aux, 20 pike) = 1.23 -> 1, an auxiliary (21 of 41); .561 -> he falls; 313 / 394.
    #   6: 4% of 40 (20, 20) = 1.6 -> 1, an auxiliary (first of equals); .563 -> he falls; 311 / 395.
    #   7: 5% of 39 (19, 20) = 1.95 -> 1, a pikeman; .564 -> he falls; 309 / 396.
    #   8: 6% of 38 (19, 19) = 2.28 -> 2, one of each; .565 -> the auxiliary falls; the pikeman left on the top
    #      kills .5 x 309/1000 = .1545 -> 1 garrison (3 left). Morale: 2 x 1 - 1 = 1 -> -1 both: 308 / 395.
    #   9: 7% of 36 = 2.52 -> 2 (one of each): 3 on the top; 3 x .395 x .357 = .423 -> the auxiliary; 2 pikemen kill
    #      2 x .5 x .308 = .308 -> 1 garrison (2 left); 307 / 394.
    #  10: 8% of 34 = 2.72 -> 2: 4 on the top; 2 x .394 x .357 = .281 -> the auxiliary; 3 x .5 x .307 = .4605 -> 1
    #      (1 left); 306 / 393.
    #  11: 9% of 32 = 2.88 -> 2: 5 on the top; 1 x .393 x .357 = .140 -> the auxiliary; 4 x .5 x .306 = .612 -> the
    #      last defender; 305 / 392. The defenders are eliminated: the assault succeeds.
    assert "North: 1 reach the top (3% of the foot), 1 on the top." in flat(med)
    assert "North: 1 on the top x .5 x 309/1000 = 0.154: the defenders lose 1 garrison troop." in flat(med)
    assert "North: 4 on the top x .5 x 306/1000 = 0.612: the defenders lose 1 garrison troop." in flat(med)
    # The bonus: one point for each hundred defenders eliminated, 4 // 100 = 0. Lorenzo lost 9 auxiliaries (stages 2
    # to 6 and 8 to 11) and 1 pikeman (stage 7): 19 pikemen, 15 auxiliaries; morale 321 - 16 = 305. He is inside the
    # walls, and de facto controller of Siena (Appendix E: "the assaulter becomes the de facto controller"); the
    # sovereign (the Balia, of the town's religion) is Catholic like him: no one is enslaved.
    assert "Success: 4 defenders eliminated, a bonus of 0 morale: 305 -> 305." in flat(med)
    assert "Lorenzo de' Medici (0101) lost 9 auxiliaries, 1 pikeman." in flat(med)
    # The garrison's tenant's family:
    assert "De facto control of Siena passes to Lorenzo de' Medici (0101)." in flat(pet)
    events = flat(section(news, "THE MONTH'S EVENTS", "OFFICES HELD"))
    assert "bombarded the walls of Siena with 3 cannons: FAS 60 -> 57 (FAR 100)." in events
    assert ("Assault at Siena: Lorenzo de' Medici (0101) attacked the garrison of Siena; the defenders were "
            "eliminated: the assaulter takes the fortification. Men lost: the attacker about 10, the defender a "
            "few.") in events
    # The besieger entered the walls: his siege ends ("A besieger who moves away ... ends his siege").
    assert "The siege of Siena has ended: its besieger is no longer outside its walls." in events
    assert ("Lorenzo de' Medici (MEDICI .0101): sovereign of Florence, feudatory of Florence, de facto controller of "
            "Siena") in flat(news)
    assert "  de facto controller  Lorenzo de' Medici (MEDICI .0101)\n" in section(med, "LOCATION SIENA", "ACCOUNT")
    assert men_and_morale(state) == {
        "0101": ({"ducats": 140, "pikeman": 19, "auxiliary": 15, "cannon": 2}, 305),
        "0102": ({"ducats": 100, "horse": 60}, 0),
        "0103": ({"ducats": 110, "caravel": 1, "crew": 10, "archer": 9, "grain": 15}, 503),
        "0201": ({"ducats": 200}, 0),
        "0202": ({"ducats": 100, "archer": 10, "auxiliary": 14}, 198),
        "0203": ({"ducats": 310, "caravel": 1, "crew": 5, "pikeman": 4, "grain": 17}, 379),
    }
    assert where(state, "0101") == ("Siena", True, None)
    # The tenancy stays with Pandolfo; de facto control is apart from it, from November (turn 5), and the town may
    # have no garrison (DE FACTO CONTROL).
    assert siena(state) == {"far": 100, "fas": 57, "garrison": 0, "loyalty": 390, "wealth": 150,
                            "population": 2000, "siege": None, "offices": {**PETRUCCI_SIENA, "dfc": "0101"},
                            "dfc_since": 5}
    # MED 72.00 - 10 (bombardment) - 5 (assault) - 4.50 = 52.50.
    assert balances(data) == {"MED": 52.5, "PET": 81.0}


def december(app: App) -> None:
    acks = mail_orders(app, 6)
    assert "line 3: .0101 OL: loot the location he controls" in acks[MED]
    printouts, news = month_runs(app, 6)
    med, pet = printouts["MED"], printouts["PET"]
    data = export(app)
    state = data["state"]
    # DE FACTO CONTROL, looting, in a month after he took control (November): wealth 150 loses 7% = 10.5 -> 11
    # ("rounded to the nearest whole number", a half up): 139. He receives twice one month's taxes, 2 x (1% of
    # wealth 150 x population 2,000) = 6,000, but at most ten ducats per soldier: 19 + 15 = 34 troops, 340.
    # 140 + 340 = 480.
    assert ("looted Siena: 340 ducats (twice one month's taxes, 6,000, at most ten per soldier, 340); wealth 150 -> "
            "139") in flat(med)
    assert "Lorenzo de' Medici (0101) has looted Siena." in flat(news)
    # MAINTENANCE, December (food): horses (the first 1,000 free), heavy cavalry, archers, slaves. Piero's 9 archers
    # eat 4.5 units: 5 grain opened (15 -> 10). Borghese has no food for his 10 archers: 20% maintenance attrition
    # among the units not maintained, 2 lost (10 -> 8).
    assert "0202 Borghese Petrucci: December maintenance; nothing spent; 10 archer not maintained, 2 lost." in flat(pet)
    people = men_and_morale(state)
    assert people == {
        "0101": ({"ducats": 480, "pikeman": 19, "auxiliary": 15, "cannon": 2}, 305),
        "0102": ({"ducats": 100, "horse": 60}, 0),
        "0103": ({"ducats": 110, "caravel": 1, "crew": 10, "archer": 9, "grain": 10}, 503),
        "0201": ({"ducats": 200}, 0),
        "0202": ({"ducats": 100, "archer": 8, "auxiliary": 14}, 198),
        "0203": ({"ducats": 310, "caravel": 1, "crew": 5, "pikeman": 4, "grain": 17}, 379),
    }
    assert siena(state) == {"far": 100, "fas": 57, "garrison": 0, "loyalty": 390, "wealth": 139,
                            "population": 2000, "siege": None, "offices": {**PETRUCCI_SIENA, "dfc": "0101"},
                            "dfc_since": 5}
    assert balances(data) == {"MED": 48.0, "PET": 81.0}  # 52.50 - 4.50; looting is no conflict event


# ---- determinism ----------------------------------------------------------------------------------------------

def replay(app: App, turn: int, seed: int) -> tuple[dict[str, Any], dict[str, str], str]:
    """Turn `turn` resolved again from the state before it and its orders on file, under `seed`: the state after it,
    and the mail it would send (printouts by player, newsletter). Nothing is stored."""
    from maild.deadlines import format_deadline, game_timezone
    from maild.games import get_turn, players_of, ruleset_named, state_before
    from maild.orderbook import accepted_sets, orders_for_turn
    from maild.turn import render_turn

    with app.db.session() as s:
        game = get_game(s, GAME)
        ruleset = ruleset_named(game.ruleset)
        players = players_of(s, game)
        orders = orders_for_turn(s, ruleset, game, turn, accepted_sets(s, game, turn), [p.name for p in players])
        result = ruleset.resolve(state_before(s, game, turn), turn, orders, random.Random(seed))
        following = get_turn(s, game, turn + 1)
        deadline = format_deadline(following.deadline if following else None, game_timezone(app.config, GAME))
        printouts, newsletter = render_turn(game, turn, result, False, deadline, players)
        s.rollback()
    return result.state, printouts, newsletter


def test_a_battle_is_the_same_under_two_seeds(tmp_path: Path, db_url: str) -> None:
    app = campaign_app(tmp_path, db_url)
    for turn in (1, 2):
        mail_orders(app, turn)
        month_runs(app, turn)
    mailed = {code: one(sent(app), f"[{GAME}] turn 2 printout for {code}") for code in ("MED", "PET")}
    first_state, first, first_news = replay(app, 2, seed=1)
    second_state, second, second_news = replay(app, 2, seed=20261125)
    # August's two battles (the interception's field battle and the naval battle), stage by stage, as the
    # players read them: the same under both seeds, and the same as the month that was mailed.
    for code in ("MED", "PET"):
        battles = section(first[code], "\nBATTLES\n", "\n----")
        assert "FIELD BATTLE at Siena" in battles and "NAVAL BATTLE at sea" in battles
        assert battles == section(second[code], "\nBATTLES\n", "\n----")
        assert battles.strip() == section(mailed[code], "\nBATTLES\n", "\n----").strip()
    assert first_news == second_news
    # Nothing else in the month draws from the RNG either: the whole month, state and mail, is the same.
    assert first_state == second_state and first == second
    assert first_state["personae"]["0101"]["assets"] == {"ducats": 340, "pikeman": 20, "auxiliary": 24, "wine": 10}
