"""The turn's phases, in order, and what each resolves.

A Galilei turn by mail has four sealed steps, each a phase that closes early once every player has sent:

1. ``bids``: the turn-order bid; on turn 1 also the opening double bid (3.2) with the preference lists of
   the draft. The opening is part of turn 1's first phase rather than a phase of its own because a phase
   with nobody to answer would wait for its deadline every later turn (docs/galilei.md, "The turn by mail").
2. ``shortage``: positions 1 to 4 record a secret number, 5 and 6 choose shortage or surplus (3.3).
3. ``battles``: every player's battle, war and mill declarations, sealed at once, then resolved in turn
   order (position 1's first, each player's in the order written): "the players' movement and battle
   declarations in turn order" (issue 12) without six rounds of mail a turn.
4. ``cards``: each player in turn order draws the first available card of his preference list (3.1).

Every function here is pure: a state dict in, the new state and report lines out; all chance from the RNG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from maild.draft import draft
from maild.ledger import display
from maild.ranking import By, rank
from maild.ruleset import GM_ORDERS, PlacedOrder

from . import state as st

BIDS, SHORTAGE, BATTLES, CARDS = "bids", "shortage", "battles", "cards"
PHASES = (BIDS, SHORTAGE, BATTLES, CARDS)
#: The order kinds each phase takes.
KINDS = {BIDS: frozenset({"bid", "prefer", "turn"}), SHORTAGE: frozenset({"number", "shortage"}),
         BATTLES: frozenset({"battle", "war", "mill", "pass"}), CARDS: frozenset({"card", "discard", "pass"})}
#: Whoever sends nothing has sent this late: after every mail received.
NO_MAIL = 10 ** 12


@dataclass
class Report:
    """What a phase tells: public lines (newsletter and every printout) and private lines per player."""

    public: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)

    def tell(self, player: str, line: str) -> None:
        self.private.setdefault(player, []).append(line)


def orders_of(placed: dict[str, list[PlacedOrder]], player: str, kind: str) -> list[PlacedOrder]:
    return [p for p in placed.get(player, []) if p.order.kind == kind]


def last_of(placed: dict[str, list[PlacedOrder]], player: str, kind: str) -> PlacedOrder | None:
    found = orders_of(placed, player, kind)
    return found[-1] if found else None


# -- GM orders (the turn's first phase) -----------------------------------------------------------------------------
def apply_gm(state: dict[str, Any], turn: int, gm: list[PlacedOrder], report: Report) -> None:
    """The GM's amendments, before the phase: a player's advances, a luck correction, chaos, the epoch."""
    ledger = st.luck_ledger(state)
    for p in gm:
        a = p.order.args
        if p.order.kind == "gm_advances":
            who = a["player"]
            wanted = {w.strip().lower() for w in str(a["advances"]).replace(";", ",").split(",") if w.strip()}
            state["players"][who]["advances"] = {k: k in wanted for k in st.ADVANCES}
            names = ", ".join(st.ADVANCE_WORDS[k] for k in st.ADVANCES if k in wanted) or "none"
            report.public.append(f"GM: {who}'s advances are now: {names}.")
        elif p.order.kind == "gm_luck":
            who = a["player"]
            change = Fraction(str(a["change"]).replace(",", "."))
            ledger.post(turn, who, st.LUCK, change, f"GM correction: {a.get('reason') or 'amendment'}")
            report.public.append(f"GM: {who}'s luck corrected by {display(change)} "
                                 f"({a.get('reason') or 'amendment'}); now {display(ledger.balance(who, st.LUCK))}.")
        elif p.order.kind == "gm_chaos":
            state["shortage"]["chaosed"] = [a["player"]] if a["player"] not in state["shortage"]["chaosed"] \
                else state["shortage"]["chaosed"]
            report.public.append(f"GM: {a['player']} is in chaos this turn (3.3).")
        elif p.order.kind == "gm_epoch":
            state["epoch"] = int(a["epoch"])
            report.public.append(f"GM: the cards of epoch {state['epoch']} are now available.")


# -- phase 1: bids --------------------------------------------------------------------------------------------------
def resolve_bids(state: dict[str, Any], turn: int, placed: dict[str, list[PlacedOrder]], report: Report) -> None:
    """Turn 1: the opening double bid and draft (3.2); every turn: the turn-order bid."""
    players = list(state["players"])
    if state["opening"] is None:
        opening(state, placed, players, report)
    turn_order(state, placed, players, report)


def opening(state: dict[str, Any], placed: dict[str, list[PlacedOrder]], players: list[str],
            report: Report) -> None:
    """3.2: "the highest bidder in each category getting first to chose card (first) and capital (later) ...
    In case of ties global bid will be taken into account. In case of double tie, the first message received
    goes first." The global bid is the sum of the two; a missing bid is 0 for both, sent after every mail."""
    bids: dict[str, tuple[int, int, int]] = {}
    for name in players:
        b = last_of(placed, name, "bid")
        bids[name] = (b.order.args["cards"], b.order.args["capitals"], b.seq) if b else (0, 0, NO_MAIL)
    prefs: dict[str, dict[str, list[str]]] = {n: {"cards": [], "capitals": []} for n in players}
    for name in players:
        for p in orders_of(placed, name, "prefer"):
            prefs[name].update(p.order.args)
    result: dict[str, Any] = {"bids": {n: {"cards": c, "capitals": k} for n, (c, k, _) in bids.items()}}
    report.public.append("The opening double bid (3.2): " + "; ".join(
        f"{n} {c} for cards, {k} for capitals" for n, (c, k, _) in bids.items()) + ".")
    for category, own in (("cards", 0), ("capitals", 1)):
        chain = [By(f"the bid for {category}", lambda n, i=own: bids[n][i]),
                 By("the global bid", lambda n: bids[n][0] + bids[n][1])]
        placed_ = rank(players, chain, seq=lambda n: bids[n][2], name=lambda n: n)
        order = [p.entry for p in placed_]
        if category == "cards":
            pool = st.available_cards(state)
            wanted = {n: [c["name"] for w in prefs[n]["cards"] if (c := st.card_named(state, w))] for n in players}
        else:
            pool = list(state["capitals"])
            low = {c.lower(): c for c in pool}
            wanted = {n: [low[w.lower()] for w in prefs[n]["capitals"] if w.lower() in low] for n in players}
        picks = draft(order, pool, wanted)
        lines = []
        for place, pick in zip(placed_, picks, strict=True):
            # Say why only where a tie was broken: by the global bid or by the first mail received.
            why = f" (tie broken by {place.decided_by})" if place.decided_by not in (None, chain[0].name) else ""
            how = "" if pick.by == "list" else " (by default: first free)"
            lines.append(f"{place.place}. {pick.chooser}{why}: {pick.item}{how}")
            if category == "cards" and pick.item is not None:
                state["held"][pick.chooser].append(pick.item)
            elif pick.item is not None:
                state["players"][pick.chooser]["capital"] = pick.item
        result[category] = [{"player": p.chooser, "item": p.item, "by": p.by} for p in picks]
        report.public.append(f"Draft of {category}: " + "; ".join(lines) + ".")
    state["opening"] = result
    report.events.append({"type": "opening", **result})


def turn_order(state: dict[str, Any], placed: dict[str, list[PlacedOrder]], players: list[str],
               report: Report) -> None:
    """The turn-order bids, sealed: the highest bid plays first, ties by the first mail received (issue 12;
    GA-OQ-27 is the opening part's). A player who sent none bids 0, after every mail."""
    bids = {}
    for name in players:
        b = last_of(placed, name, "turn")
        bids[name] = (b.order.args["amount"], b.seq) if b else (0, NO_MAIL)
    ranked = rank(players, [By("the bid", lambda n: bids[n][0])], seq=lambda n: bids[n][1], name=lambda n: n)
    state["order"] = [p.entry for p in ranked]
    state["turn_bids"] = {n: bids[n][0] for n in players}
    def tie(p: Any) -> str:
        return f", tie broken by {p.decided_by}" if p.decided_by not in (None, "the bid") else ""

    report.public.append("Turn order: " + ", ".join(
        f"{p.place}. {p.entry} (bid {bids[p.entry][0]}{tie(p)})" for p in ranked) + ".")
    report.events.append({"type": "turn_order", "order": state["order"], "bids": state["turn_bids"]})


# -- phase 2: shortage and surplus ----------------------------------------------------------------------------------
def forced_side(state: dict[str, Any], player: str) -> str | None:
    """The side a decider must choose (3.3: never more than one more of one than of the other), or None."""
    h = state["shortage"]["history"][player]
    if h["surplus"] > h["shortage"]:
        return "shortage"
    if h["shortage"] > h["surplus"]:
        return "surplus"
    return None


def actors(state: dict[str, Any]) -> dict[int, str]:
    """Who acts for each position 1..6: the player there, or, if he is chaosed, the player three positions
    further round the order (3.3 "the player occupying a position 3 greater than him will act twice")."""
    order = st.order(state)
    chaos = set(state["shortage"]["chaosed"])
    return {i + 1: (order[(i + 3) % 6] if name in chaos else name) for i, name in enumerate(order)}


def resolve_shortage(state: dict[str, Any], turn: int, placed: dict[str, list[PlacedOrder]],
                     report: Report) -> None:
    """3.3: the numbers of 1&3 with the decision of 5, and of 2&4 with that of 6, give two results: the sum
    of the two numbers is the row of the 2d6 table, the decision says shortage or surplus. A missing number
    counts as 4; a missing decision is the forced side, else the side the player decided fewer times,
    surplus when even. A player acting for a chaosed one sends his orders for each seat in turn."""
    acting = actors(state)
    numbers: dict[int, int] = {}
    decided: dict[int, str] = {}
    used: dict[str, int] = {}
    for pos in range(1, 7):
        who = acting[pos]
        kind = "number" if pos <= 4 else "shortage"
        mine = orders_of(placed, who, kind)
        k = used.get(who + kind, 0)
        used[who + kind] = k + 1
        got = mine[k] if k < len(mine) else (mine[-1] if mine else None)
        if pos <= 4:
            numbers[pos] = got.order.args["number"] if got else 4
        else:
            forced = forced_side(state, who)
            h = state["shortage"]["history"][who]
            default = forced or ("surplus" if h["surplus"] <= h["shortage"] else "shortage")
            choice = got.order.args["choice"] if got else default
            if forced and choice != forced:
                report.tell(who, f"You had to decide {forced} (3.3: you decided {choice} last); {forced} it is.")
                choice = forced
            decided[pos] = choice
            state["shortage"]["history"][who][choice] += 1
    results = []
    for (a, b), d in (((1, 3), 5), ((2, 4), 6)):
        row = numbers[a] + numbers[b]
        results.append({"turn": turn, "numbers": [numbers[a], numbers[b]], "row": row, "decision": decided[d],
                        "commodity": state["table"].get(str(row)), "decider": acting[d]})
        report.public.append(
            f"{decided[d].capitalize()} of {state['table'].get(str(row))}: {acting[a]} chose {numbers[a]}, "
            f"{acting[b]} chose {numbers[b]} (row {row}); {acting[d]} decided {decided[d]}.")
    state["shortage"]["results"] = results
    state["shortage"]["chaosed"] = []
    report.events.append({"type": "shortage", "results": results})


# -- phase 3: battles, war, mill ------------------------------------------------------------------------------------
def success_chance(position: int, military: bool, proselytism: bool, spent_rows: int = 0) -> Fraction:
    """The attacker's chance of success (tables 1 and 2): 1 - 7p/72 without, 1 - 5p/72 with a military
    advantage; Proselytism counts one row higher; each row spent one row higher; row 0 or less is certain."""
    row = position - (1 if proselytism else 0) - spent_rows
    step = Fraction(5 if military else 7, 72)
    return Fraction(1) if row <= 0 else 1 - step * row


def resolve_battles(state: dict[str, Any], turn: int, placed: dict[str, list[PlacedOrder]], rng: random.Random,
                    report: Report) -> None:
    """Every declaration, in turn order, each player's in the order he wrote them."""
    last_won: dict[str, str] = {}
    for player in st.order(state):
        for p in placed.get(player, []):
            kind = p.order.kind
            if kind == "battle":
                battle(state, turn, player, p.order.args, rng, report, last_won)
            elif kind == "war":
                war(state, turn, player, p.order.args, rng, report)
            elif kind == "mill":
                report.tell(player, "Your Wind/Watermill roll was not rolled: maild does not roll the mill yet; "
                                    "roll it as the GM says.")


def _score(state: dict[str, Any], turn: int, winner: str, loser: str, amount: Fraction, why: str) -> None:
    if amount:
        st.luck_ledger(state).transfer(turn, loser, winner, st.LUCK, amount, why)


def battle(state: dict[str, Any], turn: int, attacker: str, a: dict[str, Any], rng: random.Random,
           report: Report, last_won: dict[str, str]) -> None:
    """One battle (3.4-3.6, 3.8, 3.11): spend, roll, score, and one entry in the public history."""
    defender = st.owner_of(state, a["target"])
    if defender is None or defender == attacker:
        report.tell(attacker, f"Battle against {a['target']} not rolled: no other player is or holds it.")
        return
    ledger = st.luck_ledger(state)
    tokens = a["tokens"]
    position = a["position"] or st.position(state, attacker)
    step = Fraction(5 if a["military"] else 7, 72)
    base_row = position - (1 if a["proselytism"] else 0)
    rows = a["spend_positions"] or (int(Fraction(a["spend"]) // (step * tokens)) if a["spend"] else 0)
    rows = min(rows, max(base_row, 0))
    mine, his = ledger.balance(attacker, st.LUCK), ledger.balance(defender, st.LUCK)
    note = ""
    if rows:
        allowed = rows
        while allowed and (step * tokens * allowed > -Fraction(mine)
                           or (not state["option_312"] and step * tokens * allowed > Fraction(his))):
            allowed -= 1
        if allowed < rows:
            note = f" (spend cut to {allowed} row(s): 3.5 bounds it by your negative and his positive score)"
        rows = allowed
    spent = step * tokens * rows
    if spent:
        _score(state, turn, attacker, defender, spent, f"luck spent: {attacker} attacks {defender}")
    chance = success_chance(position, a["military"], a["proselytism"], rows)
    if chance == 1:
        roll, won, scored = None, True, Fraction(0)
    else:
        roll = rng.randrange(72) + 1
        won = roll <= chance * 72
        scored = Fraction(0) if a["cathedral"] else ((1 - chance) if won else chance) * tokens
        if won:
            _score(state, turn, attacker, defender, scored, f"battle won by {attacker} against {defender}")
        else:
            _score(state, turn, defender, attacker, scored, f"battle lost by {attacker} against {defender}")
    if won:
        last_won[attacker] = defender
    entry = {"turn": turn, "type": "battle", "attacker": attacker, "defender": defender, "position": position,
             "military": a["military"], "proselytism": a["proselytism"], "cathedral": a["cathedral"],
             "tokens": tokens, "spent": str(spent), "chance": str(chance), "roll": roll, "won": won,
             "scored": str(scored if won else -scored)}
    state["rolls"].append(entry)
    report.events.append(entry)
    rolled = f"rolled {roll} of 72" if roll is not None else "sure victory, no roll"
    report.public.append(
        f"Battle: {attacker} (position {position}) attacks {defender}, {tokens} token(s), chance "
        f"{display(chance)}, spent {display(spent)}{note}: {rolled}, {'won' if won else 'lost'}; "
        f"{attacker} {display(scored if won else -scored)}, {defender} {display(-scored if won else scored)}.")


def margin_chance(margin: int, modifier: int) -> Fraction:
    """The chance that (d6 - d6 + modifier) is at most `margin`: 3.7's "chances of getting one step worse
    than the result achieved or less" is margin_chance(achieved - 1, modifier)."""
    return Fraction(sum(1 for x in range(1, 7) for y in range(1, 7) if x - y + modifier <= margin), 36)


def war(state: dict[str, Any], turn: int, player: str, a: dict[str, Any], rng: random.Random,
        report: Report) -> None:
    """A war (3.7): each side a die plus its modifier; the lead is the cities taken; the winner scores the
    chance of one step worse or less, the loser the same negative; a tie scores nothing."""
    other = st.owner_of(state, a["opponent"])
    if other is None or other == player:
        report.tell(player, f"War against {a['opponent']} not rolled: no other player is or holds it.")
        return
    mine, his = rng.randint(1, 6), rng.randint(1, 6)
    net = a["modifier"] - a["his_modifier"]
    lead = mine + a["modifier"] - his - a["his_modifier"]
    if lead > 0:
        winner, loser, luck = player, other, margin_chance(lead - 1, net)
    elif lead < 0:
        winner, loser, luck = other, player, margin_chance(-lead - 1, -net)
    else:
        winner, loser, luck = player, other, Fraction(0)
    if state["option_312"]:
        report.public.append("(Option 3.12's war multiplier is not applied by this version of maild.)")
    _score(state, turn, winner, loser, luck, f"war {player} against {other}")
    entry = {"turn": turn, "type": "war", "attacker": player, "defender": other, "dice": [mine, his],
             "modifiers": [a["modifier"], a["his_modifier"]], "lead": lead, "scored": str(luck),
             "winner": winner if lead else None}
    state["rolls"].append(entry)
    report.events.append(entry)
    outcome = f"{winner} takes {abs(lead)} city(ies); {winner} +{display(luck)}, {loser} {display(-luck)}" \
        if lead else "a tie; nobody scores"
    report.public.append(f"War: {player} ({mine}{a['modifier']:+d}) against {other} ({his}{a['his_modifier']:+d}):"
                         f" {outcome}.")


# -- phase 4: cards ---------------------------------------------------------------------------------------------------
def resolve_cards(state: dict[str, Any], turn: int, placed: dict[str, list[PlacedOrder]], report: Report) -> None:
    """3.1: in turn order each player takes the first card of his list still available (by default the first
    available in the deck's order); then the discards (rule 2: Master Art allows one at once)."""
    order = st.order(state)
    wanted = {n: [c["name"] for p in orders_of(placed, n, "card") for w in p.order.args["cards"]
                  if (c := st.card_named(state, w))] for n in order}
    picks = draft(order, st.available_cards(state), wanted)
    lines = []
    for pick in picks:
        if pick.item is not None:
            state["held"][pick.chooser].append(pick.item)
        lines.append(f"{pick.chooser}: {pick.item or 'nothing left'}" + (" (default)" if pick.by == "default" else ""))
    state["draws"] = [{"player": p.chooser, "card": p.item, "by": p.by} for p in picks]
    report.public.append("Cards drawn (3.1): " + "; ".join(lines) + ".")
    for name in order:
        for p in orders_of(placed, name, "discard"):
            card = st.card_named(state, p.order.args["card"])
            if card is None or card["name"] not in state["held"][name]:
                report.tell(name, f"Discard of {p.order.args['card']} not done: you do not hold it.")
                continue
            state["held"][name].remove(card["name"])
            state["discarded"].append(card["name"])
            report.public.append(f"{name} discards {card['name']}.")
    report.events.append({"type": "draws", "draws": state["draws"]})


# -- the public ledger ------------------------------------------------------------------------------------------------
def ledger_lines(state: dict[str, Any]) -> list[str]:
    """Every player's running luck score (four digits, half up: 3.10), in turn order."""
    ledger = st.luck_ledger(state)
    return [f"{n:<12} {display(ledger.balance(n, st.LUCK)):>9}" for n in st.order(state)]


def history_lines(state: dict[str, Any]) -> list[str]:
    """The public history of rolls (3.4): every battle and war with odds, dice and luck scored."""
    out = []
    for r in state["rolls"]:
        if r["type"] == "battle":
            out.append(f"T{r['turn']} battle {r['attacker']} vs {r['defender']} pos {r['position']} x{r['tokens']}"
                       f" chance {display(Fraction(r['chance']))} spent {display(Fraction(r['spent']))} roll "
                       f"{r['roll'] if r['roll'] is not None else '-'} {'won' if r['won'] else 'lost'} "
                       f"luck {display(Fraction(r['scored']))}")
        else:
            out.append(f"T{r['turn']} war {r['attacker']} vs {r['defender']} dice {r['dice'][0]}-{r['dice'][1]} "
                       f"lead {r['lead']} luck {display(Fraction(r['scored']))}")
    return out


def run_phase(state: dict[str, Any], turn: int, phase: str, placed: dict[str, list[PlacedOrder]],
              rng: random.Random) -> Report:
    """Resolve `phase` of `turn` in `state` (changed in place); its report."""
    report = Report()
    if GM_ORDERS in placed:
        apply_gm(state, turn, placed[GM_ORDERS], report)
    if phase == BIDS:
        resolve_bids(state, turn, placed, report)
    elif phase == SHORTAGE:
        resolve_shortage(state, turn, placed, report)
    elif phase == BATTLES:
        resolve_battles(state, turn, placed, rng, report)
    elif phase == CARDS:
        resolve_cards(state, turn, placed, report)
    else:
        raise ValueError(f"no phase {phase}")
    return report
