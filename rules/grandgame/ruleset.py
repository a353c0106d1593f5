"""The Grand Game ruleset object: the maild.ruleset.Ruleset contract, wired to this package's modules.

A turn is a sequence of phases (docs/phases.md): in turn 1 first the picking (in rounds), the initial purchase
and the placement; then in every turn the allocation and the three combat seasons, each season followed by the
League of Nations when someone attacks a Neutral Power; the reconciliation runs at the end of winter (it takes
no orders: "The reconciliation phase does not include any strategic elements")."""

from __future__ import annotations

import random
from typing import Any

from maild.policies import LastMailReplacesAll
from maild.ruleset import (
    Diagnostic,
    OpenPhase,
    Order,
    ParsedOrders,
    Phase,
    PhaseResult,
    PlacedOrder,
    PlayerSpec,
    Ruleset,
    TurnResult,
)

from . import allocation, francs, pictures, printout, reconciliation, season, start
from . import setup as setup_rules
from .reading import LineReader, Read
from .report import Report
from .state import (
    ALLOCATION,
    MOST_ROUNDS,
    PICKING,
    PLACEMENT,
    PURCHASE,
    SEASONS,
    State,
    league_of,
    picking_round,
    player_names,
    playing,
)

#: The order modules, asked in this order which of them a line is for.
READERS: tuple[LineReader, ...] = (start.read_line, allocation.read_line, francs.read_line, season.read_line)
#: Phases of turn 1 only.
START_PHASES = frozenset({PICKING, PURCHASE, PLACEMENT})


def _phases() -> tuple[Phase, ...]:
    phases = [Phase(PICKING, kinds=start.PICKING_KINDS, closes_early=True)]
    phases += [Phase(picking_round(n), kinds=start.PICKING_KINDS, extra=True) for n in range(2, MOST_ROUNDS + 1)]
    phases += [Phase(PURCHASE, kinds=start.PURCHASE_KINDS, closes_early=True),
               Phase(PLACEMENT, kinds=start.PLACEMENT_KINDS, closes_early=True),
               Phase(ALLOCATION, kinds=allocation.KINDS | francs.KINDS, closes_early=True)]
    for name in SEASONS:
        phases += [Phase(name, kinds=season.KINDS | francs.KINDS, closes_early=True),
                   Phase(league_of(name), kinds=season.LEAGUE_KINDS, extra=True)]
    return tuple(phases)


class GrandGame(Ruleset):
    """The Grand Game: Politics, Development, and War. Countries are picked by sealed bids; each turn every
    country allocates its GDP in secret, then moves its armies, fleets and aircraft in spring, fall and winter;
    the reconciliation draws political cards and delivers what was bought."""

    name = "grandgame"
    # Each mail replaces the orders on file for the phase: send them whole (as a player hands the reader a
    # new sheet). A phase closes as soon as everyone has sent.
    resubmission = LastMailReplacesAll()
    order_kinds = tuple(kind for module in (start, allocation, francs, season)
                        for kind in getattr(module, "ORDER_KINDS", ()))
    late_policy = "next_turn"

    def phases(self) -> tuple[Phase, ...]:
        return _phases()

    def parse(self, text: str) -> ParsedOrders:
        parsed = ParsedOrders()
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            found: Read | str | None = None
            for reader in READERS:
                found = reader(line)
                if found is not None:
                    break
            if isinstance(found, Read):
                parsed.orders.append(Order(number, raw, found.kind, found.args, found.summary))
            else:
                parsed.diagnostics.append(Diagnostic(number, raw, found or "not an order of this game "
                                                     "(HELP lists them)"))
        return parsed

    def new_game(self, setup: dict[str, Any]) -> State:
        return setup_rules.new_game(setup)

    def players(self, state: State) -> list[PlayerSpec]:
        return [PlayerSpec(p["name"], p["email"], p["password"]) for p in state["players"]]

    def total_turns(self, state: State) -> int:
        return state["options"]["turns"]

    def check(self, state: State, turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
        return [d for module in (start, allocation, francs, season) for d in module.check(state, player, orders)]

    def skips_phase(self, state: State, turn: int, phase: str) -> bool:
        if phase in START_PHASES:
            return turn > 1 or (phase != PICKING and not playing(state))
        return False

    def must_send(self, state: State, turn: int, phase: str) -> list[str] | None:
        if phase == PICKING:
            return [p["name"] for p in state["players"] if p["country"] is None]
        return playing(state) or None

    def resolve_phase(self, state: State, turn: int, phase: str, orders: dict[str, list[PlacedOrder]],
                      rng: random.Random) -> TurnResult:
        report = Report()
        opened: OpenPhase | None = None
        finished = False
        if phase.startswith(PICKING):
            round_no = 1 if phase == PICKING else int(phase.rsplit("-", 1)[1])
            bidders = start.resolve_picking(state, round_no, orders, rng, report)
            if bidders:
                opened = OpenPhase(picking_round(round_no + 1), tuple(bidders))
        elif phase == PURCHASE:
            start.resolve_purchase(state, orders, rng, report)
        elif phase == PLACEMENT:
            start.resolve_placement(state, orders, rng, report)
        elif phase == ALLOCATION:
            francs.resolve(state, turn, orders, rng, report)
            allocation.resolve(state, turn, orders, rng, report)
        elif phase in SEASONS:
            francs.resolve(state, turn, orders, rng, report)
            contributors = season.resolve(state, turn, phase, orders, rng, report)
            if contributors:
                opened = OpenPhase(league_of(phase), tuple(contributors))
            elif phase == SEASONS[-1]:
                finished = reconciliation.resolve(state, turn, rng, report)
        else:
            name = phase.removesuffix("-league")
            season.resolve_league(state, turn, name, orders, rng, report)
            if name == SEASONS[-1]:
                finished = reconciliation.resolve(state, turn, rng, report)
        state["finished"] = finished
        return PhaseResult(state=state, printouts=printout.printouts(state, turn, phase, report),
                           newsletter=printout.newsletter(state, turn, phase, report), events=report.events,
                           finished=finished, open_phase=opened)

    def attachments(self, state: State, turn: int, phase: str | None, player: str | None,
                    context: dict[str, Any]) -> list[Any]:
        """The board as a PNG a mail program shows inline, and as SVG beside it (sharper, for a browser)."""
        spec = context.get("picture")
        if not spec:
            return []
        return pictures.attachments(state, spec)

    def welcome(self, state: State, player: str, turn: int = 1) -> dict[str, Any] | None:
        return printout.welcome(state, player)

    def status(self, state: State, turn: int, player: str) -> dict[str, Any]:
        return printout.status(state, player)

    def export_players(self, state: State) -> dict[str, dict[str, Any]]:
        return {name: {"email": p["email"], **printout.status(state, name)}
                for name, p in zip(player_names(state), state["players"], strict=True)}


RULESET = GrandGame()
