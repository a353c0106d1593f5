"""The Grand Game's board as a picture (issue 24, "Pictures"): the PNG a mail program shows inline and the SVG
beside it, drawn from the map file and a view of the game (docs/grand-game.md, "The picture")."""

from __future__ import annotations

import re
import struct
import tomllib
import zlib
from xml.etree import ElementTree

import pytest

from maild.paths import EXAMPLES_DIR
from maild_rules.grandgame.board import Board, load_board
from maild_rules.grandgame.picture import (
    ATTACK,
    NEUTRAL,
    OWNER_COLOURS,
    SEA,
    BoardView,
    board_png,
    board_svg,
    picture_size,
)

MAP = EXAMPLES_DIR / "grand-game" / "map.toml"
WIDTH = 1200


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board(tomllib.loads(MAP.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def view(board: Board) -> BoardView:
    """The countries at the start, each in its own colour, Borvane having taken Ilvane's K8; some units, a
    destroyed railroad and three attacks (one from the sea)."""
    players = [c for c in board.countries.values() if not c.neutral]
    colours = {c.id: OWNER_COLOURS[i] for i, c in enumerate(players)}
    owners: dict[str, str | None] = {t: (c.id if not c.neutral else None)
                                     for c in board.countries.values() for t in c.territories}
    owners["K8"] = board.home_country("K4")
    return BoardView(owners=owners, colours=colours, units={"K5": "3i 1a", "K4": "2i", "S12": "1F", "E3": "4i 2a"},
                     supplies={"K5": 4, "E3": 6}, destroyed=frozenset({"D3"}),
                     attacks=(("K4", "L4"), ("E3", "E4"), ("S12", "K5")), caption="Spring 1937")


@pytest.fixture(scope="module")
def png(board: Board, view: BoardView) -> bytes:
    return board_png(board, view, width=WIDTH)


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGBA pixels of a non-interlaced 8-bit RGB or RGBA PNG (what resvg writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    idat = b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IDAT":
            idat += body
        chunks.setdefault(kind, body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert depth == 8 and colour in (2, 6) and interlace == 0
    bpp = 4 if colour == 6 else 3
    raw, stride = zlib.decompress(idat), width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 4 else b"".join(bytes(line[i:i + 3]) + b"\xff"
                                                          for i in range(0, stride, 3)))
        prev = line
    return width, height, rows


def colour_at(picture: tuple[int, int, list[bytes]], board: Board, x: float, y: float) -> str:
    """The pixel's colour as "#rrggbb", at a point in map coordinates."""
    width, _, rows = picture
    scale = width / board.width
    px, py = int(x * scale), int(y * scale)
    r, g, b, _ = rows[py][px * 4:px * 4 + 4]
    return f"#{r:02x}{g:02x}{b:02x}"


def open_ground(board: Board, territory: str) -> tuple[float, float]:
    # The territory's label stands on its `at` point: its colour is read a little off it, towards a corner,
    # where nothing is drawn over the fill.
    t = board.territories[territory]
    (x, y), (cx, cy) = t.at, t.outline[0]
    return x + (cx - x) * 0.6, y + (cy - y) * 0.6


@pytest.fixture(scope="module")
def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    return decode_png(png)


def test_the_picture_is_a_png_of_the_width_asked_with_the_drawings_proportions(
        board: Board, view: BoardView, png: bytes, pixels: tuple[int, int, list[bytes]]) -> None:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, _ = pixels
    w, h = picture_size(board, view)
    assert h > board.height  # the legend below the map
    assert width == WIDTH and abs(height - WIDTH * h / w) <= 1
    assert decode_png(board_png(board, view, width=600))[:2] == (600, round(600 * h / w))


@pytest.mark.parametrize("territory, owner", [
    ("C2", "AUR"), ("K8", "BOR"), ("L5", "GAL"), ("J10", "JOR"), ("G8", None), ("I9", "JOR"),
])
def test_a_land_territory_is_filled_with_its_owners_colour(
        board: Board, view: BoardView, pixels: tuple[int, int, list[bytes]], territory: str,
        owner: str | None) -> None:
    assert view.owners[territory] == owner
    expected = NEUTRAL if owner is None else view.colours[owner]
    assert colour_at(pixels, board, *open_ground(board, territory)) == expected


def test_seas_have_the_sea_colour(board: Board, pixels: tuple[int, int, list[bytes]]) -> None:
    for sea in ("S10", "S16", "S14"):
        assert colour_at(pixels, board, *open_ground(board, sea)) == SEA


def test_the_owners_colour_changes_with_the_owner(board: Board, view: BoardView) -> None:
    owners = dict(view.owners) | {"C2": "BOR"}
    changed = decode_png(board_png(board, BoardView(owners=owners, colours=view.colours), width=WIDTH))
    assert colour_at(changed, board, *open_ground(board, "C2")) == view.colours["BOR"]


def test_the_labels_are_drawn_so_a_font_was_found(board: Board, pixels: tuple[int, int, list[bytes]]) -> None:
    # Letters are near-black: around K5's label (id, name, units) there are many such pixels. Without a font
    # resvg draws no text at all, and the map is unreadable.
    x, y = board.territories["K5"].at
    scale = WIDTH / board.width
    rows = pixels[2]
    dark = sum(1 for py in range(int((y - 12) * scale), int((y + 22) * scale))
               for px in range(int((x - 22) * scale), int((x + 22) * scale))
               if max(rows[py][px * 4:px * 4 + 3]) < 80)
    assert dark > 100, dark


def test_every_territory_is_an_element_of_the_svg(board: Board, view: BoardView) -> None:
    svg = board_svg(board, view)
    root = ElementTree.fromstring(svg)  # well-formed, as a browser or viewer needs it
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    for t in board.territories.values():
        assert len(re.findall(rf'id="t-{t.id}"', svg)) == 1, t.id
        assert f">{t.id}</text>" in svg and f">{t.name.split()[0]}" in svg  # a long name may take two lines
    for c in board.countries.values():
        if not c.neutral:
            assert f">{c.name}</text>" in svg  # in the legend
    assert ">3i 1a 4s</text>" in svg and "The Sundered Coast · Spring 1937</text>" in svg


def test_each_attack_is_an_arrow_from_the_attacker_into_the_target(
        board: Board, view: BoardView, pixels: tuple[int, int, list[bytes]]) -> None:
    svg = board_svg(board, view)
    arrows = re.findall(r'<g class="attack" data-from="(\w+)" data-to="(\w+)">\s*<path[^>]*/>\s*'
                        r'<path d="M([\d.]+),([\d.]+) L([\d.]+),([\d.]+)" stroke="([^"]+)"[^>]*marker-end', svg)
    assert [(a, b) for a, b, *_ in arrows] == list(view.attacks)
    for a, b, x1, y1, x2, y2, stroke in arrows:
        assert stroke == ATTACK
        mid = (float(x1) + float(x2)) / 2, (float(y1) + float(y2)) / 2
        assert colour_at(pixels, board, *mid) == ATTACK, (a, b)
        # It starts on the attacker's side and points into the target.
        start, end = (float(x1), float(y1)), (float(x2), float(y2))
        target = board.territories[b].at
        assert _distance(end, target) < _distance(start, target)


def test_same_board_and_view_give_the_same_bytes(board: Board, view: BoardView, png: bytes) -> None:
    assert board_png(board, view, width=WIDTH) == png
    assert board_svg(board, view) == board_svg(board, view)


def test_a_view_naming_what_the_board_has_not_is_refused(board: Board, view: BoardView) -> None:
    with pytest.raises(ValueError, match=r"attacks names Z99, which the board has not"):
        board_svg(board, BoardView(owners=view.owners, colours=view.colours, attacks=(("K4", "Z99"),)))
    with pytest.raises(ValueError, match=r"owners names S12, a sea"):
        board_svg(board, BoardView(owners={"S12": "BOR"}, colours=view.colours))
    with pytest.raises(ValueError, match=r"no colour for owner XYZ"):
        board_svg(board, BoardView(owners={"K4": "XYZ"}, colours={}))


def _distance(p: tuple[float, float], q: tuple[float, float]) -> float:
    return ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5
