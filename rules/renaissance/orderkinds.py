"""Every order kind of the code sheet: its code shape, its args, its phase. The single list the parser, the
handlers and the code sheet agree on (a test checks each kind has a handler and a code-sheet example).

Every Order the parser makes carries, besides the args below, `family` (e.g. "MEDICI"), `player` (the `/XXX`
code, e.g. "LMD") and, for persona orders, `persona` ("0101") and `start` (the location written after `*`).
Persona numbers are four digits; 9999 is "the locals". Locations are written without blanks ("SantiagodeCompostela"
or "Santiago_de_Compostela"); the parser keeps them as written and the engine matches them (case and blanks,
`_` and `-` ignored).
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import Phase


@dataclass(frozen=True)
class Kind:
    kind: str
    phase: Phase
    shape: str  # the code's shape as the code sheet prints it
    args: str  # the args the parser produces
    example: str  # a code that must parse to this kind
    family_level: bool = False  # applies to the family, not to the persona it is written under


KINDS: tuple[Kind, ...] = (
    # Given by the issue.
    Kind("transfer", Phase.TRANSFER, "Tnnnniiiiiiiiqqqqqqq", "to: str (4 digits, '9999' = the locals), item: str, "
         "qty: int", "T0102grain500"),
    Kind("sell", Phase.SELL, "Smccciiiiiiiiqqqqqqq", "rank: int (m: how many items of the same class this persona "
         "sells in greater quantities this turn), cls: str (class name), item: str, qty: int", "S0foograin200"),
    Kind("buy", Phase.BUY, "Biiiiiiiiqqqqqqq[Y]", "item: str, qty: int, surcharge: bool (trailing Y)",
         "Bwool100"),
    Kind("instruct", Phase.TRAIN, "Innnns", "trainee: str, skill: str (skill name)", "I0102m"),
    Kind("deepen_harbor", Phase.OTHER, "PE#", "(none)", "PE#"),
    # Designed here in the same style.
    Kind("build_road", Phase.OTHER, "PRllll", "to: str (location)", "PRSiena"),
    Kind("lengthen_road", Phase.OTHER, "PLllll", "to: str (location)", "PLSiena"),
    Kind("fortify", Phase.OTHER, "PFS | PFR | PFTn", "measure: 'fas' | 'far' | 'tower', tower: int (n, default 1)",
         "PFS"),
    Kind("fabricate", Phase.OTHER, "Fiiiiiiiiqqq", "item: str (cannon, falconet, arquebus, small arms, pike, armor, "
         "bow, verdigris, vermilion, galley, galliot, roundship, caravel, barque), qty: int (units to make)",
         "Fbow20"),
    Kind("work", Phase.OTHER, "WAnnnn | WNnnnn | WLnnnn | WMnnnn | WXnnnn", "work: 'art' | 'negative_art' | "
         "'letters' | 'negative_letters' | 'architecture', target: str (sponsor, or victim of a negative work)",
         "WA0101"),
    Kind("pilgrimage", Phase.OTHER, "HP", "(none)", "HP"),
    Kind("venerate", Phase.OTHER, "HV", "(none): relics (Catholic) or icons (Orthodox) held, in April", "HV"),
    Kind("alms", Phase.OTHER, "HAqqq", "ducats: int", "HA1000"),
    Kind("charity", Phase.OTHER, "HCqqq", "ducats: int", "HC5000"),
    Kind("indulgence", Phase.OTHER, "HInnnn", "beneficiary: str", "HI0102"),
    Kind("sermon", Phase.OTHER, "UP | UTnnnn", "target: 'populace' or a persona number (his troops)", "UP"),
    Kind("appoint_tax_collector", Phase.OTHER, "OTnnnnllll", "appointee: str, location: str", "OT0102Pisa"),
    Kind("appoint_tithe_collector", Phase.OTHER, "OBnnnnllll", "appointee: str, location: str", "OB0102Pisa"),
    Kind("appoint_magistrate", Phase.OTHER, "OMnnnn", "appointee: str (at the appointer's location)", "OM0102"),
    Kind("resign_magistracy", Phase.OTHER, "OR", "(none)", "OR"),
    Kind("hold_court", Phase.OTHER, "OC", "(none)", "OC"),
    Kind("collect_taxes", Phase.OTHER, "OX", "(none)", "OX"),
    Kind("collect_tithe", Phase.OTHER, "OY", "(none)", "OY"),
    Kind("magistrate_selection", Phase.OTHER, "OSm", "method: 'e' | 's' | 'f' | 't' | 'b' | 'a'", "OSe"),
    Kind("tariff", Phase.OTHER, "RI+n | RI-n | RE+n | RE-n", "which: 'import' | 'export', change: int (-5..5)",
         "RI+3"),
    Kind("access", Phase.OTHER, "DIffff | DEffff | DMffff | AIffff | AEffff | AMffff", "what: 'ingress' | 'egress' | "
         "'market' (the right to use the closed external market), allow: bool, target_family: str", "DIBORGIA"),
    Kind("external_market", Phase.OTHER, "XO | XC", "open: bool (XO opens the external market, XC closes it)", "XO"),
    Kind("elevate", Phase.OTHER, "OEnnnnrrrr[/llll]", "target: str (persona), rank: str (the rank's name, blanks "
         "left out: baronet, count, duke, grandduke, king...; or emir, bey, khan for oneself), place: str | None (the "
         "location the title is named for)", "OE0102duke"),
    Kind("vote", Phase.OTHER, "Vnnnn", "candidate: str (magistrate election, October, at the voter's location)",
         "V0102"),
    Kind("vote_ruler", Phase.OTHER, "VRnnnn", "candidate: str (ruler of the elective state where the voter began the "
         "month: Florence and Ragusa in December, the others when announced)", "VR0102"),
    Kind("vote_grandmaster", Phase.OTHER, "VGnnnn[/oooo]", "candidate: str, order: str | None (the order, when "
         "several elect at the voter's location)", "VG0102"),
    Kind("accept_grandmastership", Phase.OTHER, "OGA[/oooo]", "order: str | None (when elected by several)", "OGA"),
    Kind("claim_cavalry", Phase.OTHER, "OGC", "(none): the grandmaster's free heavy cavalry, at the seat", "OGC"),
    Kind("found_order", Phase.OTHER, "OGFoooo/llll", "order: str (the new order's name), seat: str (the location "
         "whose tenancy goes to its grandmaster's office)", "OGFCalatrava/Toledo"),
    Kind("order_office", Phase.OTHER, "OGToooo/llll | OGVoooo/llll", "office: 'tenant' | 'sovereign', order: str, "
         "location: str (its tenancy or sovereignty to the order's grandmaster's office)", "OGTCalatrava/Toledo"),
    Kind("guild", Phase.OTHER, "GAnnnn | GJnnnn | GMnnnn", "step: 'apprentice' | 'journeyman' | 'master', "
         "candidate: str", "GA0102"),
    Kind("colonize", Phase.OTHER, "Ciiiiiiiiqqq", "item: str (troops, crew or slaves), qty: int", "Ccrew50"),
    Kind("permit_boarding", Phase.OTHER, "Lnnnn", "passenger: str", "L0102"),
    Kind("recruit_crew", Phase.OTHER, "Nqqq", "qty: int (men; NAVIGATION: only in ports)", "N50"),
    Kind("abandon", Phase.OTHER, "AX", "(none): abandon excess cargo including ships", "AX"),
    Kind("stay_outside", Phase.OTHER, "MO", "(none): this month's move ends outside the walls, ingress or not",
         "MO"),
    Kind("move", Phase.MOVE, "MLllll | MFllll | MWllll | MW+dd.dd+ddd.dd | MRllll | MI | MD  [/vvvv...]",
         "mode: 'land' | 'ferry' | 'water' | 'road' | 'inside' | 'disembark', to: str | None, "
         "lat: float | None, lon: float | None, via: list[str] (waypoints after '/')", "MLSiena"),
    # War (part 2; docs/renaissance/war.md). Conflict orders run in the movement phase: "Conflict orders take the
    # place of movement orders" (ORDERS). Parsed by war/orders.py; family names come upper case, as written (no
    # blanks in a code, blanks kept in plain words); items are canonical names; places are "1".."6", "N", "E",
    # "S", "W".
    Kind("recruit_garrison", Phase.OTHER, "EGqqq", "qty: int (garrison troops for this location; the tenant)",
         "EG100"),
    Kind("levy", Phase.OTHER, "EL", "(none): a feudal levy of 1% of the population (the feudatory)", "EL"),
    Kind("recruit_soldiers", Phase.OTHER, "EPiiiiiiiiqqq", "item: str (auxiliary, arquebusier, pikeman, archer or "
         "heavy cavalry), qty: int", "EPpikeman20"),
    Kind("morale_bonus", Phase.OTHER, "UBqqq", "ducats: int (the total paid out in bonuses)", "UB5000"),
    Kind("alcohol", Phase.OTHER, "UAiiiiiiiiqqq", "item: str (wine, beer, ale or spirits), qty: int", "UAwine100"),
    Kind("bonus_city", Phase.OTHER, "UCllll", "location: str (a Shia or Sunni sovereign's bonus city)",
         "UCTunis"),
    Kind("transfer_office", Phase.OTHER, "ONnnnnllll | OFnnnnllll | OVnnnnllll", "office: 'tenant' | "
         "'feudatory' | 'sovereign', to: str (persona), location: str", "ON0102Pisa"),
    Kind("transfer_control", Phase.OTHER, "ODnnnnllll", "to: str (persona), location: str", "OD0102Pisa"),
    Kind("transfer_tower", Phase.OTHER, "OWnffff", "tower: int (1-9, at his location), to: str (a family, or "
         "SOVEREIGN, FEUDATORY, TENANT, MAGISTRATE, BISHOP, ARCHBISHOP)", "OW1BORGIA"),
    Kind("loot", Phase.MOVE, "OL", "(none): loot the location of which he is de facto controller", "OL"),
    Kind("towers", Phase.OTHER, "MTO | MTI", "outside: bool (MTO: stay outside all towers, standing; MTI: reverse it)",
         "MTO"),
    Kind("intercept", Phase.MOVE, "KIALL | KIALLF | KIffff/ffff...", "targets: list[str] (['ALL'] or up to seven "
         "families), ferries: bool (KIALLF: all traffic including ferries)", "KIALL"),
    Kind("attack", Phase.MOVE, "KFnnnn | KUnnnn | KNnnnn  [S] [C]", "battle: 'field' | 'urban' | 'naval', target: str "
         "(persona), spare: bool (S: not to be killed), continue: bool (C: urban, fight to the normal end)",
         "KF0203"),
    Kind("garrison_attack", Phase.MOVE, "KGnnnn [S]", "target: str (persona inside the walls), spare: bool (S)",
         "KG0203"),
    Kind("assault", Phase.MOVE, "KA | KTn | KTnnnn  [S]", "target: 'walls' | 'tower', tower: int | None (KTn), "
         "occupant: str | None (KTnnnn: the tower he is in), spare: bool (S)", "KA"),
    Kind("siege", Phase.MOVE, "KS | KSX | KSTn", "lift: bool (KSX lifts his siege), tower: int | None (KSTn: "
         "besiege tower n of his location, from inside its walls)", "KS"),
    Kind("bombard", Phase.MOVE, "KBqqq | KBTnqqq", "qty: int (cannons bombarding the walls, or tower n, he besieges), "
         "tower: int | None", "KB10"),
    Kind("naval_bombardment", Phase.OTHER, "KVALL | KVffff/ffff...", "targets: list[str] (['ALL'] or up to seven "
         "families): his cannons fire at their ships next month", "KVALL"),
    Kind("crops", Phase.OTHER, "KCqqq", "qty: int (troops destroying grain crops, August)", "KC500"),
    Kind("raze", Phase.OTHER, "KR[n]iiiiiiiiqqq", "item: str (a troop type, crew or slaves), qty: int, tower: int "
         "| None (n: a tower razed by its owner; none: the location's walls)", "KRslave500"),
    Kind("alliance", Phase.OTHER, "KLffff | KXffff", "target_family: str (upper case, as written), allied: bool (KL "
         "declares, KX discontinues)",
         "KLDORIA"),
    Kind("no_support", Phase.OTHER, "KO", "(none): no automatic support between garrison and tenant's family this "
         "month", "KO"),
    Kind("assassinate", Phase.OTHER, "KKnnnn", "target: str (persona)", "KK0203"),
    Kind("duel", Phase.OTHER, "KDnnnn", "target: str (persona challenged)", "KD0203"),
    Kind("dispose", Phase.OTHER, "Zpiiiiiiiiqqq", "place: str (1 left wing, 2 left, 3 center, 4 right, 5 right wing, "
         "6 reserves; N, E, S, W walls), item: str (troops, guns or ships), qty: int", "Z3pikeman200"),
    Kind("post", Phase.OTHER, "ZPp", "place: str (his own division or wall, as for Z)", "ZP3"),
    # APOSTASY (part 3, docs/renaissance/hierarchies.md): the family, and every family of its player, changes
    # religion. Written anywhere in the family's orders; run after its personae's orders.
    # THE ISLAMIC HIERARCHY (part 3): a Shia or Sunni names the member of his family who takes his hereditary
    # positions at his death (docs/renaissance/hierarchies.md, RH-OQ-47). Standing.
    Kind("name_successor", Phase.OTHER, "OHnnnn", "member: str (persona of his family)", "OH0102"),
    Kind("convert", Phase.OTHER, "HRrrrr", "religion: str (one of CONVERTIBLE)", "HRsunni", family_level=True),
    # THE ECCLESIASTICAL OFFICES (docs/renaissance/hierarchies.md, section C); parsed by church_codes.py.
    Kind("invest_archbishop", Phase.OTHER, "OInnnnllll", "appointee: str (a bishop), location: str (a vacant "
         "Catholic archbishopric): the Pope's investiture", "OI0102Pisa"),
    Kind("grant_hat", Phase.OTHER, "OKnnnn", "appointee: str (a Catholic archbishop): the Pope, March and September",
         "OK0102"),
    Kind("appoint_bishop", Phase.OTHER, "OPnnnnllll", "appointee: str, location: str (a vacant see within his "
         "archbishopric)", "OP0102Pisa"),
    Kind("accept_office", Phase.OTHER, "OAllll | OAhat | OApope", "office: str (the archbishopric's location, 'hat' "
         "or 'pope')", "OAPisa"),
    Kind("resign_office", Phase.OTHER, "OQllll | OQhat | OQpope", "office: str (the see's location, 'hat' or "
         "'pope')", "OQPisa"),
    Kind("papal_vote", Phase.OTHER, "VPnnnn", "candidate: str (a cardinal present in Rome votes in the conclave)",
         "VP0102"),
    Kind("congress_vote", Phase.OTHER, "VSnnnnllll", "candidate: str, location: str (the vacant Orthodox or "
         "Monophysite see, where the prelate is)", "VS0102Kiev"),
    Kind("excommunicate", Phase.OTHER, "HXnnnn", "target: str (a Catholic persona; the Pope)", "HX0203"),
    Kind("ask_address", Phase.OTHER, "?Affff", "target_family: str", "?ABORGIA", family_level=True),
    Kind("ask_depth", Phase.OTHER, "?Dllll", "location: str", "?DVenice", family_level=True),
    Kind("ask_coordinates", Phase.OTHER, "?Cllll", "location: str", "?CVenice", family_level=True),
    # Family-level lines; only at the head of a family's orders.
    Kind("execute_day", Phase.OTHER, "!DAYdd", "day: int (1-31)", "!DAY15", family_level=True),
    Kind("for_turn", Phase.OTHER, "!MMMYYYY", "year: int, month: int (orders kept for that month's turn)",
         "!MAY1493", family_level=True),
)

BY_KIND: dict[str, Kind] = {k.kind: k for k in KINDS}

# The religions a family may convert to (HRrrrr): those the rules name (REPUTATION FOR PIETY, MORALE, THE
# ECCLESIASTICAL OFFICES; RH-OQ-43). The setup's "pagan" is ours, for the Americans, not a faith the rules describe.
CONVERTIBLE: tuple[str, ...] = ("catholic", "orthodox", "monophysite", "sunni", "shia", "druse", "jewish", "hindu",
                                "buddhist", "confucian")

# Skill letters of the Instruct code. The issue fixes q v o y x t z k; the rest are ours.
SKILL_LETTERS: dict[str, str] = {
    "q": "barquebuilding", "v": "caravelbuilding", "o": "galliotbuilding", "y": "galleybuilding",
    "x": "architecture", "t": "art", "z": "alchemy", "k": "assassination",
    "a": "armory", "b": "bowmaking", "c": "cannonmaking", "d": "dueling", "e": "engineering", "f": "fortification",
    "g": "gunnery", "l": "letters", "m": "merchantry", "n": "navigation", "r": "roundshipbuilding",
    "s": "sermonizing", "u": "gunsmithing",
}
SKILLS: tuple[str, ...] = tuple(sorted(SKILL_LETTERS.values()))
