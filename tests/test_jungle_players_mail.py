"""The Law of the Jungle as players read and write it by mail (issue 23): name headings, what the ack says
of orders that stand together or will fail, a Captain's word count, and the world each printout gives.

Each test mails a game through maild.testing's Table and reads the answer as the player gets it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from maild.testing import Table
from tests.mailcheck import long_prose_lines, repeated_lines, section

HEXES = [{"name": h, "food": 2, "hammers": 1, "beakers": 1, "gold": 1}
         | ({"citizen": "Coyotl"} if h == "Cornfield" else {})
         for h in ("Tenochtitlan", "Lakeshore", "Cornfield", "Quarry", "Marsh")]

# A game under way (no sign-up period): anna's house has one character, carl's two; Xolotl (bob) rules
# Tenochtitlan, Coyotl (carl) is a citizen on Cornfield with Tochtli (dora) his tenant; Ome owns Itzel. Every
# house has food for the three sessions of the acceptance test (nobody starves).
UNDER_WAY: dict[str, Any] = {
    "title": "Aztlan, by mail",
    "signup_sessions": 0,
    "festival": "Tlaloc",
    "empire": {"treasury": 90, "expenses": 0, "beakers_per_citizen": 1, "hammers_per_citizen": 1,
               "technologies": {"Bronze Working": 1, "Writing": 1, "Masonry": 1}, "known": ["Pottery"],
               "policies": {"Tradition": 1, "Liberty": 1}},
    "cities": [
        {"name": "Tenochtitlan", "centre": "Tenochtitlan", "tlatoani": "Xolotl", "citizens": 2, "strength": 3,
         "income": 10, "food": 2, "position": [10, 10], "builds": {"Monument": 40, "Warrior": 25},
         "hexes": HEXES},
        {"name": "Texcoco", "centre": "Texcoco", "citizens": 1, "strength": 2, "position": [30, 30],
         "puppet": True, "hexes": [{"name": "Texcoco", "food": 1}, {"name": "Forest", "hammers": 2}]},
    ],
    "units": [{"name": "Jaguar Warriors", "kind": "Warrior", "level": 3, "health": 10, "melee": 4,
               "city": "Tenochtitlan", "position": [10, 10], "captain": "Yaotl"}],
    "houses": [
        {"name": "anna", "email": "anna@example.org", "gold": 20, "food": 10, "characters": [
            {"name": "Itzel", "city": "Tenochtitlan", "hex": "Lakeshore", "fame": 1,
             "titles": [{"kind": "Slave", "subject": "Ome"}]}]},
        {"name": "bob", "email": "bob@example.org", "gold": 5, "food": 10, "characters": [
            {"name": "Xolotl", "role": "tlatoani", "city": "Tenochtitlan", "hex": "Tenochtitlan", "fame": 3}]},
        {"name": "carl", "email": "carl@example.org", "food": 10, "characters": [
            {"name": "Coyotl", "role": "citizen", "city": "Tenochtitlan", "hex": "Cornfield", "fame": 2},
            {"name": "Ome", "city": "Tenochtitlan", "hex": "Quarry", "xp": 3,
             "titles": [{"kind": "Owner", "subject": "Itzel"}]}]},
        {"name": "dora", "email": "dora@example.org", "food": 10, "characters": [
            {"name": "Tochtli", "city": "Tenochtitlan", "hex": "Cornfield",
             "titles": [{"kind": "Tenant", "subject": "Coyotl"}]}]},
        {"name": "emil", "email": "emil@example.org", "food": 10, "characters": [
            {"name": "Yaotl", "role": "soldier", "unit": "Jaguar Warriors", "xp": 4,
             "titles": [{"kind": "Captain", "subject": "Jaguar Warriors"}]}]},
    ],
}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Table(tmp_path) as t:
        t.create_game("aztlan", "jungle", UNDER_WAY)
        t.intake()
        yield t


def ack_of(table: Table, who: str, body: str) -> str:
    table.send(f"{who}@example.org", body)
    table.intake()
    return table.ack(f"{who}@example.org")


# ---- 1. a line ending in a colon is a heading only when it names a character ------------------------------------
def test_a_line_ending_in_a_colon_that_names_no_character_is_text(table: Table) -> None:
    ack = ack_of(table, "anna", "Changed my mind:\n\n**Purchase** 3 food")
    assert "Changed my mind" not in ack.split("Understood")[1], ack
    assert "Not understood" not in ack, ack
    assert "Itzel purchases 3 food for 9 gold" in ack, ack


def test_in_a_house_of_two_the_earlier_heading_still_names_who_acts(table: Table) -> None:
    ack = ack_of(table, "carl", "Ome:\n**Toil**\n\nChanged my mind:\n**Purchase** 2 food\n\n"
                                "Coyotl:\n**Defend**")
    assert "Not understood" not in ack, ack
    assert "Ome purchases 2 food for 6 gold" in ack, ack
    assert "Coyotl defends" in ack, ack


def test_a_misspelled_heading_in_a_house_of_two_is_refused_with_the_nearest_name(table: Table) -> None:
    ack = ack_of(table, "carl", "Coyotll:\n**Toil**")
    assert "'Coyotll:' names none of your characters (did you mean Coyotl?)" in ack, ack


# ---- 2. the ack says what will happen: pre-game purchases all stand -------------------------------------------
SIGN_UP: dict[str, Any] = {**{k: v for k, v in UNDER_WAY.items() if k not in ("houses", "festival")},
                           "signup_sessions": 1, "starting_gold": 30}


@pytest.fixture
def signup(tmp_path: Path) -> Iterator[Table]:
    with Table(tmp_path) as t:
        t.create_game("aztlan", "jungle", SIGN_UP)
        t.intake()
        yield t


def test_pregame_purchases_in_one_mail_are_each_carried_out_and_the_ack_says_so(signup: Table) -> None:
    ack = ack_of(signup, "nina", "JOIN Nochtli in Tenochtitlan\n**Purchase** 3 food\n**Purchase** 2 beakers\n"
                                 "**Train** Fame")
    assert "replaces" not in ack.split("Deadline")[0], ack
    for line in ("Nochtli purchases 3 food for 9 gold", "Nochtli purchases 2 beakers for 6 gold",
                 "Nochtli trains Fame (+1)"):
        assert line in ack, ack
    signup.run_turn("aztlan")
    morning = signup.printout("aztlan", 1, "Nochtli", "morning")
    # 30 gold - 9 - 6 - 1 (Fame 0 -> 1) = 14: every purchase was carried out.
    assert "gold 14" in morning, morning
    ack = ack_of(signup, "nina", "**Purchase** 1 hammers\n**Purchase** 1 food\n**Attack** Itzel, duel")
    assert "replaces" not in ack.split("Deadline")[0], ack
    assert "the game has not begun" in ack and "will not be carried out" in ack, ack
    signup.run_turn("aztlan")
    afternoon = signup.printout("aztlan", 1, "Nochtli", "afternoon")
    assert "gold 8" in afternoon, afternoon


# ---- 5. a Captain's word count: the same in the ack and when the order runs, the text whole -------------------
ORDERS = "march to Tenochtitlan, guard the Bronze Working scholars near Lakeshore until the festival of Tlaloc"


def test_the_ack_counts_a_captains_words_as_the_order_runs_and_shows_them_whole(table: Table) -> None:
    # 15 words as written; "Bronze Working", a technology of the game, is one word to the unit: 14, within
    # the 15 of level 3 (CONTROLLING UNITS: 5 * the unit's current level).
    ack = ack_of(table, "emil", f"**Order** Jaguar Warriors: {ORDERS}")
    understood = section(ack, "Understood")
    # The ack wraps within 78 columns: the order is whole once the lines are joined again.
    assert "Yaotl orders Jaguar Warriors (14 words; the limit is 15, level 3)" in flat(understood), ack
    assert ORDERS in flat(understood), ack
    table.run_turn("aztlan")
    morning = table.printout("aztlan", 1, "emil", "morning")
    said = " ".join(morning.split())
    assert f"Yaotl orders Jaguar Warriors (14 words; the limit is 15, level 3): {ORDERS}" in said, morning
    assert "Unit Jaguar Warriors has these new orders from Yaotl (14 of 15 words)." in said, morning


# ---- 3. the ack warns of an action the state already says will fail ------------------------------------------
def notes(ack: str) -> str:
    return " ".join(section(ack, "Please note").split())


def test_the_ack_warns_of_afternoon_actions_that_will_not_be_carried_out(table: Table) -> None:
    # In the Morning's mail: an Order on both actions and an Afternoon action for the same Captain.
    ack = ack_of(table, "emil", "**Order** Jaguar Warriors: hold the hill (both actions)\nAfternoon:\n**Defend**")
    assert "Yaotl spends both actions of this session on" in notes(ack), ack
    assert "this Afternoon action will not be carried out" in notes(ack), ack
    table.send("bob@example.org", "**Toil**")
    table.intake()
    table.run_turn("aztlan")  # the Morning
    # The Afternoon's mails.
    ack = ack_of(table, "dora", "**Attack** Coyotl, duel")
    assert "Tochtli is a tenant of Coyotl: a tenant's second action is always to toil" in notes(ack), ack
    ack = ack_of(table, "carl", "Itzel:\n**Toil**\nOme:\n**Defend**")
    assert "Itzel is your slave: his owner may demand his action only for the Morning" in notes(ack), ack
    assert "Ome" not in notes(ack), ack
    ack = ack_of(table, "emil", "**Defend**")
    assert "Yaotl spends both actions of this session on" in notes(ack), ack
    ack = ack_of(table, "bob", "**Toil**")
    assert "Please note" not in ack, ack
    table.run_turn("aztlan")  # the Afternoon: what the acks warned of is not carried out
    for house, who in (("dora", "Tochtli"), ("carl", "Itzel"), ("emil", "Yaotl")):
        afternoon = " ".join(table.printout("aztlan", 1, house, "afternoon").split())
        assert "not carried out" in afternoon and who in afternoon, afternoon


# ---- 4. the printouts give the world and the lists actions choose from ----------------------------------------
def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_research_not_in_the_game_is_refused_with_the_list(table: Table) -> None:
    ack = flat(ack_of(table, "anna", "**Research** Mathematics"))
    assert "there is no technology to research now 'Mathematics': one of Bronze Working, Masonry, Writing" in ack


def test_the_newsletter_and_printouts_give_the_world_and_the_choices(table: Table) -> None:
    table.send("emil@example.org", "**Order** Jaguar Warriors: hold the hill")
    table.intake()
    table.run_turn("aztlan")
    news = table.newsletter("aztlan", 1, "morning")
    chart = flat(section(news, "The chart"))
    # The character chart (CHARACTER TITLES: "reading the character chart"): attributes and where each is.
    assert "Itzel (house of anna), peasant, XP 1, Fame 1, Wisdom 1, Craftsmanship 1; on Lakeshore in " \
           "Tenochtitlan; titles: Slave of Ome" in chart, news
    assert "Yaotl (house of emil), soldier, XP 4" in chart and "in unit Jaguar Warriors" in chart, news
    empire = flat(section(news, "The empire"))
    assert "Research (era): Bronze Working (1), Masonry (1), Writing (1)" in empire, news
    assert "Support Policy (era): Liberty (1), Tradition (1)" in empire, news
    assert "Discovered: Pottery" in empire, news
    world = flat(section(news, "Cities, hexes and units"))
    assert "Tenochtitlan: Tlatoani Xolotl, 2 citizens" in world and "Produce (cost): Monument (40), Warrior (25)" \
        in world, news
    assert "hex Cornfield (Tenochtitlan): food 2, hammers 1, beakers 1, gold 1; Coyotl's land" in world, news
    assert "Texcoco: a puppet city" in world and "hex Forest" in world, news
    assert "Unit Jaguar Warriors: Warrior, level 3, health 10 at Tenochtitlan, melee 4; Captain Yaotl; orders " \
           "up to 15 words" in world, news
    # Each house: whom its characters may attack or give to, and the choices of Research, Produce, policies.
    anna = flat(table.printout("aztlan", 1, "anna", "morning"))
    assert "With Itzel in Tenochtitlan (whom they may attack or give to): Coyotl, Ome, Tochtli, Xolotl, Yaotl" \
        in anna, anna
    assert "Research (era): Bronze Working (1), Masonry (1), Writing (1)" in anna, anna
    assert "Produce in Tenochtitlan (cost): Monument (40), Warrior (25)" in anna, anna
    # A Captain reads his unit's level and word limit before he orders, and his standing orders.
    emil = flat(table.printout("aztlan", 1, "emil", "morning"))
    assert "Captain of Jaguar Warriors: Warrior, level 3, health 10 at Tenochtitlan; his orders may have 15 " \
           "words (30 with both actions); standing orders: those given above" in emil, emil
    bob = flat(table.printout("aztlan", 1, "bob", "morning"))
    assert "Tlatoani of Tenochtitlan: may Spend up to 60 gold of the empire's this session" in bob, bob
    for text in (news, anna, emil, bob):
        assert not repeated_lines(text)
    for text in (news, table.printout("aztlan", 1, "anna", "morning")):
        assert not long_prose_lines(text), long_prose_lines(text)


def test_the_same_place_lists_agree_with_the_rules_locations() -> None:
    """chart.Places works per place; every pair must be what places.same_location (LOCATIONS) says."""
    from maild_rules.jungle.chart import Places
    from maild_rules.jungle.model import Character, City, Unit, World
    from maild_rules.jungle.places import same_location

    w = World()
    w.cities = {"A": City("A", position=(0, 0)), "B": City("B", position=(9, 9)), "C": City("C")}
    w.units = {"U1": Unit("U1", position=(0, 0)), "U2": Unit("U2", position=(2, 1)),
               "U3": Unit("U3", position=(9, 9)), "U4": Unit("U4", position=(5, 5)), "U5": Unit("U5", city="C")}
    homes: list[dict[str, Any]] = [{"city": "A"}, {"city": "A"}, {"city": "B"}, {"city": "C"}, {"unit": "U1"},
                                   {"unit": "U2"}, {"unit": "U3"}, {"unit": "U4"}, {"unit": "U5"}, {}]
    for i, home in enumerate(homes):
        w.characters[f"C{i}"] = Character(f"C{i}", "h", **home)
    places = Places(w)
    for a in w.characters.values():
        expected = sorted(b.name for b in w.characters.values() if b is not a and same_location(w, a, b))
        assert places.nearby(a) == expected, a.name


# ---- 6. acceptance: three council sessions by mail, every printout and newsletter as a player reads it ----------
HOUSES = ("anna", "bob", "carl", "dora", "emil")
SESSIONS: list[dict[str, dict[str, str]]] = [
    {"morning": {"anna": "**Toil**", "bob": "**Spend** 20 gold on a Monument in Tenochtitlan",
                 "carl": "Coyotl:\n**Research** Bronze Working\nOme:\n**Defend**",
                 "dora": "**Attack** Itzel, debate",
                 "emil": "**Order** Jaguar Warriors: guard Tenochtitlan and its hexes (both actions)"},
     "afternoon": {"anna": "**Purchase** 1 food", "bob": "**Support Policy** Tradition with 1 Fame",
                   "carl": "Coyotl:\n**Defend**\nOme:\n**Toil**", "dora": "**Toil**"}},
    {"morning": {"anna": "**Attack** Tochtli, debate", "bob": "**Toil**",
                 "carl": "Coyotl:\n**Produce** Monument\nOme:\n**Attack** nobody at all",
                 "dora": "**Offering** 1 food to Tlaloc", "emil": "**Defend**"},
     "afternoon": {"anna": "**Toil**", "carl": "Ome:\n**Toil**", "dora": "**Toil**",
                   "emil": "**Order** Jaguar Warriors: march to Texcoco and hold it"}},
    {"morning": {"anna": "**Research** Writing", "bob": "**Defend**", "carl": "Coyotl:\n**Toil**",
                 "dora": "**Attack** Ome, capture", "emil": "**Enlist** in Jaguar Warriors"},
     "afternoon": {"anna": "**Defend**", "bob": "**Toil**", "carl": "Ome:\n**Research** Masonry",
                   "dora": "**Toil**"}},
]


def play_three_sessions(table: Table) -> list[tuple[str, str]]:
    """Three council sessions by mail, the GM's update between them; every printout and newsletter read."""
    from maild.gmcli import record

    read: list[tuple[str, str]] = []
    for n, session in enumerate(SESSIONS, start=1):
        for phase in ("morning", "afternoon"):
            for house, body in session[phase].items():
                ack = ack_of(table, house, body)
                assert "Understood" in ack or "Not understood" in ack, ack
            table.run_turn("aztlan")
            read.append((f"newsletter {n} {phase}", table.newsletter("aztlan", n, phase)))
            read += [(f"printout {n} {phase} {h}", table.printout("aztlan", n, h, phase)) for h in HOUSES]
        update = Path(table.folder) / f"update{n}.toml"
        update.write_text(f'note = "after session {n}"\n[empire]\ntreasury = {100 + n}\n', encoding="utf-8")
        with table.app.db.session() as s:
            assert "recorded" in record(s, table.app, "aztlan", "update", ["aztlan", str(update)])
            s.commit()
    return read


def outside_not_carried(text: str) -> str:
    """The mail without the framework's "Orders not carried out" section (issue 23's i23-venice fixes it)."""
    return text.split("\nOrders not carried out\n")[0]


def test_three_council_sessions_by_mail_give_every_player_what_he_needs(table: Table) -> None:
    read = play_three_sessions(table)
    assert len(read) == 3 * 2 * (1 + len(HOUSES))
    for name, text in read:
        mine = outside_not_carried(text)
        assert not long_prose_lines(mine), (name, long_prose_lines(mine))
        assert not repeated_lines(mine), (name, repeated_lines(mine))
        said = flat(text)
        if name.startswith("newsletter"):
            for heading in ("The chart", "The empire", "Cities, hexes and units"):
                assert section(text, heading).strip(), (name, heading, text)
            assert "Research (era):" in said and "Support Policy (era):" in said and "Produce (cost):" in said
            assert "hex Lakeshore (Tenochtitlan):" in said and "Unit Jaguar Warriors:" in said, text
        else:
            assert "(whom they may attack or give to):" in said, (name, text)
            assert "Research (era):" in said and "Support Policy (era):" in said, (name, text)
            # PRODUCE X: "within their city": Yaotl (emil) serves in a unit and lives in no city.
            assert ("Produce in Tenochtitlan (cost):" in said) != name.endswith("emil"), (name, text)
    emil = dict(read)["printout 1 morning emil"]
    assert "his orders may have 15 words" in flat(emil), emil
    news = dict(read)["newsletter 3 afternoon"]
    assert "The next council session, session 4 (council of T3)" in flat(news), news


def test_three_council_sessions_by_mail_orders_not_carried_out_within_78_columns(table: Table) -> None:
    """The "Orders not carried out" section too: a line not understood and its hint printed one long line each
    before the framework wrapped it (maild/notcarried.py)."""
    for name, text in play_three_sessions(table):
        assert not long_prose_lines(text), (name, long_prose_lines(text))


def test_the_welcome_gives_the_choices_within_78_columns(table: Table) -> None:
    welcome = table.welcome("aztlan", "anna")
    assert "Research (era): Bronze Working (1), Masonry (1), Writing (1)" in flat(welcome), welcome
    assert "Produce in Tenochtitlan (cost): Monument (40), Warrior (25)" in flat(welcome), welcome
    assert not long_prose_lines(welcome) and not repeated_lines(welcome), welcome


def test_words_before_a_colon_that_name_no_unit_are_counted_in_the_ack(table: Table) -> None:
    """"If attacked" names no unit: Yaotl's only unit gets all three words (LJ-OQ-51), and the ack says so."""
    ack = ack_of(table, "emil", "**Order** If attacked: retreat")
    assert "Yaotl orders Jaguar Warriors (3 words; the limit is 15, level 3): If attacked: retreat" in flat(ack), ack
    ack = ack_of(table, "emil", "**Order** hold the hill (both actions)")
    assert "Yaotl orders Jaguar Warriors (3 words; the limit is 30, level 3, both actions): hold the hill " \
           "(both actions)" in flat(ack), ack


def test_a_long_captains_order_within_its_limit_is_shown_whole_in_the_ack(table: Table) -> None:
    # 28 words with "(both actions)": within the 30 of level 3 doubled, 300 characters of orders, longer than
    # the 200 an echoed line may take (limits.ack_line_chars): the ack shows the order he is held to, whole.
    words = " ".join(["carefully", "patrolling", "northern", "riverbanks"] * 7)
    ack = ack_of(table, "emil", f"**Order** {words} (both actions)")
    assert "(28 words; the limit is 30, level 3, both actions)" in flat(ack), ack
    assert words in flat(ack), ack
    assert "…" not in ack and "characters)" not in ack, ack
    assert not long_prose_lines(ack), ack
