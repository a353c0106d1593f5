"""The Grand Game's board as a picture: an SVG drawn with drawsvg and the same rasterised to PNG with resvg
(docs/grand-game.md, "The picture").

Both are pure functions of the board (the map file) and a `BoardView` (what the game state shows now: owners,
units, railroads, the phase's attacks), so a printout and the newsletter drawn from the same state are the
same bytes. The PNG is what a mail program shows inline (Gmail and Outlook show no SVG); the SVG goes beside
it for a player who wants to zoom.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import drawsvg as draw
import resvg_py

from maild_rules.grandgame.board import Board, Point, Territory, inside

SEA = "#a9cce3"
NEUTRAL = "#e4ddcc"
INK = "#1f1f1f"
BORDER = "#4d4d4d"
RIVER = "#1f5fbf"
RAIL = "#3a2a1a"
ATTACK = "#c0161b"
HALO = "#ffffff"
MOUNTAIN = "#7a5230"
# An attack arrow crosses the border: its line starts ARROW_TAIL before it, its head (a marker 3.6 stroke widths
# of 3 units long) ends ARROW_REACH past it; short, since labels stand close to every border.
ARROW_HEAD = 10.8
ARROW_TAIL = 6.0
ARROW_REACH = 11.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
# DejaVu Sans (free licence: fonts/LICENSE), its four faces: the labels use bold and italic.
FONTS = Path(__file__).with_name("fonts")

# Owners' colours the engine may hand out in order: light enough for black letters, far from the sea's blue,
# the neutral beige and the attack arrows' red, and told apart from their neighbours in the list.
OWNER_COLOURS = (
    "#e6a23c", "#7fbf5f", "#f2dc5d", "#8c8fd9", "#e88fb4", "#4fb3a9",
    "#c58b5a", "#b9d95b", "#f08a6c", "#b07cc6", "#6f9a5a", "#e3c9e8",
)

LEGEND_ROW = 22.0  # height of one legend row, in map units
LEGEND_PAD = 10.0

@dataclass(frozen=True)
class BoardView:
    """What the picture shows of a game at one moment; the engine fills it from its state.

    owners: each land territory's holder, a country id (or a player's id) or None for a neutral power; a
        land territory left out is drawn neutral.
    colours: a fill colour ("#rrggbb") for every owner that appears in `owners`, in the legend's order.
    names: the legend's label of an owner (default: the board's country name, else the id).
    units: a short label per territory ("3i 1a", "BOR 2F"), drawn under its name.
    supplies: the supplies in a territory, drawn as "5s".
    railroads: the land territories with a railroad now (None: the map's railroads at the start).
    destroyed: railroads destroyed in the phase shown, drawn broken.
    attacks: (from, to) territory pairs, drawn as arrows.
    caption: a line above the legend ("Spring 1937: attacks").
    """
    owners: Mapping[str, str | None] = field(default_factory=dict)
    colours: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    units: Mapping[str, str] = field(default_factory=dict)
    supplies: Mapping[str, int] = field(default_factory=dict)
    railroads: frozenset[str] | None = None
    destroyed: frozenset[str] = frozenset()
    attacks: tuple[tuple[str, str], ...] = ()
    caption: str = ""


def board_png(board: Board, view: BoardView, width: int = 1200) -> bytes:
    """The picture as PNG bytes, `width` pixels wide (the height keeps the drawing's proportions)."""
    if width < 1:
        raise ValueError(f"width must be at least 1 pixel, got {width}")
    # The fonts ship with the package and the machine's are not looked at: a server with no fonts still
    # draws every label, and the same view gives the same bytes on every machine.
    return bytes(resvg_py.svg_to_bytes(svg_string=board_svg(board, view), width=width, skip_system_fonts=True,
                                       font_dirs=[str(FONTS)], sans_serif_family="DejaVu Sans"))


def picture_size(board: Board, view: BoardView) -> tuple[float, float]:
    """The drawing's size in map units: the map with the legend below it."""
    return board.width, board.height + _legend_height(board, view)


def board_svg(board: Board, view: BoardView) -> str:
    """The picture as an SVG document. Raises ValueError when the view names a territory the board has not,
    or an owner with no colour (a colour the legend cannot explain)."""
    _check(board, view)
    width, height = picture_size(board, view)
    d = draw.Drawing(width, height, font_family=FONT)
    d.append(draw.Rectangle(0, 0, width, height, fill="#ffffff"))
    for t in board.territories.values():
        _territory(d, t, _fill(view, t))
    _rivers(d, board)
    _canals(d, board)
    _railroads(d, board, view)
    for t in board.territories.values():
        _marks(d, t)
    for t in board.territories.values():
        _label(d, t, view, board.width)
    _attacks(d, board, view)
    _legend(d, board, view)
    return d.as_svg()


# --- checks -----------------------------------------------------------------------------------------------


def _check(board: Board, view: BoardView) -> None:
    problems = []
    named: list[tuple[str, Iterable[str]]] = [
        ("owners", view.owners), ("units", view.units), ("supplies", view.supplies),
        ("railroads", view.railroads or ()), ("destroyed", view.destroyed),
        ("attacks", (t for pair in view.attacks for t in pair)),
    ]
    for what, ids in named:
        unknown = sorted({t for t in ids if t not in board.territories})
        if unknown:
            problems.append(f"{what} names {', '.join(unknown)}, which the board has not")
    for what, ids in (("owners", view.owners), ("railroads", view.railroads or ()), ("destroyed", view.destroyed)):
        seas = sorted(t for t in ids if t in board.territories and not board.territories[t].land)
        if seas:
            problems.append(f"{what} names {', '.join(seas)}, a sea (only land is held or has railroads)")
    missing = sorted({o for o in view.owners.values() if o is not None and o not in view.colours})
    if missing:
        problems.append(f"no colour for owner {', '.join(missing)}")
    if problems:
        raise ValueError("; ".join(problems))


# --- the map ----------------------------------------------------------------------------------------------


def _fill(view: BoardView, t: Territory) -> str:
    if not t.land:
        return SEA
    owner = view.owners.get(t.id)
    return NEUTRAL if owner is None else view.colours[owner]


def _territory(d: draw.Drawing, t: Territory, fill: str) -> None:
    d.append(draw.Lines(*_flat(t.outline), close=True, fill=fill, stroke=BORDER, stroke_width=0.8,
                        stroke_linejoin="round", id=f"t-{t.id}", class_=t.kind))


def _shared_edges(a: Territory, b: Territory) -> list[tuple[Point, Point]]:
    """The edges of a's outline that are also b's: the border between them (neighbours share corners)."""
    corners = set(b.outline)
    ring = a.outline + a.outline[:1]
    return [(p, q) for p, q in zip(ring, ring[1:], strict=False) if p in corners and q in corners]


def _border(a: Territory, b: Territory) -> list[tuple[Point, Point]]:
    """Where to draw a crossing between two neighbours: their shared edges, or, when their outlines do not
    share corners, a short stroke across the line between their `at` points, halfway."""
    edges = _shared_edges(a, b)
    if edges:
        return edges
    (x1, y1), (x2, y2) = a.at, b.at
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = -(y2 - y1) / length * 12, (x2 - x1) / length * 12
    return [((mx - nx, my - ny), (mx + nx, my + ny))]


def _rivers(d: draw.Drawing, board: Board) -> None:
    for pair in sorted(sorted(p) for p in board.rivers):
        a, b = (board.territories[t] for t in pair)
        for p, q in _border(a, b):
            d.append(draw.Line(*_r(p), *_r(q), stroke=RIVER, stroke_width=3.2, stroke_linecap="round",
                               class_="river"))


def _canals(d: draw.Drawing, board: Board) -> None:
    # A canal is a waterway through its territory, from the border with one sea to the border with the other.
    for c in board.canals:
        t = board.territories[c.territory]
        ends = [_middle(_border(t, board.territories[s])) for s in c.seas]
        d.append(draw.Lines(*_r(ends[0]), *_r(t.at), *_r(ends[1]), fill="none", stroke=RIVER, stroke_width=2.4,
                            stroke_dasharray="5 2", class_="canal"))


def _railroads(d: draw.Drawing, board: Board, view: BoardView) -> None:
    """A railway joins every two neighbouring railroad territories (docs/grand-game.md, reading 11)."""
    now = view.railroads if view.railroads is not None else frozenset(
        t.id for t in board.territories.values() if t.railroad)
    drawn = now | view.destroyed
    for a in sorted(drawn):
        for b in sorted(board.territories[a].neighbours):
            if b <= a or b not in drawn:
                continue
            p, q = _r(board.territories[a].at), _r(board.territories[b].at)
            if a in view.destroyed or b in view.destroyed:
                d.append(draw.Line(*p, *q, stroke=RAIL, stroke_width=1.6, stroke_dasharray="2 4",
                                   class_="railroad destroyed"))
                continue
            # The map sign for a railway: a dark line with white ties across it.
            d.append(draw.Line(*p, *q, stroke=RAIL, stroke_width=3.6, class_="railroad"))
            d.append(draw.Line(*p, *q, stroke=HALO, stroke_width=1.6, stroke_dasharray="4 4"))
    for t in sorted(view.destroyed):
        x, y = board.territories[t].at
        _cross_mark(d, x + 20, y + 4)


def _cross_mark(d: draw.Drawing, x: float, y: float) -> None:
    d.append(draw.Line(x - 5, y - 5, x + 5, y + 5, stroke=ATTACK, stroke_width=2.4, class_="cut"))
    d.append(draw.Line(x + 5, y - 5, x - 5, y + 5, stroke=ATTACK, stroke_width=2.4))


def _marks(d: draw.Drawing, t: Territory) -> None:
    """Terrain signs by the label: a mountain as a brown peak right of the id, a city as a square left of its
    name (a port's inside a blue ring)."""
    if t.mountain:
        left, top, right, bottom = _mountain_box(t)
        d.append(draw.Lines(left, bottom, (left + right) / 2, top, right, bottom, close=True, fill=MOUNTAIN,
                            stroke=HALO, stroke_width=0.8, class_="mountain"))
    if t.city is not None:
        cx, cy = _city_at(t)
        d.append(draw.Rectangle(cx - 4, cy - 4, 8, 8, fill=INK, stroke=HALO, stroke_width=1, class_="city"))
        if t.port:
            d.append(draw.Circle(cx, cy, 7, fill="none", stroke=RIVER, stroke_width=1.8, class_="port"))


def _city_at(t: Territory) -> Point:
    """The city's square: just left of its name (which _label_lines centres above the id)."""
    x, y = t.at
    return round(x - _text_width(t.city or "", 7.5) / 2 - 9, 1), y - 16


def _mountain_box(t: Territory) -> tuple[float, float, float, float]:
    x, y = t.at
    left = round(x + _text_width(t.id, 11) / 2 + 4, 1)
    return left, y - 12, left + 12, y - 2


def _text(d: draw.Drawing, text: str, size: float, x: float, y: float, width: float, **style: object) -> None:
    # Kept inside the drawing (a sea's name at the edge), with a white halo under the letters that keeps them
    # legible on any owner's colour and over railways.
    half = _text_width(text, size) / 2 + 2
    x = min(max(x, half), width - half) if width > 2 * half else x
    d.append(draw.Text(text, size, round(x, 1), round(y, 1), **{
        "text_anchor": "middle", "fill": INK, "stroke": HALO, "stroke_width": size / 4, "paint_order": "stroke",
        "stroke_linejoin": "round", **style}))


def _text_width(text: str, size: float) -> float:
    # DejaVu Sans (bold) averages about 0.62 em a letter: enough to keep a label off the edge.
    return 0.62 * size * len(text)


LabelLine = tuple[str, float, float, dict[str, str]]  # text, size, baseline below `at`, style


def _label_lines(t: Territory, view: BoardView) -> list[LabelLine]:
    """The label's lines, top to bottom: the city, the id, the name (on two lines if it is too wide), the
    units and supplies."""
    style = {} if t.land else {"font_style": "italic"}
    lines: list[LabelLine] = []
    if t.city is not None:
        lines.append((t.city, 7.5, -13, {"font_style": "italic"}))
    lines.append((t.id, 11, -2, {"font_weight": "bold", **style}))
    name = _wrap(t.name, 8, _chord(t) - 4)
    lines += [(part, 8, 8 + 8.5 * i, style) for i, part in enumerate(name)]
    units = view.units.get(t.id, "")
    if view.supplies.get(t.id):
        units = f"{units} {view.supplies[t.id]}s".strip()
    if units:
        lines.append((units, 10, 19 + 8.5 * (len(name) - 1), {"font_weight": "bold", "class_": "units"}))
    return lines


def _label(d: draw.Drawing, t: Territory, view: BoardView, width: float) -> None:
    x, y = t.at
    for text, size, dy, style in _label_lines(t, view):
        _text(d, text, size, x, y + dy, width, **style)


def _label_box(t: Territory, view: BoardView) -> tuple[float, float, float, float]:
    """The rectangle (left, top, right, bottom) the label covers, roughly: what an arrow should miss."""
    x, y = t.at
    lines = _label_lines(t, view)
    half = max(_text_width(text, size) for text, size, _, _ in lines) / 2
    top = min(dy - 0.75 * size for _, size, dy, _ in lines)
    bottom = max(dy + 0.25 * size for _, size, dy, _ in lines)
    return x - half, y + top, x + half, y + bottom


def _obstacles(t: Territory, view: BoardView) -> list[tuple[float, float, float, float]]:
    """What an arrow should not cover in a territory: its label and its signs (as _marks draws them)."""
    boxes = [_label_box(t, view)]
    if t.city is not None:
        cx, cy = _city_at(t)
        boxes.append((cx - 7, cy - 7, cx + 7, cy + 7))
    if t.mountain:
        boxes.append(_mountain_box(t))
    return boxes


def _wrap(name: str, size: float, room: float) -> list[str]:
    """A name too wide for its territory on two lines, split at the space nearest its middle."""
    if _text_width(name, size) <= room or " " not in name:
        return [name]
    spaces = [i for i, c in enumerate(name) if c == " "]
    cut = min(spaces, key=lambda i: abs(len(name) - 2 * i))
    return [name[:cut], name[cut + 1:]]


def _attacks(d: draw.Drawing, board: Board, view: BoardView) -> None:
    """A short arrow across the border, from the attacker's side into the target's, where the line between
    the two labels crosses it, moved along the border when that keeps it off both labels; drawn over them
    with a white casing. Two attacks between the same two territories, one each way, never share a place."""
    head = draw.Marker(0, -1, 2, 1, scale=1.8, orient="auto")
    head.append(draw.Lines(0, -1, 2, 0, 0, 1, close=True, fill=ATTACK))
    for a, b in dict.fromkeys(view.attacks):
        start, end = _arrow(board.territories[a], board.territories[b], view, (b, a) in view.attacks)
        group = draw.Group(class_="attack", data_from=a, data_to=b)
        group.append(draw.Line(*_r(start), *_r(end), stroke=HALO, stroke_width=5.5, stroke_linecap="round"))
        group.append(draw.Line(*_r(start), *_r(end), stroke=ATTACK, stroke_width=3, stroke_linecap="round",
                               marker_end=head))
        d.append(group)


def _arrow(ta: Territory, tb: Territory, view: BoardView, both_ways: bool) -> tuple[Point, Point]:
    """The arrow's line (its head goes on past the end), as _attacks says where: the place along the border,
    from the middle out, well inside both territories, that covers the fewest of their labels and signs."""
    (x1, y1), (x2, y2) = ta.at, tb.at
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    mx, my = _exit(ta, tb.at)
    tail, reach = min(ARROW_TAIL, length / 3), min(ARROW_REACH, length / 3)
    boxes = _obstacles(ta, view) + _obstacles(tb, view)

    def place(shift: float) -> tuple[Point, Point, Point]:
        cx, cy = mx - uy * shift, my + ux * shift
        return ((cx - ux * tail, cy - uy * tail), (cx + ux * (reach - ARROW_HEAD), cy + uy * (reach - ARROW_HEAD)),
                (cx + ux * reach, cy + uy * reach))

    # Offsets to the arrow's right first, so that the attack back (if any) takes the other side. Among the
    # places well inside both territories (not at a corner where a third meets them), the one that covers the
    # fewest labels and signs, the nearest the middle first.
    shifts = [k * step for k in range(1, 7) for step in (5.0, -5.0)]
    best: tuple[int, Point, Point] | None = None
    for shift in shifts if both_ways else [0.0] + shifts:
        p, end, tip = place(shift)
        wide = [(-uy * w, ux * w) for w in (-6.0, 6.0)]
        if not all(inside((p[0] + dx, p[1] + dy), ta.outline) and inside((tip[0] + dx, tip[1] + dy), tb.outline)
                   for dx, dy in wide):
            continue
        covered = sum(_touches(p, tip, box) for box in boxes)
        if best is None or covered < best[0]:
            best = (covered, p, end)
        if covered == 0:
            break
    if best is None:
        p, end, _ = place(4.0 if both_ways else 0.0)
        return p, end
    return best[1], best[2]


def _touches(p: Point, q: Point, box: tuple[float, float, float, float], margin: float = 3.0) -> bool:
    left, top, right, bottom = box
    for i in range(13):
        x, y = p[0] + (q[0] - p[0]) * i / 12, p[1] + (q[1] - p[1]) * i / 12
        if left - margin <= x <= right + margin and top - margin <= y <= bottom + margin:
            return True
    return False


# --- the legend -------------------------------------------------------------------------------------------


def _owner_entries(board: Board, view: BoardView) -> list[tuple[str, str]]:
    """(label, colour) per owner, in the order of view.colours, then neutral and sea."""
    entries = []
    for owner, colour in view.colours.items():
        name = view.names.get(owner) or (board.countries[owner].name if owner in board.countries else owner)
        entries.append((name, colour))
    return entries + [("Neutral", NEUTRAL), ("Sea", SEA)]


SIGNS = ("city", "port", "railroad", "railroad destroyed", "mountain", "river", "canal", "attack", "supplies")


def _entry_width(label: str) -> float:
    # DejaVu Sans at 11 units averages about 6.2 units a letter; the layout only needs to be roomy and stable.
    return 22 + 6.4 * len(label) + 16


def _rows(labels: list[str], width: float) -> list[list[str]]:
    rows: list[list[str]] = [[]]
    used = LEGEND_PAD
    for label in labels:
        w = _entry_width(label)
        if rows[-1] and used + w > width - LEGEND_PAD:
            rows.append([])
            used = LEGEND_PAD
        rows[-1].append(label)
        used += w
    return rows


def _legend_height(board: Board, view: BoardView) -> float:
    owners = _rows([n for n, _ in _owner_entries(board, view)], board.width)
    signs = _rows(list(SIGNS), board.width)
    caption = 1 if view.caption or board.title else 0
    return LEGEND_PAD * 2 + LEGEND_ROW * (len(owners) + len(signs) + caption)


def _legend(d: draw.Drawing, board: Board, view: BoardView) -> None:
    top = board.height
    d.append(draw.Line(0, top, board.width, top, stroke=BORDER, stroke_width=1.5))
    y = top + LEGEND_PAD
    title = " · ".join(p for p in (board.title, view.caption) if p)
    if title:
        d.append(draw.Text(title, 13, LEGEND_PAD, y + 14, fill=INK, font_weight="bold"))
        y += LEGEND_ROW
    colours = dict(_owner_entries(board, view))
    for row in _rows(list(colours), board.width):
        x = LEGEND_PAD
        for label in row:
            d.append(draw.Rectangle(x, y + 3, 16, 13, fill=colours[label], stroke=BORDER, stroke_width=0.8,
                                    class_="legend-owner"))
            d.append(draw.Text(label, 11, x + 22, y + 14, fill=INK))
            x += _entry_width(label)
        y += LEGEND_ROW
    for row in _rows(list(SIGNS), board.width):
        x = LEGEND_PAD
        for sign in row:
            _sign(d, sign, x, y + 9)
            d.append(draw.Text(sign, 11, x + 22, y + 14, fill=INK))
            x += _entry_width(sign)
        y += LEGEND_ROW


def _sign(d: draw.Drawing, sign: str, x: float, y: float) -> None:
    """The legend's sample of a sign, 16 units wide, centred on the row's middle `y`."""
    if sign in ("city", "port"):
        d.append(draw.Rectangle(x + 4, y - 4, 8, 8, fill=INK))
        if sign == "port":
            d.append(draw.Circle(x + 8, y, 7, fill="none", stroke=RIVER, stroke_width=1.8))
    elif sign == "railroad":
        d.append(draw.Line(x, y, x + 16, y, stroke=RAIL, stroke_width=3.6))
        d.append(draw.Line(x, y, x + 16, y, stroke=HALO, stroke_width=1.6, stroke_dasharray="4 4"))
    elif sign == "railroad destroyed":
        d.append(draw.Line(x, y, x + 16, y, stroke=RAIL, stroke_width=1.6, stroke_dasharray="2 4"))
        _cross_mark(d, x + 8, y)
    elif sign == "mountain":
        d.append(draw.Lines(x + 2, y + 5, x + 8, y - 5, x + 14, y + 5, close=True, fill=MOUNTAIN))
    elif sign == "river":
        d.append(draw.Line(x, y, x + 16, y, stroke=RIVER, stroke_width=3.2, stroke_linecap="round"))
    elif sign == "canal":
        d.append(draw.Line(x, y, x + 16, y, stroke=RIVER, stroke_width=2.4, stroke_dasharray="5 2"))
    elif sign == "attack":
        d.append(draw.Lines(x, y - 1.5, x + 9, y - 1.5, x + 9, y - 5, x + 16, y, x + 9, y + 5, x + 9, y + 1.5,
                            x, y + 1.5, close=True, fill=ATTACK))
    elif sign == "supplies":  # how _label_lines writes a territory's supplies after its units
        d.append(draw.Text("4s", 10, x + 8, y + 4, text_anchor="middle", fill=INK, font_weight="bold"))


# --- geometry ---------------------------------------------------------------------------------------------


def _r(p: Point) -> tuple[float, float]:
    return round(p[0], 1), round(p[1], 1)


def _flat(points: Iterable[Point]) -> list[float]:
    return [c for p in points for c in _r(p)]


def _chord(t: Territory) -> float:
    """The width of the territory's outline along the horizontal through its `at`: the room for its name."""
    x, y = t.at
    left, right = -math.inf, math.inf
    ring = t.outline + t.outline[:1]
    for (x1, y1), (x2, y2) in zip(ring, ring[1:], strict=False):
        if (y1 > y) != (y2 > y):
            cx = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if cx <= x:
                left = max(left, cx)
            else:
                right = min(right, cx)
    return right - left


def _exit(t: Territory, towards: Point) -> Point:
    """Where the line from t's `at` towards a point first leaves t's outline (halfway if it does not)."""
    (x1, y1), (x2, y2) = t.at, towards
    best = math.inf
    ring = t.outline + t.outline[:1]
    for (x3, y3), (x4, y4) in zip(ring, ring[1:], strict=False):
        den = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3)
        if den == 0:
            continue
        s = ((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3)) / den
        u = ((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1)) / den
        if 0 < s <= 1 and 0 <= u <= 1:
            best = min(best, s)
    best = best if best != math.inf else 0.5
    return x1 + (x2 - x1) * best, y1 + (y2 - y1) * best


def _middle(edges: list[tuple[Point, Point]]) -> Point:
    xs = [c[0] for e in edges for c in e]
    ys = [c[1] for e in edges for c in e]
    return sum(xs) / len(xs), sum(ys) / len(ys)
