"""The Law of the Jungle's orders: bold keywords read into actions (parse), who acts, what follows each
keyword in the ways players write it, the checks against the state, and Captains' word limits.

CHARACTER ACTIONS: "Actions should be signified by putting the appropriate action keyword in bold."
CONTROLLING UNITS: "When issuing orders, the Captain is restricted to a word limit equal to 5 * (the unit's
current level)." / "A Captain may double his word limit by using both of his actions for the council session
to issue orders." / "Non-military units that don't have a "level", have a fixed order word limit of 15."
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from maild.ruleset import Order
from maild_rules.jungle.actions import ARGS, KEYWORDS
from maild_rules.jungle.captains import captain_orders, word_limit
from maild_rules.jungle.model import Unit
from maild_rules.jungle.ordercheck import find_item
from maild_rules.jungle.orders import EXAMPLES, ORDER_KINDS, check, parse
from tests.jungle_orders_fixtures import small_world


def one(text: str) -> Order:
    parsed = parse(text)
    assert [d for d in parsed.diagnostics if not d.warning] == [], parsed.diagnostics
    assert len(parsed.orders) == 1, parsed.orders
    return parsed.orders[0]


def args(text: str) -> dict[str, Any]:
    a = dict(one(text).args)
    for k in ("character", "both", "part"):
        a.pop(k)
    return a


def errors(text: str) -> list[str]:
    return [d.message for d in parse(text).diagnostics if not d.warning]


# ---- attacks ---------------------------------------------------------------------------------------------------
ATTACK = {"target": "Xolotl", "type": "duel", "desperate": True, "joint": [], "principal": None, "item": None}


@pytest.mark.parametrize("text", [
    "**Attack** Xolotl, duel, desperate",
    "**Attack**: a desperate duel against Xolotl",
    "**Attack** - desperate duel vs. Xolotl",
    "**ATTACK** Xolotl (duel, desperate).",
    "**Duel** Xolotl, desperate",
    "**Attack Xolotl** in a desperate duel",
])
def test_attack_written_many_ways_gives_the_same_args(text: str) -> None:
    assert args(text) == ATTACK


def test_joint_attack_with_principal_and_type_after_a_dash() -> None:
    assert args("**Attack** Xolotl (joint with Itzel and Coyotl, Itzel principal) - capture") == {
        "target": "Xolotl", "type": "capture", "desperate": False, "joint": ["Itzel", "Coyotl"],
        "principal": "Itzel", "item": None}
    assert args("**Attack** Xolotl: joint capture with Itzel, Coyotl; principal attacker: Coyotl")["principal"] \
        == "Coyotl"
    assert args("**Attack** Xolotl, capture, jointly with Itzel & Coyotl, led by Itzel")["joint"] == ["Itzel",
                                                                                                   "Coyotl"]


def test_attack_summary_reads_as_understood() -> None:
    assert one("Itzel:\n**Attack** Xolotl, duel, desperate").summary == "Itzel attacks Xolotl: a desperate duel"
    # The actor named among the joint attackers is left out of the list of the others.
    o = one("itzel:\n**Attack** Xolotl, capture (joint with Itzel and Coyotl, Coyotl principal)")
    assert o.args["joint"] == ["Coyotl"]
    assert o.summary == "itzel attacks Xolotl: a capture, joint with Coyotl, Coyotl principal"


@pytest.mark.parametrize(("text", "item"), [
    ("**Attack** Xolotl, challenge, for the city of Texcoco", {"kind": "city", "name": "Texcoco"}),
    ("**Challenge** Xolotl for the rulership of Texcoco", {"kind": "city", "name": "Texcoco"}),
    ("**Attack** overthrow Xolotl for captaincy of Jaguar Warriors", {"kind": "unit", "name": "Jaguar Warriors"}),
    ("**Attack** challenge Xolotl for ownership of Tochtli", {"kind": "slave", "name": "Tochtli"}),
    ("**Attack** Xolotl, challenge, for land Riverbank", {"kind": "land", "name": "Riverbank"}),
    ("**Attack** Xolotl, challenge, for Texcoco", {"kind": None, "name": "Texcoco"}),
])
def test_challenge_and_overthrow_name_their_item(text: str, item: dict[str, Any]) -> None:
    """LJ-OQ-40: the item follows "for" (or "over"); a kind word says what it is, else check finds it."""
    assert args(text)["item"] == item


def test_steal_and_escape_from() -> None:
    assert args("**Attack** steal from Xolotl")["type"] == "steal"
    assert args("**Escape** from Itzel") == {"target": "Itzel", "type": "escape", "desperate": False,
                                            "joint": [], "principal": None, "item": None}


def test_attack_without_type_or_target_is_explained() -> None:
    (message,) = errors("**Attack** Xolotl")
    assert message.startswith("the type of attack (duel, assassinate")
    assert "e.g. **Attack** Xolotl, duel, desperate" in message
    assert errors("**Attack** duel")[0].startswith("whom you attack is missing")
    assert "only a challenge or an overthrow" in errors("**Attack** Xolotl, duel, for Texcoco")[0]


# ---- giving ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("**Give** 5 gold to Itzel", {"what": "gold", "amount": 5, "object": None, "to": "Itzel"}),
    ("**Give** Itzel 5 gold", {"what": "gold", "amount": 5, "object": None, "to": "Itzel"}),
    ("**Give** to Itzel: 12 food.", {"what": "food", "amount": 12, "object": None, "to": "Itzel"}),
    ("**Give** 3 Fame to Itzel the Brave", {"what": "fame", "amount": 3, "object": None, "to": "Itzel the Brave"}),
    ("**Give** captaincy of Jaguar Warriors to Coyotl",
     {"what": "captaincy", "amount": None, "object": "Jaguar Warriors", "to": "Coyotl"}),
    ("**Give** Coyotl the captaincy of Jaguar Warriors",
     {"what": "captaincy", "amount": None, "object": "Jaguar Warriors", "to": "Coyotl"}),
    ("**Give** my slave Tochtli to Coyotl", {"what": "slave", "amount": None, "object": "Tochtli", "to": "Coyotl"}),
    ("**Give** ownership of Tochtli to Coyotl",
     {"what": "slave", "amount": None, "object": "Tochtli", "to": "Coyotl"}),
    ("**Give** land Riverbank to Coyotl", {"what": "land", "amount": None, "object": "Riverbank", "to": "Coyotl"}),
    ("**Give** rulership of Texcoco to Coyotl",
     {"what": "rulership", "amount": None, "object": "Texcoco", "to": "Coyotl"}),
])
def test_give(text: str, expected: dict[str, Any]) -> None:
    assert args(text) == expected


def test_give_needs_what_and_to_whom() -> None:
    assert errors("**Give** Tochtli to Coyotl")[0].startswith("what you give (gold, food, fame, slave")
    assert errors("**Give** 5 gold")[0].startswith("whom you give to is missing")
    assert errors("**Give** gold to Itzel")[0].startswith("say how much gold")


# ---- the other keywords ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "kind", "expected"), [
    ("**Research** Bronze Working", "research", {"technology": "Bronze Working"}),
    ("**Research** The Wheel.", "research", {"technology": "The Wheel"}),
    ("**Purchase** 3 food", "purchase", {"resource": "food", "amount": 3}),
    ("**Buy** 4 science beakers", "purchase", {"resource": "beakers", "amount": 4}),
    ("**Purchase** production hammers: 2", "purchase", {"resource": "hammers", "amount": 2}),
    ("**Train** XP", "train", {"attribute": "xp"}),
    ("**Train** Craftsmanship +1", "train", {"attribute": "craft"}),
    ("**Train** my combat experience", "train", {"attribute": "xp"}),
    ("**Offering** 5 XP to Huitzilopochtli", "offering", {"god": "Huitzilopochtli", "amount": 5}),
    ("**Offer** Tlaloc 10 food", "offering", {"god": "Tlaloc", "amount": 10}),
    ("**Sacrifice** Tochtli to Tlaloc", "sacrifice", {"victim": "Tochtli", "god": "Tlaloc"}),
    ("**Sacrifice** to Quetzalcoatl: Tochtli", "sacrifice", {"victim": "Tochtli", "god": "Quetzalcoatl"}),
    ("**Move** to hex Riverbank", "move", {"hex": "Riverbank"}),
    ("**Move** Hill 2", "move", {"hex": "Hill 2"}),
    ("**Travel** to Texcoco hex Lakeshore", "travel", {"city": "Texcoco", "hex": "Lakeshore"}),
    ("**Travel** Texcoco, Lakeshore", "travel", {"city": "Texcoco", "hex": "Lakeshore"}),
    ("**Travel** to Texcoco", "travel", {"city": "Texcoco", "hex": None}),
    ("**Enlist** in the Jaguar Warriors", "enlist", {"unit": "Jaguar Warriors"}),
    ("**Desert**", "desert", {"city": None, "hex": None}),
    ("**Retire** to Texcoco", "retire", {"city": "Texcoco", "hex": None}),
    ("**Disband**", "disband", {"unit": None}),
    ("**Disband** the Settler unit", "disband", {"unit": "Settler"}),
    ("**Toil**", "toil", {}),
    ("**Evict** Tochtli to hex Marsh", "evict", {"tenant": "Tochtli", "hex": "Marsh"}),
    ("**Procreate** a child named Tizoc", "procreate", {"name": "Tizoc"}),
    ("**Procreate**", "procreate", {"name": None}),
    ("**Recruit** Ome", "recruit", {"name": "Ome"}),
    ("**Defend**", "defend", {}),
    ("**Propose** to Venice: open borders", "propose", {"text": "open borders", "nation": "Venice"}),
    ("**Spend** 50 gold on a Granary in Texcoco", "spend", {"amount": 50, "on": "a Granary in Texcoco"}),
    ("**Produce** a Granary", "produce", {"item": "Granary"}),
    ("**Join Houses** with Xolotl", "join houses", {"with": "Xolotl"}),
    ("**Split House**: Itzel and Coyotl leave", "split houses", {"leaving": ["Itzel", "Coyotl"]}),
    ("**Annex**", "annex", {}),
    ("**Support** Tradition with 5 Fame", "support policy", {"policy": "Tradition", "fame": 5}),
    ("**Support Policy** 7 fame for Liberty", "support policy", {"policy": "Liberty", "fame": 7}),
    # How people also write them: filler words, amounts in words, a price, possessives, remarks in brackets.
    ("**Attack** try to escape from Xolotl", "attack", {"target": "Xolotl", "type": "escape", "desperate": False,
                                                       "joint": [], "principal": None, "item": None}),
    ("**Give** Itzel five gold", "give", {"what": "gold", "amount": 5, "object": None, "to": "Itzel"}),
    ("**Purchase** 3 food for 9 gold", "purchase", {"resource": "food", "amount": 3}),
    ("**Purchase** food x2", "purchase", {"resource": "food", "amount": 2}),
    ("**Train** Wisdom for 4 gold", "train", {"attribute": "wisdom"}),
    ("**Sacrifice** my slave Tochtli to Tlaloc", "sacrifice", {"victim": "Tochtli", "god": "Tlaloc"}),
    ("**Research** Bronze Working (I have 3 beakers)", "research", {"technology": "Bronze Working"}),
    ("**Produce** a Granary, please", "produce", {"item": "Granary"}),
    ("**Support** policy Tradition with 5 fame", "support policy", {"policy": "Tradition", "fame": 5}),
    ("**Join Houses** with Xolotl's house", "join houses", {"with": "Xolotl"}),
])
def test_each_keyword(text: str, kind: str, expected: dict[str, Any]) -> None:
    assert one(text).kind == kind
    assert args(text) == expected


@pytest.mark.parametrize("spelling", ["Hutzilopochtli", "Huitzilopochtli", "Hutizilopochtli", "Hutzilopochltli"])
def test_every_spelling_of_the_god_of_war(spelling: str) -> None:
    """AZTEC GODS spells him four ways; all are model.GODS' Huitzilopochtli (LJ-OQ-44)."""
    assert args(f"**Offering** 5 XP to {spelling}")["god"] == "Huitzilopochtli"


def test_offering_of_the_wrong_attribute_is_refused() -> None:
    # AZTEC GODS: Huitzilopochtli takes XP, Tlaloc food.
    assert errors("**Offering** 5 food to Huitzilopochtli")[0].startswith("Huitzilopochtli takes XP, not food")


def test_propose_rule_reads_its_offering_of_25() -> None:
    a = args("**Propose Rule** slaves may toil twice. Offering: 20 XP from Itzel, 5 Fame from Coyotl")
    assert a == {"text": "slaves may toil twice",
                 "offering": [{"character": "Itzel", "attribute": "xp", "amount": 20},
                              {"character": "Coyotl", "attribute": "fame", "amount": 5}]}
    # PROPOSING CHANGES TO THE RULES: "an offering of 25 points"; 20 + 4 = 24 is not enough.
    assert errors("**Propose Rule** more gods. Offering: 20 XP, 4 Fame")[0].startswith("the offering is 24 points")


def test_examples_each_parse_to_their_keyword() -> None:
    """Every line HELP shows can be copied as it is."""
    for keyword, example in EXAMPLES.items():
        assert one(example).kind == keyword, example
    assert {k.example for k in ORDER_KINDS} == set(EXAMPLES.values())


def test_the_docs_table_lists_every_example() -> None:
    """docs/law-of-the-jungle.md's table of keywords shows each example a player can copy."""
    docs = (Path(__file__).resolve().parents[1] / "docs" / "law-of-the-jungle.md").read_text(encoding="utf-8")
    for example in EXAMPLES.values():
        assert f"`{example}`" in docs.replace("\\|", "|"), example


def test_find_item_of_a_challenge() -> None:
    """LJ-OQ-40: the kind written, else a city, a unit, a character, a hex in that order."""
    w = small_world()
    assert find_item(w, {"kind": None, "name": "texcoco"}) == ("city", "Texcoco")
    assert find_item(w, {"kind": None, "name": "the Jaguar Warriors"}) == ("unit", "Jaguar Warriors")
    assert find_item(w, {"kind": None, "name": "Tochtli"}) == ("slave", "Tochtli")
    assert find_item(w, {"kind": None, "name": "Marsh"}) == ("land", "Marsh")
    assert find_item(w, {"kind": "land", "name": "Texcoco"}) == ("land", "Texcoco")  # the city's own hex
    assert find_item(w, {"kind": "unit", "name": "Texcoco"}) is None


def test_args_have_the_keys_of_the_contract() -> None:
    """Each Order has the args actions.ARGS lists, plus who acts, both and part."""
    for keyword, example in EXAMPLES.items():
        if keyword == "join":
            continue
        got = set(one(example).args)
        assert set(ARGS[keyword]) <= got, keyword
        assert {"character", "both", "part"} <= got
    assert set(EXAMPLES) == {*KEYWORDS, "join"}


# ---- both actions -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "**Travel** to Texcoco (both actions)", "**Travel** to Texcoco with both actions",
    "**Travel** to Texcoco, using both my actions", "**Travel** to Texcoco (2 actions)"])
def test_both_actions(text: str) -> None:
    o = one(text)
    assert o.args["both"] is True and o.args["city"] == "Texcoco"
    assert o.summary.endswith("(both actions)")


def test_defend_twice_and_a_single_action() -> None:
    assert one("**Defend** twice").args["both"] is True
    assert one("**Defend**").args["both"] is False


# ---- who acts ---------------------------------------------------------------------------------------------------
def test_character_blocks() -> None:
    text = ("Itzel:\n**Attack** Xolotl, duel\n\nFor Coyotl:\n**Toil**\n"
            "Tochtli (slave of Xolotl):\n**Research** The Wheel\n**Give** 1 gold to Ome\n"
            "Ome: **Train** Fame")
    got = [(o.kind, o.args["character"]) for o in parse(text).orders]
    assert got == [("attack", "Itzel"), ("toil", "Coyotl"), ("research", "Tochtli"), ("give", "Tochtli"),
                   ("train", "Ome")]
    assert one("**Toil**").args["character"] is None


def test_headings_with_words_around_the_name() -> None:
    orders = parse("Actions for Itzel:\n**Toil**\nCoyotl's orders:\n**Toil**\n**Itzel**:\n**Defend**").orders
    assert [o.args["character"] for o in orders] == ["Itzel", "Coyotl", "Itzel"]


def test_check_slaves_the_dead_and_a_character_joining() -> None:
    w = small_world()
    w.characters["Ome"].alive = False
    parsed = parse("Ome:\n**Toil**\nTochtli:\n**Toil**")
    assert [d.message for d in check(w, 1, "carl", parsed.orders)] == [
        "Ome is dead", "Tochtli is not of your house (nor your slave)"]
    # A mail that signs up and acts: the actions are his new character's, checked once he is in the game.
    assert check(w, 1, "dora", parse("JOIN Tizoc in Texcoco\n**Purchase** 3 food").orders) == []


def test_a_name_and_colon_inside_an_order_is_text_not_a_character() -> None:
    """"If attacked:" is followed by orders, not by an action: it stays in the Captain's text."""
    o = one("**Order** Jaguar Warriors: hold the hill\nIf attacked:\nretreat to Tenochtitlan")
    assert o.args["text"] == "hold the hill\nIf attacked:\nretreat to Tenochtitlan"
    assert o.args["character"] is None


def test_morning_and_afternoon_labels() -> None:
    orders = parse("Morning:\n**Attack** Xolotl, duel\nAfternoon:\n**Toil**").orders
    assert [o.args["part"] for o in orders] == ["morning", "afternoon"]
    assert orders[1].summary == "Afternoon: your character toils"


# ---- what is not understood -------------------------------------------------------------------------------------
def test_diagnostics_name_the_line_and_what_was_expected() -> None:
    parsed = parse("Hello GM\n**Give** gold\n**Fortify** now\nattack Xolotl\n**Toil**")
    by_line = {d.line: d for d in parsed.diagnostics}
    assert by_line[1].message.startswith("not an action")
    assert by_line[2].message == ("say how much gold: e.g. 5 gold: write **Give** N gold|food|fame to CHARACTER, "
                                  "or **Give** slave|captaincy|land|rulership of X to CHARACTER, e.g. **Give** 5 "
                                  "gold to Itzel")
    assert by_line[3].message.startswith("'Fortify' is in bold but is no action")
    assert by_line[4].warning and "'attack' is not in bold" in by_line[4].message
    assert [o.kind for o in parsed.orders] == ["toil"]


def test_a_second_line_under_a_one_line_action_is_pointed_out() -> None:
    parsed = parse("**Give** 5 gold to Itzel\nand 3 food too")
    assert parsed.orders[0].args["amount"] == 5
    assert parsed.diagnostics[0].line == 2 and parsed.diagnostics[0].message.startswith("not read")


def test_an_action_whose_object_is_on_the_next_line() -> None:
    parsed = parse("**Attack**\n\nXolotl, duel\nhe had it coming\n**Toil**")
    assert parsed.orders[0].args["target"] == "Xolotl"
    assert [(d.line, d.text) for d in parsed.diagnostics] == [(4, "he had it coming")]


def test_order_text_ends_before_the_signature() -> None:
    o = one("**Order** Jaguar Warriors: fortify\n\nThanks!\nAnna")
    assert o.args["text"] == "fortify" and o.args["words"] is None  # counted against the state: orders.refine


# ---- sign-up -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("line", "expected"), [
    ("JOIN Itzel in Tenochtitlan hex Riverbank", {"name": "Itzel", "city": "Tenochtitlan", "hex": "Riverbank"}),
    ("join Itzel at Texcoco", {"name": "Itzel", "city": "Texcoco", "hex": None}),
    ("**Join** Itzel the Brave, Tenochtitlan, Marsh", {"name": "Itzel the Brave", "city": "Tenochtitlan",
                                                      "hex": "Marsh"}),
    ("**JOIN Itzel**", {"name": "Itzel", "city": None, "hex": None}),
])
def test_join(line: str, expected: dict[str, Any]) -> None:
    o = one(line)
    assert (o.kind, o.args) == ("join", expected)


def test_a_lower_case_join_inside_an_order_is_orders_not_a_sign_up() -> None:
    parsed = parse("**Order** Jaguar Warriors:\njoin the Eagle Warriors at the river\nJOIN Tizoc in Texcoco")
    assert [o.kind for o in parsed.orders] == ["order", "join"]
    assert parsed.orders[0].args["text"] == "join the Eagle Warriors at the river"


def test_join_then_pregame_actions_are_his() -> None:
    parsed = parse("JOIN Itzel in Tenochtitlan\n**Purchase** 3 food\n**Train** Fame")
    assert [o.kind for o in parsed.orders] == ["join", "purchase", "train"]
    assert "join houses" == one("**Join Houses** with Xolotl").kind


# ---- checks against the state -------------------------------------------------------------------------------------
def checked(house: str, text: str) -> list[tuple[bool, str]]:
    parsed = parse(text)
    assert [d for d in parsed.diagnostics if not d.warning] == [], parsed.diagnostics
    return [(d.warning, d.message) for d in check(small_world(), 1, house, parsed.orders)]


def test_check_who_acts() -> None:
    assert checked("carl", "**Toil**") == []  # Ome is carl's only character
    assert checked("anna", "**Toil**") == [(False, "your house has 2 characters (Coyotl, Itzel): say who acts "
                                                   "with a line such as 'Coyotl:' before his actions")]
    assert checked("anna", "Itzl:\n**Toil**") == [(False, "there is no character 'Itzl' in your house "
                                                          "(did you mean Itzel?)")]
    assert checked("anna", "Xolotl:\n**Toil**") == [(False, "Xolotl is not of your house (nor your slave)")]
    # Tochtli is of bob's house and Itzel's slave: both bob and Itzel's house (anna) may send his action.
    assert checked("anna", "Tochtli:\n**Toil**") == []
    assert checked("bob", "Tochtli:\n**Toil**") == []


def test_check_names_with_the_nearest_spelling() -> None:
    assert checked("carl", "**Research** Bronze Workin") == [
        (False, "there is no technology to research now 'Bronze Workin' (did you mean Bronze Working?)")]
    assert checked("carl", "**Research** Pottery") == [(False, "Pottery is already discovered")]
    assert checked("carl", "**Research** the wheel") == []
    assert checked("carl", "**Enlist** in Jaguar Warrior") == [
        (False, "there is no unit 'Jaguar Warrior' (did you mean Jaguar Warriors?)")]
    assert checked("carl", "**Travel** to Texcocco") == [
        (False, "there is no city 'Texcocco' (did you mean Texcoco?)")]
    assert checked("carl", "**Travel** to Texcoco hex Lakeside") == [
        (False, "there is no workable hex 'Lakeside' in Texcoco (did you mean Lakeshore?)")]
    assert checked("carl", "**Attack** Xolotle, duel") == [
        (False, "there is no character 'Xolotle' in the game (did you mean Xolotl?)")]
    assert checked("carl", "**Support** Tradition with 2 Fame") == []
    assert checked("carl", "**Produce** Granery") == [
        (False, "there is no building or unit to produce in Tenochtitlan 'Granery' (did you mean Granary?)")]


def test_check_attack_principal_and_item() -> None:
    assert checked("carl", "**Attack** Xolotl, capture, joint with Itzel, Xolotl principal") == [
        (False, "the principal attacker Xolotl is not one of the attackers (Ome, Itzel)")]
    assert checked("carl", "**Attack** Xolotl, challenge, for Texcoco") == []
    assert checked("carl", "**Attack** Xolotl, challenge, for Texcoc") == [
        (False, "'Texcoc' is no city, hex, unit or character (did you mean Texcoco?)")]


def test_check_only_a_captain_orders() -> None:
    assert checked("carl", "**Order** Jaguar Warriors: hold") == [
        (True, "Ome is not the Captain of Jaguar Warriors: only the Captain orders, disbands or retires from a unit"
               "; the order is kept, and is void unless he is the Captain when it resolves")]
    unless = "; the order is kept, and is void unless he is the Captain when it resolves"
    assert checked("carl", "**Order** hold the hill") == [(True, "Ome is not the Captain of any unit" + unless)]
    assert checked("carl", "**Retire**") == [(True, "Ome is not the Captain of any unit" + unless)]


def test_check_a_join_name_that_is_taken() -> None:
    assert checked("dora", "JOIN Xolotl in Texcoco") == [(False, "the name Xolotl is taken: choose another")]
    assert checked("dora", "JOIN Tizoc in Texcoco hex Lakeshore\n**Purchase** 2 food") == []
    assert checked("dora", "JOIN Tizoc in Jaguar Warriors") == []  # the pre-game enlisting in a unit


def test_check_warns_of_two_actions_for_one_character() -> None:
    assert checked("carl", "**Toil**\n**Train** XP") == [
        (True, "Ome already has an action in this mail (line 1); a character has one action in each part of "
               "the session: this later one replaces it")]


# ---- Captains' word limits -----------------------------------------------------------------------------------------
def test_word_limit() -> None:
    """5 x level; 15 without a level; doubled with both actions (LJ-OQ-51: the fixed 15 doubles too; a level
    below 1 is read as 1)."""
    assert word_limit(Unit("u", level=3), both=False) == 15
    assert word_limit(Unit("u", level=3), both=True) == 30
    assert word_limit(Unit("u", level=1), both=False) == 5
    assert word_limit(Unit("u", level=None), both=False) == 15
    assert word_limit(Unit("u", level=None), both=True) == 30
    assert word_limit(Unit("u", level=0), both=False) == 5


# 23 words, counted by hand: If(1) the(2) barbarians(3) come(4) near(5) Texcoco(6) attack(7) them(8) at(9)
# once,(10) otherwise(11) fortify(12) on(13) the(14) north-east(15: one hyphenated word) hill(16) and(17)
# wait(18) for(19) 2(20: a number) more(21) Jaguar(22) scouts(23).
OVER = ("If the barbarians come near Texcoco attack them at once, otherwise fortify on the north-east hill and "
        "wait for 2 more Jaguar scouts.")


def test_captain_over_the_limit_is_told_at_once_and_the_order_stands() -> None:
    assert checked("anna", f"Itzel:\n**Order** Jaguar Warriors: {OVER}") == [
        (True, "orders for Jaguar Warriors have 23 words; the limit is 15 (level 3): over the limit the unit "
               "fortifies")]


def test_captain_within_the_limit_with_both_actions() -> None:
    # The same 23 words against 2 x 15 = 30.
    assert checked("anna", f"Itzel:\n**Order** Jaguar Warriors (both actions): {OVER}") == []
    assert checked("anna", f"Itzel:\n**Order** (both actions) {OVER}") == []


def test_the_unit_name_is_not_counted_and_known_names_count_once() -> None:
    """"guard the Great Wall, then Tenochtitlan": guard(1) the(2) Great Wall(3: a building of the game)
    then(4) Tenochtitlan(5); the unit's name before the colon and the keyword count nothing."""
    w = small_world()
    o = one("**Order** Jaguar Warriors: guard the Great Wall, then Tenochtitlan")
    got = captain_orders(w, "Itzel", o.args)
    assert got.unit is w.units["Jaguar Warriors"] and got.count is not None
    assert [x.text for x in got.count.words] == ["guard", "the", "Great Wall", "then", "Tenochtitlan"]
    assert got.count.limit == 15 and got.within


def test_unlevelled_unit_limit_15() -> None:
    """The Settler has no level: 15 words. 16 words: go(1) to(2) the(3) ... counted by the list below."""
    sixteen = " ".join(f"w{i}" for i in range(16))
    assert checked("anna", f"Coyotl:\n**Order** {sixteen}") == [
        (True, "orders for Settler have 16 words; the limit is 15 (no level): over the limit the unit fortifies")]
    assert checked("anna", f"Coyotl:\n**Order** {' '.join(sixteen.split()[:15])}") == []


def test_words_before_a_colon_that_name_no_unit_are_orders() -> None:
    """"If attacked: retreat" names no unit; Itzel captains one, so all three words are his orders."""
    w = small_world()
    got = captain_orders(w, "Itzel", one("**Order** If attacked: retreat").args)
    assert got.unit is w.units["Jaguar Warriors"] and got.count is not None and got.count.count == 3


# ---- speed ----------------------------------------------------------------------------------------------------------
def test_a_mail_of_100_kb_parses_in_well_under_a_second() -> None:
    block = ("Itzel:\n**Attack** Xolotl (joint with Itzel and Coyotl, Itzel principal) - capture\n"
             "**Give** 5 gold to Itzel\n**Order** Jaguar Warriors: fortify on the hill, attack barbarians near "
             "Texcoco, then wait\n**Research** Bronze Working\n")
    text = block * (100_000 // len(block) + 1)
    assert len(text) > 100_000
    parse("**Toil**")  # the grammar is built once per process
    started = time.process_time()  # CPU time: the machine is shared, wall time is not this code's
    parsed = parse(text)
    elapsed = time.process_time() - started
    assert len(parsed.orders) == 4 * (100_000 // len(block) + 1)
    assert elapsed < 0.8, elapsed


def test_many_name_lines_in_a_row_read_in_linear_time() -> None:
    """A name-and-colon line counts as a heading when the lines after it lead to an action; 10,000 of them in a
    row are read in one pass (the last one names the actor)."""
    text = "".join(f"Name{i}:\n" for i in range(10_000)) + "**Toil**"
    started = time.process_time()
    parsed = parse(text)
    assert time.process_time() - started < 1.0
    assert [(o.kind, o.args["character"]) for o in parsed.orders] == [("toil", "Name9999")]
