"""The Law of the Jungle played by mail from end to end (issue 10, acceptance 1), through maild.testing's Table
on SQLite and PostgreSQL: twelve players sign up by JOIN mail and buy before the game, the kick-off, three
council sessions after it (T0, T1, T2; turn 1 is the sign-up session) with attacks of every type, joint and
desperate ones, a sacrifice in and out of festival, a slave's defiance, a Captain over and under the word
limit, research and production draws, and a GM update between sessions. Everything is asserted on the mail
players and the GM read.

The dice: every "Random Number" of the rules (`council.random_number`) is 1/2 in this game, so an attack's
result is (A + D + L) / (D + L) / 2 with the city strength L = 0: the attacker wins outright when his strength
is above the defence's (result above 1), and the hand computations below follow from the attributes bought
before the game. The other draws (the kick-off, the festival, the weighted research picks) come from the
game's seed, fixed here, and the test reads their outcome from the mail as a player would.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from maild.testing import Table, text_of
from maild_rules.jungle import council as council_module
from maild_rules.jungle.model import GODS

NAMES = ("Itzel", "Xolotl", "Coyotl", "Tochtli", "Ameyal", "Citlali", "Mixtli", "Nochtli", "Tenoch", "Yaotl",
         "Zyanya", "Cuauh")
HEXES = [f"H{i}" for i in range(1, 15)]

SETUP: dict[str, Any] = {
    "title": "Aztlan, the acceptance game",
    "signup_sessions": 1,
    "kickoff_houses": 12,
    "starting_gold": 30,
    "empire": {"treasury": 100, "expenses": 0, "beakers_per_citizen": 1, "hammers_per_citizen": 1,
               "food_per_citizen": 1, "technologies": {"Bronze Working": 1, "Writing": 1}},
    "cities": [
        {"name": "Tenochtitlan", "centre": "H1", "citizens": 2, "strength": 0, "income": 10, "food": 2,
         "position": [10, 10], "builds": {"Monument": 40, "Warrior": 25},
         "hexes": [{"name": h, "food": 2, "hammers": 1, "beakers": 1, "gold": 1} for h in HEXES]},
        {"name": "Texcoco", "centre": "T1", "citizens": 1, "strength": 5, "position": [30, 30],
         "hexes": [{"name": "T1", "food": 1}]},
    ],
    "units": [{"name": "Jaguar Warriors", "kind": "Warrior", "level": 2, "health": 10, "melee": 0,
               "city": "Tenochtitlan", "position": [10, 10]}],
}

# What each player buys before the game (JOINING THE GAME: 3 gold a resource point, (level+1)^2 a level).
PREGAME = {
    "Itzel": ["**Train** Fame"],  # Fame 1 for 1 gold: one of the two with Fame, drawn at the kick-off
    "Xolotl": ["**Train** Fame"],
    # Coyotl: Wisdom 1->2->3 (4 + 9 gold): strong enough to capture Tochtli. (XP is not for sale before the
    # game: the houses' reading of LJ-OQ-58.)
    "Coyotl": ["**Train** Wisdom", "**Train** Wisdom"],
    "Citlali": ["**Purchase** 3 beakers"],  # for the research draws
    "Cuauh": ["**Purchase** 3 hammers"],  # for the production draws
    "Zyanya": ["**Purchase** 4 food"],  # a child costs (1+1)^2 = 4 food
    "Mixtli": ["**Train** Wisdom"],
    "Nochtli": ["**Train** Wisdom"],
}


@pytest.fixture
def table(tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    monkeypatch.setattr(council_module, "random_number", lambda rng: Fraction(1, 2))
    monkeypatch.setattr("maild.games.secrets.randbits", lambda bits: 20261125)
    with Table(tmp_path, db_url=db_url) as t:
        t.create_game("aztlan", "jungle", SETUP)
        t.intake()
        yield t


def unwrap(text: str) -> str:
    """The mail with each wrapped line joined again (chart.wrap indents a continuation 4 more than its line),
    so a regular expression reads a line as it was told."""
    out: list[str] = []
    base = 0
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if out and line.strip() and indent == base + 4:
            out[-1] += " " + line.strip()
            continue
        out.append(line)
        base = indent
    return "\n".join(out)


def unwrapped(read: Any) -> Any:
    return lambda *args: unwrap(read(*args))


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def mails_titled(table: Table, start: str) -> list[str]:
    return [text_of(m) for m in table.mails() if str(m["Subject"]).startswith(start)]


def run(table: Table, phase: str) -> None:
    table.run_turn("aztlan")
    assert table.mails(), phase


def chart_line(newsletter: str, name: str) -> str:
    return next(line for line in newsletter.splitlines() if re.match(rf"\s+\d+\. {name} \(house", line))


def test_a_game_by_mail(table: Table) -> None:
    # -- session 1, the sign-up: twelve JOIN mails, with purchases before the game ---------------------------
    for i, name in enumerate(NAMES):
        body = "\n".join([f"JOIN {name} in Tenochtitlan hex {HEXES[i + 1] if i < 13 else 'H2'}", "",
                          *PREGAME.get(name, [])])
        table.send(address(name), body)
    table.intake()
    for name in NAMES:
        ack = table.ack(address(name))
        assert f"signed you up for aztlan as {name}" in ack, ack
        assert "Not understood" not in ack, ack
    run(table, "session 1 morning")
    morning = unwrapped(table.printout)("aztlan", 1, "Coyotl", "morning")
    # Coyotl trains Wisdom twice: (1+1)^2 + (2+1)^2 = 4 + 9 = 13 of his 30 gold.
    assert "House of Coyotl: food 0, gold 17" in morning, morning
    assert "Coyotl: peasant, XP 1, Fame 0, Wisdom 3, Craftsmanship 1" in morning, morning
    assert "Coyotl joins the game" in morning
    run(table, "session 1 afternoon")
    news = unwrapped(table.newsletter)("aztlan", 1, "afternoon")
    # The kick-off: only Itzel and Xolotl have Fame, so they are the first Tlatoani and citizen (KICKING OFF).
    tlatoani = re.search(r"(\w+) of the house of \w+ is the first Tlatoani of Tenochtitlan", news).group(1)
    citizen = re.search(r"(\w+) of the house of \w+ is the first citizen of Tenochtitlan", news).group(1)
    assert {tlatoani, citizen} == {"Itzel", "Xolotl"}, news
    assert "The game has begun: the council of T0 is session 2." in news
    festival2 = re.search(r"session 2 \(council of T0\), is held during the festival of (\w+)", news).group(1)
    assert festival2 in GODS
    # The welcome of a house that joined by mail comes once the turn made him part of the game.
    assert mails_titled(table, "[aztlan] welcome, Tenoch")

    # -- session 2, the council of T0 -------------------------------------------------------------------------
    land = re.search(rf"{citizen}: citizen.*\n\s+{citizen} lives on (\w+) in Tenochtitlan",
                     unwrapped(table.printout)("aztlan", 1, citizen, "afternoon")).group(1)
    morning_actions = {
        "Yaotl": "**Attack** Tenoch, duel",
        "Nochtli": "**Attack** Cuauh, assassinate",
        "Ameyal": "**Attack** Citlali, debate",
        "Mixtli": "**Attack** Tenoch, steal",
        "Coyotl": "**Attack** Tochtli, capture",
        "Citlali": "**Research** Bronze Working",
        "Cuauh": "**Produce** Monument",
        "Zyanya": "**Procreate** a child named Tizoc",
    }
    for name, action in morning_actions.items():
        table.send(address(name), action)
    table.intake()
    run(table, "session 2 morning")
    news = unwrapped(table.newsletter)("aztlan", 2, "morning")
    assert f"held during the festival of {festival2}" in news
    for kind in ("duel", "assassinate", "debate", "steal", "capture"):
        assert re.search(rf"attacks \w+ \({kind}\)\. Attack strength", news), (kind, news)
    # Capture, Coyotl on Tochtli: A = sqrt(XP 1) + sqrt(Wisdom 3) + sqrt(Fame 0) = 1 + 1.732 = 2.73,
    # D = sqrt(1) + sqrt(1) + sqrt(0) = 2, L = 0: (2.73 + 2) / 2 * 1/2 = 1.18, between 1 and 1.5: the principal
    # defender, Tochtli, is taken as a slave; Coyotl gains 1 XP, Wisdom and Fame.
    assert "Coyotl attacks Tochtli (capture). Attack strength 2.73, defence strength 2.00" in news, news
    assert "Slave of Coyotl" in chart_line(news, "Tochtli")
    assert "Owner of Tochtli" in chart_line(news, "Coyotl")
    assert "Tizoc" in unwrapped(table.printout)("aztlan", 2, "Zyanya", "morning")

    afternoon_actions = {
        "Zyanya": f"Zyanya:\n**Sacrifice** Tizoc to {festival2}",
        "Ameyal": f"**Attack** {tlatoani}, overthrow, for city Tenochtitlan",
        "Citlali": f"**Attack** {citizen}, challenge, for land {land}",
        "Nochtli": "**Attack** Yaotl, discredit",
    }
    for name, action in afternoon_actions.items():
        table.send(address(name), action)
    table.intake()
    run(table, "session 2 afternoon")
    news = unwrapped(table.newsletter)("aztlan", 2, "afternoon")
    for kind in ("overthrow", "challenge", "discredit"):
        assert re.search(rf"attacks \w+ \({kind}\)\. Attack strength", news), (kind, news)
    # The sacrifice in festival (AZTEC GODS): Tizoc, a new peasant, has XP 1, Wisdom 1, Fame 0.
    n_in = sacrifice_value(festival2, xp=1, wisdom=1, fame=0, festival=True)
    assert f"Priest of {festival2} ({n_in})" in chart_line(news, "Zyanya"), news
    festival3 = re.search(r"session 3 \(council of T1\), is held during the festival of (\w+)", news).group(1)
    gm = mails_titled(table, "[aztlan] turn 2 report for the GM")
    assert gm, [str(m["Subject"]) for m in table.mails()]
    # The research and production draws of the ten gameturns: Citlali (the only researcher) and Cuauh (the
    # only producer) are picked while their beakers and hammers last.
    assert "Bronze Working" in gm[-1] and "Citlali" in gm[-1], gm[-1]
    assert "Monument" in gm[-1] and "Cuauh" in gm[-1], gm[-1]

    # -- the GM's update between the sessions ------------------------------------------------------------------
    from maild.gmcli import record

    update = Path(table.folder) / "update.toml"
    update.write_text('note = "after session 2"\n[empire]\ntreasury = 150\n'
                      '[units."Jaguar Warriors"]\ncaptain = "Yaotl"\n', encoding="utf-8")
    with table.app.db.session() as s:
        said = record(s, table.app, "aztlan", "update", ["aztlan", str(update)])
        s.commit()
    assert "recorded" in said, said

    # -- session 3, the council of T1 --------------------------------------------------------------------------
    # The slave's defiance: his owner demands a Toil, the slave attacks his owner to escape instead.
    table.send(address("Coyotl"), "Tochtli:\n**Toil**")
    table.send(address("Tochtli"), "**Attack** Coyotl, escape")
    table.send(address("Mixtli"), "**Attack** Tenoch, duel, desperate")
    table.intake()
    run(table, "session 3 morning")
    news = unwrapped(table.newsletter)("aztlan", 3, "morning")
    assert f"held during the festival of {festival3}" in news
    assert "Captain of Unit Jaguar Warriors" in chart_line(news, "Yaotl"), news  # the GM's update
    assert re.search(r"Tochtli attacks Coyotl \(escape\)\. Attack strength", news), news
    assert re.search(r"Mixtli attacks Tenoch \(duel\)\. Attack strength", news), news
    # Defiant Slave (N): 0 + 2, he attacked his owner while disobeying (DEFIANT SLAVE (N)).
    assert "Defiant Slave (2)" in chart_line(news, "Tochtli"), news
    assert "defied you" in unwrapped(table.printout)("aztlan", 3, "Coyotl", "morning")

    # Captain over the limit: level 2 gives 5 x 2 = 10 words; these orders have 15 (march to the river, 4;
    # cross it at dawn and, 9; burn every barbarian camp you find, 15). The sacrifice out of
    # festival.
    god_out = next(g for g in GODS if g != festival3)
    table.send(address("Yaotl"), "**Order** Jaguar Warriors: march to the river, cross it at dawn and "
                                 "burn every barbarian camp you find")
    # The escape: Tochtli's A = sqrt(XP 1) + sqrt(Wisdom 1) + sqrt(Fame 0) = 2; Coyotl's D is 4.00 (Wisdom 4 after
    # the capture's +1, Fame 1, XP 1 after a hungry Evening: 1 + 2 + 1): (2 + 4) / 4 * 1/2 = 0.75, between 0.67
    # and 1: a draw, he stays a slave.
    assert "Tochtli attacks Coyotl (escape). Attack strength 2.00, defence strength 4.00 (Coyotl), location " \
           "strength 0; result 0.75: draw." in news, news
    assert "Slave of Coyotl" in chart_line(news, "Tochtli")
    table.send(address("Coyotl"), f"Coyotl:\n**Sacrifice** Tochtli to {god_out}")
    table.intake()
    ack = table.ack(address("Yaotl"))
    assert "15 words" in ack and "limit is 10" in ack, ack
    run(table, "session 3 afternoon")
    news = unwrapped(table.newsletter)("aztlan", 3, "afternoon")
    gm = mails_titled(table, "[aztlan] turn 3 report for the GM")[-1]
    assert "Jaguar Warriors" in gm and "fortify" in gm, gm
    coyotl = chart_line(news, "Coyotl")
    # Out of festival; Tochtli's attributes when sacrificed, read from the Morning's chart (as the escape left
    # them), and his Defiant Slave N added (DEFIANT SLAVE (N)).
    before = unwrapped(table.printout)("aztlan", 3, "Tochtli", "morning")
    xp, fame, wisdom = (int(re.search(rf"Tochtli: \w+, .*{w} (\d+)", before).group(1))
                        for w in ("XP", "Fame", "Wisdom"))
    n_out = sacrifice_value(god_out, xp=xp, wisdom=wisdom, fame=fame, festival=False) + 2
    assert f"Priest of {god_out} ({n_out})" in coyotl, (coyotl, before)
    assert "Owner of Tochtli" not in coyotl  # the slave is dead

    # -- session 4, the council of T2: the Captain under the limit -----------------------------------------
    table.send(address("Yaotl"), "**Order** Jaguar Warriors: fortify on the hill")
    # A joint attack: both name each other (JOINT ATTACKS); it resolves on the slowest participant's action.
    table.send(address("Ameyal"), "**Attack** Tenoch, debate, joint with Citlali")
    table.send(address("Citlali"), "**Attack** Tenoch, debate, joint with Ameyal")
    table.intake()
    ack = table.ack(address("Yaotl"))
    assert "Not understood" not in ack and "Please note" not in ack, ack  # no warning: within the limit
    assert "(4 words; the limit is 10, level 2)" in ack, ack
    run(table, "session 4 morning")
    news = unwrapped(table.newsletter)("aztlan", 4, "morning")
    assert re.search(r"(Ameyal and Citlali|Citlali and Ameyal) attack Tenoch \(debate\)\. Attack strength", news), news
    run(table, "session 4 afternoon")
    gm = mails_titled(table, "[aztlan] turn 4 report for the GM")[-1]
    assert "fortify on the hill" in gm, gm


def sacrifice_value(god: str, *, xp: int, wisdom: int, fame: int, festival: bool) -> int:
    """AZTEC GODS, worked as written: sqrt(attribute * 2 if festival), rounded down; Tlaloc sqrt((10 * (2 if
    festival)) - XP), 0 when negative."""
    double = 2 if festival else 1
    if god == "Tlaloc":
        inside = 10 * double - xp
        return math.isqrt(inside) if inside > 0 else 0
    attribute = {"Huitzilopochtli": xp, "Quetzalcoatl": wisdom, "Tezcatlipoca": fame}[god]
    return math.isqrt(attribute * double)
