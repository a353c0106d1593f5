"""A combat season (spring, fall, winter): every player's orders, resolved in the rules' order.

1. Attacks on a Neutral Power are announced first and the League of Nations meets (its own phase, league.py);
   the season's orders wait in state["pending"]["season"] and `resolve_league` goes on with them.
2. Rail moves ("Rail movements happen before other movements when resolving orders"), rail.py.
3. The air war: aircraft assigned to zones fight for superiority ("When combat reconciliation begins, air units
   fight first"), strategic bombing, the atomic bomb (airwar.py).
4. The sea: loading, sailing, searches and naval battles (naval.py).
5. The land: moves and attacks, head-on battles, battles (two-sided, multi-way, coordinated: landbattle.py), then
   advances, beaten attackers back where they came from and beaten defenders' retreats.
6. Aircraft land; railroads destroyed this season go; territories change hands.

Readings of the open points (GG-OQ-nn) are in docs/grand-game.md, "The seasons", each with its test. The orders'
forms are seasonorders.py's.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from maild.ruleset import Diagnostic, Order, OrderKind, PlacedOrder

from . import airwar, battlecards, league, naval, rail, seasonorders
from .board import Board
from .combat import AIRCRAFT, ARMOR, HEAVY_FLEET, INFANTRY, crossed_by_all, terrain_bonus
from .economy import SUPPLY, league_reinforcements
from .landbattle import Footing, Troop
from .landwar import LandWar
from .names import Names
from .reading import Read
from .report import Report
from .seasoncheck import check_orders
from .state import (
    CARGO,
    NEUTRAL,
    State,
    add,
    board,
    owner,
    player,
    playing,
    stack,
    zone_control,
)

KINDS: frozenset[str] = frozenset({
    "move", "moves", "sail", "unload", "load", "rail", "permit", "reserve", "only", "losses", "hold", "destroy",
    "air", "bombing", "drop", "coordinate", "canal"})
LEAGUE_KINDS: frozenset[str] = frozenset({"contribute"})

ORDER_KINDS: tuple[OrderKind, ...] = (
    OrderKind("move", "N KIND FROM -> TO [attack] [with N supply] [with PLAYER]",
              "move land units one territory; into another's territory it is an attack", "2 inf K4 -> K5 attack"),
    OrderKind("attack", "attack TO with N KIND from FROM [and N KIND from FROM2]", "the same, written the other way",
              "attack K5 with 2 inf, 1 arm from K4"),
    OrderKind("attack", "attack TO with PLAYER", "a coordinated attack (both players name each other)",
              "attack K5 with bruno"),
    OrderKind("losses", "losses TO PLAYER", "coordinating players: who takes the losses first", "losses K5 bruno"),
    OrderKind("reserve", "reserve N KIND FROM [-> TO]", "units of an attack that stay behind when it wins",
              "reserve 1 inf K4"),
    OrderKind("hold", "hold [TERRITORY]", "stay (what units without orders do)", "hold K4"),
    OrderKind("only", "only N infantry use supply in TERRITORY", "spare supplies when attacked",
              "only 2 infantry use supply in K4"),
    OrderKind("rail", "rail N KIND FROM -> TO", "move along a railway, before all other moves", "rail 3 inf K2 -> K5"),
    OrderKind("allow", "allow PLAYER rail [in T1, T2] [up to N units] [supplies only] [not in my cities]",
              "let another player use your railways this season", "allow bruno rail in K3, K4 up to 3 units"),
    OrderKind("load", "load N KIND FROM onto SEA", "board your fleets in a sea next to it (a full season)",
              "load 2 inf K2 onto S02"),
    OrderKind("unload", "unload N KIND SEA -> TO", "land from your fleets (a full season; an attack if hostile)",
              "unload 2 inf S02 -> L2"),
    OrderKind("sail", "N lf|hf FROM -> TO [with N KIND]", "fleets sail one territory (out of or into a port too)",
              "2 lf K2 -> S02 with 2 inf"),
    OrderKind("allow", "allow PLAYER canal [TERRITORY]", "let another player's fleets pass your canal this season",
              "allow bruno canal H8"),
    OrderKind("destroy", "destroy railroad TERRITORY", "one of your units there destroys the railroad",
              "destroy railroad K3"),
    OrderKind("air", "N air ZONE|TERRITORY -> ZONE land TERRITORY", "aircraft fight over a zone, then land",
              "2 air ZC -> ZD land K3"),
    OrderKind("bomb", "bomb zone ZONE [with N air]", "strategic bombing where you have air superiority",
              "bomb zone ZD with 2 air"),
    OrderKind("drop", "drop bomb on ZONE", "the atomic bomb: the zone's value to 0", "drop bomb on ZD"),
    OrderKind("contribute", "contribute N [to TERRITORY]", "the League of Nations: Francs for a neutral's defense",
              "contribute 24 to C5"),
)

ORDERS = "Your orders"
LEAGUE = "The League of Nations"
AIR = "The air war"
RAILROADS = "Railroads"


def read_line(line: str) -> Read | str | None:
    return seasonorders.read_line(line)


def say(report: Report, title: str, line: str) -> None:
    """A newsletter line (printout.py fits it to a mail program's width)."""
    report.say(title, line)


def tell(report: Report, who: str, line: str) -> None:
    """A line of `who`'s printout under "Your orders"."""
    report.tell(who, ORDERS, line)


# ---- the orders as given -------------------------------------------------------------------------------------

@dataclass
class Given:
    player: str
    seq: int
    line: int
    kind: str
    args: dict[str, Any]
    summary: str


def _given(state: State, orders: dict[str, list[PlacedOrder]]) -> list[Given]:
    rank = {p["name"]: i for i, p in enumerate(state["players"])}
    found = [Given(name, po.seq, po.order.line, po.order.kind, po.order.args, po.order.summary)
             for name, placed in orders.items() for po in placed if po.order.kind in KINDS | LEAGUE_KINDS]
    found.sort(key=lambda g: (g.seq, rank.get(g.player, 0), g.line))
    # "moves" (an attack from several places in one line) is one move per place.
    out = []
    for g in found:
        if g.kind == "moves":
            out += [Given(g.player, g.seq, g.line, "move", a, g.summary) for a in g.args["groups"]]
        else:
            out.append(g)
    return out


# ---- resolving -------------------------------------------------------------------------------------------------

def neutral_targets(state: State, given: list[Given]) -> dict[str, list[str]]:
    """Land territories of a Neutral Power that orders move into: territory -> the players attacking it."""
    names = Names(state)
    found: dict[str, list[str]] = {}
    for g in given:
        if g.kind in ("move", "unload"):
            target = names.t(g.args["to"])
            if target is not None and target in state["owners"] and owner(state, target) is None:
                found.setdefault(target, [])
                if g.player not in found[target]:
                    found[target].append(g.player)
    return dict(sorted(found.items(), key=lambda kv: list(board(state).territories).index(kv[0])))


def resolve(state: State, turn: int, season: str, orders: dict[str, list[PlacedOrder]], rng: random.Random,
            report: Report) -> list[str] | None:
    """Resolve `season`; when units attack a Neutral Power, stop before anything moves and return who may
    contribute to the League (every player): the League's phase then opens and `resolve_league` goes on."""
    given = _given(state, orders)
    attacked = neutral_targets(state, given)
    if attacked:
        state["pending"]["season"] = {
            "season": season, "attacked": attacked,
            "orders": {name: [{"order": po.order.to_json(), "seq": po.seq} for po in placed]
                       for name, placed in orders.items()}}
        b = board(state)
        say(report, LEAGUE, "Neutral territory is attacked; the League of Nations meets before anything moves.")
        for t, who in attacked.items():
            say(report, LEAGUE, f"{' and '.join(who)} attack{'s' if len(who) == 1 else ''} {b.territories[t].name} "
                               f"({t}).")
        say(report, LEAGUE, "Every player may chip in Francs: 'contribute 24 to T' (12 Francs add 1 infantry and "
                           "1 supply there).")
        return playing(state)
    Season(state, turn, season, given, rng, report).run()
    return None


def resolve_league(state: State, turn: int, season: str, orders: dict[str, list[PlacedOrder]],
                   rng: random.Random, report: Report) -> None:
    """The League's contributions, then the rest of the season."""
    pending = state["pending"].pop("season")
    attacked: dict[str, list[str]] = pending["attacked"]
    names = Names(state)
    pools: dict[str, dict[str, int]] = {t: {} for t in attacked}
    for g in _given(state, orders):
        if g.kind != "contribute":
            continue
        p = player(state, g.player)
        francs = min(g.args["francs"], p["francs"])
        to = names.t(g.args["to"]) if g.args["to"] else None
        if g.args["to"] and to not in attacked:
            tell(report, g.player, f"{g.summary}: refused, {g.args['to']} is not attacked this season")
            continue
        if francs < g.args["francs"]:
            tell(report, g.player, f"{g.summary}: you have only {p['francs']} Francs; {francs} given")
        for t, n in league.shares(francs, to, list(attacked)).items():
            if n:
                pools[t][g.player] = pools[t].get(g.player, 0) + n
        p["francs"] -= francs
    b = board(state)
    for t, pool in pools.items():
        added = league_reinforcements(pool)
        for who, back in league.refunds(pool).items():
            player(state, who)["francs"] += back
            spent = pool[who] - back
            tell(report, who, f"Your {pool[who]} Francs for {b.territories[t].name} ({t}): {spent} spent"
                                     + (f", {back} returned (they buy no infantry)" if back else ""))
        if added:
            add(state, t, NEUTRAL, INFANTRY, added)
            add(state, t, NEUTRAL, SUPPLY, added)
        total = sum(pool.values())
        who = ", ".join(f"{p} {n}" for p, n in pool.items()) or "nobody"
        say(report, LEAGUE, f"{b.territories[t].name} ({t}): {total} Francs ({who}): {added} infantry and {added} "
                            "supply join its defense.")
    stored = {name: [PlacedOrder(Order.from_json(o["order"]), o["seq"]) for o in placed]
              for name, placed in pending["orders"].items()}
    Season(state, turn, pending["season"], _given(state, stored), rng, report).run()


class Season:
    """One season's resolution over the state, in the rules' order."""

    def __init__(self, state: State, turn: int, season: str, given: list[Given], rng: random.Random,
                 report: Report) -> None:
        self.state, self.turn, self.season, self.rng, self.report = state, turn, season, rng, report
        self.board: Board = board(state)
        self.names = Names(state)
        self.given = [g for g in given if g.kind in KINDS]
        self.order_index = {t: i for i, t in enumerate(self.board.territories)}
        self.cards = battlecards.deck(state)
        self.start_owners: dict[str, str | None] = dict(state["owners"])
        # Units that arrived by rail (they may not leave this season) and units committed to a railroad.
        self.arrived: dict[tuple[str, str], dict[str, int]] = {}
        self.committed: dict[tuple[str, str], str] = {}
        self.only: dict[tuple[str, str], int] = {}
        self.first: dict[str, set[str]] = {}  # territory -> players named in "losses" orders there
        self.partners: dict[tuple[str, str], set[str]] = {}  # (player, territory) -> partners named
        self.flights: list[airwar.Flight] = []
        self.sky = airwar.Sky({}, {})
        self.destroyed: list[str] = []

    # -- helpers -------------------------------------------------------------------------------------------------

    def tell(self, who: str, line: str) -> None:
        tell(self.report, who, line)

    def say(self, title: str, line: str) -> None:
        say(self.report, title, line)

    def name(self, t: str) -> str:
        return f"{self.board.territories[t].name} ({t})"

    def free(self, who: str, t: str, kind: str) -> int:
        """Units of `kind` of `who` in `t` that may still take an order."""
        n = stack(self.state, t, who).get(kind, 0) - self.arrived.get((who, t), {}).get(kind, 0)
        if self.committed.get((who, t)) == kind:
            n -= 1
        return max(n, 0)

    def take(self, who: str, t: str, units: dict[str, int]) -> tuple[dict[str, int], str]:
        """Take up to `units` off `who`'s stack in `t`; what was taken, and a note when it was less."""
        taken, short = {}, []
        for kind, n in units.items():
            k = min(n, self.free(who, t, kind))
            if k:
                taken[kind] = k
                add(self.state, t, who, kind, -k)
            if k < n:
                short.append(f"{k} of {n} {kind}")
        return taken, ("only " + ", ".join(short) + " could go") if short else ""

    # -- the season ----------------------------------------------------------------------------------------------

    def run(self) -> None:
        self.standing_orders()
        self.rail()
        self.take_off()
        self.air()
        naval.Sea(self).run()
        self.land()
        self.landing()
        self.railroads()

    def standing_orders(self) -> None:
        """Orders that only set how others resolve: hold, only, losses, coordinate, destroy, permit."""
        self.permissions: list[rail.Permission] = []
        self.canals: set[tuple[str, str, str | None]] = set()  # (holder, allowed player, canal territory | all)
        # (player, sea) of unload orders: those fleets stay to unload; and fleets that sailed in this season.
        self.unloading = {(g.player, self.names.t(g.args["from"])) for g in self.given if g.kind == "unload"}
        self.sailed_into: set[tuple[str, str]] = set()
        for g in self.given:
            if g.kind == "hold":
                self.tell(g.player, f"{g.summary}: done")
            elif g.kind == "only":
                t = self.names.t(g.args["territory"])
                if t is None:
                    self.tell(g.player, f"{g.summary}: refused, no territory {g.args['territory']}")
                    continue
                self.only[(g.player, t)] = g.args["count"]
                self.tell(g.player, f"{g.summary}: noted")
            elif g.kind == "losses":
                t, first = self.names.t(g.args["territory"]), self.names.p(g.args["first"])
                if t is None or first is None:
                    self.tell(g.player, f"{g.summary}: refused, unknown territory or player")
                    continue
                self.first.setdefault(t, set()).add(first)
                self.tell(g.player, f"{g.summary}: noted")
            elif g.kind == "coordinate":
                t = self.names.t(g.args["to"])
                if t is not None:
                    named = {self.names.p(n) for n in g.args["partners"]} - {None, g.player}
                    self.partners.setdefault((g.player, t), set()).update(n for n in named if n)
                    self.tell(g.player, f"{g.summary}: noted (it counts if they name you too)")
            elif g.kind == "permit":
                grantee = self.names.p(g.args["player"])
                if grantee is None:
                    self.tell(g.player, f"{g.summary}: refused, no player {g.args['player']}")
                    continue
                self.permissions.append(rail.Permission.from_args(g.player, g.args, grantee))
                self.tell(g.player, f"{g.summary}: given for this season")
            elif g.kind == "destroy":
                self.commit(g)
            elif g.kind == "canal":
                grantee, at = self.names.p(g.args["player"]), self.names.t(g.args["territory"])
                if grantee is None:
                    self.tell(g.player, f"{g.summary}: refused, no player {g.args['player']}")
                    continue
                self.canals.add((g.player, grantee, at))
                self.tell(g.player, f"{g.summary}: given for this season")

    def commit(self, g: Given) -> None:
        """"To destroy a railroad, one unit myst commit its season to destroying the railroad." The unit stays,
        defends unsupplied, and the railroad is gone at the end of the season (GG-OQ-15)."""
        t = self.names.t(g.args["territory"])
        if t is None or t not in self.state["railroads"]:
            self.tell(g.player, f"{g.summary}: refused, there is no railroad in {g.args['territory']}")
            return
        kind = next((k for k in (INFANTRY, ARMOR) if self.free(g.player, t, k)), None)
        if kind is None:
            self.tell(g.player, f"{g.summary}: refused, you have no land unit in {t}")
            return
        self.committed[(g.player, t)] = kind
        self.destroyed.append(t)
        self.tell(g.player, f"{g.summary}: one {kind} works at it all season")

    # -- rail --------------------------------------------------------------------------------------------------

    def rail(self) -> None:
        railroads = set(self.state["railroads"])
        for g in self.given:
            if g.kind != "rail":
                continue
            src, dst = self.names.t(g.args["from"]), self.names.t(g.args["to"])
            if src is None or dst is None:
                self.tell(g.player, f"{g.summary}: refused, unknown territory")
                continue
            units = {k: min(n, self.free(g.player, src, k)) for k, n in g.args["units"].items()}
            units = {k: n for k, n in units.items() if n}
            if not units:
                self.tell(g.player, f"{g.summary}: nothing of yours to move in {src}")
                continue
            way = rail.journey(self.board, railroads, self.start_owners, g.player, src, dst, units,
                               self.permissions)
            if way.end != src:
                taken, _ = self.take(g.player, src, units)
                for kind, n in taken.items():
                    add(self.state, way.end, g.player, kind, n)
                    if kind != SUPPLY:
                        here = self.arrived.setdefault((g.player, way.end), {})
                        here[kind] = here.get(kind, 0) + n
            if way.complete:
                self.tell(g.player, f"{g.summary}: arrived in {self.name(dst)}")
            elif way.end != src:
                self.tell(g.player, f"{g.summary}: stopped in {self.name(way.end)}: {way.reason}")
            else:
                self.tell(g.player, f"{g.summary}: did not move: {way.reason}")

    # -- air ---------------------------------------------------------------------------------------------------

    def take_off(self) -> None:
        for g in self.given:
            if g.kind != "air":
                continue
            zone, land = self.names.z(g.args["zone"]), self.names.t(g.args["land"])
            origin_zone = self.names.z(g.args["from"])
            origins = (list(self.board.zones[origin_zone].territories) if origin_zone
                       else [t] if (t := self.names.t(g.args["from"])) else [])
            if zone is None or land is None or not origins:
                self.tell(g.player, f"{g.summary}: refused, unknown zone or territory")
                continue
            want = g.args["count"]
            for t in origins:
                if want == 0:
                    break
                problem = airwar.range_problem(self.board, t, zone, land)
                at_sea = not self.board.territories[t].land
                aboard = stack(self.state, t, g.player).get(CARGO, {}).get(AIRCRAFT, 0)
                n = min(want, aboard if at_sea else self.free(g.player, t, AIRCRAFT))
                if n == 0:
                    continue
                if problem:
                    self.tell(g.player, f"{g.summary}: refused, {problem}")
                    want = 0
                    break
                if at_sea:  # off the heavy fleets that base them
                    add(self.state, t, g.player, AIRCRAFT, -n, cargo=True)
                else:
                    self.take(g.player, t, {AIRCRAFT: n})
                self.flights.append(airwar.Flight(g.player, t, zone, land, n, g.seq, g.summary))
                want -= n
            flown = g.args["count"] - want
            if flown and want:
                self.tell(g.player, f"{g.summary}: only {flown} aircraft could fly")
            elif not flown and want:
                self.tell(g.player, f"{g.summary}: you have no aircraft free there")

    def air(self) -> None:
        self.sky = airwar.fight_for_the_skies(self.flights, self.rng)
        for zone, planes in sorted(self.sky.assigned.items()):
            if len(planes) < 2:
                continue
            left = self.sky.left[zone]
            parts = ", ".join(f"{p} {n} (left {left[p]})" for p, n in planes.items())
            sup = self.sky.superior(zone)
            self.say(AIR, f"Zone {zone}: {parts}; "
                          + (f"{sup[0]} has air superiority by {sup[1]}." if sup else "nobody has superiority."))
        alone: dict[str, list[str]] = {}
        for zone, planes in sorted(self.sky.assigned.items()):
            if len(planes) == 1:
                (who, n), = planes.items()
                alone.setdefault(who, []).append(f"{zone} ({n})")
        for who, zones in alone.items():
            self.say(AIR, f"{who} has air superiority unopposed over {', '.join(zones)}.")
        self.bombing()
        self.the_bomb()

    def bombing(self) -> None:
        done: set[tuple[str, str]] = set()
        for g in self.given:
            if g.kind != "bombing":
                continue
            zone = self.names.z(g.args["zone"])
            if zone is None:
                self.tell(g.player, f"{g.summary}: refused, no zone {g.args['zone']}")
                continue
            sup = self.sky.superior(zone)
            if sup is None or sup[0] != g.player:
                self.tell(g.player, f"{g.summary}: no damage, you do not have air superiority over {zone}")
                continue
            if (g.player, zone) in done:
                continue
            done.add((g.player, zone))
            before = self.state["zones"][zone]
            after, damage = airwar.bomb_damage(before, sup[1], g.args["count"])
            self.state["zones"][zone] = after
            self.tell(g.player, f"{g.summary}: {damage} damage")
            self.say(AIR, f"{g.player} bombs zone {zone} ({self.board.zones[zone].name}) with air superiority by "
                          f"{sup[1]}: its value {before} -> {after}.")

    def planes_of(self, who: str) -> Iterable[str]:
        """Zones where `who` has aircraft now: on the ground or in the air."""
        for t, s in self.state["forces"].items():
            if who in s and s[who].get(AIRCRAFT):
                yield self.board.zone_of(t)
        for f in self.flights:
            if f.player == who and f.count:
                yield f.zone

    def the_bomb(self) -> None:
        for g in self.given:
            if g.kind != "drop":
                continue
            zone = self.names.z(g.args["zone"])
            p = player(self.state, g.player)
            if zone is None:
                self.tell(g.player, f"{g.summary}: refused, no zone {g.args['zone']}")
            elif p["bombs"] < 1:
                self.tell(g.player, f"{g.summary}: refused, you have no bomb (section The Bomb)")
            elif not any(airwar.zone_distance(self.board, z, zone) is not None for z in set(self.planes_of(g.player))):
                self.tell(g.player, f"{g.summary}: refused, {zone} is not within two zones of one of your aircraft")
            else:
                p["bombs"] -= 1
                before = self.state["zones"][zone]
                self.state["zones"][zone] = 0
                self.tell(g.player, f"{g.summary}: dropped")
                self.say(AIR, f"{g.player} drops the atomic bomb on zone {zone} ({self.board.zones[zone].name}): "
                              f"its value {before} -> 0.")

    def superior(self, who: str, *territories: str) -> bool:
        zones = [self.board.zone_of(t) for t in territories]
        sup = self.sky.superior_over(zones) if len(set(zones)) > 1 else self.sky.superior(zones[0])
        return sup is not None and sup[0] == who

    def landing(self) -> None:
        """"If an aircraft ends its turn in a zone that is controlled by the enemy, the unit is lost." GG-OQ-23:
        lost when its landing territory is not its player's at the end of the season, or its zone is under
        another player's full or partial control."""
        for f in self.flights:
            if not f.count:
                self.tell(f.player, f"{f.summary}: all shot down")
                continue
            controller, _ = zone_control(self.state, self.board.zone_of(f.land))
            if not self.board.territories[f.land].land:
                self.land_at_sea(f, controller)
                continue
            holder = owner(self.state, f.land)
            if holder == f.player and controller in (None, f.player):
                add(self.state, f.land, f.player, AIRCRAFT, f.count)
                self.tell(f.player, f"{f.summary}: {f.count} landed in {self.name(f.land)}")
            else:
                why = (f"{f.land} is not yours" if holder != f.player
                       else f"zone {self.board.zone_of(f.land)} is {controller}'s")
                self.tell(f.player, f"{f.summary}: {f.count} lost on landing: {why}")
                self.say(AIR, f"{f.player} loses {f.count} aircraft landing in {self.name(f.land)}.")

    def land_at_sea(self, f: airwar.Flight, controller: str | None) -> None:
        """"Heavy fleets can base up to one aircraft": aircraft land on their player's heavy fleets in a sea, one a
        fleet; those with no deck are lost, and so are all in a zone another player controls."""
        here = stack(self.state, f.land, f.player)
        room = here.get(HEAVY_FLEET, 0) - here.get(CARGO, {}).get(AIRCRAFT, 0)
        landed = 0 if controller not in (None, f.player) else max(min(f.count, room), 0)
        if landed:
            add(self.state, f.land, f.player, AIRCRAFT, landed, cargo=True)
        lost = f.count - landed
        why = f"zone {self.board.zone_of(f.land)} is {controller}'s" if controller not in (None, f.player) \
            else "no heavy fleet of yours with room"
        self.tell(f.player, f"{f.summary}: {landed} landed on your heavy fleets in {f.land}"
                            + (f", {lost} lost: {why}" if lost else ""))
        if lost:
            self.say(AIR, f"{f.player} loses {lost} aircraft landing in {self.name(f.land)}.")

    def railroads(self) -> None:
        gone = [t for t in dict.fromkeys(self.destroyed) if t in self.state["railroads"]]
        if gone:
            self.state["railroads"] = [t for t in self.state["railroads"] if t not in gone]
            for t in gone:
                self.report.destroyed.append(t)
                self.say(RAILROADS, f"The railroad in {self.name(t)} is destroyed.")

    # -- land --------------------------------------------------------------------------------------------------

    def land(self) -> None:
        LandWar(self).run()

    def footing_in(self, t: str, terrain: int) -> Any:
        """How each troop fights in a battle in `t`."""
        def footing(troop: Troop) -> Footing:
            air = troop.player != NEUTRAL and self.superior(troop.player, t)
            if troop.attacking:
                return Footing(True, 0, air)
            return Footing(False, terrain, air)
        return footing

    def terrain(self, t: str, attackers: Iterable[Troop]) -> tuple[int, list[str]]:
        """The defending infantry's bonus in `t` against `attackers`, and its parts in words."""
        here = self.board.territories[t]
        crossed = crossed_by_all(self.crossings(tr.src, t) for tr in attackers)
        winter = self.season == "winter"
        parts = (["city"] if here.city else []) + (["mountain"] if here.mountain else []) + sorted(crossed) \
            + (["winter"] if winter else [])
        return terrain_bonus(city=bool(here.city), mountain=here.mountain, crossed=crossed, winter=winter), parts

    def crossings(self, src: str, t: str) -> set[str]:
        found = set()
        if self.board.river(src, t):
            found.add("river")
        if self.board.shoreline(src, t):
            found.add("shoreline")
        if self.board.canal_across(t, src):
            found.add("canal")
        return found


# ---- intake checks ----------------------------------------------------------------------------------------------

def check(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    return check_orders(state, name, orders)
