"""The reconciliation at the end of a turn, after winter (section Reconciliation: "Players first draw their
political fate from the politics card decks. Next they place the units and supplies that they ordered, update
their GDP, and record their atomic research."): the allocations revealed, political cards and Francs, the
units, supplies and railroads bought placed, development added to the zones, GDP recounted, atomic research and
the bomb; then victory. It takes no orders ("The reconciliation phase does not include any strategic
elements"). Readings: docs/grand-game.md, "The reconciliation"."""

from __future__ import annotations

import random

from . import decks, victory
from .allocation import PENDING, Allocation, allocation_lines, place_name, say, sealed, tell, zone_name
from .economy import DEMOCRACY_FREE_RESEARCH_PER_SEASON, has_bomb, political_spending
from .report import Report
from .state import DEMOCRACY, SEASONS, State, add, country_name, describe, gdp, owner, player, zone_control

#: "Democracies get 1 free unit of research per season (3 per turn)", recorded at the reconciliation.
FREE_RESEARCH = DEMOCRACY_FREE_RESEARCH_PER_SEASON * len(SEASONS)
#: The player key that says he has built his bomb (one a player: "he builds the bomb", GG-OQ-13).
BOMB_BUILT = "bomb_built"


def resolve(state: State, turn: int, rng: random.Random, report: Report) -> bool:
    """Reconcile turn `turn`; True when the game is over (someone won, or the last turn ended)."""
    allocations = sealed(state)
    reveal(state, allocations, report)
    gdp_changes = politics(state, allocations, rng, report)
    production(state, allocations, report)
    development(state, allocations, report)
    update_gdp(state, gdp_changes, report)
    research(state, allocations, report)
    state.setdefault("pending", {}).pop(PENDING, None)
    over = end(state, turn, report)
    state["turn"] += 1
    return over


def _who(state: State, name: str) -> str:
    return f"{country_name(state, name)} ({name})"


def reveal(state: State, allocations: dict[str, Allocation], report: Report) -> None:
    """"Allocations are private knowledge until the reconciliation phase, at which point all aspects of the
    allocation are revealed.\""""
    # One line a country (a mail program wraps it): what each part cost, then the sum against his GDP.
    for name, a in allocations.items():
        if not a.sent:
            say(report, "Allocations revealed", f"{_who(state, name)}: sent none (nothing bought, 0% politics)")
            continue
        parts = [line[0].lower() + line[1:] for line in allocation_lines(state, a)[:-1]]
        say(report, "Allocations revealed", f"{_who(state, name)}: {'; '.join(parts)} ({a.total()} of {a.gdp} GDP)")


def politics(state: State, allocations: dict[str, Allocation], rng: random.Random,
             report: Report) -> dict[str, int]:
    """Each player draws a card of the deck of his level and regime, in the players' order: his Francs are his
    political spending as the card changes them; a card may take value from one of his zones (drawn among the
    zones he controls that have any). Returns each player's GDP change for the coming turn."""
    title = "Political cards"
    changes: dict[str, int] = {}
    for name, a in allocations.items():
        p = player(state, name)
        card = decks.draw_political(state, a.politics, p["regime"], rng)
        spending = political_spending(a.gdp, a.politics)
        francs = decks.francs_of(card, spending)
        p["francs"] += francs
        changes[name] = card.get("gdp", 0)
        say(report, title, f"{_who(state, name)}, {decks.deck_name(a.politics, p['regime'])}: "
                          f"{card['name']} ({decks.effects(card)}): {francs} Francs.")
        if card.get("text"):
            tell(report, name, title, f"{card['name']}: {card['text']}")
        lost = card.get("zone", 0)
        if lost:
            zones = [z for z, v in state["zones"].items() if v > 0 and zone_control(state, z)[0] == name]
            if zones:
                zone = zones[rng.randrange(len(zones))]
                before = state["zones"][zone]
                state["zones"][zone] = max(0, before - lost)
                say(report, title, f"  {zone_name(state, zone)} loses {before - state['zones'][zone]}: "
                                  f"{before} -> {state['zones'][zone]}.")
        report.event("political-card", player=name, deck=decks.deck_name(a.politics, p["regime"]),
                     card=card["name"], francs=francs)
    return changes


def production(state: State, allocations: dict[str, Allocation], report: Report) -> None:
    """Units and supplies placed in the cities named, railroads built: on land he still holds (GG-OQ-14,
    GG-OQ-15); what was bought for a place lost since the allocation is lost with it."""
    title = "Production"
    for name, a in allocations.items():
        for territory, stack in a.build.items():
            if owner(state, territory) == name:
                for kind, n in stack.items():
                    add(state, territory, name, kind, n)
                say(report, title, f"{_who(state, name)}: {describe(stack)} in {place_name(state, territory)}.")
            else:
                say(report, title, f"{_who(state, name)}: {describe(stack)} lost with "
                                  f"{place_name(state, territory)}, no longer his.")
        for territory in a.railroads:
            if owner(state, territory) == name and territory not in state["railroads"]:
                state["railroads"] = sorted([*state["railroads"], territory])
                say(report, title, f"{_who(state, name)}: a railroad in {place_name(state, territory)}.")
            elif owner(state, territory) != name:
                say(report, title, f"{_who(state, name)}: no railroad in {place_name(state, territory)}, no "
                                  f"longer his.")


def development(state: State, allocations: dict[str, Allocation], report: Report) -> None:
    """"during the reconciliation phase, they place those points in the economic zones they earlier
    designated": in a zone he still controls (fully or partly); the points of a zone lost are lost (GG-OQ-11)."""
    title = "Development"
    for name, a in allocations.items():
        for zone, n in a.develop.items():
            if zone_control(state, zone)[0] == name:
                before = state["zones"][zone]
                state["zones"][zone] = before + n
                say(report, title, f"{_who(state, name)}: {zone_name(state, zone)} +{n}: {before} -> {before + n}.")
            else:
                say(report, title, f"{_who(state, name)}: {n} points lost, {zone_name(state, zone)} no longer "
                                  f"under his control.")


def update_gdp(state: State, changes: dict[str, int], report: Report) -> None:
    """Every player's GDP recounted from the zones he controls now (GG-OQ-10: full or partial control), with his
    political card's change for this coming turn only; never below 0."""
    title = "GDP"
    for name, change in changes.items():
        p = player(state, name)
        before = p["gdp"]
        p["gdp"] = max(0, gdp(state, name) + change)
        card = f" (card {change:+d})" if change else ""
        say(report, title, f"{_who(state, name)}: {before} -> {p['gdp']}{card}.")


def research(state: State, allocations: dict[str, Allocation], report: Report) -> None:
    """Research bought, and a democracy's 3 free units, added; a player reaching 300 builds the bomb ("When a
    player reaches 300 units of atomic research, he builds the bomb"; every player reaching it at the same
    reconciliation gets one: "In the event of a tie ... both countries receive a bomb")."""
    for name, a in allocations.items():
        p = player(state, name)
        free = FREE_RESEARCH if p["regime"] == DEMOCRACY else 0
        p["research"] += a.research + free
        if a.research or free:
            report.tell(name, "Atomic research", f"+{a.research + free}{' (3 free)' if free else ''}: "
                                                 f"{p['research']} units of 300.")
        if has_bomb(p["research"]) and not p.get(BOMB_BUILT):
            p[BOMB_BUILT] = True
            p["bombs"] += 1
            say(report, "The bomb", f"{_who(state, name)} has built the atomic bomb.")
            report.event("bomb", player=name)


def end(state: State, turn: int, report: Report) -> bool:
    """Victory: whoever meets his card now wins; at the end of the last turn, the best score (GG-OQ-27)."""
    title = "Victory"
    won = victory.winners(state)
    last = turn >= state["options"]["turns"]
    if not won and not last:
        return False
    if won:
        for name in won:
            card = player(state, name)["victory"]
            say(report, title, f"{_who(state, name)} meets the victory card {card['name']}.")
    else:
        say(report, title, f"Turn {turn} was the last: the scores, the closest to his goal wins.")
        for name, value in victory.scores(state).items():
            card = player(state, name)["victory"]
            say(report, title, f"  {_who(state, name)}: {card['name'] if card else 'no card'}: "
                              f"{victory.percent(value)}")
        won = victory.best(state)
    state["winners"] = won
    say(report, title, f"The game is over. {'Winner' if len(won) == 1 else 'Winners'}: "
                      f"{', '.join(_who(state, n) for n in won)}.")
    report.event("game-over", winners=won)
    return True
