"""The war orders: every war code and its args, its canonical code, its diagnostics when malformed, its plain words,
the verbs that start them, the checks against the game state, and `maild orders check` on war orders."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from maild.ruleset import ParsedOrders
from maild_rules.renaissance import plainwords
from maild_rules.renaissance.checks import check
from maild_rules.renaissance.codes import _parse_code, format_code, parse, summary
from maild_rules.renaissance.orderkinds import BY_KIND
from maild_rules.renaissance.war import orders as war
from tests.paths import ROOT
from tests.renaissance_fixtures import small_state

HEAD = "/LMD *MEDICI\n*Florence .0101\n"
CONTEXT = ("family", "player", "persona", "start")


def one(code: str) -> tuple[str, dict[str, Any]]:
    """The kind and args (without the block's context) of one code under a persona header."""
    parsed = parse(HEAD + code)
    assert parsed.diagnostics == [], parsed.diagnostics
    (order,) = parsed.orders
    assert order.args["family"] == "MEDICI" and order.args["persona"] == "0101"
    return order.kind, {k: v for k, v in order.args.items() if k not in CONTEXT}


def messages(parsed: ParsedOrders) -> list[str]:
    return [d.message for d in parsed.diagnostics]


WALLS = {"target": "walls", "tower": None, "occupant": None}
WAR_SHAPES: list[tuple[str, str, dict[str, Any]]] = [
    ("EG100", "recruit_garrison", {"qty": 100}),
    ("EL", "levy", {}),
    ("el", "levy", {}),
    ("EPpikeman20", "recruit_soldiers", {"item": "pikeman", "qty": 20}),
    ("EPqqq30", "recruit_soldiers", {"item": "arquebusier", "qty": 30}),
    ("EPheavycav5", "recruit_soldiers", {"item": "heavy cavalry", "qty": 5}),
    ("EPauxiliar40", "recruit_soldiers", {"item": "auxiliary", "qty": 40}),
    ("EParcher10", "recruit_soldiers", {"item": "archer", "qty": 10}),
    ("UB5000", "morale_bonus", {"ducats": 5000}),
    ("UAwine100", "alcohol", {"item": "wine", "qty": 100}),
    ("UAspirits7", "alcohol", {"item": "spirits", "qty": 7}),
    ("UCTunis", "bonus_city", {"location": "Tunis"}),
    ("ON0102Pisa", "transfer_office", {"office": "tenant", "to": "0102", "location": "Pisa"}),
    ("OF0102Pisa", "transfer_office", {"office": "feudatory", "to": "0102", "location": "Pisa"}),
    ("OV0102Pisa", "transfer_office", {"office": "sovereign", "to": "0102", "location": "Pisa"}),
    ("OD0102Pisa", "transfer_control", {"to": "0102", "location": "Pisa"}),
    ("OW1BORGIA", "transfer_tower", {"tower": 1, "to": "BORGIA"}),
    ("ow2bishop", "transfer_tower", {"tower": 2, "to": "BISHOP"}),
    ("OL", "loot", {}),
    ("MTO", "towers", {"outside": True}),
    ("MTI", "towers", {"outside": False}),
    ("KIALL", "intercept", {"targets": ["ALL"], "ferries": False}),
    ("KIALLF", "intercept", {"targets": ["ALL"], "ferries": True}),
    ("KIBORGIA/SFORZA", "intercept", {"targets": ["BORGIA", "SFORZA"], "ferries": False}),
    ("KIborgia", "intercept", {"targets": ["BORGIA"], "ferries": False}),
    ("KF0203", "attack", {"battle": "field", "target": "0203", "spare": False, "continue": False}),
    ("KU0203", "attack", {"battle": "urban", "target": "0203", "spare": False, "continue": False}),
    ("KN0203", "attack", {"battle": "naval", "target": "0203", "spare": False, "continue": False}),
    ("KF0203S", "attack", {"battle": "field", "target": "0203", "spare": True, "continue": False}),
    ("KU0203SC", "attack", {"battle": "urban", "target": "0203", "spare": True, "continue": True}),
    ("KU0203C", "attack", {"battle": "urban", "target": "0203", "spare": False, "continue": True}),
    ("KG0203", "garrison_attack", {"target": "0203", "spare": False}),
    ("KG0203S", "garrison_attack", {"target": "0203", "spare": True}),
    ("KA", "assault", {**WALLS, "spare": False}),
    ("KAS", "assault", {**WALLS, "spare": True}),
    ("KT1", "assault", {"target": "tower", "tower": 1, "occupant": None, "spare": False}),
    ("KT2S", "assault", {"target": "tower", "tower": 2, "occupant": None, "spare": True}),
    ("KT0203", "assault", {"target": "tower", "tower": None, "occupant": "0203", "spare": False}),
    ("KT0203S", "assault", {"target": "tower", "tower": None, "occupant": "0203", "spare": True}),
    ("KS", "siege", {"lift": False, "tower": None}),
    ("KSX", "siege", {"lift": True, "tower": None}),
    ("KST2", "siege", {"lift": False, "tower": 2}),
    ("KB10", "bombard", {"qty": 10, "tower": None}),
    ("KBT210", "bombard", {"qty": 10, "tower": 2}),
    ("KVALL", "naval_bombardment", {"targets": ["ALL"]}),
    ("KVBORGIA/SFORZA", "naval_bombardment", {"targets": ["BORGIA", "SFORZA"]}),
    ("KC500", "crops", {"qty": 500}),
    ("KRslave500", "raze", {"item": "slave", "qty": 500, "tower": None}),
    ("KRcrew50", "raze", {"item": "crew", "qty": 50, "tower": None}),
    ("KR2crew40", "raze", {"item": "crew", "qty": 40, "tower": 2}),
    ("KLDORIA", "alliance", {"target_family": "DORIA", "allied": True}),
    ("KXdoria", "alliance", {"target_family": "DORIA", "allied": False}),
    ("KO", "no_support", {}),
    ("KK0203", "assassinate", {"target": "0203"}),
    ("KD0203", "duel", {"target": "0203"}),
    ("Z3pikeman200", "dispose", {"place": "3", "item": "pikeman", "qty": 200}),
    ("Z1heavycav50", "dispose", {"place": "1", "item": "heavy cavalry", "qty": 50}),
    ("Z6cannon10", "dispose", {"place": "6", "item": "cannon", "qty": 10}),
    ("Z2galley2", "dispose", {"place": "2", "item": "galley", "qty": 2}),
    ("ZNarcher100", "dispose", {"place": "N", "item": "archer", "qty": 100}),
    ("zwcrew20", "dispose", {"place": "W", "item": "crew", "qty": 20}),
    ("ZP3", "post", {"place": "3"}),
    ("ZPs", "post", {"place": "S"}),
]


@pytest.mark.parametrize(("code", "kind", "args"), WAR_SHAPES, ids=[s[0] for s in WAR_SHAPES])
def test_war_code_shapes(code: str, kind: str, args: dict[str, Any]) -> None:
    assert one(code) == (kind, args)


def test_every_war_kind_has_a_tested_shape_and_its_example_parses() -> None:
    assert {kind for _, kind, _ in WAR_SHAPES} == war.WAR_KINDS
    for kind in war.WAR_KINDS:
        assert one(BY_KIND[kind].example)[0] == kind


@pytest.mark.parametrize(("code", "kind", "args"), WAR_SHAPES, ids=[s[0] for s in WAR_SHAPES])
def test_format_code_round_trips(code: str, kind: str, args: dict[str, Any]) -> None:
    written = format_code(kind, args)
    assert one(written) == (kind, args)
    assert written.upper() == code.upper() or code.islower()  # the canonical code is what the sheet shows
    assert summary(kind, args)


def test_summaries_say_the_order_in_words() -> None:
    said = {code: summary(*one(code)) for code in ("EPpikeman20", "KU0203SC", "KT0203S", "Z3pikeman200", "ZPN",
                                                   "KIBORGIA/SFORZA", "KIALLF", "KVALL", "ON0102Pisa")}
    assert said == {
        "EPpikeman20": "recruit 20 pikemen",
        "KU0203SC": "attack 0203 in an urban battle, not to kill him, fighting to the normal end",
        "KT0203S": "assault the tower 0203 is in, not to kill the persona attacked",
        "Z3pikeman200": "put 200 pikemen in the center",
        "ZPN": "take post on the north wall",
        "KIBORGIA/SFORZA": "intercept BORGIA and SFORZA next month",
        "KIALLF": "intercept all traffic including ferries next month",
        "KVALL": "bombard the ships of all next month",
        "ON0102Pisa": "transfer the tenancy of Pisa to 0102",
    }
    (order,) = parse(HEAD + "KF0203").orders
    assert order.summary == ".0101 KF0203: attack 0203 in a field battle"


# A malformed code: what was expected, and an example.
MALFORMED: list[tuple[str, str]] = [
    ("KF203", '"KF203": an attack is KF (field), KU (urban) or KN (naval), the victim\'s four-digit number, then S if '
              "he is not to be killed and, in urban battle, C to fight to the normal end (persona numbers have "
              "exactly four digits): KF0203"),
    ("Z7pikeman10", '"Z7pikeman10": a disposition is Z, the place (1 left wing, 2 left, 3 center, 4 right, 5 right '
                    "wing, 6 reserves; N, E, S, W the walls), the item (up to 8 letters), then the number (the place "
                    "is 1 to 6 or N, E, S, W): Z3pikeman200"),
    ("ZP", '"ZP": a persona\'s post is ZP then the place (1 to 6, or N, E, S, W): ZP3'),
    ("ZP9", "(the place is 1 to 6 or N, E, S, W): ZP3"),
    ("KIA/B/C/D/E/F/G/H", '"KIA/B/C/D/E/F/G/H": 8 families: the victims are ALL or at most seven families '
                          "(CONFLICT ORDERS)"),
    ("KVA/B/C/D/E/F/G/H", "8 families: the victims are ALL or at most seven families"),
    ("KIALL/BORGIA", '"KIALL/BORGIA": the victims are ALL or a list of families, not both: KIALL or KIBORGIA'),
    ("KI", "an interception is KI then ALL, ALLF (all traffic including ferries) or up to seven families"),
    ("KIBORGIA//SFORZA", "(one / between two families' names): KIALL"),
    ("KVALLF", "ALLF (all traffic including ferries) is an interception's, KIALLF"),
    ("KLDORIA/SFORZA", '"KLDORIA/SFORZA": an alliance is KL then one family\'s name; KX and the name ends it (one '
                       "family per alliance order: KLDORIA KLSFORZA): KLDORIA"),
    ("KL", "an alliance is KL then one family's name"),
    ("UAgrain5", '"UAgrain5": the troops\' alcohol is wine, beer, ale or spirits, not grain (MORALE: the order states '
                 "the units and the type of alcohol), e.g. UAwine100"),
    ("UA100", "alcohol for the troops is UA, the alcohol (wine, beer, ale or spirits), then the number of units"),
    ("EPgrain5", '"EPgrain5": professional soldiers are auxiliaries (auxiliar), arquebusiers (qqq), pikemen '
                 "(pikeman), archers (archer) or heavy cavalry (heavycav); not grain"),
    ("EPlightcav5", "light cavalry are auxiliaries given horses (FIELD BATLE); recruit auxiliaries, e.g. "
                    "EPauxiliar20"),
    ("EPpikeman0", "the quantity must be at least 1"),
    ("KF0203C", '"KF0203C": C (fight to the normal end) is for urban battle (URBAN BATTLE: the home side\'s '
                "automatic withdrawal), not a field battle: KU0203C"),
    ("KN0203C", "not a naval battle: KU0203C"),
    ("KU0203SS", "S (not to be killed) and C (fight to the normal end) are written once each, e.g. KU0203SC"),
    ("KG0203C", "C (fight to the normal end) is for urban battle, KU0203C; a garrison's sortie is fought as a field "
                "battle"),
    ("KAC", "C (fight to the normal end) is for urban battle, KU0203C; an assault is no urban battle"),
    ("KT12", "(a tower is one digit (KT1) or the four-digit number of a persona inside it (KT0203)): KA"),
    ("KT0", '"KT0": towers are numbered 1 to 9, as the location report lists them'),
    ("KF0203X", "an attack is KF (field), KU (urban) or KN (naval)"),
    ("KB", "a siege bombardment is KB then the number of cannons: KB10"),
    ("KB1,000", "(quantities are digits only, without commas or points): KB10"),
    ("KS5", "a siege is KS; KSX lifts it: KS"),
    ("OW12BORGIA", "(towers are numbered 1 to 9: one digit): OW1BORGIA"),
    ("OW0BORGIA", "towers are numbered 1 to 9"),
    ("OWBORGIA", "transferring a tower is OW, the tower's number (one digit), then the family's name"),
    ("ON102Pisa", "(persona numbers have exactly four digits): ON0102Pisa"),
    ("OD0102", "transferring de facto control is OD, the new controller's four-digit number, then the location"),
    ("Z3slave5", "battle dispositions place troops, crew, cannons, falconets or ships, not slave"),
    ("Z3cannon5", '"Z3cannon5": cannons and falconets go to the Reserves (6), not the center (FIELD BATLE: "Cannon '
                  'and falconets must all be assigned to the Reserves")'),
    ("Z5falconet2", "cannons and falconets go to the Reserves (6), not the right wing"),
    ("ZNcannon2", "cannons and falconets go to the Reserves (6), not the north wall"),
    ("Z1pikeman5", "infantry may stand in the Left, Center, Right or Reserves (2, 3, 4, 6), not the left wing"),
    ("Z5archer5", "not the right wing (FIELD BATLE)"),
    ("Z1galley1", "ships are disposed in a naval battle's Left (2), Center (3), Right (4) or Reserve (6), not the "
                  "left wing (NAVAL BATTLES)"),
    ("ZEgalley1", "not the east wall (NAVAL BATTLES)"),
    ("KRgrain5", "a fortification is razed by troops, crew or slaves, not grain, e.g. KRslave500"),
    ("KC", "crop destruction is KC then the number of troops (August): KC500"),
    ("MTX", "the towers order is MTO (stay out of all towers) or MTI (no longer stay out of them): MTO"),
    ("UX", '"UX": no such code; codes beginning with U are e.g. UP, UB5000, UAwine100, UCTunis'),
    ("EX", '"EX": no such code; codes beginning with E are e.g. EG100, EL, EPpikeman20'),
    ("KQ", '"KQ": no such code; codes beginning with K are e.g. KIALL, KF0203, KG0203, KA, KS, KB10, KVALL, KC500, '
           "KRslave500, KLDORIA, KO, KK0203, KD0203"),
    ("OJ", "no such code; codes beginning with O are e.g. OT0102Pisa, OB0102Pisa, OM0102, OR, OC, OX, OY, OSe, "
           "OE0102duke, OH0102, OGA, OGC, OGFCalatrava/Toledo, OGTCalatrava/Toledo, ON0102Pisa, OD0102Pisa, "
           "OW1BORGIA, OL, OI0102Pisa, OK0102, OP0102Pisa, OAPisa, OQPisa"),
    ("UT12", "a sermon is UP (to the populace) or UT"),  # the peace code's shape, as before the war
]


@pytest.mark.parametrize(("code", "expected"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_war_codes_say_what_was_expected(code: str, expected: str) -> None:
    parsed = parse(HEAD + code)
    assert parsed.orders == []
    (message,) = messages(parsed)
    assert expected in message and message.startswith(f'"{code}"')


def test_codes_begin_with_the_new_letters() -> None:
    (message,) = messages(parse(HEAD + "Jyz"))
    assert "codes begin with T, S, B, I, F, C, L, N, V, W, H, U, O, R, D, A, G, M, P, X, E, K, Z, ? or !" in message


def test_a_blank_inside_a_war_code_is_said() -> None:
    assert messages(parse(HEAD + "KF 0203")) == ['"KF" "0203": a blank splits the code KF0203 in two; codes have no '
                                                 "blanks inside: KF0203"]


def test_war_codes_among_peace_codes_on_one_line() -> None:
    parsed = parse(HEAD + "T0102grain500 KF0203S HP Z3pikeman200 MLSiena")
    assert parsed.diagnostics == []
    assert [o.kind for o in parsed.orders] == ["transfer", "attack", "pilgrimage", "dispose", "move"]


# Plain words, and the code each gives.
WAR_PLAIN: list[tuple[str, str]] = [
    ("recruit 100 garrison troops", "EG100"),
    ("hire 100 garrison troops", "EG100"),
    ("raise 100 garrison troops", "EG100"),
    ("raise a levy", "EL"),
    ("raise the feudal levy", "EL"),
    ("levy", "EL"),
    ("recruit 20 pikemen", "EPpikeman20"),
    ("hire 20 pikemen", "EPpikeman20"),
    ("recruit 30 arquebusiers", "EPqqq30"),
    ("hire 5 heavy cavalry", "EPheavycav5"),
    ("recruit 40 auxiliaries", "EPauxiliar40"),
    ("pay a bonus of 5000 ducats", "UB5000"),
    ("pay a bonus of 5,000", "UB5000"),
    ("pay 5000 ducats in bonuses to the troops", "UB5000"),
    ("give 100 wine to the troops", "UAwine100"),
    ("issue 7 spirits to the troops", "UAspirits7"),
    ("bonus city Tunis", "UCTunis"),
    ("set the bonus city to Tunis", "UCTunis"),
    ("transfer the tenancy of Pisa to .0102", "ON0102Pisa"),
    ("give the tenancy of Pisa to 0102", "ON0102Pisa"),
    ("transfer the feudatory status of Pisa to .0102", "OF0102Pisa"),
    ("transfer sovereignty over Pisa to .0102", "OV0102Pisa"),
    ("transfer de facto control of Pisa to .0102", "OD0102Pisa"),
    ("transfer control of Pisa to .0102", "OD0102Pisa"),
    ("transfer tower 1 to BORGIA", "OW1BORGIA"),
    ("transfer the tower to the Borgia family", "OW1BORGIA"),
    ("give tower 2 to the bishop", "OW2BISHOP"),
    ("loot", "OL"),
    ("loot the town", "OL"),
    ("stay out of the towers", "MTO"),
    ("stay out of all towers", "MTO"),
    ("stay outside the towers", "MTO"),
    ("stay in the towers", "MTI"),
    ("intercept all", "KIALL"),
    ("intercept all traffic including ferries", "KIALLF"),
    ("intercept BORGIA and SFORZA", "KIBORGIA/SFORZA"),
    ("intercept the Borgia family, the Sforza", "KIBORGIA/SFORZA"),
    ("intercept borgia", "KIBORGIA"),
    ("attack .0203 in the field", "KF0203"),
    ("attack 0203 in a field battle", "KF0203"),
    ("attack .0203 in town", "KU0203"),
    ("attack .0203 at sea", "KN0203"),
    ("attack .0203 in a naval battle", "KN0203"),
    ("attack .0203 in the field and spare him", "KF0203S"),
    ("attack .0203 in town and spare him", "KU0203S"),
    ("attack .0203 in an urban battle, do not kill him and fight to the normal end", "KU0203SC"),
    ("attack .0203 in town and continue to the end", "KU0203C"),
    ("attack .0203 with the garrison", "KG0203"),
    ("attack .0203 with the garrison but do not kill him", "KG0203S"),
    ("sortie with the garrison against .0203", "KG0203"),
    ("assault the walls", "KA"),
    ("assault the walls and spare him", "KAS"),
    ("assault tower 1", "KT1"),
    ("assault the tower", "KT1"),
    ("assault tower 2 and spare him", "KT2S"),
    ("assault the tower of .0203", "KT0203"),
    ("besiege", "KS"),
    ("besiege the town", "KS"),
    ("lay siege", "KS"),
    ("lift the siege", "KSX"),
    ("raise the siege", "KSX"),
    ("end the siege", "KSX"),
    ("bombard with 10 cannons", "KB10"),
    ("bombard the walls with 10 cannons", "KB10"),
    ("bombard the ships of ALL", "KVALL"),
    ("bombard the ships of BORGIA and SFORZA", "KVBORGIA/SFORZA"),
    ("destroy crops with 500 troops", "KC500"),
    ("destroy the grain crops with 500 men", "KC500"),
    ("raze with 500 slaves", "KRslave500"),
    ("raze the fortifications with 50 crew", "KRcrew50"),
    ("raze tower 2 with 500 slaves", "KR2slave500"),
    ("raze the tower with 5 crew", "KR1crew5"),
    ("ally with DORIA", "KLDORIA"),
    ("ally with the Doria family", "KLDORIA"),
    ("end the alliance with DORIA", "KXDORIA"),
    ("break the alliance with DORIA", "KXDORIA"),
    ("no support", "KO"),
    ("no support from the garrison", "KO"),
    ("assassinate .0203", "KK0203"),
    ("attempt to assassinate .0203", "KK0203"),
    ("challenge .0203", "KD0203"),
    ("challenge .0203 to a duel", "KD0203"),
    ("duel with 0203", "KD0203"),
    ("put 200 pikemen in the center", "Z3pikeman200"),
    ("put 200 pikemen in the centre", "Z3pikeman200"),
    ("station 50 heavy cavalry in the left wing", "Z1heavycav50"),
    ("put 10 cannons in the reserves", "Z6cannon10"),
    ("put 2 galleys in the left", "Z2galley2"),
    ("put 100 archers on the north wall", "ZNarcher100"),
    ("put 20 crew on the west wall", "ZWcrew20"),
    ("take post in the center", "ZP3"),
    ("take his post on the south wall", "ZPS"),
    ("post himself with the reserves", "ZP6"),
]


@pytest.mark.parametrize(("words", "code"), WAR_PLAIN, ids=[p[0] for p in WAR_PLAIN])
def test_plain_words_give_the_same_order_as_the_code(words: str, code: str) -> None:
    by_words, by_code = parse(HEAD + words), parse(HEAD + code)
    assert by_words.diagnostics == [] and by_code.diagnostics == []
    (w,), (c,) = by_words.orders, by_code.orders
    assert (w.kind, w.args, w.line) == (c.kind, c.args, c.line)
    assert format_code(w.kind, w.args) == code
    # The ack says what the phrase was understood as, with its code.
    assert w.summary == f".0101 {summary(c.kind, c.args)} (code {code})"


def test_every_war_kind_has_plain_words() -> None:
    assert {one(code)[0] for _, code in WAR_PLAIN} == war.WAR_KINDS


@pytest.mark.parametrize(("words", "expected"), [
    ("attack .0203", "say which battle (BATTLE: the order must indicate what type of battle is to be fought): "
                     "attack .0203 in the field, attack .0203 in town or attack .0203 at sea"),
    ("attack .0203 in the field and fight to the normal end", "not a field battle: KU0203C"),
    ("attack .0203 with the garrison and fight to the end", "a garrison's sortie is fought as a field battle"),
    ("ally with DORIA and SFORZA", "one family per alliance order: ally with DORIA, then ally with SFORZA on a line "
                                   "of its own"),
    ("end the alliance with DORIA and SFORZA", "end the alliance with DORIA, then end the alliance with SFORZA"),
    ("intercept A, B, C, D, E, F, G and H", "at most seven families"),
    ("give 100 grain to the troops", "the troops' alcohol is wine, beer, ale or spirits, not grain"),
    ("recruit 20 grain", "professional soldiers are auxiliaries"),
    ("recruit 20 light cavalry", "light cavalry are auxiliaries given horses"),
    ("put 10 cannons in the center", "cannons and falconets go to the Reserves (6), not the center"),
    ("put 100 pikemen in the right wing", "infantry may stand in the Left, Center, Right or Reserves"),
    ("put 2 galleys on the north wall", "ships are disposed in a naval battle's Left (2)"),
    ("put 20 slaves in the center", "battle dispositions place troops, crew, cannons, falconets or ships, not slave"),
    ("transfer the bishop's office of Pisa to .0102", "the bishop's office is not transferred by order"),
    ("transfer tower 12 to BORGIA", "towers are numbered 1 to 9"),
    ("assault tower 0", "towers are numbered 1 to 9"),
    ("pay a bonus of 0 ducats", "the ducats must be at least 1"),
    ("attack Juan in the field", "plain words not understood; write e.g. attack .0203 in the field"),
    ("bombard Pisa", "plain words not understood; write e.g. bombard with 10 cannons (or: bombard the ships of ALL)"),
    ("put the pikemen in front", "plain words not understood; write e.g. put 200 pikemen in the center"),
])
def test_war_plain_words_refused_with_the_reason(words: str, expected: str) -> None:
    parsed = parse(HEAD + words)
    assert parsed.orders == []
    (message,) = messages(parsed)
    assert message.startswith(f'"{words}": ') and expected in message


def test_recruiting_crew_and_men_in_plain_words_stays_crew() -> None:
    # "recruit 50 crew" and "recruit 50 men" were crew (N) before the war's soldiers came; they stay so.
    assert [one(w) for w in ("recruit 50 crew", "recruit 50 men", "hire 50 men as crew")] == \
        [("recruit_crew", {"qty": 50})] * 3


def test_the_new_verbs_shadow_no_code_and_no_old_word() -> None:
    new = set(war.VERBS)
    # No new verb is a code, in any case, but "destroy": DE + STROY, egress denied to a family "STROY", the same
    # nonsense code "deny" (DE + NY) hid before it (docs/renaissance-codes.md, Plain words).
    shadowing = {v for v in new if _parse_code(v) is not None or _parse_code(v.upper()) is not None}
    assert shadowing == {"destroy"}
    tree = _parse_code("destroy")
    assert tree is not None and tree.data == "access"
    # Every war verb starts a phrase; none was a verb of peace (each has an example of its own).
    assert new <= plainwords.VERBS
    assert all(plainwords.EXAMPLES[v] == war.VERBS[v] for v in new)
    # No war code, written in lower case, is taken for a verb.
    assert all(BY_KIND[k].example.lower() not in plainwords.VERBS for k in war.WAR_KINDS)
    # "place" and "dispose" are not verbs: they would hide the codes PLace and DIspose.
    assert {"place", "dispose"} & plainwords.VERBS == set()
    assert one("PLace") == ("lengthen_road", {"to": "ace"})


def test_the_verbs_peace_shares_with_war_still_read_as_before() -> None:
    parsed = parse(HEAD + "give 500 grain to .0102\ntransfer 5 grain to the locals\nraise the FAS\n"
                   "raise the import tariff by 3\nstay outside the walls\nrecruit 50 crew\nhire 50 men as crew")
    assert parsed.diagnostics == []
    assert [format_code(o.kind, o.args) for o in parsed.orders] == ["T0102grain500", "T9999grain5", "PFS", "RI+3",
                                                                   "MO", "N50", "N50"]


def test_the_code_sheet_war_plain_words_are_read_as_their_comments_say() -> None:
    sheet = (ROOT / "docs" / "renaissance-codes.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```orders\n(.*?)```", sheet, re.S) if "raise a levy" in b)
    parsed = parse(block)
    assert parsed.diagnostics == []
    commented = [line.split("--")[1].strip() for line in block.splitlines() if "--" in line]
    assert [format_code(o.kind, o.args) for o in parsed.orders] == commented
    assert {o.kind for o in parsed.orders} == war.WAR_KINDS


# ------------------------------------------------------------------------------------------------ state checks
def checked(text: str, state: dict[str, Any] | None = None, turn: int = 1) -> list[tuple[str, bool, str]]:
    """(order text, warning, message) of each diagnostic the state checks give, for orders that parse."""
    parsed = parse(text)
    assert parsed.diagnostics == [], parsed.diagnostics
    return [(d.text, d.warning, d.message) for d in check(state or small_state(), turn, "LMD", parsed.orders)]


def errors(text: str, state: dict[str, Any] | None = None, turn: int = 1) -> list[str]:
    return [m for _, warning, m in checked(text, state, turn) if not warning]


def notes(text: str, state: dict[str, Any] | None = None, turn: int = 1) -> list[str]:
    return [m for _, warning, m in checked(text, state, turn) if warning]


def florence(state: dict[str, Any]) -> dict[str, Any]:
    return state["locations"]["Florence"]


def piero(state: dict[str, Any]) -> dict[str, Any]:
    return state["personae"]["0101"]


def test_garrison_and_levy_need_the_tenant_and_the_feudatory() -> None:
    # Piero (0101) is Florence's sovereign, neither its tenant nor its feudatory (small world).
    assert errors(HEAD + "EG100 EL") == [
        "0101 is not the tenant of Florence; its garrison is raised by its tenant (THE SWORD GARRISONS)",
        "0101 is not the feudatory of Florence; only its feudatory raises a feudal levy there (FEUDATORIES)"]
    s = small_state()
    florence(s)["offices"].update(tenant="0101", feudatory="0101")
    piero(s)["assets"]["small arms"] = 40
    assert checked(HEAD + "EG100 EL", s) == [
        ("EG100", True, "0101 holds 40 small arms now, fewer than 100: each garrison recruit is given small arms "
                        "(THE SWORD GARRISONS) (what he receives or buys earlier in the month counts)")]
    florence(s)["offices"]["dfc"] = "0202"
    assert "de facto control of Florence is not with its tenancy now" in notes(HEAD + "EG10", s)[0]
    florence(s)["offices"]["dfc"] = None
    # Florence's loyalty is 520: enough for both. At 250, a garrison (200) still, a levy (300) not.
    florence(s)["loyalty"] = 250
    assert notes(HEAD + "EG10 EL", s) == ["the loyalty of Florence is 250 now; below 300 no feudal levy is raised "
                                          "(LOYALTY)"]
    florence(s)["loyalty"] = 150
    assert notes(HEAD + "EG10", s) == ["the loyalty of Florence is 150 now; below 200 garrison troops are not "
                                       "recruited (LOYALTY)"]
    piero(s).update(popularity=9, **{"with": "0202"})
    assert notes(HEAD + "EL", s)[1:] == [
        "0101's popularity is below 10 now; a levy costs him ten points and may not drive it below zero (POPULARITY)",
        "0101 is aboard 0202's ship, which may sail with him: the feudatory spends the whole month at the location "
        "(FEUDAL LEVIES)"]


def test_professional_soldiers_need_some_of_the_type_held() -> None:
    assert errors(HEAD + "EPpikeman5") == [
        "0101 holds no pikemen: professional soldiers are raised up to 20% of those of the type he holds at the "
        "start of the month (PROFESSIONAL SOLDIERS); mercenaries are bought"]
    s = small_state()
    piero(s)["assets"].update(pikeman=12, pike=1)
    # 20% of 12 = 2.4, rounded down (a gain, RW-OQ-01) = 2: five asked are cut to 2 (RW-OQ-09); 2 pikes needed, 1 held.
    assert notes(HEAD + "EPpikeman5", s) == [
        "0101 holds 12 pikemen: at most 2 may be recruited this month (20%); the order will be cut to 2 (RW-OQ-09)",
        "0101 holds 1 pike now, fewer than 2: each recruit is given his pike (PROFESSIONAL SOLDIERS) (what he "
        "receives or buys earlier in the month counts)"]
    piero(s)["assets"].update(archer=3, bow=5)
    # 1 to 4 held: "may raise one additional troop of that type each turn".
    assert checked(HEAD + "EParcher1", s) == []
    assert "at most 1 may be recruited" in notes(HEAD + "EParcher2", s)[0]


def test_bonus_and_alcohol() -> None:
    # Piero holds 50,000 ducats and 50 light cavalry.
    assert checked(HEAD + "UB5000") == []
    assert notes(HEAD + "UB60000") == ["0101 holds 50000 ducats now, fewer than 60000: the bonus pays them out (what "
                                       "he receives or buys earlier in the month counts)"]
    s = small_state()
    del piero(s)["assets"]["light cavalry"]
    assert notes(HEAD + "UB100", s) == ["0101 has no troops or crew now: a bonus raises their morale"]
    got = checked(HEAD + "UAwine10\nUAbeer5")
    assert ("UAbeer5", False, "one type of alcohol a month (MORALE): his order on line 3 gives wine") in got
    assert ("UAwine10", True, "0101 holds 0 wine now, fewer than 10: the order gives them to his troops (what he "
                              "receives or buys earlier in the month counts)") in got
    s = small_state()
    piero(s).update(religion="sunni")
    piero(s)["assets"]["wine"] = 10
    assert errors(HEAD + "UAwine10", s) == ["the troops of a sunni persona gain no morale from alcohol (MORALE)"]


def test_bonus_city_is_a_shia_or_sunni_sovereigns() -> None:
    assert errors(HEAD + "UCPisa") == ["a bonus city is a Shia or Sunni sovereign's (MORALE); 0101 is catholic"]
    s = small_state()
    piero(s)["religion"] = "shia"
    assert checked(HEAD + "UCPisa", s) == []  # he is Pisa's sovereign
    assert notes(HEAD + "UCGenoa", s) == ["0101 is not the sovereign of Genoa now: the bonus counts only while he is"]
    assert errors(HEAD + "UCTunis", s) == ["there is no location Tunis"]


def test_office_and_control_transfers() -> None:
    # Piero is Pisa's sovereign: his order is one of those that transfer every office there.
    assert checked(HEAD + "ON0102Pisa OF0102Pisa OV0102Pisa") == [
        ("OV0102Pisa", True, "0101 is not now the de facto controller of Pisa, whose orders together transfer the "
                             "sovereign's office")]
    assert notes(HEAD + "OD0102Pisa") == ["0101 is not the de facto controller of Pisa now; only he transfers its "
                                          "control"]
    assert errors(HEAD + "ON0999Pisa OD0102Atlantis") == ["there is no persona 0999", "there is no location Atlantis"]


def test_towers_transferred_and_assaulted_by_number() -> None:
    # Florence has one tower (the Palazzo Vecchio).
    assert checked(HEAD + "OW1DORIA OW1BISHOP") == []
    assert notes(HEAD + "OW2DORIA") == ["Florence has 1 tower now; there is no tower 2"]
    assert errors(HEAD + "OW1BORGIA") == ["there is no family BORGIA (a tower goes to a family or to the sovereign, "
                                          "feudatory, tenant, magistrate, bishop, archbishop)"]
    assert notes(HEAD + "KT3") == ["Florence has 1 tower now; there is no tower 3"]


def test_looting_is_the_separate_de_facto_controllers() -> None:
    refused = ("0101 is not the de facto controller of Florence apart from its tenancy; only such a controller loots "
               "it, from the month after he took control (DE FACTO CONTROL)")
    assert errors(HEAD + "OL") == [refused]
    s = small_state()
    florence(s)["offices"]["dfc"] = "0101"
    florence(s)["dfc_since"] = 1
    assert errors(HEAD + "OL", s, turn=2) == []
    assert errors(HEAD + "OL", s, turn=1) == ["0101 took control of Florence this month; he may loot it from next "
                                              "month"]
    florence(s)["offices"]["tenant"] = "0101"
    assert errors(HEAD + "OL", s, turn=2) == [refused]


def test_interception_names_families_that_exist() -> None:
    assert checked(HEAD + "KIALL KIDORIA") == []
    assert errors(HEAD + "KIDORIA/BORGIA KVSFORZA") == ["there is no family BORGIA", "there is no family SFORZA"]
    assert notes(HEAD + "KIALLF") == ["all traffic including ferries is intercepted by a fleet at a ferry route's "
                                      "midpoint; 0101 is at Florence"]


def test_a_victim_elsewhere_is_a_note_and_oneself_an_error() -> None:
    # Andrea Doria (0201) is at Genoa, Domenico (0202) at Florence with Piero.
    elsewhere = ("0201 is at Genoa, not where 0101 is now (Florence); the order stands and is tried when it runs")
    for code in ("KF0201", "KU0201S", "KK0201", "KD0201", "KT0201"):
        assert checked(HEAD + code) == [(code, True, elsewhere)], code
    for code in ("KF0202", "KU0202SC", "KK0202", "KD0202", "KT0202"):
        assert checked(HEAD + code) == [], code
    assert errors(HEAD + "KF0101") == ["0101 cannot be his own victim"]
    assert errors(HEAD + "KD0999") == ["there is no persona 0999"]


def test_a_naval_attack_needs_ships_and_open_water() -> None:
    assert notes(HEAD + "KN0202") == [
        "0101 has no ships now: a naval battle is fought by ships",
        "fleets at Florence fight land battles, not naval ones (BATTLE: \"Fleets in port fight under the rules for "
        "land battles\")"]
    s = small_state()
    for pid in ("0101", "0202"):
        s["personae"][pid].update(location=None, at_sea={"lat": 43.0, "lon": 9.0})
    piero(s)["assets"]["galley"] = 1
    assert checked("/LMD *MEDICI\n*Sea .0101\nKN0202", s) == []


def test_a_sortie_is_the_tenants() -> None:
    assert errors(HEAD + "KG0202") == ["0101 is not the tenant of Florence; a garrison sorties only with its tenant "
                                       "(THE SWORD GARRISONS)"]
    s = small_state()
    florence(s)["offices"]["tenant"] = "0101"
    assert notes(HEAD + "KG0202", s) == ["Florence has no garrison now"]
    florence(s)["garrison"] = 100
    assert checked(HEAD + "KG0202", s) == []


def test_walls_are_assaulted_from_outside_and_towers_from_inside() -> None:
    # Piero starts the month inside Florence's walls.
    assert errors(HEAD + "KA KT1") == ["0101 starts the month inside the walls of Florence; the walls are assaulted "
                                       "by a persona who begins the month outside (ASSAULT)"]
    s = small_state()
    piero(s)["inside"] = False
    assert errors(HEAD + "KA KT1", s) == ["0101 starts the month outside the walls of Florence; towers are assaulted "
                                          "by personae who start the month inside (TOWERS)"]


def test_siege_from_outside_and_its_numbers() -> None:
    assert errors(HEAD + "KS") == ["0101 starts the month inside the walls of Florence; a siege is laid by a persona "
                                   "whose forces begin the month outside (SIEGE)"]
    s = small_state()
    piero(s)["inside"] = False
    assert checked(HEAD + "KS", s) == []  # 50 light cavalry; nobody inside holds troops or crew
    florence(s)["garrison"] = 30
    s["personae"]["0202"]["assets"]["pikeman"] = 25
    # Inside: 30 garrison + Domenico's 25 pikemen = 55 > Piero's 50 light cavalry.
    assert notes(HEAD + "KS", s) == ["0101 has 50 troops and crew; 55 are inside Florence now, and a siege by fewer "
                                     "than are inside fails (SIEGE)"]
    assert notes(HEAD + "KSX", s) == ["0101 has no siege of Florence or of its towers on file now"]


def test_bombardment_needs_a_full_month_of_siege() -> None:
    refused = ("0101's siege of Florence has not held a month yet: a bombardment follows a month in which his siege "
               "held (SIEGE BOMBARDMENT)")
    s = small_state()
    piero(s)["inside"] = False
    assert errors(HEAD + "KB10", s, turn=3) == [refused]  # no siege at all
    # Ordered in turn 2, in effect from turn 3: a bombardment in turn 3 is too soon, in turn 4 it may fire.
    florence(s)["siege"] = {"besieger": "0101", "ordered": 2, "since": 3, "months": 0, "blocked": []}
    assert errors(HEAD + "KB10", s, turn=3) == [refused]
    assert checked(HEAD + "KB10", s, turn=4) == [
        ("KB10", True, "0101 holds 0 cannons now, fewer than 10: the bombardment fires them (what he receives or buys "
                       "earlier in the month counts)")]
    florence(s)["siege"] = {"besieger": "0201", "ordered": 1, "since": 2, "months": 2, "blocked": [2, 3]}
    assert errors(HEAD + "KB10", s, turn=4) == [refused]  # another's siege
    florence(s)["siege"] = {"besieger": "0101", "ordered": 3, "since": None, "months": 0, "blocked": []}
    assert errors(HEAD + "KB10", s, turn=4) == [refused]  # ordered, not yet in effect


def test_naval_bombardment_needs_cannons() -> None:
    assert notes(HEAD + "KVALL") == ["0101 holds no cannons now: his cannons fire next month"]


def test_crops_in_august_from_outside() -> None:
    # Turn 1 is January 1493; turn 8 is August 1493.
    assert errors(HEAD + "KC10") == ["grain crops are destroyed in the August turn (CROP DESTRUCTION); these orders "
                                     "are for January 1493"]
    assert errors(HEAD + "KC10", turn=8) == ["0101 starts the month inside the walls of Florence; crops are destroyed "
                                             "by troops starting outside (CROP DESTRUCTION)"]
    s = small_state()
    piero(s)["inside"] = False
    assert checked(HEAD + "KC50", s, turn=8) == []  # 50 light cavalry
    assert notes(HEAD + "KC500", s, turn=8) == ["0101 has 50 troops now, fewer than 500: the order sets them to "
                                                "destroying crops (crew do not)"]


def test_razing() -> None:
    assert notes(HEAD + "KRlightcav20") == ["0101 is neither the de facto controller of Florence nor of a family "
                                            "owning a tower there now (RAZING OF FORTIFICATIONS)"]
    s = small_state()
    florence(s)["offices"]["tenant"] = "0101"  # control rests with the tenancy
    assert checked(HEAD + "KRlightcav20", s) == []
    assert notes(HEAD + "KRslave5", s) == ["0101 holds 0 slaves now, fewer than 5: the order sets them to razing "
                                           "(what he receives or buys earlier in the month counts)"]


def test_alliances_up_to_six_families() -> None:
    assert checked(HEAD + "KLDORIA") == []
    assert errors(HEAD + "KLSFORZA") == ["there is no family SFORZA"]
    assert notes(HEAD + "KXDORIA") == ["0101 is not allied to DORIA"]
    assert checked(HEAD + "KLDORIA KXDORIA") == []  # allied by the first order, then no longer
    s = small_state()
    piero(s)["allies"] = ["A", "B", "C", "D", "E", "MEDICI"]
    assert errors(HEAD + "KLDORIA", s) == ["0101 is allied to six families (A, B, C, D, E, MEDICI); a persona allies "
                                           "with up to six (ALLIANCE): end one alliance first (KX)"]
    assert checked(HEAD + "KXMEDICI KLDORIA", s) == []


def test_dispositions_count_what_he_holds_in_all() -> None:
    # 50 light cavalry: 30 in the left and 30 in the right are 60.
    assert checked(HEAD + "Z2lightcav30 Z4lightcav30") == [
        ("Z4lightcav30", True, "0101 holds 50 light cavalry now, fewer than 60: his dispositions place them (what he "
                               "receives or buys earlier in the month counts)")]
    assert checked(HEAD + "Z2lightcav30 Z4lightcav20 ZP3") == []


def test_an_order_at_sea_that_needs_a_location_is_refused() -> None:
    s = small_state()
    piero(s).update(location=None, at_sea={"lat": 43.0, "lon": 9.0})
    got = errors("/LMD *MEDICI\n*Sea .0101\nEL KA", s)
    assert got == ["0101 is at sea: a feudal levy is raised at the location of which he is feudatory",
                   "0101 is at sea: an assault is made on a location's walls or towers"]


def test_orders_for_a_later_month_get_notes_not_errors() -> None:
    got = checked("/LMD *MEDICI\n!MAY1493\n*Florence .0101\nEL KC5")
    assert got == [("EL", True, "0101 is not the feudatory of Florence; only its feudatory raises a feudal levy there "
                                "(FEUDATORIES) (so it stands now; these orders are for May 1493)"),
                   ("KC5", False, "grain crops are destroyed in the August turn (CROP DESTRUCTION); these orders are "
                                  "for May 1493")]
    assert checked("/LMD *MEDICI\n!AUG1493\n*Florence .0101\nKC5")[0][1] is True  # inside now: a note


def test_war_orders_of_another_familys_persona_are_refused_once() -> None:
    # The persona problem is said; the war checks of a persona not his are not added to it.
    assert errors(HEAD.replace(".0101", ".0201") + "EL") == [
        "0201 is not a persona of the MEDICI family (he is of the DORIA family); its personae are 0101, 0102, 0103"]


# --------------------------------------------------------------------------------------------- maild orders check
def test_orders_check_passes_the_war_example_and_names_bad_lines(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from maild.cli import main

    example = ROOT / "examples" / "renaissance" / "war" / "MED.txt"
    assert main(["orders", "check", "--ruleset", "renaissance", str(example)]) == 0
    assert capsys.readouterr().out == ""

    bad = tmp_path / "war.txt"
    bad.write_text("/MED *MEDICI\n*Florence .0101\nKF203 EL\n\nZ7pikeman10\nattack .0203\nKIALL/BORGIA\n")
    assert main(["orders", "check", "--ruleset", "renaissance", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f'{bad}:3: "KF203": an attack is KF (field), KU (urban) or KN (naval), the victim\'s four-digit number, then S '
        f"if he is not to be killed and, in urban battle, C to fight to the normal end (persona numbers have exactly "
        f"four digits): KF0203",
        f'{bad}:5: "Z7pikeman10": a disposition is Z, the place (1 left wing, 2 left, 3 center, 4 right, 5 right '
        f"wing, 6 reserves; N, E, S, W the walls), the item (up to 8 letters), then the number (the place is 1 to 6 "
        f"or N, E, S, W): Z3pikeman200",
        f'{bad}:6: "attack .0203": say which battle (BATTLE: the order must indicate what type of battle is to be '
        f"fought): attack .0203 in the field, attack .0203 in town or attack .0203 at sea",
        f'{bad}:7: "KIALL/BORGIA": the victims are ALL or a list of families, not both: KIALL or KIBORGIA',
    ]
