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
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from maild.ledger import display
from maild.ruleset import GM_ORDERS, PlacedOrder

from . import battles, cards, draftwords, opening, shortage, spending, turnorder
from . import mill as mills
from . import state as st
from . import war as wars
from .luck import LuckPosting, read_correction, show_signed

BIDS, SHORTAGE, BATTLES, CARDS = "bids", "shortage", "battles", "cards"
PHASES = (BIDS, SHORTAGE, BATTLES, CARDS)
#: The order kinds each phase takes.
KINDS = {BIDS: frozenset({"bid", "prefer", "turn"}), SHORTAGE: frozenset({"number", "shortage"}),
         BATTLES: frozenset({"battle", "war", "mill", "pass"}), CARDS: frozenset({"card", "discard", "pass"})}


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
    for p in gm:
        a = p.order.args
        if p.order.kind == "gm_advances":
            who = a["player"]
            wanted = {w.strip().lower() for w in str(a["advances"]).replace(";", ",").split(",") if w.strip()}
            state["players"][who]["advances"] = {k: k in wanted for k in st.ADVANCES}
            names = ", ".join(st.ADVANCE_WORDS[k] for k in st.ADVANCES if k in wanted) or "none"
            report.public.append(f"GM: {who}'s advances are now: {names}.")
        elif p.order.kind == "gm_luck":
            correct_luck(state, turn, a["player"], read_correction(str(a["change"])),
                         str(a.get("reason") or "amendment"), report)
        elif p.order.kind == "gm_amend":
            amend(state, turn, a["amendment"], report)
        elif p.order.kind == "gm_chaos":
            if a["player"] not in state["shortage"]["chaosed"]:
                state["shortage"]["chaosed"].append(a["player"])
            report.public.append(f"GM: {a['player']} is in chaos this turn (3.3).")
        elif p.order.kind == "gm_epoch":
            state["epoch"] = int(a["epoch"])
            report.public.append(f"GM: the cards of epoch {state['epoch']} are now available.")


def correct_luck(state: dict[str, Any], turn: int, who: str, change: Fraction, reason: str,
                 report: Report, posted_as: str = "GM correction") -> None:
    """A GM's change of a luck score: posted to the ledger and kept in the public history with the rolls
    (3.4 "a recorded history ... is kept publicly"), so the history shows every posting and each score is
    the sum of the entries it shows. `change` is posted as given: a correction is read to four digits
    (luck.read_correction), an amendment's is the four-digit score it sets less the score, four digits too
    unless the game was stored with exact fractions before GA-OQ-04 (then it clears the old remainder)."""
    ledger = st.luck_ledger(state)
    ledger.post(turn, who, st.LUCK, change, f"{posted_as}: {reason}")
    line = (f"GM correction ({reason}): {who} {show_signed(change)}. "
            f"Score {who} {display(ledger.balance(who, st.LUCK))}.")
    entry = {"turn": turn, "type": "gm", "line": line, "player": who, "change": str(change)}
    state["rolls"].append(entry)
    report.events.append(entry)
    report.public.append(line)


def amend(state: dict[str, Any], turn: int, doc: dict[str, Any], report: Report) -> None:
    """The GM's amendment file (checked by the ruleset's check_gm): advances, capital, hand, and a luck score
    set to the four-digit figure written (GA-OQ-04)."""
    ledger = st.luck_ledger(state)
    note = str(doc.get("note") or "amendment")
    deck = st.deck(state)
    for who, t in (doc.get("players") or {}).items():
        p = state["players"][who]
        if "advances" in t:
            p["advances"] = {k: k in t["advances"] for k in st.ADVANCES}
        if "capital" in t:
            p["capital"] = t["capital"]
        if "cards" in t:
            state["held"][who] = [c.id for w in t["cards"] if (c := cards.find_card(deck, str(w))) is not None]
        if "luck" in t:
            target = read_correction(str(t["luck"]))
            correct_luck(state, turn, who, target - Fraction(ledger.balance(who, st.LUCK)), note, report, "GM")
        changed = ", ".join(f"{k} {v}" for k, v in t.items())
        report.public.append(f"GM amendment ({note}): {who}: {changed}.")


# -- phase 1: bids --------------------------------------------------------------------------------------------------
def resolve_bids(state: dict[str, Any], turn: int, placed: dict[str, list[PlacedOrder]], report: Report) -> None:
    """Turn 1: the opening double bid and draft (3.2, opening.py); every turn: the turn-order bid."""
    players = list(state["players"])
    if state["opening"] is None:
        run_opening(state, placed, players, report)
    run_turn_order(state, placed, players, report)


def run_opening(state: dict[str, Any], placed: dict[str, list[PlacedOrder]], players: list[str],
                report: Report) -> None:
    """3.2 by opening.resolve_opening: the bids in force (the receipt of the mail carrying each), the lists."""
    deck = st.deck(state)
    bids = []
    prefs: dict[str, opening.Preferences] = {}
    for name in players:
        b = last_of(placed, name, "bid")
        if b is not None:
            bids.append(opening.OpeningBid(name, b.order.args["cards"], b.order.args["capitals"], b.seq))
        lists: dict[str, list[str]] = {"cards": [], "capitals": []}
        for p in orders_of(placed, name, "prefer"):
            lists.update(p.order.args)
        low = {c.lower(): c for c in state["capitals"]}
        prefs[name] = opening.Preferences(
            cards=tuple(c.id for w in lists["cards"] if (c := cards.find_card(deck, w)) is not None),
            capitals=tuple(low[w.lower()] for w in lists["capitals"] if w.lower() in low))
    result = opening.resolve_opening(bids, state["capitals"], [c.id for c in cards.opening_pool(deck)], prefs,
                                     players=players, cards_each=st.choice(state, "cards_each"),
                                     cash=st.choice(state, "starting_cash"))
    for name, got in result.cards_of.items():
        state["held"][name].extend(got)
    for name, capital in result.capital_of.items():
        state["players"][name]["capital"] = capital
    state["opening"] = result.as_json()
    report.public += ["The opening double bid (3.2):", *draftwords.opening_lines(result, st.card_names(state))]
    report.events.append({"type": "opening", **state["opening"]})


def run_turn_order(state: dict[str, Any], placed: dict[str, list[PlacedOrder]], players: list[str],
                   report: Report) -> None:
    """The turn-order bids by turnorder.turn_order in the setup's direction (`fewest_first`, GA-OQ-27), ties
    by the setup's `ties`: the first mail received, or the later choice of capital in the opening. A player
    who sent none bids 0, after every mail."""
    bids = [turnorder.TurnBid(n, b.order.args["amount"], b.seq) for n in players
            if (b := last_of(placed, n, "turn")) is not None]
    picks = [p["player"] for p in (state["opening"] or {}).get("capital_picks", [])]
    ranked = turnorder.turn_order(bids, players=players, fewest_first=st.choice(state, "fewest_first"),
                                  ties=st.choice(state, "ties"), capital_picks=picks)
    state["order"] = [p.entry.player for p in ranked]
    state["turn_bids"] = {p.entry.player: p.entry.amount for p in ranked}
    report.public += ["Turn order:", *draftwords.turn_order_lines(ranked)]
    report.events.append({"type": "turn_order", "order": state["order"], "bids": state["turn_bids"]})


# -- phase 2: shortage and surplus ----------------------------------------------------------------------------------
def submission(state: dict[str, Any], player: str, order: Any, seq: int) -> shortage.Submission:
    """A number or decision as shortage.py's answer; "for X" names the chaosed player (or his capital)."""
    written = order.args.get("for")
    seat_of = (st.owner_of(state, written) or written) if written else None
    value = order.args["number"] if order.kind == "number" else order.args["choice"]
    return shortage.Submission(player, value, seq, seat_of)


def submissions(state: dict[str, Any], placed: dict[str, list[PlacedOrder]]) -> list[shortage.Submission]:
    """Every number and decision sent (one mail's in the order written)."""
    return [submission(state, player, p.order, p.seq) for player, mine in placed.items() for p in mine
            if p.order.kind in ("number", "shortage")]


def chaosed(state: dict[str, Any]) -> set[str]:
    return set(state["shortage"]["chaosed"])


def resolve_shortage(state: dict[str, Any], turn: int, placed: dict[str, list[PlacedOrder]], rng: random.Random,
                     report: Report) -> None:
    """3.3 by shortage.resolve_shortage: the two results, every seat revealed, the balance history kept;
    chaos lasts the turn it was set for (the GM's `chaos`)."""
    s = state["shortage"]
    table = shortage.ShortageTable.from_setup(state["table"])
    result = shortage.resolve_shortage(st.order(state), submissions(state, placed), s["history"], chaosed(state),
                                       table, rng)
    s["history"] = result.history
    s["results"] = [{"turn": turn, "label": o.label, "numbers": list(o.numbers), "total": o.total,
                     "commodity": o.commodity, "side": o.side, "decided_by": o.decided_by}
                    for o in result.outcomes]
    s["chaosed"] = []
    title, *lines = shortage.format_newsletter(result).rstrip("\n").splitlines()
    report.public += [f"{title}:", *(line[2:] for line in lines)]  # the section indents them again
    for sub, reason in result.refused:
        report.tell(sub.player, f"Your {sub.value} was set aside: {reason}.")
    report.events.append({"type": "shortage", "results": s["results"]})


# -- phase 3: battles, war, mill ------------------------------------------------------------------------------------
def resolve_battles(state: dict[str, Any], turn: int, placed: dict[str, list[PlacedOrder]], rng: random.Random,
                    report: Report) -> None:
    """Every declaration, in turn order, each player's in the order he wrote them; each against the scores as
    the declarations before it left them (a spend may be cut: battles.resolve_battle)."""
    last_won: dict[str, str] = {}
    for player in st.order(state):
        for p in placed.get(player, []):
            kind = p.order.kind
            if kind == "battle":
                battle(state, turn, player, p.order.args, rng, report, last_won)
            elif kind == "war":
                war(state, turn, player, p.order.args, rng, report)
            elif kind == "mill":
                mill_roll(state, turn, player, p.order.args, rng, report, last_won)


def _record(state: dict[str, Any], turn: int, kind: str, line: str, postings: Any, detail: dict[str, Any],
            report: Report) -> None:
    """Post a roll's luck and keep its line in the public history (3.4)."""
    st.luck(state).record(turn, postings)
    entry = {"turn": turn, "type": kind, "line": line, **detail}
    state["rolls"].append(entry)
    report.events.append(entry)
    report.public.append(line)


def battle_declaration(state: dict[str, Any], attacker: str, a: dict[str, Any]
                       ) -> battles.BattleDeclaration | str:
    """The declaration battles.py fights, from the order's args and the state, or why it cannot be fought:
    the position is the one written, else the attacker's place in turn order; Proselytism and the military
    advantage are those written or those the player holds (the GM's `advances`)."""
    defender = st.owner_of(state, a["target"])
    if defender is None or defender == attacker:
        return f"{a['target']} is no other player and no capital another player holds"
    held = state["players"][attacker]["advances"]
    decl = battles.BattleDeclaration(
        attacker, defender, a["position"] or st.position(state, attacker), a["tokens"],
        advantage=a["military"] or held["military"], proselytism=a["proselytism"] or held["proselytism"],
        cathedral=a["cathedral"])
    if a.get("spend"):
        try:
            rows = spending.read_spend(a["spend"], decl.row, decl.advantage, decl.tokens)
        except spending.SpendUnreadable as e:
            return str(e)
        decl = replace(decl, spend=rows)
    return battles.check_form(decl) or decl


def battle(state: dict[str, Any], turn: int, attacker: str, a: dict[str, Any], rng: random.Random,
           report: Report, last_won: dict[str, str]) -> None:
    """One battle (3.4-3.6, 3.8, 3.11) by battles.resolve_battle; its line and postings in the ledger."""
    decl = battle_declaration(state, attacker, a)
    if isinstance(decl, str):
        report.tell(attacker, f"Your battle against {a['target']} was not fought: {decl}.")
        return
    result = battles.resolve_battle(decl, st.luck(state).scores(state["players"]), state["option_312"], rng)
    if result.won:
        last_won[attacker] = decl.defender
    _record(state, turn, "battle", "Battle: " + battles.format_battle(result), result.postings,
            {"attacker": attacker, "defender": decl.defender, "chance": str(result.chance), "roll": result.roll,
             "won": result.won, "scored": str(result.scored), "spent": str(result.spent)}, report)


def war(state: dict[str, Any], turn: int, player: str, a: dict[str, Any], rng: random.Random,
        report: Report) -> None:
    """A war (3.7, 3.12) by war.resolve_war: the declaring player first, his modifier and target cities."""
    other = st.owner_of(state, a["opponent"])
    if other is None or other == player:
        report.tell(player, f"Your war against {a['opponent']} was not rolled: no other player is or holds it.")
        return
    decl = wars.WarDeclaration(
        player, other, a["modifier"], a["his_modifier"],
        tuple(wars.City(f"{other}'s city {i}", v) for i, v in enumerate(a["cities"], 1)),
        tuple(wars.City(f"{player}'s city {i}", v) for i, v in enumerate(a.get("his_cities", []), 1)),
        option_312=state["option_312"])
    result = wars.resolve_war(decl, rng)
    postings = [LuckPosting(who, amount, f"war {player} against {other}")
                for who, amount in result.luck_by_player.items()]
    _record(state, turn, "war", wars.format_war(result), postings,
            {"attacker": player, "defender": other, "winner": result.winner,
             "dice": [result.roll.first_die, result.roll.second_die],
             "scored": str(result.luck_by_player[player])}, report)


def mill_steps(state: dict[str, Any], a: dict[str, Any]) -> int | str:
    """The steps of 1/6 a mill order spends (mill.read_steps), or why it cannot be rolled as written: an
    amount that is no whole number of steps, or steps beyond certainty (mill.check_form). The intake's check
    and the roll read it alike, so a spend the ack accepted is the spend rolled."""
    try:
        steps = mills.read_steps(a["spend"], state["option_312"], 6 - a["need"]) if a.get("spend") else 0
    except spending.SpendUnreadable as e:
        return str(e)
    if a["need"] + steps > 6:
        return (f"{steps} step{'s' if steps != 1 else ''} on a die that succeeds on {a['need']} or less go "
                f"beyond certainty: at most {6 - a['need']}")
    return steps


def mill_roll(state: dict[str, Any], turn: int, player: str, a: dict[str, Any], rng: random.Random,
              report: Report, last_won: dict[str, str]) -> None:
    """A Wind/Watermill roll (3.9) by mill.resolve_mill, against the player who lost the city (named, or the
    defender of the player's last battle won in this phase); a spend in steps of 1/6."""
    loser = st.owner_of(state, a["target"]) if a["target"] else last_won.get(player)
    if loser is None or loser == player:
        report.tell(player, "Your Wind/Watermill roll was not rolled: name the player who lost the city "
                            "('mill against Paris, need 3'), or win a battle before it.")
        return
    steps = mill_steps(state, a)
    if isinstance(steps, str):  # checked at intake; an order on file from before that check
        report.tell(player, f"Your Wind/Watermill roll was not rolled: {steps}.")
        return
    decl = mills.MillDeclaration(player, loser, a["need"], steps, state["option_312"])
    wrong = mills.check_form(decl)
    if wrong:
        report.tell(player, f"Your Wind/Watermill roll was not rolled: {wrong}.")
        return
    # A spend the bounds no longer allow is cut (mill.resolve_mill; the line says so), as in a battle.
    result = mills.resolve_mill(decl, st.luck(state).scores(state["players"]), rng)
    postings = result.postings
    _record(state, turn, "mill", mills.format_mill(result), postings,
            {"attacker": player, "defender": loser, "die": result.die, "success": result.success,
             "chance": str(result.chance)}, report)


# -- phase 4: cards ---------------------------------------------------------------------------------------------------
def resolve_cards(state: dict[str, Any], turn: int, placed: dict[str, list[PlacedOrder]], report: Report) -> None:
    """3.1 by cards.draw: in turn order each player takes the first card of his list still on offer (by
    default the first on offer in the deck's order); then the discards (rule 2 by cards.discards_allowed:
    one a turn for a player with the advance Master Art, none for the others)."""
    deck = st.deck(state)
    order = st.order(state)
    held = [c for hand in state["held"].values() for c in hand]
    offered = cards.offer(deck, state["epoch"], held, state["discarded"])
    wanted = {n: [c.id for p in orders_of(placed, n, "card") for w in p.order.args["cards"]
                  if (c := cards.find_card(deck, w)) is not None] for n in order}
    picks = cards.draw(order, offered, wanted, per_player=st.choice(state, "cards_per_turn"))
    for pick in picks:
        if pick.item is not None:
            state["held"][pick.chooser].append(pick.item)
    state["draws"] = [{"player": p.chooser, "card": p.item, "by": p.by} for p in picks]
    report.public += ["Cards drawn (3.1):", *draftwords.pick_lines(picks, st.card_names(state))]
    for name in order:
        done = 0
        for p in orders_of(placed, name, "discard"):
            card = cards.find_card(deck, p.order.args["card"])
            hand = state["held"][name]
            # Master Art is an advance: the player's as the GM set it (`maild gm advances ... master_art`).
            holds = state["players"][name]["advances"].get("master_art", False)
            if card is None or card.id not in hand:
                report.tell(name, f"Discard of {p.order.args['card']} not done: you do not hold it.")
            elif not cards.discards_allowed(holds_master_art=holds, bought_master_art_now=False,
                                            discarded_this_turn=done):
                report.tell(name, f"Discard of {card.name} not done: only a player with Master Art discards, "
                                  "one card a turn (rule 2).")
            else:
                state["held"][name] = cards.discard(hand, card.id)
                state["discarded"].append(card.id)
                done += 1
                report.public.append(f"{name} discards {card.name}.")
    report.events.append({"type": "draws", "draws": state["draws"]})


def offer_lines(state: dict[str, Any]) -> list[str]:
    """The cards on offer now (cards.offer), one line each: id, printed name, epoch, kind."""
    held = [c for hand in state["held"].values() for c in hand]
    return [f"{c.id}: {c.name}, epoch {c.epoch}, {c.kind}" for c in
            cards.offer(st.deck(state), state["epoch"], held, state["discarded"])] or ["(none)"]


# -- the public ledger ------------------------------------------------------------------------------------------------
def history_lines(state: dict[str, Any]) -> list[str]:
    """The public history (3.4): every battle, war and mill with its odds, dice and luck, and every GM
    correction of a score, in the order posted (printed.py shows those before the phase)."""
    return [f"T{r['turn']} {r['line']}" for r in state["rolls"]]


def run_phase(state: dict[str, Any], turn: int, phase: str, placed: dict[str, list[PlacedOrder]],
              rng: random.Random) -> Report:
    """Resolve `phase` of `turn` in `state` (changed in place); its report."""
    report = Report()
    if GM_ORDERS in placed:
        apply_gm(state, turn, placed[GM_ORDERS], report)
    if phase == BIDS:
        resolve_bids(state, turn, placed, report)
    elif phase == SHORTAGE:
        resolve_shortage(state, turn, placed, rng, report)
    elif phase == BATTLES:
        resolve_battles(state, turn, placed, rng, report)
    elif phase == CARDS:
        resolve_cards(state, turn, placed, report)
    else:
        raise ValueError(f"no phase {phase}")
    return report
