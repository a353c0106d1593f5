"""A large Grand Game map for the benchmark (bench/bench_grandgame.py): a grid of square territories, land
inside a ring of sea, zones of 2x2 or 2x3 land cells, twelve countries in vertical bands, a city every few
cells, a railroad along every fourth row. Not a map to play on: a board of a given size that the loader
accepts, to time a season and its pictures."""

from __future__ import annotations

from typing import Any

CELL = 60.0


def cell_id(r: int, c: int) -> str:
    return f"T{r:02d}{c:02d}"


def build(rows: int = 22, cols: int = 21, countries: int = 12) -> dict[str, Any]:
    """rows x cols cells; the outer ring is sea, split into sea territories of 4 cells (so about 400
    territories in all for the default size)."""
    land = [(r, c) for r in range(1, rows - 1) for c in range(1, cols - 1)]
    ring = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in set(land)]
    sea_of: dict[tuple[int, int], str] = {}
    for i, cell in enumerate(sorted(ring, key=_ring_order(rows, cols))):
        sea_of[cell] = f"S{i // 4:03d}"
    ident = {cell: cell_id(*cell) for cell in land} | sea_of
    neighbours: dict[str, set[str]] = {}
    for (r, c), name in ident.items():
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            other = ident.get((r + dr, c + dc))
            if other is not None and other != name:
                neighbours.setdefault(name, set()).add(other)
                neighbours.setdefault(other, set()).add(name)
    band = (cols - 2) / countries
    country_of = {cell: min(int((cell[1] - 1) / band), countries - 1) for cell in land}
    zones: dict[str, list[str]] = {}
    zone_of: dict[str, str] = {}
    for r, c in land:
        zone = f"Z{(r - 1) // 2:02d}{(c - 1) // 2:02d}"
        zones.setdefault(zone, []).append(cell_id(r, c))
        zone_of[cell_id(r, c)] = zone
    for sea in sea_of.values():
        if sea in zone_of:
            continue
        land_next = sorted(n for n in neighbours[sea] if n in zone_of and not n.startswith("S"))
        zone = zone_of[land_next[0]] if land_next else next(iter(zones))
        zones[zone].append(sea)
        zone_of[sea] = zone
    territories = []
    for name in sorted(neighbours):
        cells = [cell for cell, n in ident.items() if n == name]
        is_land = not name.startswith("S")
        r, c = cells[0]
        t: dict[str, Any] = {"id": name, "name": f"Place {name}", "kind": "land" if is_land else "sea",
                             "next": sorted(neighbours[name])}
        if is_land:
            coastal = any(n.startswith("S") for n in neighbours[name])
            if (r * 7 + c * 3) % 9 == 0:
                t["city"] = f"City {name}"
                t["port"] = coastal
            t["railroad"] = r % 4 == 1
            t["mountain"] = (r + c) % 11 == 0
            t["at"] = [c * CELL + CELL / 2, r * CELL + CELL / 2]
            t["outline"] = _square(r, c)
        else:
            # A sea of several ring cells is drawn as its first cell (the picture needs one polygon).
            t["at"] = [c * CELL + CELL / 2, r * CELL + CELL / 2]
            t["outline"] = _square(r, c)
        territories.append(t)
    by_country: dict[int, list[str]] = {}
    for cell, k in country_of.items():
        by_country.setdefault(k, []).append(cell_id(*cell))
    return {
        "title": "Benchmark grid",
        "players": countries,
        "drawing": {"width": cols * CELL, "height": rows * CELL},
        "territory": territories,
        "zone": [{"id": z, "name": f"Zone {z}", "value": len([t for t in ts if not t.startswith("S")]) + 2,
                  "territories": ts} for z, ts in zones.items()],
        "country": [{"id": f"C{k:02d}", "name": f"Country {k}", "size": "large" if k % 2 == 0 else "small",
                     "territories": ts} for k, ts in sorted(by_country.items())],
    }


def _square(r: int, c: int) -> list[list[float]]:
    x, y = c * CELL, r * CELL
    return [[x + 1, y + 1], [x + CELL - 1, y + 1], [x + CELL - 1, y + CELL - 1], [x + 1, y + CELL - 1]]


def _ring_order(rows: int, cols: int) -> Any:
    # Walk the ring clockwise so the sea territories are runs of neighbouring cells.
    def key(cell: tuple[int, int]) -> tuple[int, int]:
        r, c = cell
        if r == 0:
            return (0, c)
        if c == cols - 1:
            return (1, r)
        if r == rows - 1:
            return (2, -c)
        return (3, -r)
    return key
