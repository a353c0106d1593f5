"""Renaissance order codes: headers, every code shape, plain words, diagnostics, and the code sheet's examples."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from maild.ruleset import ParsedOrders
from maild_rules.renaissance import items
from maild_rules.renaissance.church_codes import CHURCH_KINDS
from maild_rules.renaissance.codes import format_code, parse, summary
from maild_rules.renaissance.orderkinds import KINDS, SKILL_LETTERS
from maild_rules.renaissance.war.orders import WAR_KINDS

ROOT = Path(__file__).resolve().parents[1]
SHEET = ROOT / "docs" / "renaissance-codes.md"
HEAD = "/LMD *MEDICI\n*Florence .0101\n"
CONTEXT = {"family": "MEDICI", "player": "LMD", "persona": "0101", "start": "Florence"}


def one(code: str) -> tuple[str, dict[str, Any]]:
    """The kind and args (without the block's context) of one code under a persona header."""
    parsed = parse(HEAD + code)
    assert parsed.diagnostics == [], parsed.diagnostics
    assert len(parsed.orders) == 1, parsed.orders
    order = parsed.orders[0]
    assert order.line == 3 and order.text == code.strip()
    args = dict(order.args)
    for key, value in CONTEXT.items():
        if key in args:
            assert args.pop(key) == value
    return order.kind, args


def messages(parsed: ParsedOrders) -> list[str]:
    return [d.message for d in parsed.diagnostics]


NO_MOVE = {"lat": None, "lon": None, "via": []}

SHAPES: list[tuple[str, str, dict[str, Any]]] = [
    ("T0102grain500", "transfer", {"to": "0102", "item": "grain", "qty": 500}),
    ("t0102GRAIN500", "transfer", {"to": "0102", "item": "grain", "qty": 500}),
    ("T9999saltfish20", "transfer", {"to": "9999", "item": "salt fish", "qty": 20}),
    ("T0102qqq300", "transfer", {"to": "0102", "item": "arquebusier", "qty": 300}),
    ("T0102pikemen50", "transfer", {"to": "0102", "item": "pikeman", "qty": 50}),
    ("T0102heavycavalry5", "transfer", {"to": "0102", "item": "heavy cavalry", "qty": 5}),
    ("T0102ducats1000", "transfer", {"to": "0102", "item": "ducats", "qty": 1000}),
    ("S0foograin200", "sell", {"rank": 0, "cls": "food", "item": "grain", "qty": 200}),
    ("S2spisugar50", "sell", {"rank": 2, "cls": "spices", "item": "sugar", "qty": 50}),
    ("Bwool100", "buy", {"item": "wool", "qty": 100, "surcharge": False}),
    ("Bwool100Y", "buy", {"item": "wool", "qty": 100, "surcharge": True}),
    ("bpepper10y", "buy", {"item": "pepper", "qty": 10, "surcharge": True}),
    ("I0102m", "instruct", {"trainee": "0102", "skill": "merchantry"}),
    ("I0102q", "instruct", {"trainee": "0102", "skill": "barquebuilding"}),
    ("PE#", "deepen_harbor", {}),
    ("pe#", "deepen_harbor", {}),
    ("PRSiena", "build_road", {"to": "Siena"}),
    ("PLSiena", "lengthen_road", {"to": "Siena"}),
    ("PFS", "fortify", {"measure": "fas", "tower": 1}),
    ("PFR", "fortify", {"measure": "far", "tower": 1}),
    ("PFT2", "fortify", {"measure": "tower", "tower": 2}),
    ("Fbow20", "fabricate", {"item": "bow", "qty": 20}),
    ("Fsmallarm30", "fabricate", {"item": "small arms", "qty": 30}),
    ("WA0101", "work", {"work": "art", "target": "0101"}),
    ("WN0203", "work", {"work": "negative_art", "target": "0203"}),
    ("WL0101", "work", {"work": "letters", "target": "0101"}),
    ("WM0203", "work", {"work": "negative_letters", "target": "0203"}),
    ("WX0101", "work", {"work": "architecture", "target": "0101"}),
    ("HP", "pilgrimage", {}),
    ("HV", "venerate", {}),
    ("HA1000", "alms", {"ducats": 1000}),
    ("HC5000", "charity", {"ducats": 5000}),
    ("HI0102", "indulgence", {"beneficiary": "0102"}),
    ("HRsunni", "convert", {"religion": "sunni"}),
    ("OH0102", "name_successor", {"member": "0102"}),
    ("HRCath", "convert", {"religion": "catholic"}),
    ("hrdruses", "convert", {"religion": "druse"}),
    ("HRhinduism", "convert", {"religion": "hindu"}),
    ("HRshiite", "convert", {"religion": "shia"}),
    ("HRcoptic", "convert", {"religion": "monophysite"}),
    ("UP", "sermon", {"target": "populace"}),
    ("UT0102", "sermon", {"target": "0102"}),
    ("OT0102Pisa", "appoint_tax_collector", {"appointee": "0102", "location": "Pisa"}),
    ("OB0102Pisa", "appoint_tithe_collector", {"appointee": "0102", "location": "Pisa"}),
    ("OM0102", "appoint_magistrate", {"appointee": "0102"}),
    ("OR", "resign_magistracy", {}),
    ("OC", "hold_court", {}),
    ("OX", "collect_taxes", {}),
    ("OY", "collect_tithe", {}),
    ("OSe", "magistrate_selection", {"method": "e"}),
    ("OE0102duke", "elevate", {"target": "0102", "rank": "duke", "place": None}),
    ("oe0102GrandDuke/Pisa", "elevate", {"target": "0102", "rank": "grand duke", "place": "Pisa"}),
    ("OE0102sovprince", "elevate", {"target": "0102", "rank": "sovereign prince", "place": None}),
    ("OE0101emir", "elevate", {"target": "0101", "rank": "emir", "place": None}),
    ("VR0102", "vote_ruler", {"candidate": "0102"}),
    ("VG0102", "vote_grandmaster", {"candidate": "0102", "order": None}),
    ("vg0102/Rhodes", "vote_grandmaster", {"candidate": "0102", "order": "Rhodes"}),
    ("OGA", "accept_grandmastership", {"order": None}),
    ("OGA/teutonic", "accept_grandmastership", {"order": "teutonic"}),
    ("OGC", "claim_cavalry", {}),
    ("OGFCalatrava/Genoa", "found_order", {"order": "Calatrava", "seat": "Genoa"}),
    ("OGTCalatrava/Pisa", "order_office", {"office": "tenant", "order": "Calatrava", "location": "Pisa"}),
    ("ogvRhodes/Pisa", "order_office", {"office": "sovereign", "order": "Rhodes", "location": "Pisa"}),
    ("RI+3", "tariff", {"which": "import", "change": 3}),
    ("RE-2", "tariff", {"which": "export", "change": -2}),
    ("DIBORGIA", "access", {"what": "ingress", "allow": False, "target_family": "BORGIA"}),
    ("DEborgia", "access", {"what": "egress", "allow": False, "target_family": "BORGIA"}),
    ("AIBORGIA", "access", {"what": "ingress", "allow": True, "target_family": "BORGIA"}),
    ("AESFORZA", "access", {"what": "egress", "allow": True, "target_family": "SFORZA"}),
    ("DMBORGIA", "access", {"what": "market", "allow": False, "target_family": "BORGIA"}),
    ("AMsforza", "access", {"what": "market", "allow": True, "target_family": "SFORZA"}),
    ("XO", "external_market", {"open": True}),
    ("xc", "external_market", {"open": False}),
    ("V0102", "vote", {"candidate": "0102"}),
    ("GA0102", "guild", {"step": "apprentice", "candidate": "0102"}),
    ("GJ0102", "guild", {"step": "journeyman", "candidate": "0102"}),
    ("GM0102", "guild", {"step": "master", "candidate": "0102"}),
    ("Ccrew50", "colonize", {"item": "crew", "qty": 50}),
    ("L0102", "permit_boarding", {"passenger": "0102"}),
    ("N40", "recruit_crew", {"qty": 40}),
    ("AX", "abandon", {}),
    ("MO", "stay_outside", {}),
    ("MLSiena", "move", {"mode": "land", "to": "Siena", **NO_MOVE}),
    ("MFElba", "move", {"mode": "ferry", "to": "Elba", **NO_MOVE}),
    ("MRSiena", "move", {"mode": "road", "to": "Siena", **NO_MOVE}),
    ("MWGenoa", "move", {"mode": "water", "to": "Genoa", **NO_MOVE}),
    ("MLSiena/Arezzo/Chiusi", "move", {"mode": "land", "to": "Siena", "lat": None, "lon": None,
                                       "via": ["Arezzo", "Chiusi"]}),
    ("MW+41.00+012.00", "move", {"mode": "water", "to": None, "lat": 41.0, "lon": 12.0, "via": []}),
    ("MW-33.5-070.25", "move", {"mode": "water", "to": None, "lat": -33.5, "lon": -70.25, "via": []}),
    ("MI", "move", {"mode": "inside", "to": None, **NO_MOVE}),
    ("MD", "move", {"mode": "disembark", "to": None, **NO_MOVE}),
    ("?ABORGIA", "ask_address", {"target_family": "BORGIA"}),
    ("?DVenice", "ask_depth", {"location": "Venice"}),
    ("?CVenice", "ask_coordinates", {"location": "Venice"}),
]


@pytest.mark.parametrize(("code", "kind", "args"), SHAPES, ids=[s[0] for s in SHAPES])
def test_code_shapes(code: str, kind: str, args: dict[str, Any]) -> None:
    assert one(code) == (kind, args)


def test_every_kind_has_a_tested_shape_and_its_example_parses() -> None:
    # The war's shapes are tested in test_renaissance_war_orders.py, which checks they cover every war kind; the
    # church's in test_renaissance_church_orders.py.
    tested = {kind for _, kind, _ in SHAPES} | WAR_KINDS | CHURCH_KINDS | {"execute_day", "for_turn"}
    assert tested == {k.kind for k in KINDS}
    for k in KINDS:
        head = "/LMD *MEDICI\n" if k.family_level else HEAD
        parsed = parse(head + k.example)
        assert parsed.diagnostics == [] and [o.kind for o in parsed.orders] == [k.kind], k.example


@pytest.mark.parametrize(("code", "kind", "args"), SHAPES, ids=[s[0] for s in SHAPES])
def test_format_code_round_trips(code: str, kind: str, args: dict[str, Any]) -> None:
    again = one(format_code(kind, args))
    assert again == (kind, args)
    assert summary(kind, args)


def test_family_level_lines() -> None:
    parsed = parse("/LMD *MEDICI\n!DAY15 !MAY1493\n?ABORGIA\n*Florence .0101\nHP\n?DVenice")
    assert messages(parsed) == []
    assert [(o.line, o.kind, o.args) for o in parsed.orders] == [
        (2, "execute_day", {"day": 15, "family": "MEDICI", "player": "LMD"}),
        (2, "for_turn", {"year": 1493, "month": 5, "family": "MEDICI", "player": "LMD"}),
        (3, "ask_address", {"target_family": "BORGIA", "family": "MEDICI", "player": "LMD"}),
        (5, "pilgrimage", CONTEXT),
        (6, "ask_depth", {"location": "Venice", "family": "MEDICI", "player": "LMD"}),
    ]


def test_day_and_month_after_a_persona_are_refused() -> None:
    parsed = parse(HEAD + "HP !DAY15\n!MAY1493")
    assert [o.kind for o in parsed.orders] == ["pilgrimage"]
    assert [d.line for d in parsed.diagnostics] == [3, 4]
    assert all("before the first persona header" in m for m in messages(parsed))


def test_one_address_request_per_family() -> None:
    parsed = parse("/LMD *MEDICI ?ABORGIA ?ASFORZA")
    assert [o.args["target_family"] for o in parsed.orders] == ["BORGIA"]
    assert "one address request per family" in messages(parsed)[0]


def test_several_codes_a_line_and_one_a_line_give_the_same_orders() -> None:
    wide = parse(HEAD + "T0102grain500 S0foograin200   Bwool100\tI0102m")
    tall = parse(HEAD + "T0102grain500\nS0foograin200\nBwool100\n\nI0102m")
    assert wide.diagnostics == tall.diagnostics == []
    assert [(o.kind, o.args) for o in wide.orders] == [(o.kind, o.args) for o in tall.orders]
    assert [o.line for o in wide.orders] == [3, 3, 3, 3]
    assert [o.line for o in tall.orders] == [3, 4, 5, 7]


def test_several_families_and_personae_in_one_mail() -> None:
    text = """-- my orders for May
/LMD *MEDICI
*Florence .0101 T0102grain500
*Pisa .0102
HP
/LMD
*BORGIA
; a comment
*Santiago de Compostela .0201 OC
*Rome 0202 MLSiena -- no dot is fine
"""
    parsed = parse(text)
    assert parsed.diagnostics == []
    got = [(o.line, o.args["family"], o.args["persona"], o.args["start"], o.kind) for o in parsed.orders]
    assert got == [(3, "MEDICI", "0101", "Florence", "transfer"), (5, "MEDICI", "0102", "Pisa", "pilgrimage"),
                   (9, "BORGIA", "0201", "Santiago de Compostela", "hold_court"),
                   (10, "BORGIA", "0202", "Rome", "move")]
    assert {o.args["player"] for o in parsed.orders} == {"LMD"}


def test_player_code_and_family_on_one_token_and_in_lower_case() -> None:
    parsed = parse("/lmd*medici\n*Florence .0101 HP")
    assert parsed.diagnostics == []
    assert parsed.orders[0].args["family"] == "MEDICI" and parsed.orders[0].args["player"] == "LMD"


def test_family_name_with_blanks() -> None:
    parsed = parse("/LMD *della rovere !DAY3\n*Rome .0301 HP")
    assert parsed.diagnostics == []
    assert [o.args["family"] for o in parsed.orders] == ["DELLA ROVERE", "DELLA ROVERE"]


def test_orders_outside_blocks() -> None:
    parsed = parse("T0102grain500 HP\n/LMD *MEDICI\nOC\n*Florence .0101 HP")
    assert [o.line for o in parsed.orders] == [4]
    first, second = parsed.diagnostics
    assert first.line == 1 and first.text == "T0102grain500 HP"
    assert '"T0102grain500", "HP"' in first.message and "/XXX" in first.message and "*Florence .0101" in first.message
    assert second.line == 3 and "*Florence .0101" in second.message


def test_persona_header_problems() -> None:
    parsed = parse("/LMD *MEDICI\n*Florence .101\nHP\n*Pisa\nOC\n*Siena .0103\nOX")
    assert [(o.line, o.kind) for o in parsed.orders] == [(7, "collect_taxes")]
    m = messages(parsed)
    assert "exactly four digits" in m[0]
    assert "not read: the persona header on line 2" in m[1]
    assert "persona number is missing" in m[2]
    assert "line 4" in m[3]


def test_a_familys_orders_stay_together() -> None:
    parsed = parse("/LMD *MEDICI\n*Florence .0101 HP\n/LMD *BORGIA\n*Rome .0201 OC\n/LMD *MEDICI\n*Pisa .0102 OX\n"
                   "/LMD *SFORZA\n*Milan .0401 OY")
    assert [o.kind for o in parsed.orders] == ["pilgrimage", "hold_court", "collect_tithe"]
    assert [d.line for d in parsed.diagnostics] == [5, 6]
    assert "began on line 1 and must stay together" in parsed.diagnostics[0].message
    assert "not read" in parsed.diagnostics[1].message


def test_player_without_family() -> None:
    parsed = parse("/LMD\n*Florence .0101 HP")
    assert parsed.orders == []
    assert "after /LMD (line 1) comes the family's name" in messages(parsed)[0]
    assert "not followed by the family's name" in messages(parse("/LMD"))[0]


def test_blank_split_codes_are_diagnosed_as_such() -> None:
    parsed = parse(HEAD + "T0102 grain500 HP\nT0102 grain 500\nB wool100")
    assert [o.kind for o in parsed.orders] == ["pilgrimage"]
    m = messages(parsed)
    assert len(m) == 3
    assert m[0] == ('"T0102" "grain500": a blank splits the code T0102grain500 in two; codes have no blanks '
                    "inside: T0102grain500")
    assert "splits the code T0102grain500 in three" in m[1]
    assert "Bwool100" in m[2]
    assert [d.line for d in parsed.diagnostics] == [3, 4, 5]
    assert parsed.diagnostics[0].text == "T0102 grain500 HP"


def test_malformed_code_names_the_shape() -> None:
    parsed = parse(HEAD + "T0102grain")
    assert messages(parsed) == ['"T0102grain": a transfer is T, the recipient\'s four-digit number (9999: the '
                                "locals), the item (up to 8 letters), then the quantity: T0102grain500"]
    assert "exactly four digits" in messages(parse(HEAD + "T102grain5"))[0]
    assert "without commas" in messages(parse(HEAD + "T0102grain1,000"))[0]
    assert "codes beginning with H" in messages(parse(HEAD + "HZ"))[0]
    assert "is not a code" in messages(parse(HEAD + "Jyz"))[0]
    assert "a disposition is Z" in messages(parse(HEAD + "Zyz"))[0]  # Z begins the war's dispositions
    assert "XO and closed with XC" in messages(parse(HEAD + "Xyz"))[0]  # X begins the external market codes
    assert "a sale is S" in messages(parse(HEAD + "Sfoograin200"))[0]


@pytest.mark.parametrize("code", ["T0102grain0", "Bwool0", "HA0", "Fbow0"])
def test_zero_quantities_are_refused(code: str) -> None:
    parsed = parse(HEAD + code)
    assert parsed.orders == [] and "must be at least 1" in messages(parsed)[0]


@pytest.mark.parametrize("code", ["T0102grain-5", "Bwool1.5", "HA1e3"])
def test_signs_and_fractions_are_refused(code: str) -> None:
    parsed = parse(HEAD + code)
    assert parsed.orders == [] and len(parsed.diagnostics) == 1


def test_unknown_item_suggests_close_codes() -> None:
    m = messages(parse(HEAD + "T0102grian500 Bcinamon5 Bcavalry5"))
    assert m[0].startswith('"T0102grian500": no item "grian"; did you mean grain')
    assert "cinnamon" in m[1]
    assert "heavycav" in m[2] and "lightcav" in m[2]


def test_static_checks_of_sales_skills_and_fabrication() -> None:
    m = messages(parse(HEAD + "S0metgrain200 S0xyzgrain1 S0foopikeman5 I0102w Fgrain5 Cwool5 RI+9 OSz"))
    assert "grain is not in the class metals; it is in food (foo)" in m[0]
    assert 'no class "xyz"' in m[1]
    assert "no class of trade goods" in m[2]
    assert 'no skill "w"' in m[3]
    assert "cannot be fabricated" in m[4]
    assert "troops, crew or slaves" in m[5]
    assert "1 to 5" in m[6]
    assert "e, s, f, t, b or a" in m[7]


def test_skill_by_name() -> None:
    assert one("I0102merchantry") == ("instruct", {"trainee": "0102", "skill": "merchantry"})


@pytest.mark.parametrize("line", ["T0102grain500 if Siena is free", "unless attacked HP",
                                  "move to Siena by land when the ships arrive", "HP only if April"])
def test_conditional_orders_are_void(line: str) -> None:
    parsed = parse(HEAD + line)
    assert parsed.orders == []
    assert messages(parsed) == ["conditional orders are void (rules, ORDERS): write the order without the condition"]
    assert parsed.diagnostics[0].line == 3


PLAIN: list[tuple[str, str]] = [
    ("transfer 500 grain to .0102", "T0102grain500"),
    ("give 500 grain to 0102", "T0102grain500"),
    ("Transfer 20 Salt Fish to the locals", "T9999saltfish20"),
    ("transfer 300 arquebusiers to .0102", "T0102qqq300"),
    ("transfer 50 pikemen to .0102", "T0102pikeman50"),
    ("buy 100 wool", "Bwool100"),
    ("buy 10 pepper paying the surcharge", "Bpepper10Y"),
    ("train .0102 in merchantry", "I0102m"),
    ("instruct 0102 m", "I0102m"),
    ("move to Siena by land", "MLSiena"),
    ("move by road to Siena", "MRSiena"),
    ("go to Siena by ferry", "MFSiena"),
    ("sail to Genoa", "MWGenoa"),
    ("move to Genoa by water", "MWGenoa"),
    ("move by water to +41.00 +012.00", "MW+41.00+012.00"),
    ("move to Siena via Arezzo, Chiusi", "MLSiena/Arezzo/Chiusi"),
    ("move inside", "MI"),
    ("disembark", "MD"),
    ("deepen harbor", "PE#"),
    ("deepen the harbour", "PE#"),
    ("hold court", "OC"),
    ("elevate .0102 to duke", "OE0102duke"),
    ("elevate .0102 to the rank of grand duke of Pisa", "OE0102grandduke/Pisa"),
    ("elevate 0101 to emir", "OE0101emir"),
    ("vote for .0102 as ruler", "VR0102"),
    ("vote for .0102 as grandmaster", "VG0102"),
    ("vote for .0102 as grandmaster of Rhodes", "VG0102/Rhodes"),
    ("accept the grandmastership", "OGA"),
    ("accept the grandmastership of Rhodes", "OGA/Rhodes"),
    ("claim the free heavy cavalry", "OGC"),
    ("create the military order of Calatrava at Genoa", "OGFCalatrava/Genoa"),
    ("found the order of Calatrava with its seat at Genoa", "OGFCalatrava/Genoa"),
    ("transfer the tenancy of Pisa to the order of Calatrava", "OGTCalatrava/Pisa"),
    ("give the sovereignty of Pisa to the grandmaster of Rhodes", "OGVRhodes/Pisa"),
    ("collect taxes", "OX"),
    ("collect tithe", "OY"),
    ("pilgrimage", "HP"),
    ("make a pilgrimage", "HP"),
    ("go on pilgrimage", "HP"),
    ("give 1,000 ducats in alms", "HA1000"),
    ("alms 1000", "HA1000"),
    ("give 5000 ducats to charity", "HC5000"),
    ("charity 5000", "HC5000"),
    ("make a work of art for .0101", "WA0101"),
    ("work of letters for 0101", "WL0101"),
    ("negative work of art against .0203", "WN0203"),
    ("make a negative work of letters against 0203", "WM0203"),
    ("work of architecture for .0101", "WX0101"),
    ("abandon excess cargo including ships", "AX"),
    ("stay outside the walls", "MO"),
    ("venerate relics", "HV"),
    ("resign magistracy", "OR"),
    ("vote for .0102", "V0102"),
    ("fabricate 20 bows", "Fbow20"),
    ("build 2 galleys", "Fgalley2"),
    ("build road to Siena", "PRSiena"),
    ("lengthen the road to Siena", "PLSiena"),
    ("improve the FAS", "PFS"),
    ("fortify FAR", "PFR"),
    ("raise the assault strength", "PFS"),
    ("strengthen the resistance to artillery", "PFR"),
    ("fortify tower 2", "PFT2"),
    ("fortify the tower", "PFT1"),
    ("grant an indulgence to .0102", "HI0102"),
    ("give an indulgence to 0102", "HI0102"),
    ("preach to the populace", "UP"),
    ("preach a sermon to the people", "UP"),
    ("sermon to the troops of .0102", "UT0102"),
    ("preach to the troops of 0102", "UT0102"),
    ("appoint .0102 tax collector at Pisa", "OT0102Pisa"),
    ("appoint .0102 tithe collector at Pisa", "OB0102Pisa"),
    ("appoint .0102 magistrate", "OM0102"),
    ("appoint 0102 as the magistrate", "OM0102"),
    ("magistrates by election", "OSe"),
    ("magistrates elected", "OSe"),
    ("select magistrates by election", "OSe"),
    ("magistrates appointed by the bishop", "OSb"),
    ("magistrates to be selected by the archbishop's appointment", "OSa"),
    ("magistrates appointed by the sovereign", "OSs"),
    ("raise the import tariff by 3", "RI+3"),
    ("lower export tariff 2", "RE-2"),
    ("lower the export tariff by 2 points", "RE-2"),
    ("change the tariff on imports by +3", "RI+3"),
    ("change the export tariff by -2%", "RE-2"),
    ("deny ingress to BORGIA", "DIBORGIA"),
    ("deny egress to the Borgia family", "DEBORGIA"),
    ("allow egress to the Borgia", "AEBORGIA"),
    ("grant the external market to the Borgia family", "AMBORGIA"),
    ("deny market to BORGIA", "DMBORGIA"),
    ("open the external market", "XO"),
    ("close the market", "XC"),
    ("grant ingress to Sforza", "AISFORZA"),
    ("accept .0102 as apprentice", "GA0102"),
    ("approve .0102 as journeyman", "GJ0102"),
    ("approve .0102 as master", "GM0102"),
    ("admit 0102 into the guild as a master", "GM0102"),
    ("colonize with 50 crew", "Ccrew50"),
    ("plant 20 slaves as colonists", "Cslave20"),
    ("settle a colony with 200 pikemen", "Cpikeman200"),
    ("permit .0102 to board", "L0102"),
    ("let 0102 aboard", "L0102"),
    ("allow .0102 to board", "L0102"),
    ("recruit 50 crew", "N50"),
    ("hire 50 men as crew", "N50"),
    ("recruit a crew of 50 men", "N50"),
    ("execute on day 15", "!DAY15"),
    ("execute this family's orders on day 15", "!DAY15"),
    ("orders for May 1493", "!MAY1493"),
    ("these orders are for the September 1493 turn", "!SEP1493"),
]


@pytest.mark.parametrize(("words", "code"), PLAIN, ids=[p[0] for p in PLAIN])
def test_plain_words_give_the_same_order_as_the_code(words: str, code: str) -> None:
    head = "/LMD *MEDICI\n" if code.startswith("!") else HEAD  # !DAY and !MMMYYYY: before any persona
    by_words = parse(head + words)
    by_code = parse(head + code)
    assert by_words.diagnostics == [] and by_code.diagnostics == []
    (w,), (c,) = by_words.orders, by_code.orders
    assert (w.kind, w.args, w.line) == (c.kind, c.args, c.line)
    assert w.text == words
    pid = c.args.get("persona")
    who = f".{pid}" if pid else c.args["family"]
    core = c.summary.removeprefix(f"{who} {c.text}: ")
    assert c.summary == f"{who} {c.text}: {core}"  # a code: whose, the code, then what it was read as
    assert w.summary == f"{who} {core} (code {code})"


def test_plain_words_summary_example() -> None:
    (order,) = parse(HEAD + "transfer 500 grain to .0102").orders
    assert order.summary == ".0101 transfer 500 grain to 0102 (code T0102grain500)"


def test_plain_words_sale_assumes_rank_zero_and_says_so() -> None:
    (order,) = parse(HEAD + "sell 200 grain").orders
    assert order.kind == "sell" and order.args["rank"] == 0 and order.args["cls"] == "food"
    assert "rank 0 assumed" in order.summary and order.summary.endswith("(code S0foograin200)")
    (sugar,) = parse(HEAD + "sell 50 sugar as spices").orders
    assert sugar.args["cls"] == "spices" and sugar.summary.endswith("(code S0spisugar50)")


def test_plain_words_after_codes_and_family_level_phrases() -> None:
    parsed = parse("/LMD *MEDICI\nask address of BORGIA\n*Florence .0101\nHP transfer 5 grain to .0102")
    assert parsed.diagnostics == []
    assert [(o.line, o.kind) for o in parsed.orders] == [(2, "ask_address"), (4, "pilgrimage"), (4, "transfer")]
    assert parsed.orders[2].text == "transfer 5 grain to .0102"


def test_plain_words_not_understood() -> None:
    m = messages(parse(HEAD + "transfer grain to Piero\nmove by land to Siena by water\nbuy 5 unobtainium"))
    assert "plain words not understood" in m[0] and "transfer 500 grain to .0102" in m[0]
    assert "by land or by water" in m[1]
    assert 'no item "unobtainium"' in m[2]


@pytest.mark.parametrize(("words", "expected"), [
    ("raise the import tariff to 10", "states the change, not the new rate"),
    ("lower the export tariff to 2", "states the change, not the new rate"),
    ("change the import tariff by 3", "say which way the import tariff changes"),
    ("lower the export tariff by +2", "without a sign"),
    ("raise the import tariff by 9", "1 to 5 points"),
    ("magistrates elected by the bishop", "either elected or appointed"),
    ("magistrates appointed by election", "either elected or appointed"),
    ("magistrates", "say how magistrates are selected"),
    ("fortify tower 12", "towers 1 to 9"),
    ("fortify tower 0", "numbered from 1"),
    ("colonize with 50 wool", "troops, crew or slaves"),
    ("recruit 0 crew", "at least 1"),
    ("fortify", "fortify FAS, fortify FAR or fortify tower 2"),
    ("appoint .0102 tax collector", "appoint .0102 tax collector at Pisa"),
    ("deny BORGIA", "deny ingress to BORGIA"),
])
def test_new_plain_words_refused_with_the_reason(words: str, expected: str) -> None:
    parsed = parse(HEAD + words)
    assert parsed.orders == []
    (message,) = messages(parsed)
    assert message.startswith(f'"{words}": ') and expected in message


def test_new_verbs_keep_codes_and_old_phrases_working() -> None:
    """The new verbs are read before codes on their line too; the codes and old phrases around them stay."""
    parsed = parse("/LMD *MEDICI\norders for May 1493\nexecute on day 3\n*Florence .0101\n"
                   "HP UP deny ingress to BORGIA\nDIBORGIA deepen the harbor\nMD disembark\nPFT2 preach to the people")
    assert messages(parsed) == []
    assert [(o.line, o.kind) for o in parsed.orders] == [
        (2, "for_turn"), (3, "execute_day"), (5, "pilgrimage"), (5, "sermon"), (5, "access"), (6, "access"),
        (6, "deepen_harbor"), (7, "move"), (7, "move"), (8, "fortify"), (8, "sermon")]
    day_after_persona = parse(HEAD + "execute on day 15")
    assert parsed.orders[1].args["day"] == 3 and "before the first persona header" in messages(day_after_persona)[0]


def test_comments_blank_lines_and_tabs() -> None:
    parsed = parse("\n\n/LMD\t*MEDICI\n-- a comment T0102grain500\n;another\n\t*Florence\t.0101\tHP ;why\n\n")
    assert messages(parsed) == []
    assert [(o.line, o.kind) for o in parsed.orders] == [(6, "pilgrimage")]


def test_code_sheet_examples_all_parse() -> None:
    blocks = re.findall(r"```orders\n(.*?)```", SHEET.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 8
    kinds: set[str] = set()
    for block in blocks:
        parsed = parse(block)
        assert parsed.diagnostics == [], (block, parsed.diagnostics)
        assert len(parsed.orders) >= 1
        kinds |= {o.kind for o in parsed.orders}
    assert kinds == {k.kind for k in KINDS}


def _table(title: str) -> list[list[str]]:
    text = SHEET.read_text(encoding="utf-8")
    section = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[1:]]


def test_code_sheet_item_table_matches_items() -> None:
    rows = _table("Item codes")
    expected = sorted((items.code_of(n), n, ", ".join(c[:3] for c in items.classes_of(n)) or "-")
                      for n in items.ALL_ITEMS)
    assert sorted(tuple(r) for r in rows) == expected


def test_code_sheet_skill_and_class_tables_match() -> None:
    assert dict(map(tuple, _table("Skill letters"))) == SKILL_LETTERS
    assert dict(map(tuple, _table("Class codes"))) == items.CLASS_CODES


def test_speed() -> None:
    """At least 10,000 codes a second (one mail of 2,000 codes well under a second even on a slow machine)."""
    import time

    codes = " ".join(f"T0102grain{n} Bwool{n}Y MLSiena/Arezzo HA{n}" for n in range(1, 501))
    text = HEAD + codes
    start = time.perf_counter()
    parsed = parse(text)
    elapsed = time.perf_counter() - start
    assert len(parsed.orders) == 2000 and parsed.diagnostics == []
    assert elapsed < 2.0  # generous for CI: measured ~0.15 s
