"""The land step of a season: moves and attacks, head-on battles, the battle for each territory attacked, then
advances, beaten attackers back where they came from (fighting again if it was taken), and beaten defenders'
retreats. Readings: docs/grand-game.md, "The seasons" (GG-OQ-17, 19, 21, 22)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import landbattle
from .combat import AIRCRAFT, ARMOR, INFANTRY, attacker_takes_space
from .economy import SUPPLY
from .landbattle import Footing, Troop
from .state import CARGO, FLEETS, NEUTRAL, SHORT, add, owner, sides_in, stack

if TYPE_CHECKING:
    from .season import Season

BATTLES = "Battles"
AFTER = "Advances and retreats"
KINDS_IN_BATTLE = (INFANTRY, ARMOR, AIRCRAFT)


def short(units: dict[str, int]) -> str:
    return " ".join(f"{n}{SHORT[k]}" for k, n in units.items() if n) or "none"


class LandWar:
    def __init__(self, season: Season) -> None:
        self.s = season
        self.state = season.state
        self.board = season.board
        self.armies: list[Troop] = []
        self.to: dict[int, str] = {}  # id(troop) -> target
        self.back: list[Troop] = []  # head-on losers, home again before the battles
        self.results: list[tuple[str, list[Troop], list[Troop], str | None, list[Troop]]] = []

    # -- gathering the armies ----------------------------------------------------------------------------------

    def gather(self) -> None:
        s = self.s
        index: dict[tuple[str, str, str], Troop] = {}
        for g in s.given:
            if g.kind not in ("move", "unload"):
                continue
            src, dst = s.names.t(g.args["from"]), s.names.t(g.args["to"])
            if src is None or dst is None:
                s.tell(g.player, f"{g.summary}: refused, unknown territory")
                continue
            by_sea = g.kind == "unload"
            problem = self.route_problem(src, dst, by_sea)
            if not problem and by_sea and (g.player, src) in s.sailed_into:
                problem = (f"your fleets sailed into {src} this season: unloading must be done by a ship already in "
                           "the sea (a full season)")
            if problem:
                s.tell(g.player, f"{g.summary}: refused, {problem}")
                continue
            units = {k: n for k, n in g.args["units"].items() if k in (INFANTRY, ARMOR)}
            if by_sea:
                taken, note = self.take_cargo(g.player, src, units)
            else:
                taken, note = s.take(g.player, src, units)
            want = g.args.get("supply")
            if by_sea:
                want = g.args["units"].get(SUPPLY, sum(taken.values()) if want is None else want)
                supply, _ = self.take_cargo(g.player, src, {SUPPLY: want})
            else:
                if want is None:
                    want = sum(taken.values())
                supply, _ = s.take(g.player, src, {SUPPLY: want})
            carried = supply.get(SUPPLY, 0)
            if not taken and not carried:
                s.tell(g.player, f"{g.summary}: nothing of yours to move in {src}")
                continue
            if not taken and owner(self.state, dst) != g.player:
                self.give_back(g.player, src, {SUPPLY: carried}, by_sea)
                s.tell(g.player, f"{g.summary}: refused, supplies alone do not attack (no land unit moves)")
                continue
            if note:
                s.tell(g.player, f"{g.summary}: {note}")
            key = (g.player, src, dst)
            troop = Troop(g.player, src, taken, carried, attacking=owner(self.state, dst) != g.player,
                          by_sea=by_sea, seq=g.seq, orders=[g.summary],
                          partners=frozenset(p for n in g.args.get("partners", []) if (p := s.names.p(n))))
            if key in index:
                index[key].merge(troop)
            else:
                index[key] = troop
                self.armies.append(troop)
                self.to[id(troop)] = dst
        for troop in self.armies:
            troop.partners |= frozenset(s.partners.get((troop.player, self.to[id(troop)]), set()))
        self.reserves()

    def give_back(self, who: str, src: str, units: dict[str, int], by_sea: bool) -> None:
        for k, n in units.items():
            add(self.state, src, who, k, n, cargo=by_sea)

    def route_problem(self, src: str, dst: str, by_sea: bool) -> str:
        b = self.board
        if not b.adjacent(src, dst):
            return f"{dst} is not next to {src}"
        if not b.territories[dst].land:
            return f"{dst} is a sea: land units go to sea aboard fleets ('load')"
        if by_sea != (not b.territories[src].land):
            return "units land from a sea with 'unload'" if by_sea else f"{src} is a sea: write 'unload'"
        return ""

    def take_cargo(self, who: str, sea: str, units: dict[str, int]) -> tuple[dict[str, int], str]:
        aboard = stack(self.state, sea, who).get(CARGO, {})
        taken = {k: min(n, aboard.get(k, 0)) for k, n in units.items()}
        taken = {k: n for k, n in taken.items() if n}
        for k, n in taken.items():
            add(self.state, sea, who, k, -n, cargo=True)
        short_ = [f"{taken.get(k, 0)} of {n} {k}" for k, n in units.items() if taken.get(k, 0) < n]
        return taken, ("only " + ", ".join(short_) + " aboard") if short_ else ""

    def reserves(self) -> None:
        s = self.s
        for g in s.given:
            if g.kind != "reserve":
                continue
            at, to = s.names.t(g.args["at"]), s.names.t(g.args["to"])
            mine = [t for t in self.armies if t.player == g.player and t.src == at and t.attacking
                    and (to is None or self.to[id(t)] == to)]
            if not mine:
                s.tell(g.player, f"{g.summary}: refused, you attack nothing from {g.args['at']}")
                continue
            troop = mine[0]
            for k, n in g.args["units"].items():
                troop.reserve[k] = min(troop.reserve.get(k, 0) + n, troop.units.get(k, 0))
            s.tell(g.player, f"{g.summary}: noted")

    # -- the battles -------------------------------------------------------------------------------------------

    def run(self) -> None:
        self.gather()
        for troop in self.armies:
            if troop.attacking:
                self.s.report.arrow(troop.src, self.to[id(troop)])
        self.head_on()
        self.coming: dict[str, list[Troop]] = {}
        for army in self.armies:
            self.coming.setdefault(self.to[id(army)], []).append(army)
        for t in sorted(self.coming, key=self.s.order_index.__getitem__):
            self.battle(t)
        self.aftermath()

    def head_on(self) -> None:
        """"If two sets of enemy armies are attacking into their respective spaces, they engage at attack strength,
        and air superiority is determined by combining the aircraft from both air zones". The loser's attack is
        over (its survivors are home again and defend there); the winner's goes on into the loser's space with what
        is left of it (GG-OQ-21)."""
        by_way: dict[tuple[str, str], list[Troop]] = {}
        for army in self.armies:
            if army.attacking:
                by_way.setdefault((army.src, self.to[id(army)]), []).append(army)
        pairs = [(a, b) for a in self.armies if a.attacking for b in by_way.get((self.to[id(a)], a.src), [])
                 if a.player < b.player]
        for a, b in pairs:
            if a not in self.armies or b not in self.armies:
                continue
            x, y = a.src, b.src

            def footing(tr: Troop, x: str = x, y: str = y) -> Footing:
                return Footing(True, 0, tr.player != NEUTRAL and self.s.superior(tr.player, x, y))
            out = landbattle.fight([a], [b], footing, self.s.cards, self.s.rng, set(), None)
            winner, loser = (a, b) if out.attacker_wins else (b, a)
            self.report_battle(f"Head-on between {self.s.name(x)} and {self.s.name(y)}", [a], [b], out,
                               f"{winner.player} wins; {loser.player}'s army falls back to {loser.src}")
            self.armies.remove(loser)
            loser.attacking = False
            for line in loser.orders:
                self.s.tell(loser.player, f"{line}: met {winner.player}'s army head-on and lost, back in {loser.src}")
            if loser.total():
                self.back.append(loser)
            else:
                self.lost_supplies(loser)
            if not winner.total():
                self.armies.remove(winner)
                self.lost_supplies(winner)

    def defenders(self, t: str) -> list[Troop]:
        """The stacks in `t` that stay there, taken off the board for the battle."""
        found = []
        for side in sides_in(self.state, t):
            here = stack(self.state, t, side)
            units = {k: here.get(k, 0) for k in KINDS_IN_BATTLE if here.get(k, 0)}
            if not units:
                continue
            supply = here.get(SUPPLY, 0)
            for k, n in units.items():
                add(self.state, t, side, k, -n)
            if supply:
                add(self.state, t, side, SUPPLY, -supply)
            committed = self.s.committed.get((side, t))
            found.append(Troop(side, t, units, supply, only=self.s.only.get((side, t)),
                               unfed={committed: 1} if committed else {}))
        for tr in [tr for tr in self.back if tr.src == t]:
            self.back.remove(tr)
            mine = next((d for d in found if d.player == tr.player), None)
            if mine is None:
                found.append(tr)
            else:
                mine.merge(tr)
        return found

    def battle(self, t: str) -> None:
        s = self.s
        coming = self.coming[t]
        holder = owner(self.state, t)
        present = {side for side in sides_in(self.state, t) if any(stack(self.state, t, side).get(k)
                                                                    for k in KINDS_IN_BATTLE)}
        present |= {tr.player for tr in self.back if tr.src == t}
        friendly = [a for a in coming if a.player == holder or a.player in present]
        hostile = [a for a in coming if a not in friendly]
        if not hostile:
            for a in friendly:
                self.results.append((t, [a], [], None, []))
            return
        defenders = self.defenders(t)
        for a in friendly:
            a.attacking = False
            defenders.append(a)
        sides = self.coordinated(hostile)
        terrain, parts = s.terrain(t, hostile)
        footing = s.footing_in(t, terrain)
        first = s.first.get(t, set())
        title = f"{s.name(t)}"
        if not defenders and len(sides) == 1:
            taker = self.taker(sides[0])
            self.results.append((t, sides[0], [], taker, []))
            movers = sorted({a.player for a in sides[0]})
            s.say(BATTLES, f"{title}: {' and '.join(movers)} move{'s' if len(movers) == 1 else ''} in unopposed.")
            return
        if len(sides) == 1:
            out = landbattle.fight(sides[0], defenders, footing, s.cards, s.rng, first, holder)
            a_left = sum(tr.land_units() for tr in sides[0])
            d_left = sum(tr.total() for tr in defenders)
            takes = attacker_takes_space(out.attacker_wins, a_left, d_left)
            result = ("The attack wins and takes it" if takes and out.attacker_wins
                      else "The defense wins but has no unit left: the attack takes it" if takes
                      else "The defense holds" if not out.attacker_wins
                      else "The attack wins but has no land unit left: the defense keeps it")
            self.report_battle(title, sides[0], defenders, out, result, parts)
            if takes:
                self.results.append((t, sides[0], [], self.taker(sides[0]), defenders))
            else:
                self.results.append((t, defenders, sides[0], None, []))
            return
        # Multi-way: the defenders (if any) are one side, each attacking side another.
        all_sides = ([defenders] if defenders else []) + sides
        fought = landbattle.melee(all_sides, footing, 0 if defenders else None, s.rng, first, holder)
        names = [" and ".join(sorted({self.label(tr.player, t) for tr in side})) for side in all_sides]
        s.say(BATTLES, f"{title}: a battle of {len(all_sides)} sides ({', '.join(names)}): "
                       + ", ".join(f"{n} {st}" for n, st in zip(names, fought.strengths, strict=True))
                       + (f"; defending infantry +{terrain} ({', '.join(parts)})" if terrain and defenders else "")
                       + ".")
        self.say_losses(fought.lost, t)
        if fought.occupant is None or (defenders and fought.occupant == 0):
            keeper = names[0] if defenders else (holder or self.label(NEUTRAL, t))
            s.say(BATTLES, f"  {keeper} keeps {t} (surviving values "
                           + ", ".join(f"{n} {v}" for n, v in zip(names, fought.survivors, strict=True)) + ").")
            stay = defenders
            beaten = [tr for side in sides for tr in side]
            self.results.append((t, stay, beaten, None, []))
        else:
            winner = all_sides[fought.occupant]
            s.say(BATTLES, f"  {names[fought.occupant]} occupies {t} (surviving values "
                           + ", ".join(f"{n} {v}" for n, v in zip(names, fought.survivors, strict=True)) + ").")
            beaten = [tr for i, side in enumerate(sides, start=1 if defenders else 0) if i != fought.occupant
                      for tr in side]
            self.results.append((t, winner, beaten, self.taker(winner), defenders))

    def coordinated(self, hostile: list[Troop]) -> list[list[Troop]]:
        """Attacking troops in sides: a player's troops together, and two players who name each other as
        partners (in their moves or an "attack T with PLAYER" line) together (GG-OQ-22)."""
        players = list(dict.fromkeys(a.player for a in sorted(hostile, key=lambda a: a.seq)))
        named = {p: set().union(*(a.partners for a in hostile if a.player == p)) for p in players}
        group = {p: p for p in players}

        def root(p: str) -> str:
            while group[p] != p:
                p = group[p]
            return p
        for p in players:
            for q in named[p]:
                if q in group and p in named.get(q, set()):
                    group[root(q)] = root(p)
        sides: dict[str, list[Troop]] = {}
        for p in players:
            sides.setdefault(root(p), []).extend(a for a in hostile if a.player == p)
        return list(sides.values())

    @staticmethod
    def taker(side: list[Troop]) -> str:
        """Who of a coordinated side holds the territory taken: the most land units, then the earliest order."""
        count: dict[str, int] = {}
        for tr in side:
            count[tr.player] = count.get(tr.player, 0) + tr.land_units()
        return max(count, key=lambda p: (count[p], -min(tr.seq for tr in side if tr.player == p)))

    # -- after the battles -------------------------------------------------------------------------------------

    def aftermath(self) -> None:
        """Territories change hands, winners advance, beaten attackers go back, beaten defenders retreat: in that
        order, so that a retreat knows who holds what."""
        s = self.s
        returning: list[Troop] = []
        retreating: list[tuple[str, Troop, set[str]]] = []
        for t, stay, beaten, taker, routed in self.results:
            if taker is not None and taker != owner(self.state, t):
                s.report.event("conquest", territory=t, player=taker, was=owner(self.state, t))
                self.state["owners"][t] = taker
            for tr in stay:
                if tr.attacking and tr.reserve:
                    held = Troop(tr.player, tr.src, {}, 0, attacking=True, orders=tr.orders)
                    for k, n in tr.reserve.items():
                        n = min(n, tr.units.get(k, 0))
                        if n:
                            tr.units[k] -= n
                            held.units[k] = n
                    if held.total():
                        returning.append(held)
                self.place(t, tr)
                for line in tr.orders:
                    if tr.attacking:
                        s.tell(tr.player, f"{line}: won, in {s.name(t)}")
                    elif tr.src != t:
                        s.tell(tr.player, f"{line}: moved to {s.name(t)}")
            enemy_from = {tr.src for tr in beaten + stay if tr.attacking}
            for tr in beaten:
                if tr.attacking:
                    returning.append(tr)
                else:
                    retreating.append((t, tr, enemy_from))
            for tr in routed:
                retreating.append((t, tr, enemy_from))
        for tr in returning:
            self.go_back(tr)
        for t, tr, enemy_from in retreating:
            self.retreat(t, tr, enemy_from)
        for tr in self.back:  # head-on losers whose home was not attacked
            self.place(tr.src, tr)
        for t, *_ in self.results:
            if owner(self.state, t) != self.s.start_owners.get(t):
                self.put_to_sea(t)

    def put_to_sea(self, port: str) -> None:
        """What is left in a territory that changed hands, of players with no unit there: fleets in a port put to
        sea, to the first sea next to it in the map's order (a fleet is not conquered with the land: "Ports are
        land territories that may house friendly sea units"); supplies with no unit to hold them are lost."""
        holder = owner(self.state, port)
        for side in sides_in(self.state, port):
            here = stack(self.state, port, side)
            if side == holder or any(here.get(k) for k in KINDS_IN_BATTLE):
                continue
            if here.get(SUPPLY):
                self.s.say(AFTER, f"{self.label(side, port)}'s {here[SUPPLY]} supply in {port} are lost.")
                add(self.state, port, side, SUPPLY, -here[SUPPLY])
            fleets = {k: stack(self.state, port, side).get(k, 0) for k in FLEETS}
            if not any(fleets.values()):
                continue
            sea = min((n for n in self.board.territories[port].neighbours if not self.board.territories[n].land),
                      key=self.s.order_index.__getitem__)
            for k, n in fleets.items():
                if n:
                    add(self.state, port, side, k, -n)
                    add(self.state, sea, side, k, n)
            self.s.say(AFTER, f"{side}'s fleets leave {port} for {sea}.")

    def place(self, t: str, tr: Troop) -> None:
        for k, n in tr.units.items():
            add(self.state, t, tr.player, k, n)
        add(self.state, t, tr.player, SUPPLY, tr.supply)

    def lost_supplies(self, tr: Troop) -> None:
        if tr.supply:
            self.s.say(AFTER, f"{tr.player} loses {tr.supply} supply with the army.")

    def go_back(self, tr: Troop) -> None:
        """A beaten attacker "must retreat back to the space it came from. If another army now occupies that
        space, the attacking army must now fight again at defensive strength, and now becomes a defending army"
        (GG-OQ-21: the occupant attacks; if it holds, the army has nowhere to go and is lost)."""
        s = self.s
        if not tr.total():
            self.lost_supplies(tr)
            for line in tr.orders:
                s.tell(tr.player, f"{line}: beaten, nobody came back")
            return
        tr.attacking = False
        src = tr.src
        if tr.by_sea:
            fleets = stack(self.state, src, tr.player)
            if any(fleets.get(k) for k in FLEETS):
                for k, n in tr.units.items():
                    add(self.state, src, tr.player, k, n, cargo=True)
                add(self.state, src, tr.player, SUPPLY, tr.supply, cargo=True)
                for line in tr.orders:
                    s.tell(tr.player, f"{line}: beaten, back aboard in {src}")
            else:
                s.say(AFTER, f"{tr.player}'s {tr.short()} find no ship in {src} and are lost.")
                for line in tr.orders:
                    s.tell(tr.player, f"{line}: beaten, no ship to go back to: lost")
            return
        holder = owner(self.state, src)
        # Home is as it was unless the space was taken this season ("If another army now occupies that space").
        if holder == tr.player or holder == self.s.start_owners.get(src):
            self.place(src, tr)
            for line in tr.orders:
                s.tell(tr.player, f"{line}: beaten, back in {s.name(src)}")
            return
        occupants = self.defenders(src)
        if not occupants:
            self.state["owners"][src] = tr.player
            self.place(src, tr)
            return
        for o in occupants:
            o.attacking = True
        terrain, parts = s.terrain(src, [])
        out = landbattle.fight(occupants, [tr], s.footing_in(src, terrain), s.cards, s.rng, set(), tr.player)
        keeps = attacker_takes_space(out.attacker_wins, sum(o.land_units() for o in occupants), tr.total())
        self.report_battle(f"{s.name(src)} again", occupants, [tr], out,
                           f"{holder} keeps it; {tr.player}'s army has nowhere to go and is lost" if keeps
                           else f"{tr.player} takes it back", parts)
        if keeps:
            for o in occupants:
                self.place(src, o)
            for line in tr.orders:
                s.tell(tr.player, f"{line}: beaten, and lost fighting for {src} again")
            return
        self.state["owners"][src] = tr.player
        self.place(src, tr)
        for line in tr.orders:
            s.tell(tr.player, f"{line}: beaten, took {s.name(src)} back")
        for o in occupants:
            o.attacking = False
            self.retreat(src, o, set())

    def retreat(self, t: str, tr: Troop, enemy_from: set[str]) -> None:
        """A beaten defender "must retreat away from the enemy force and towards its main force or towards a
        city" (GG-OQ-21): to a land territory next to `t` that its side holds, not one an attacker came from; the
        one with most of its units, then a city, then the map's order. None: the army is lost."""
        s = self.s
        if not tr.total():
            if tr.supply:
                s.say(AFTER, f"{self.label(tr.player, t)}'s {tr.supply} supply in {t} are lost.")
            return
        home = None if tr.player == NEUTRAL else tr.player

        def units_there(n: str) -> int:
            return sum(stack(self.state, n, tr.player).get(k, 0) for k in KINDS_IN_BATTLE)
        ways = [n for n in self.board.territories[t].neighbours
                if self.board.territories[n].land and n not in enemy_from and n in self.state["owners"]
                and owner(self.state, n) == home and (home is not None or tr.player == NEUTRAL)]
        if not ways:
            s.say(AFTER, f"{self.label(tr.player, t)}'s {tr.short()} in {t} have nowhere to retreat and are "
                        "lost.")
            return
        to = min(ways, key=lambda n: (-units_there(n), not self.board.territories[n].city, s.order_index[n]))
        self.place(to, tr)
        s.say(AFTER, f"{self.label(tr.player, t)}'s {tr.short()} retreat from {t} to {s.name(to)}.")

    # -- the report --------------------------------------------------------------------------------------------

    def report_battle(self, title: str, attackers: list[Troop], defenders: list[Troop], out: landbattle.Outcome,
                      result: str, parts: list[str] | None = None) -> None:
        s = self.s
        where = next((t for t in (tr.src for tr in defenders) if f"({t})" in title), "")
        a_names = " and ".join(sorted({a.player for a in attackers}))
        d_names = " and ".join(sorted({self.label(d.player, where) for d in defenders})) or "nobody"
        att = "; ".join(f"{a.player} {'in' if f'({a.src})' in title else 'from'} {a.src}: {out.before[id(a)]}"
                        for a in attackers)
        dfn = "; ".join(f"{self.label(d.player, where)}: {out.before[id(d)]}" for d in defenders)
        s.say(BATTLES, f"{title}: {att} against {dfn}.")
        air = sorted({tr.player for tr in attackers + defenders if tr.player != NEUTRAL
                      and s.superior(tr.player, *{tr.src for tr in attackers + defenders
                                                  if tr.src in s.board.territories})})
        extras = []
        if parts:
            extras.append(f"defending infantry +{len(parts)} ({', '.join(parts)})")
        if air:
            extras.append(f"air superiority: {', '.join(air)}")
        a, d = out.strengths
        line = f"  Strengths {a_names} {a}, {d_names} {d}"
        line += (" (" + "; ".join(extras) + ")") if extras else ""
        card = f"; card {out.card.line()}" if out.card else ""
        s.say(BATTLES, f"{line}; {a_names}'s chance {round(100 * a / (a + d))}%{card}"
                       + (f" -> {round(100 * float(out.chance))}%" if out.card and out.card.attack else "") + ".")
        s.say(BATTLES, f"  {result}.")
        s.report.event("battle", where=title, attackers=sorted({a.player for a in attackers}),
                       defenders=sorted({d.player for d in defenders}), strengths=list(out.strengths),
                       chance=str(out.chance), card=out.card.name if out.card else None,
                       attacker_wins=out.attacker_wins, losses=out.lost)
        self.say_losses(out.lost, where)
        for note in out.notes:
            s.say(BATTLES, f"  ({note})")

    def label(self, side: str, t: str) -> str:
        """A side as the newsletter names it: a player by his name, a Neutral Power by its country's."""
        if side != NEUTRAL:
            return side
        country = self.board.home_country(t) if t else None
        return f"{self.board.countries[country].name} (neutral)" if country else "the Neutral Power"

    def say_losses(self, lost: dict[str, dict[str, int]], t: str) -> None:
        if lost:
            self.s.say(BATTLES, "  Losses: " + "; ".join(f"{self.label(p, t)} {short(u)}" for p, u in lost.items())
                       + ".")
        else:
            self.s.say(BATTLES, "  No losses.")
