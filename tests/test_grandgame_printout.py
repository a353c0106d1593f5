"""What a Grand Game player reads after a phase: his own lists (figures, zones, cities, forces, the forces of
others next to his) and the board's picture, drawn once a phase and shared by every mail of it."""

from __future__ import annotations

from maild_rules.grandgame import pictures, printout
from maild_rules.grandgame.picture import OWNER_COLOURS
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.state import NEUTRAL, add
from tests.grandgame_support import started


def test_a_printout_lists_what_the_player_needs_for_his_next_orders() -> None:
    state = started()
    add(state, "E2", "alice", "infantry", 3)
    add(state, "E2", "alice", "supply", 5)
    add(state, "F2", "alice", "armor", 1)
    add(state, "J2", "bruno", "armor", 2)  # far from alice: not listed as a neighbour
    add(state, "G3", "bruno", "infantry", 1)  # in alice's land: listed
    report = Report()
    report.tell("alice", "Your orders", "3 infantry held Pelgate (E2)")
    sections = {s["title"]: s["lines"] for s in printout.printouts(state, 1, "spring", report)["alice"]["sections"]}
    assert sections["Your orders"] == ["3 infantry held Pelgate (E2)"]
    assert sections["Your country"] == ["Aurelia, a democracy", "GDP 18, Francs 0, atomic research 0"]
    # Aurelia holds all of Falhaven Zone (8) and Marton Zone (10): 18, its GDP.
    assert sections["Your zones (2)"] == ["Falhaven Zone (ZA): value 8, full control",
                                          "Marton Zone (ZB): value 10, full control"]
    assert sections["Your cities and ports (3)"] == ["Pelgate (E2): Velden", "Ulgate (C3), port: Aurum",
                                                     "Almarch (F4): Brask"]
    assert sections["Your forces (2 places)"] == ["Pelgate (E2): 3 infantry, 5 supply (railroad)",
                                                  "Wenmere (F2): 1 armor (railroad)"]
    assert "Falwick (G3): bruno (Borvane) 1i" in sections["Forces of others in or next to yours"]
    assert not any("J2" in line for line in sections["Forces of others in or next to yours"])
    assert sections["Your land (12 territories)"] == ["C2, D2, E2, F2, C3, D3, E3, F3, G3, B4, C4, F4"]


def test_the_newsletter_shows_the_powers_and_every_force() -> None:
    state = started()
    add(state, "E2", "alice", "infantry", 3)
    add(state, "H8", NEUTRAL, "infantry", 1)
    add(state, "H8", NEUTRAL, "supply", 3)
    sections = {s["title"]: s["lines"] for s in printout.newsletter(state, 1, "spring", Report())["sections"]}
    assert sections["The powers"][0] == "alice: Aurelia, democracy; GDP 18, 12 territories, 3 units"
    forces = next(lines for title, lines in sections.items() if title.startswith("Forces on the board"))
    assert forces == ["(i infantry, a armor, p aircraft, L light fleet, H heavy fleet, s supply)",
                      "alice (Aurelia): E2 3i", "neutral: H8 1i 3s"]


def test_the_picture_shows_owners_in_their_colours_units_and_the_phases_arrows() -> None:
    state = started()
    add(state, "E2", "alice", "infantry", 3)
    add(state, "E2", "alice", "supply", 5)
    add(state, "F2", "alice", "armor", 1)
    add(state, "F2", "bruno", "infantry", 2)
    report = Report()
    report.arrow("F2", "G3")
    spec = printout.picture_spec(state, 2, "fall", report)
    assert spec["colours"]["alice"] == OWNER_COLOURS[0] and spec["colours"]["bruno"] == OWNER_COLOURS[1]
    assert spec["owners"]["E2"] == "alice" and "H8" not in spec["owners"]  # a neutral's land is drawn neutral
    assert spec["units"]["E2"] == "3i" and spec["supplies"] == {"E2": 5}
    assert spec["units"]["F2"] == "AUR 1a / BOR 2i"  # two sides in one territory: each by its country
    assert spec["attacks"] == [["F2", "G3"]] and spec["caption"] == "Turn 2, fall"
    png, svg = pictures.attachments(state, spec)
    assert png.filename == "board.png" and png.data.startswith(b"\x89PNG") and png.inline
    assert svg.filename == "board.svg" and b"<svg" in svg.data and not svg.inline
    # Every printout and the newsletter of a phase ask for the same picture: drawn once.
    assert pictures.attachments(state, spec)[0].data is png.data
