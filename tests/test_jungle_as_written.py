"""The Law of the Jungle where issue 23 found the game departing from its rules as written, played by mail
(maild.testing's Table) and, for the GM's update, through `maild gm update` as the GM types it: joint
attacks that fail for a partner who names nobody, a unit's gains shared by its characters, escape's gain,
per-player starting gold, and an action sent when the house had one character.

The dice: every "Random Number" (`council.random_number`) is 1/2 here unless a test says otherwise, and the
city strength is 0, so an attack's result is (A + D) / D / 2.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from maild.cli import main
from maild.testing import Table
from maild_rules.jungle import council as council_module

GAME = "aztlan"


def character(name: str, **attrs: Any) -> dict[str, Any]:
    return {"name": name, "city": "Tenochtitlan", "hex": "T1", **attrs}


def house(name: str, *characters: dict[str, Any], **attrs: Any) -> dict[str, Any]:
    return {"name": name, "email": f"{name}@example.org", "characters": list(characters), **attrs}


def setup(*houses: dict[str, Any], **options: Any) -> dict[str, Any]:
    """A game under way (no sign-up period) in Tenochtitlan (city strength 0) with the Jaguar Warriors."""
    return {
        "title": "Aztlan, the rules as written", "signup_sessions": 0, "festival": "Tlaloc",
        "cities": [{"name": "Tenochtitlan", "centre": "T1", "citizens": 2, "strength": 0, "position": [5, 5],
                    "hexes": [{"name": h, "food": 2} for h in ("T1", "T2", "T3")]}],
        "units": [{"name": "Jaguar Warriors", "kind": "Warrior", "level": 2, "health": 10, "melee": 0,
                   "city": "Tenochtitlan", "position": [5, 5]},
                  {"name": "Great General", "kind": "Great General", "health": 10,
                   "military": False, "city": "Tenochtitlan", "position": [5, 5]}],
        "houses": list(houses), **options,
    }


@pytest.fixture
def half(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(council_module, "random_number", lambda rng: Fraction(1, 2))


@pytest.fixture
def table(tmp_path: Path, half: None) -> Iterator[Table]:
    with Table(tmp_path) as t:
        yield t


def start(table: Table, *houses: dict[str, Any], **options: Any) -> None:
    table.create_game(GAME, "jungle", setup(*houses, **options))
    table.intake()


def mail(table: Table, who: str, body: str) -> str:
    table.send(f"{who}@example.org", body)
    table.intake()
    return table.ack(f"{who}@example.org")


# -- JOINT ATTACKS ----------------------------------------------------------------------------------------------

def test_a_partner_who_names_nobody_voids_both_actions_and_each_printout_says_why(table: Table) -> None:
    """Xolotl (ana) attacks Yaretzi, duel, joint with Ixchel; Ixchel (cal) attacks Yaretzi, duel, naming
    nobody. "All characters participating in the joint attack must indicate it is a joint attack, and submit a
    matching action ... Otherwise the joint attack fails to happen (action voided)": both actions are void
    and Yaretzi keeps his XP 4. Before, Ixchel dueled alone: A = sqrt(25) = 5, D = sqrt(4) = 2, L = 0:
    (5 + 2) / 2 * 1/2 = 1.75 > 1.5, Yaretzi lost 1/2 * 4 * 1.5 = 3 XP (to 1)."""
    start(table, house("ana", character("Xolotl", xp=9)), house("ben", character("Yaretzi", xp=4)),
          house("cal", character("Ixchel", xp=25)))
    assert "Not understood" not in mail(table, "ana", "**Attack** Yaretzi, duel, joint with Ixchel")
    assert "Not understood" not in mail(table, "cal", "**Attack** Yaretzi, duel")
    table.run_turn(GAME)
    ana = table.printout(GAME, 1, "ana", "morning")
    cal = table.printout(GAME, 1, "cal", "morning")
    assert "void: the joint attack fails amid the confusion of miscoordination: Ixchel's attack names no " \
           "joint attackers" in " ".join(ana.split()), ana
    assert "void: the joint attack fails amid the confusion of miscoordination: Xolotl's attack names Ixchel " \
           "as a joint attacker, and Ixchel's names no joint attackers" in " ".join(cal.split()), cal
    news = table.newsletter(GAME, 1, "morning")
    assert "attacks Yaretzi" not in news and "attack Yaretzi" not in news, news
    assert "Yaretzi: peasant, XP 4," in table.printout(GAME, 1, "ben", "morning")


# -- ESCAPE -----------------------------------------------------------------------------------------------------

def test_a_failed_escape_gains_the_slave_and_his_owner_a_point_of_each(table: Table) -> None:
    """"The attacker (escaping character) gains 1 pt of XP, Wisdom and Fame." has no condition; "If the attack
    fails, the defender gains 1 pt of XP, Wisdom and Fame." (LJ-OQ-39). Tochtli (XP 1, Wisdom 1, Fame 0:
    A = 1 + 1 + 0 = 2) escapes from Coyotl (XP 16, Wisdom 16, Fame 16: D = 4 + 4 + 4 = 12), L = 0:
    (2 + 12) / 12 * 1/2 = 0.58, between 0.33 and 0.67: the principal attacker fails. Tochtli stays a slave
    with XP 2, Wisdom 2, Fame 1; Coyotl has 17 of each."""
    start(table, house("ana", character("Coyotl", xp=16, wisdom=16, fame=16, titles=[
              {"kind": "Owner", "subject": "Tochtli"}])),
          house("cal", character("Tochtli", titles=[{"kind": "Slave", "subject": "Coyotl"}])))
    assert "Not understood" not in mail(table, "cal", "**Attack** Coyotl, escape")
    table.run_turn(GAME)
    printout = table.printout(GAME, 1, "cal", "morning")
    assert "result 0.58: the principal attacker fails" in " ".join(printout.split()), printout
    assert "Tochtli: peasant, XP 2, Fame 1, Wisdom 2," in printout, printout
    assert "Slave of Coyotl" in printout
    assert "Coyotl: peasant, XP 17, Fame 17, Wisdom 17," in table.printout(GAME, 1, "ana", "morning")


# -- JOINING THE GAME: starting gold ------------------------------------------------------------------------------

def test_each_player_starts_with_his_own_gold_by_house_or_address(table: Table) -> None:
    """"If you played in the previous game, A More Pefect Union, then you start with gold equal to your AMPU
    score." The setup lists each player's score by his house (a house of the setup, or the name he joins as)
    or by his e-mail address; a player it does not list starts with 0."""
    start(table, house("ana", character("Xolotl")), house("ben", character("Yaretzi"), gold=3),
          starting_gold={"ana": 7, "Itzel": 30, "zed@example.org": 12})
    for sender, name in (("zed@example.org", "Tochtli"), ("ixi@example.org", "Itzel"),
                         ("new@example.org", "Mazatl")):
        table.send(sender, f"JOIN {name} in Tenochtitlan hex T2")
        table.intake()
        assert f"signed you up for {GAME} as {name}" in table.ack(sender)
    table.run_turn(GAME)
    gold = {h: table.printout(GAME, 1, h, "morning") for h in ("ana", "ben", "Tochtli", "Itzel", "Mazatl")}
    assert "House of ana: food 0, gold 7" in gold["ana"], gold["ana"]
    assert "House of ben: food 0, gold 3" in gold["ben"]  # the setup's own figure stands
    assert "House of Tochtli: food 0, gold 12" in gold["Tochtli"], gold["Tochtli"]  # by his address
    assert "House of Itzel: food 0, gold 30" in gold["Itzel"]
    assert "House of Mazatl: food 0, gold 0" in gold["Mazatl"]


@pytest.mark.parametrize("gold, ok", [(10, True), ({"ana": 10}, True), ({"ana": -1}, False),
                                      ({"ana": "ten"}, False), ("ten", False), (True, False)])
def test_starting_gold_is_a_number_or_a_table_of_numbers(gold: Any, ok: bool) -> None:
    from maild.ruleset import SetupError
    from maild_rules.jungle.ruleset import Jungle

    game = setup(house("ana", character("Xolotl")), starting_gold=gold)
    if ok:
        state = Jungle().new_game(game)
        assert state["houses"]["ana"]["gold"] == 10
    else:
        with pytest.raises(SetupError, match="starting_gold.*a whole number 0 or more .* or a table of player"):
            Jungle().new_game(game)


# -- the GM's update through `maild gm update`: a unit's gains ---------------------------------------------------

def _toml(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    return json.dumps(value).lower() if isinstance(value, bool) else str(value)


def write_config(table: Table) -> Path:
    """The Table's config as the GM's maild.toml, for the command line."""
    config = table._config  # noqa: SLF001 - the harness keeps it as its TOML would read
    lines = [f"[database]\nurl = {_toml(config['database']['url'])}"]
    for part in ("inbound", "outbound"):
        lines.append(f"[mail.{part}]")
        lines += [f"{k} = {_toml(v)}" for k, v in config["mail"][part].items()]
    lines.append(f"[daemon]\ngm = {_toml(config['daemon']['gm'])}")
    for game in config["games"]:
        lines.append("[[games]]")
        lines += [f"{k} = {_toml(v)}" for k, v in game.items()]
    path = Path(table.folder) / "maild.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def gm_update(table: Table, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`maild gm update aztlan FILE` as the GM types it, now; its exit status and what it printed."""
    update = Path(table.folder) / f"update-{len(list(Path(table.folder).glob('update-*')))}.toml"
    update.write_text(text, encoding="utf-8")
    capsys.readouterr()
    code = main(["--config", str(write_config(table)), "--now", table.now().isoformat(), "gm", "update", GAME,
                 str(update)])
    out = capsys.readouterr()
    return code, out.out + out.err


UNIT_GAIN = '''
[[events]]
kind = "gain"
unit = "Jaguar Warriors"
xp = 2
fame = 1
gold = 5
general = "Great General"
'''


def test_a_unit_s_gain_reaches_every_character_in_it_and_the_general_s_staff(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    """CHARACTERS IN A UNIT: "When a military unit gains XP, Fame or gold through any of its actions, all
    characters within the unit earn the same amount"; "When a military unit receiveing the combat bonus from a
    nearby General gains ..., all characters within the General's unit earn the same amount" (LJ-OQ-47).
    The Jaguar Warriors gain 2 XP, 1 Fame, 5 gold with the Great General's bonus: Ocelotl (ana, XP 5, Fame 2)
    has XP 7, Fame 3; Mixtli (ana, XP 1) XP 3, Fame 1; Atl (ben, XP 3) XP 5, Fame 1; Itzel of the General's
    staff (cal, XP 1) XP 3, Fame 1; Xochitl (cal), in no unit, nothing. Gold goes to each character's house:
    ana has two in the unit, 5 + 5 = 10; ben 5; cal 5."""
    start(table, house("ana", character("Ocelotl", xp=5, fame=2, unit="Jaguar Warriors", role="soldier",
                                        city=None, hex=None),
                       character("Mixtli", unit="Jaguar Warriors", role="soldier", city=None, hex=None)),
          house("ben", character("Atl", xp=3, unit="Jaguar Warriors", role="soldier", city=None, hex=None)),
          house("cal", character("Itzel", unit="Great General", role="soldier", city=None, hex=None),
                character("Xochitl")))
    code, said = gm_update(table, UNIT_GAIN, capsys)
    assert code == 0 and "update from" in said and "recorded for turn 1" in said, said
    table.run_turn(GAME)
    ana = table.printout(GAME, 1, "ana", "morning")
    assert "House of ana: food 0, gold 10" in ana, ana
    assert "Ocelotl: soldier, XP 7, Fame 3," in ana and "Mixtli: soldier, XP 3, Fame 1," in ana, ana
    assert "Ocelotl earns 2 XP, 1 Fame and 5 gold with unit Jaguar Warriors." in ana, ana
    ben = table.printout(GAME, 1, "ben", "morning")
    assert "House of ben: food 0, gold 5" in ben and "Atl: soldier, XP 5, Fame 1," in ben, ben
    cal = table.printout(GAME, 1, "cal", "morning")
    assert "House of cal: food 0, gold 5" in cal, cal
    assert "Itzel: soldier, XP 3, Fame 1," in cal and "Xochitl: peasant, XP 1, Fame 0," in cal, cal
    news = table.newsletter(GAME, 1, "morning")
    assert "The unit Jaguar Warriors gains 2 XP, 1 Fame, 5 gold with the combat bonus of Great General." in \
           " ".join(news.split()), news


def test_a_unit_s_gain_given_as_its_figure_or_for_no_military_unit_is_refused_with_the_way(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    start(table, house("ana", character("Ocelotl", unit="Jaguar Warriors", role="soldier", city=None,
                                        hex=None)))
    code, said = gm_update(table, '[units."Jaguar Warriors"]\nxp = 2\n', capsys)
    assert code == 2, said
    assert 'units."Jaguar Warriors".xp: a unit\'s gain is an event, which every character in the unit earns: ' \
           '[[events]] kind = "gain"' in said, said
    code, said = gm_update(table, '[[events]]\nkind = "gain"\nunit = "Great General"\nfame = 1\n', capsys)
    assert code == 2 and "Great General is not a military unit" in said, said
    code, said = gm_update(table, '[[events]]\nkind = "gain"\nunit = "Jaguar Warriors"\n', capsys)
    assert code == 2 and "give what the unit gained: xp, fame or gold" in said, said


# -- An action that names nobody, and a character the GM's update brings ------------------------------------

NEW_CAPTAIN = '''
[units."Eagle Scouts"]
kind = "Scout"
level = 1
health = 10
city = "Tenochtitlan"
position = [5, 5]

[[events]]
kind = "unit"
unit = "Eagle Scouts"
house = "ana"
captain = "Cuauhtli"
'''


def test_an_action_sent_when_the_house_had_one_character_stays_his_after_the_gm_gives_it_another(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    """The house of ana has Itzel alone when its Morning mail comes: "**Defend**" and, labelled for the
    Afternoon, "**Toil**", naming nobody, as a house with one character writes. The GM's update, applied when
    the Morning opens, gives the house Cuauhtli, Captain of the new Eagle Scouts. Both actions stay Itzel's:
    she defends in the Morning and toils T2 (food 2) in the Afternoon; nothing asks to "name the character
    who acts". A mail of the Afternoon, written when the printout showed both, must name him."""
    start(table, house("ana", character("Itzel", hex="T2")))
    ack = mail(table, "ana", "**Defend**\n\nAfternoon:\n**Toil**")
    assert "Not understood" not in ack, ack
    code, said = gm_update(table, NEW_CAPTAIN, capsys)
    assert code == 0, said
    table.run_turn(GAME)
    morning = table.printout(GAME, 1, "ana", "morning")
    assert "Cuauhtli" in morning and "Captain of Unit Eagle Scouts" in morning, morning
    assert "name the character" not in morning, morning
    assert "Itzel stands ready to defend" in morning, morning
    assert "Afternoon: Itzel toils: kept for the Afternoon." in morning, morning
    table.run_turn(GAME)
    afternoon = table.printout(GAME, 1, "ana", "afternoon")
    assert "name the character" not in afternoon, afternoon
    assert "Itzel toils on T2" in " ".join(afternoon.split()), afternoon
