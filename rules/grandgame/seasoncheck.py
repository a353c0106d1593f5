"""A season's orders checked at intake against the state, so the ack tells a player at once what cannot be done:
units he does not have where he says, territories not next to each other, a rail move off the railway, aircraft
out of range, Francs he has not got. Each refusal names the rules' section it rests on; what depends on other
players' orders (permissions, battles) is only a warning or left to the resolution."""

from __future__ import annotations

from maild.ruleset import Diagnostic, Order

from . import airwar, rail
from .combat import AIRCRAFT
from .economy import SUPPLY
from .names import Names
from .state import CARGO, State, board, player, player_names, stack


def check_orders(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    b = board(state)
    ids = Names(state).territories
    zones = {z.lower(): z for z in b.zones}
    players = {p.lower() for p in player_names(state)}
    out: list[Diagnostic] = []
    demand: dict[tuple[str, str, bool], int] = {}  # (territory, kind, aboard) -> units ordered away
    first_line: dict[tuple[str, str, bool], Order] = {}

    def refuse(o: Order, message: str, rule: str, warning: bool = False) -> None:
        out.append(Diagnostic(o.line, o.text, message, warning=warning, rule=rule))

    def need(o: Order, t: str, units: dict[str, int], aboard: bool = False) -> None:
        for kind, n in units.items():
            key = (t, kind, aboard)
            demand[key] = demand.get(key, 0) + n
            first_line.setdefault(key, o)

    for o in orders:
        a = o.args
        if o.kind in ("move", "moves", "unload"):
            for g in a.get("groups", [a]):
                src, dst = ids.get(g["from"].lower()), ids.get(g["to"].lower())
                if src is None or dst is None:
                    refuse(o, f"there is no territory {g['from'] if src is None else g['to']} on the map", "The Board")
                    continue
                if not b.adjacent(src, dst):
                    refuse(o, f"{dst} is not next to {src}: land units move one territory a season", "Railroads")
                    continue
                if not b.territories[dst].land:
                    refuse(o, f"{dst} is a sea: land units go aboard fleets with 'load'",
                           "Loading and Unloading by Ship")
                    continue
                by_sea = o.kind == "unload"
                if by_sea == b.territories[src].land:
                    refuse(o, "from a sea write 'unload 2 inf S03 -> K15'" if not by_sea
                           else f"{src} is not a sea", "Loading and Unloading by Ship")
                    continue
                need(o, src, g["units"], aboard=by_sea)
                holder = state["owners"].get(dst)
                if holder != name and not g.get("attack", True):
                    refuse(o, f"{dst} is {holder or 'a Neutral Power'}'s: this move is an attack", "Combat",
                           warning=True)
                supply = g.get("supply")
                if supply:
                    need(o, src, {SUPPLY: supply}, aboard=by_sea)
                for partner in g.get("partners", []):
                    if partner.lower() not in players or partner.lower() == name.lower():
                        refuse(o, f"{partner} is not another player of this game", "Coordinated Combat")
        elif o.kind == "rail":
            src, dst = ids.get(a["from"].lower()), ids.get(a["to"].lower())
            if src is None or dst is None:
                refuse(o, "there is no such territory on the map", "The Board")
                continue
            railroads = set(state["railroads"])
            way = rail.path(b, railroads, state["owners"], name, src, dst)
            if way is None:
                refuse(o, f"{src} and {dst} are not on one railway (to use a railway you must start on it and end "
                          "on the same railway)", "Railroads")
                continue
            others = sorted({str(state["owners"].get(t)) for t in way if state["owners"].get(t) != name})
            if others:
                refuse(o, f"the way crosses territory of {', '.join(others)}: it needs their written permission "
                          "('allow <you> rail' in their orders)", "Railway Permissions", warning=True)
            need(o, src, a["units"])
        elif o.kind in ("sail", "load"):
            src = ids.get(a["from"].lower())
            if src is None:
                refuse(o, f"there is no territory {a['from']} on the map", "The Board")
                continue
            if o.kind == "sail":
                need(o, src, a["units"])
                need(o, src, a.get("cargo", {}), aboard=not b.territories[src].land)
            else:
                need(o, src, a["units"])
        elif o.kind == "air":
            land = ids.get(a["land"].lower())
            zone = zones.get(a["zone"].lower())
            origin = zones.get(a["from"].lower())
            if zone is None or land is None:
                refuse(o, f"no air zone {a['zone']} or no territory {a['land']} on the map", "Air Combat")
                continue
            here = ids.get(a["from"].lower())
            places = list(b.zones[origin].territories) if origin else [here] if here else []
            def planes(t: str) -> int:  # on the ground, or based on heavy fleets at sea
                return stack(state, t, name).get(AIRCRAFT, 0) + stack(state, t, name).get(CARGO, {}).get(AIRCRAFT, 0)
            mine = [t for t in places if planes(t)]
            if not mine:
                refuse(o, f"you have no aircraft in {a['from']}", "Air Combat")
                continue
            problem = airwar.range_problem(b, mine[0], zone, land)
            if problem:
                refuse(o, problem, "Air Combat")
            if not origin:
                need(o, mine[0], {AIRCRAFT: a["count"]}, aboard=not b.territories[mine[0]].land)
            elif sum(planes(t) for t in mine) < a["count"]:
                refuse(o, f"you have {sum(planes(t) for t in mine)} aircraft in zone {origin}, not {a['count']}",
                       "Air Combat")
        elif o.kind == "bombing":
            if a["zone"].lower() not in zones:
                refuse(o, f"there is no zone {a['zone']}", "Strategic Bombing")
        elif o.kind == "drop":
            if a["zone"].lower() not in zones:
                refuse(o, f"there is no zone {a['zone']}", "The Bomb")
            elif player(state, name)["bombs"] < 1:
                refuse(o, "you have no bomb: it takes 300 units of atomic research", "The Bomb")
        elif o.kind == "destroy":
            t = ids.get(a["territory"].lower())
            if t is None or t not in state["railroads"]:
                refuse(o, f"there is no railroad in {a['territory']}", "Railroad Construction/Destruction")
        elif o.kind in ("permit", "canal"):
            if a["player"].lower() not in players or a["player"].lower() == name.lower():
                refuse(o, f"{a['player']} is not another player of this game", "Railway Permissions")
        elif o.kind == "contribute":
            francs = player(state, name)["francs"]
            if a["francs"] > francs:
                refuse(o, f"you have {francs} Francs, not {a['francs']}", "The League of Nations")
            attacked = state.get("pending", {}).get("season", {}).get("attacked")
            to = ids.get(a["to"].lower()) if a["to"] else None
            if a["to"] and attacked is not None and to not in attacked:
                refuse(o, f"{a['to']} is not attacked this season (attacked: {', '.join(attacked)})",
                       "Attacking a Neutral Power")
    for (t, kind, aboard), n in demand.items():
        here = stack(state, t, name)
        have = here.get(CARGO, {}).get(kind, 0) if aboard else here.get(kind, 0)
        if n > have:
            o = first_line[(t, kind, aboard)]
            where = f"aboard in {t}" if aboard else f"in {t}"
            refuse(o, f"you have {have} {kind} {where}, and your orders move {n}", "Combat")
    return out
