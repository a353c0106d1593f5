"""The sea step of a season: loading at sea, fleets sailing, searches and naval battles (seasearch.py), and
attacks into ports (section Sea Combat; GG-OQ-24).

- A fleet moves one territory a season: from a sea to a sea next to it, out of a port to a sea next to it, into
  a port from a sea next to it ("Sailing out of a port costs one unit of movement, as does sailing into a port"),
  or through a canal its player holds, from one of its seas to the other.
- Loading from the land onto fleets at sea takes the season of the units and the fleets ("the ship must already
  be in the sea territory"): fleets that load do not sail. In a port units go aboard as the fleets sail out
  ("2 lf K5 -> S12 with 2 inf", free), and a fleet sailing into its own port unloads there at once.
- After the moves, each two navies in a sea search for each other (each armada once, 10% a ship, certain with air
  superiority over the sea's zone); fleets that sailed through each other search first, with the aircraft of both
  zones. When either finds the other they fight at attack strength (seasearch.naval_battle), each fleet supplied
  from its own cargo (one supply a fleet, once a season) or at 1. Ships sink empty ones first; what the sunk
  fleets carried beyond what the others can carry goes down with them.
- A fleet sailing into a hostile port fights the fleets in it without a search, they defending at +1, and goes
  back to the sea it came from ("A player may attack into a hostile port with sea units but may not conquer it").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .combat import AIRCRAFT, HEAVY_FLEET, LIGHT_FLEET, unit_value
from .economy import SUPPLY
from .seasearch import CARGO as CAPACITY
from .seasearch import draw_search, naval_battle, search_chance, sinking_order
from .state import CARGO, FLEETS, LAND_UNITS, add, owner, stack

if TYPE_CHECKING:
    from .season import Season

SEA = "At sea"


def capacity(fleets: dict[str, int]) -> dict[str, int]:
    """What fleets carry at most: land units, aircraft, supplies."""
    lf, hf = fleets.get(LIGHT_FLEET, 0), fleets.get(HEAVY_FLEET, 0)
    return {"land": CAPACITY[LIGHT_FLEET][0] * lf, AIRCRAFT: CAPACITY[HEAVY_FLEET][0] * hf,
            SUPPLY: CAPACITY[LIGHT_FLEET][1] * lf + CAPACITY[HEAVY_FLEET][1] * hf}


def overload(fleets: dict[str, int], cargo: dict[str, int]) -> str:
    room = capacity(fleets)
    land = sum(cargo.get(k, 0) for k in LAND_UNITS)
    if land > room["land"]:
        return f"{land} land units need {(land + 1) // 2} light fleets"
    if cargo.get(AIRCRAFT, 0) > room[AIRCRAFT]:
        return f"{cargo[AIRCRAFT]} aircraft need as many heavy fleets"
    if cargo.get(SUPPLY, 0) > room[SUPPLY]:
        return f"{cargo[SUPPLY]} supplies need {(cargo[SUPPLY] + 5) // 6} fleets"
    return ""


class Sea:
    def __init__(self, season: Season) -> None:
        self.s = season
        self.state = season.state
        self.board = season.board
        self.loaded: set[tuple[str, str]] = set()  # (player, sea) whose fleets loaded this season
        self.sailed: list[tuple[str, str, str, dict[str, int]]] = []  # (player, from, to, fleets)

    def run(self) -> None:
        self.loads()
        self.sails()
        self.searches()

    # -- loading -----------------------------------------------------------------------------------------------

    def loads(self) -> None:
        s = self.s
        for g in s.given:
            if g.kind != "load":
                continue
            src, sea = s.names.t(g.args["from"]), s.names.t(g.args["onto"]) if g.args["onto"] else None
            if src is None:
                s.tell(g.player, f"{g.summary}: refused, unknown territory")
                continue
            if sea is None:
                s.tell(g.player, f"{g.summary}: refused, in a port units go aboard as the fleets sail out: "
                                 "'2 lf K5 -> S12 with 2 inf'")
                continue
            if not self.board.adjacent(src, sea) or self.board.territories[sea].land:
                s.tell(g.player, f"{g.summary}: refused, {sea} is not a sea next to {src}")
                continue
            fleets = {k: stack(self.state, sea, g.player).get(k, 0) for k in FLEETS}
            aboard = dict(stack(self.state, sea, g.player).get(CARGO, {}))
            want = dict(g.args["units"])
            for k, n in want.items():
                aboard[k] = aboard.get(k, 0) + n
            problem = "you have no fleet there" if not any(fleets.values()) else overload(fleets, aboard)
            if problem:
                s.tell(g.player, f"{g.summary}: refused, {problem}")
                continue
            taken, note = s.take(g.player, src, want)
            for k, n in taken.items():
                add(self.state, sea, g.player, k, n, cargo=True)
            self.loaded.add((g.player, sea))
            s.tell(g.player, f"{g.summary}: aboard" + (f" ({note})" if note else ""))

    # -- sailing -----------------------------------------------------------------------------------------------

    def route_problem(self, who: str, src: str, dst: str) -> str:
        b = self.board
        a, z = b.territories[src], b.territories[dst]
        if not a.land and not z.land:
            if b.adjacent(src, dst):
                return ""
            for c in b.canals:
                if set(c.seas) == {src, dst}:
                    # "As long as the player possesses (or obtains permission from the owner of) the canal"
                    holder = self.s.start_owners.get(c.territory)
                    allowed = holder == who or {(holder, who, c.territory), (holder, who, None)} & self.s.canals
                    return "" if allowed else (f"the {c.name} in {c.territory} is not yours and "
                                               f"{holder or 'its Neutral Power'} has not let you pass")
            return f"{dst} is not next to {src}"
        if not b.adjacent(src, dst):
            return f"{dst} is not next to {src}"
        if a.land and not a.port or z.land and not z.port:
            return "fleets sail between seas and ports only"
        if a.land and z.land:
            return "fleets sail between seas and ports only"
        return ""

    def sails(self) -> None:
        s = self.s
        for g in s.given:
            if g.kind != "sail":
                continue
            src, dst = s.names.t(g.args["from"]), s.names.t(g.args["to"])
            if src is None or dst is None:
                s.tell(g.player, f"{g.summary}: refused, unknown territory")
                continue
            problem = self.route_problem(g.player, src, dst)
            if not problem and (g.player, src) in self.loaded:
                problem = "these fleets loaded this season and may not sail"
            if not problem and (g.player, src) in s.unloading:
                problem = "your fleets there unload this season and may not sail (a full season)"
            if problem:
                s.tell(g.player, f"{g.summary}: refused, {problem}")
                continue
            fleets, note = s.take(g.player, src, g.args["units"])
            if not fleets:
                s.tell(g.player, f"{g.summary}: you have no fleets free in {src}")
                continue
            cargo = self.take_cargo(g.player, src, fleets, g.args.get("cargo") or {})
            problem = overload(fleets, cargo)
            if problem:
                self.put(src, g.player, fleets, cargo)
                s.tell(g.player, f"{g.summary}: refused, {problem}")
                continue
            if self.board.territories[dst].land and owner(self.state, dst) != g.player:
                self.port_attack(g.player, src, dst, fleets, cargo, g.summary)
                continue
            self.put(dst, g.player, fleets, cargo)
            self.sailed.append((g.player, src, dst, fleets))
            s.sailed_into.add((g.player, dst))
            s.tell(g.player, f"{g.summary}: sailed to {s.name(dst)}" + (f" ({note})" if note else ""))

    def take_cargo(self, who: str, src: str, fleets: dict[str, int], written: dict[str, int]) -> dict[str, int]:
        """What sails with the fleets: from a port, what the order names (taken off the port's stack); at sea,
        what it names of the cargo, or all the cargo when every fleet there sails."""
        if self.board.territories[src].land:
            taken, _ = self.s.take(who, src, written)
            return taken
        aboard = dict(stack(self.state, src, who).get(CARGO, {}))
        staying = any(stack(self.state, src, who).get(k, 0) for k in FLEETS)
        want = written if written else ({} if staying else aboard)
        taken = {k: min(n, aboard.get(k, 0)) for k, n in want.items() if min(n, aboard.get(k, 0))}
        for k, n in taken.items():
            add(self.state, src, who, k, -n, cargo=True)
        return taken

    def put(self, t: str, who: str, fleets: dict[str, int], cargo: dict[str, int]) -> None:
        at_sea = not self.board.territories[t].land
        for k, n in fleets.items():
            add(self.state, t, who, k, n)
        for k, n in cargo.items():
            add(self.state, t, who, k, n, cargo=at_sea)

    def port_attack(self, who: str, src: str, port: str, fleets: dict[str, int], cargo: dict[str, int],
                    summary: str) -> None:
        """"Combat in ports automatically triggers an engagement and no "search" roll is necessary." "The
        defending fleet receives a +1 defensive bonus for fighting within the port." The attackers then go back
        to the sea they came from."""
        s = self.s
        s.report.arrow(src, port)
        defenders = [side for side in self.state["forces"].get(port, {}) if side != who
                     and any(stack(self.state, port, side).get(k) for k in FLEETS)]
        if not defenders:
            self.put(src, who, fleets, cargo)
            s.tell(who, f"{summary}: no fleet in {port} to fight; back in {src}")
            return
        side = defenders[0]
        theirs = {k: stack(self.state, port, side).get(k, 0) for k in FLEETS}
        supplies = stack(self.state, port, side).get(SUPPLY, 0)
        mine_fed = self.fed(fleets, cargo.get(SUPPLY, 0))
        cargo[SUPPLY] = cargo.get(SUPPLY, 0) - sum(mine_fed.values())
        their_fed = self.fed(theirs, supplies)
        if sum(their_fed.values()):
            add(self.state, port, side, SUPPLY, -sum(their_fed.values()))
        a = self.strength(fleets, mine_fed, who, port, attacking=True)
        d = self.strength(theirs, their_fed, side, port, attacking=False, in_port=True)
        fought = naval_battle(a, sum(fleets.values()), d, sum(theirs.values()), s.rng)
        mine_left, cargo_left, mine_sunk = self.sink(fleets, cargo, fought.lost)
        their_left, _, their_sunk = self.sink(theirs, {}, fought.enemy_lost)
        for k, n in theirs.items():
            add(self.state, port, side, k, their_left.get(k, 0) - n)
        self.put(src, who, mine_left, cargo_left)
        s.say("Battles", f"Port of {s.name(port)}: {who}'s {self.words(fleets)} (strength {a}) attack {side}'s "
                         f"{self.words(theirs)} (strength {d}, +1 in port). Sunk: {who} {self.words(mine_sunk)}, "
                         f"{side} {self.words(their_sunk)}; {who} back in {src}.")
        s.tell(who, f"{summary}: fought in {port}, back in {src}")

    # -- searches and battles ----------------------------------------------------------------------------------

    @staticmethod
    def fed(fleets: dict[str, int], supplies: int) -> dict[str, int]:
        """Fleets that get a supply: heavy first (4 against 1 on attack), one each, as far as they go."""
        out = {}
        for k in (HEAVY_FLEET, LIGHT_FLEET):
            n = min(fleets.get(k, 0), supplies)
            if n:
                out[k] = n
                supplies -= n
        return out

    def strength(self, fleets: dict[str, int], fed: dict[str, int], who: str, where: str, attacking: bool,
                 in_port: bool = False) -> int:
        air = self.s.superior(who, where)
        total = 0
        for k, n in fleets.items():
            f = fed.get(k, 0)
            total += f * unit_value(k, attacking=attacking, supplied=True, air_superiority=air, in_port=in_port)
            total += (n - f) * unit_value(k, attacking=attacking, supplied=False, air_superiority=air,
                                          in_port=in_port)
        return total

    @staticmethod
    def sink(fleets: dict[str, int], cargo: dict[str, int], count: int) -> tuple[dict[str, int], dict[str, int],
                                                                                dict[str, int]]:
        """Fleets left, cargo left and fleets sunk when `count` ships go down: empty ones first
        (seasearch.sinking_order); what the rest cannot carry is lost with the sunk ones."""
        land = sum(cargo.get(k, 0) for k in LAND_UNITS)
        room_needed = {LIGHT_FLEET: -(-land // 2), HEAVY_FLEET: cargo.get(AIRCRAFT, 0)}
        ships = []
        for k in (LIGHT_FLEET, HEAVY_FLEET):
            loaded = min(fleets.get(k, 0), room_needed[k])
            ships += [(k, True)] * loaded + [(k, False)] * (fleets.get(k, 0) - loaded)
        sunk: dict[str, int] = {}
        for i in sinking_order(ships)[:count]:
            sunk[ships[i][0]] = sunk.get(ships[i][0], 0) + 1
        left = {k: fleets.get(k, 0) - sunk.get(k, 0) for k in fleets if fleets.get(k, 0) - sunk.get(k, 0)}
        room = capacity(left)
        kept = dict(cargo)
        land = room["land"]
        for k in LAND_UNITS:
            kept[k] = min(kept.get(k, 0), land)
            land -= kept[k]
        kept[AIRCRAFT] = min(kept.get(AIRCRAFT, 0), room[AIRCRAFT])
        kept[SUPPLY] = min(kept.get(SUPPLY, 0), room[SUPPLY])
        return left, {k: n for k, n in kept.items() if n}, sunk

    @staticmethod
    def words(units: dict[str, int]) -> str:
        return ", ".join(f"{n} {k}" for k, n in units.items() if n) or "none"

    def navy(self, sea: str, who: str) -> dict[str, int]:
        return {k: stack(self.state, sea, who).get(k, 0) for k in FLEETS if stack(self.state, sea, who).get(k, 0)}

    def searches(self) -> None:
        """Each two navies in one sea search for each other, players in the setup's order; fleets that swapped
        seas search first (with both zones' aircraft)."""
        s = self.s
        rank = {p["name"]: i for i, p in enumerate(self.state["players"])}
        done: set[frozenset[str]] = set()
        for who, src, dst, _ in self.sailed:
            for other, src2, dst2, _ in self.sailed:
                pair = frozenset((who, other, src, dst))
                if other != who and src2 == dst and dst2 == src and pair not in done:
                    done.add(pair)
                    if self.board.territories[src].land or self.board.territories[dst].land:
                        continue
                    self.engage(dst, who, src, other)
        for sea in [t for t in s.board.territories if not s.board.territories[t].land]:
            navies = sorted((side for side in self.state["forces"].get(sea, {}) if self.navy(sea, side)),
                            key=lambda p: rank.get(p, len(rank)))
            for i, a in enumerate(navies):
                for b in navies[i + 1:]:
                    self.engage(sea, a, sea, b)

    def engage(self, sea_a: str, a: str, sea_b: str, b: str) -> None:
        """Navy `a` (in `sea_a`) and navy `b` (in `sea_b`) search, and fight if either finds the other; air
        superiority over both seas' zones combined when they differ."""
        s = self.s
        fa, fb = self.navy(sea_a, a), self.navy(sea_b, b)
        if not fa or not fb:
            return
        sup_a = s.superior(a, sea_a, sea_b)
        sup_b = s.superior(b, sea_a, sea_b)
        na, nb = sum(fa.values()), sum(fb.values())
        found = draw_search(na, nb, s.rng, air_superiority=sup_a, enemy_air_superiority=sup_b)
        where = s.name(sea_a) if sea_a == sea_b else f"between {sea_b} and {sea_a}"
        chances = (f"{a} {na} ships ({round(100 * float(search_chance(na, sup_a)))}%), "
                   f"{b} {nb} ({round(100 * float(search_chance(nb, sup_b)))}%)")
        if not found.engaged:
            s.say(SEA, f"{where}: {chances} search; neither finds the other.")
            return
        ca = dict(stack(self.state, sea_a, a).get(CARGO, {}))
        cb = dict(stack(self.state, sea_b, b).get(CARGO, {}))
        fed_a, fed_b = self.fed(fa, ca.get(SUPPLY, 0)), self.fed(fb, cb.get(SUPPLY, 0))
        for sea, who, fed in ((sea_a, a, fed_a), (sea_b, b, fed_b)):
            if sum(fed.values()):
                add(self.state, sea, who, SUPPLY, -sum(fed.values()), cargo=True)
        ca[SUPPLY] = ca.get(SUPPLY, 0) - sum(fed_a.values())
        cb[SUPPLY] = cb.get(SUPPLY, 0) - sum(fed_b.values())
        sa = self.strength(fa, fed_a, a, sea_a, attacking=True)
        sb = self.strength(fb, fed_b, b, sea_b, attacking=True)
        fought = naval_battle(sa, na, sb, nb, s.rng)
        for sea, who, fleets, cargo, count in ((sea_a, a, fa, ca, fought.lost), (sea_b, b, fb, cb, fought.enemy_lost)):
            left, kept, _ = self.sink(fleets, cargo, count)
            for k, n in fleets.items():
                add(self.state, sea, who, k, left.get(k, 0) - n)
            for k in set(cargo) | set(kept):
                diff = kept.get(k, 0) - cargo.get(k, 0)
                if diff and sea in self.state["forces"] and who in self.state["forces"][sea]:
                    add(self.state, sea, who, k, diff, cargo=True)
        s.say(SEA, f"{where}: {chances} search; they meet. Strengths {a} {sa}, {b} {sb}. Sunk: {a} "
                   f"{fought.lost}, {b} {fought.enemy_lost}.")
