"""Writes examples/grand-game/map.toml, the Grand Game's starter map: an original continent drawn on a grid.

Run `python bench/grandgame_map.py` from the checkout; the output is the same every time (no clock, a fixed
seed). The TOML is the product (docs/grand-game.md, "The map file"); this script is how it was made, kept so the
map can be redrawn. Each land territory is one cell of the grid below, named by column letter and row number
("K7"); the seas are rectangles of sea cells ("S01"...), so shared borders are shared edges of the grid.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

CELL = 60  # map units per grid cell
JITTER = 12  # how far an inner corner of the grid may move, so the borders do not look ruled
MAX_W, MAX_H = 8, 4  # the largest sea rectangle, in cells

# Countries: capitals are large, lowercase small, n and o are the two Neutral Powers; '.' is sea.
COUNTRIES = """
................
..AAAA...BBBB...
..AAAAA.BBBB....
.AAffA..BBBBgg..
..nnfCCC..Bgg...
..hhCCCCCCDDDD..
.hhCCC..DDDDDD..
..EEEEooDDii....
..EEEE..jj.i....
..EEEE...jj.....
................
"""

# Economic zones: one letter per land territory (the same grid).
ZONES = """
................
..aabb...cccc...
..aabbb.dddc....
.aaffb..ddeeeg..
..fffhhh..egg...
..iijjhhkkkgll..
.iijjj..kkplll..
..mmnnoooopp....
..mmnn..qq.p....
..mmnn...qq.....
................
"""

COUNTRY_NAMES = {
    "A": ("Aurelia", "large"), "B": ("Borvane", "large"), "C": ("Cassaria", "large"),
    "D": ("Dravenmark", "large"), "E": ("Elunde", "large"),
    "f": ("Ferroway", "small"), "g": ("Gallowmere", "small"), "h": ("Hestry", "small"),
    "i": ("Ilvane", "small"), "j": ("Jorsk", "small"),
    "n": ("Nesse", "small"), "o": ("Orrin", "small"),
}
NEUTRAL = {"n", "o"}

CITIES = {
    "C3": ("Aurum", True), "E2": ("Velden", False), "F4": ("Brask", False),
    "K2": ("Borhaven", True), "L3": ("Tarnow", False), "K5": ("Quell", True),
    "F6": ("Cassar", False), "H5": ("Mirel", True), "D7": ("Ostry", False),
    "N7": ("Dravensholm", True), "K6": ("Kessel", False), "M7": ("Rook", True),
    "C9": ("Elm", True), "F9": ("Sundry", False), "D10": ("Halde", True),
    "C5": ("Nes", True), "E4": ("Ferrow", False), "M4": ("Gallow", True), "B7": ("Hest", True), "L8": ("Ilva", True),
    "J9": ("Jor", True), "H8": ("Orr", True),
}
MOUNTAINS = {"E3", "F3", "J3", "G6", "H6", "K7", "E10", "F10", "C6", "M5", "E9"}
# Railroads: each chain runs through territories next to one another.
RAILWAYS = [
    ["C3", "D3", "E3", "E2", "F2"],
    ["E3", "E4", "E5", "F5"],
    ["K2", "K3", "K4", "K5"],
    ["K3", "L3"],
    ["F6", "F5", "G5", "H5"],
    ["F6", "E6", "E7", "D7"],
    ["F6", "G6", "H6", "I6", "J6", "K6"],
    ["K6", "K7", "L7", "M7", "N7"],
    ["C9", "D9", "E9", "F9", "F10", "E10", "D10"],
]
RIVERS = [("C3", "C4"), ("E2", "F2"), ("K3", "L3"), ("F5", "F6"), ("G6", "G5"), ("K7", "K8"), ("L7", "L6"),
          ("D9", "E9"), ("E8", "E9"), ("C6", "D6")]
CANAL = ("H8", "Orrin Canal")  # the territory; it joins its two seas and lies across its land borders


def grid(text: str) -> list[str]:
    rows = text.strip("\n").splitlines()
    assert len({len(r) for r in rows}) == 1, "ragged grid"
    return rows


def code(r: int, c: int) -> str:
    return f"{chr(ord('A') + c)}{r + 1}"


def sea_rectangles(rows: list[str]) -> list[list[tuple[int, int]]]:
    """The sea cells cut into rectangles, scanning from the top left: each grows right, then down."""
    h, w = len(rows), len(rows[0])
    taken: set[tuple[int, int]] = set()
    rects = []
    for r in range(h):
        for c in range(w):
            if rows[r][c] != "." or (r, c) in taken:
                continue
            width = 1
            while width < MAX_W and c + width < w and rows[r][c + width] == "." and (r, c + width) not in taken:
                width += 1
            height = 1
            while (height < MAX_H and r + height < h
                   and all(rows[r + height][c + k] == "." and (r + height, c + k) not in taken for k in range(width))):
                height += 1
            cells = [(r + i, c + k) for i in range(height) for k in range(width)]
            taken.update(cells)
            rects.append(cells)
    return rects


def corners(h: int, w: int) -> dict[tuple[int, int], tuple[float, float]]:
    rng = random.Random(24)
    points = {}
    for i in range(h + 1):
        for j in range(w + 1):
            inner = 0 < i < h and 0 < j < w
            dx = rng.randint(-JITTER, JITTER) if inner else 0
            dy = rng.randint(-JITTER, JITTER) if inner else 0
            points[i, j] = (float(j * CELL + dx), float(i * CELL + dy))
    return points


def perimeter(cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The grid corners around a rectangle of cells, clockwise from its top left."""
    r0, c0 = min(cells)
    r1, c1 = max(cells)
    top = [(r0, j) for j in range(c0, c1 + 2)]
    right = [(i, c1 + 1) for i in range(r0 + 1, r1 + 2)]
    bottom = [(r1 + 1, j) for j in range(c1, c0 - 1, -1)]
    left = [(i, c0) for i in range(r1, r0, -1)]
    return top + right + bottom + left


def toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def toml_list(items: list[str]) -> str:
    return "[" + ", ".join(toml_str(i) for i in items) + "]"


NAME_START = ["Al", "Bel", "Cor", "Dun", "Er", "Fal", "Gar", "Hol", "Ist", "Kel", "Lor", "Mar", "Nor", "Os",
              "Pel", "Rav", "Sel", "Tor", "Ul", "Vel", "Wen", "Yr"]
NAME_END = ["ford", "mere", "wick", "holt", "dale", "moor", "stead", "gate", "fell", "by", "ton", "march",
            "wold", "brook", "haven", "reach"]
SEA_NAMES = [  # in the order the seas are cut (S01, S02, ...), named for where they lie
    "Northern Deep", "Borvane Deep", "Aurel Bight", "Borvane Sound", "Cold Reach", "Velden Narrows",
    "Gallow Cove", "Western Approaches", "Brask Inlet", "Eastern Main", "Bay of Nes", "Lake Mirel",
    "Sunward Cove", "Inner Sea", "Drowned Shelf", "Dravensea", "Orrin Channel", "Jorsk Cove", "Jorsk Channel",
    "Ilvane Water", "Elunde Bay", "Southern Deep",
]


def build() -> str:
    countries, zones = grid(COUNTRIES), grid(ZONES)
    h, w = len(countries), len(countries[0])
    for r in range(h):
        for c in range(w):
            assert (countries[r][c] == ".") == (zones[r][c] == "."), f"layers disagree at {code(r, c)}"
    pts = corners(h, w)
    owner: dict[tuple[int, int], str] = {}  # cell -> territory id
    land = [(r, c) for r in range(h) for c in range(w) if countries[r][c] != "."]
    for r, c in land:
        owner[r, c] = code(r, c)
    seas = sea_rectangles(countries)
    for k, cells in enumerate(seas, start=1):
        for cell in cells:
            owner[cell] = f"S{k:02d}"
    nxt: dict[str, set[str]] = {t: set() for t in owner.values()}
    for (r, c), t in owner.items():
        for dr, dc in ((0, 1), (1, 0)):
            o = owner.get((r + dr, c + dc))
            if o is not None and o != t:
                nxt[t].add(o)
                nxt[o].add(t)

    names = random.Random(5)
    used: set[str] = set()

    def place_name() -> str:
        while True:
            n = names.choice(NAME_START) + names.choice(NAME_END)
            if n not in used:
                used.add(n)
                return n

    zone_of_sea: dict[str, str] = {}
    zone_land: dict[str, list[str]] = {}
    for r, c in land:
        zone_land.setdefault(zones[r][c], []).append(code(r, c))
    for k, cells in enumerate(seas, start=1):
        sid = f"S{k:02d}"
        # A sea shares the air zone of the land cell nearest to it (the first from the top left of equals).
        best = min(land, key=lambda rc: (min(abs(rc[0] - a) + abs(rc[1] - b) for a, b in cells), rc))
        zone_of_sea[sid] = zones[best[0]][best[1]]

    out = ['# The Grand Game: starter map "The Sundered Coast", an original continent drawn for maild (not the',
           "# original game's map). Written by bench/grandgame_map.py; the format is docs/grand-game.md,",
           '# "The map file".', "",
           'title = "The Sundered Coast"', "players = 8", "",
           "[drawing]", f"width = {w * CELL}", f"height = {h * CELL}", ""]
    coastal = {code(r, c) for r, c in land if any(o.startswith("S") for o in nxt[code(r, c)])}
    rail = {t for chain in RAILWAYS for t in chain}
    for chain in RAILWAYS:
        for a, b in zip(chain, chain[1:], strict=False):
            assert b in nxt[a], f"railway {a}-{b} not adjacent"
    for r, c in land:
        t = code(r, c)
        quad = [pts[r, c], pts[r, c + 1], pts[r + 1, c + 1], pts[r + 1, c]]
        at = (round(sum(p[0] for p in quad) / 4, 1), round(sum(p[1] for p in quad) / 4, 1))
        out += ["[[territory]]", f'id = "{t}"', f"name = {toml_str(place_name())}", 'kind = "land"',
                f"next = {toml_list(sorted(nxt[t]))}"]
        if t in MOUNTAINS:
            out.append("mountain = true")
        if t in CITIES:
            city, port = CITIES[t]
            out.append(f"city = {toml_str(city)}")
            if port:
                assert t in coastal, f"port {t} not on the shore"
                out.append("port = true")
        if t in rail:
            out.append("railroad = true")
        out += [f"at = [{at[0]}, {at[1]}]", "outline = [" + ", ".join(f"[{x}, {y}]" for x, y in quad) + "]", ""]
    for k, cells in enumerate(seas, start=1):
        sid = f"S{k:02d}"
        ring = [pts[p] for p in perimeter(cells)]
        r0, c0 = min(cells)
        r1, c1 = max(cells)
        at = ((c0 + c1 + 1) * CELL / 2, (r0 + r1 + 1) * CELL / 2)
        out += ["[[territory]]", f'id = "{sid}"', f"name = {toml_str(SEA_NAMES[k - 1])}", 'kind = "sea"',
                f"next = {toml_list(sorted(nxt[sid]))}", f"at = [{at[0]}, {at[1]}]",
                "outline = [" + ", ".join(f"[{x}, {y}]" for x, y in ring) + "]", ""]
    cities = {t for t in CITIES}
    for z in sorted(zone_land):
        members = zone_land[z] + sorted(s for s, zz in zone_of_sea.items() if zz == z)
        # Starting value: one per land territory, two more per city (the starter map's choice).
        value = len(zone_land[z]) + 2 * sum(1 for t in zone_land[z] if t in cities)
        out += ["[[zone]]", f'id = "Z{z.upper()}"', f"name = {toml_str(place_name() + ' Zone')}",
                f"value = {value}", f"territories = {toml_list(members)}", ""]
    by_country: dict[str, list[str]] = {}
    for r, c in land:
        by_country.setdefault(countries[r][c], []).append(code(r, c))
    for letter, (name, size) in COUNTRY_NAMES.items():
        out += ["[[country]]", f'id = "{name.upper()[:3]}"', f"name = {toml_str(name)}", f'size = "{size}"']
        if letter in NEUTRAL:
            out.append("neutral = true")
        out += [f"territories = {toml_list(by_country[letter])}", ""]
    for a, b in RIVERS:
        assert b in nxt[a], f"river {a}-{b} not adjacent"
        out += ["[[river]]", f"between = {toml_list([a, b])}", ""]
    canal, canal_name = CANAL
    canal_seas = sorted(o for o in nxt[canal] if o.startswith("S"))
    assert len(canal_seas) == 2, canal_seas
    out += ["[[canal]]", f"name = {toml_str(canal_name)}", f'territory = "{canal}"',
            f"seas = {toml_list(canal_seas)}",
            f"across = {toml_list(sorted(o for o in nxt[canal] if not o.startswith('S')))}", ""]
    return "\n".join(out)


SETUP_HEAD = """\
# A Grand Game for eight players on the starter map "The Sundered Coast" (examples/grand-game/map.toml, the same
# map under [map]). Written by bench/grandgame_map.py: edit the players and options here, the map there.
# Start it with:  maild game create grand-demo --ruleset grandgame --setup example:grand-game
# Every key is explained in docs/grand-game.md, "The setup file".

title = "The Grand Game on the Sundered Coast"

[options]
turns = 10            # "The game will end on turn 10 if nobody has won by that time."
battle_cards = true   # false: battles are fought without battle cards (GG-OQ-01)
increment = 1         # the picking's bids go up in steps of this many $ (GG-OQ-05)

"""
PLAYERS = ("alice", "bruno", "chloe", "dmitri", "elena", "farid", "greta", "hugo")


def setup_text(map_text: str) -> str:
    """The example setup: players and options, then the map with every table moved under [map]."""
    players = "".join(f'[[players]]\nname = "{n}"\nemail = "{n}@example.org"\n\n' for n in PLAYERS)
    body = []
    in_tables = False
    for line in map_text.splitlines():
        if line.startswith("[[") or line.startswith("["):
            if not in_tables:
                in_tables = True
            line = line.replace("[[", "[[map.", 1) if line.startswith("[[") else line.replace("[", "[map.", 1)
        elif line.startswith("#"):
            continue
        body.append(line)
    return SETUP_HEAD + players + "[map]\n" + "\n".join(body).lstrip("\n") + "\n"


def main() -> None:
    folder = Path(__file__).resolve().parent.parent / "examples" / "grand-game"
    text = build()
    files = {folder / "map.toml": text, folder / "setup.toml": setup_text(text)}
    if "--check" in sys.argv:
        sys.exit(0 if all(f.read_text(encoding="utf-8") == t for f, t in files.items()) else 1)
    for target, content in files.items():
        target.write_text(content, encoding="utf-8")


if __name__ == "__main__":
    main()
