"""Galilei as a maild ruleset: the contract's hooks, each handing over to the module that holds the rule
(orders.py the mail, setup.py the setup, turn.py the phases, state.py the layout)."""

from __future__ import annotations

import random
from typing import Any

from maild.ledger import display
from maild.policies import LaterReplacesSameGroup
from maild.ruleset import (
    Diagnostic,
    GmArg,
    GmOrderSpec,
    Order,
    ParsedOrders,
    Phase,
    PlacedOrder,
    PlayerSpec,
    Ruleset,
    TurnResult,
)

from . import cards, opening, orders, printed, setup, sheet_examples, shortage, turn
from . import state as st
from .luck import read_correction

GM_ORDERS = (
    GmOrderSpec(
        "advances", "gm_advances", "set a player's advances that matter to maild",
        "Set the advances maild reads for PLAYER (those not named are taken away): any of proselytism,\n"
        "cathedral, mill, military, master_art, separated by commas, or 'none'. It takes effect at the start\n"
        "of the open turn's first phase; after that phase, it is recorded for the next turn.\n\n"
        "example: maild gm advances gal1 alice proselytism,military",
        (GmArg("player", "player", "the player"),
         GmArg("advances", "text", "proselytism, cathedral, mill, military, master_art, comma-separated, or none")),
        summary="advances of {player}: {advances}", idempotent=True),
    GmOrderSpec(
        "luck", "gm_luck", "correct a player's luck score",
        "Add CHANGE (signed: -0.0972 or 7/72) to PLAYER's luck score, with a reason printed in the public\n"
        "history. Every luck figure has four decimals (rule 3.10): a decimal is posted as written, a fraction\n"
        "rounded half up to four (7/72 is 0.0972, -7/72 is -0.0972). It takes effect\n"
        "at the start of the open turn's first phase.\n\n"
        "example: maild gm luck gal1 alice -0.0972 --reason \"battle of turn 2 rolled twice\"",
        (GmArg("player", "player", "the player"),
         GmArg("change", "text", "the signed change, a decimal or a fraction"),
         GmArg("reason", "text", "what the ledger says of it", optional=True, default="amendment")),
        summary="luck of {player} changed by {change}", idempotent=True),
    GmOrderSpec(
        "amend", "gm_amend", "correct players' advances, capitals, cards or luck scores from a TOML file",
        "Correct the game from a TOML file, at the start of the open turn's first phase: a table per player,\n"
        "[players.NAME], with any of advances = [\"proselytism\", ...] (those not listed are taken away),\n"
        "capital = \"Genoa\", cards = [\"Stone-1\", ...] (his hand, card ids), luck = \"-7/72\" (his score\n"
        "becomes exactly this; the ledger posts the difference), and note = \"...\" at the top for the\n"
        "ledger's reason. Checked against the game as the amendments already recorded leave it.\n\n"
        "example: maild gm amend gal1 amend-turn-3.toml",
        (GmArg("amendment", "file", "the amendment (TOML)", metavar="FILE"),),
        summary="amendment from {amendment}", idempotent=True),
    GmOrderSpec(
        "chaos", "gm_chaos", "mark a player chaosed for this turn's shortage/surplus (3.3)",
        "PLAYER is in chaos this turn: the player three positions further round the turn order acts for him in\n"
        "the shortage/surplus phase (3.3).\n\nexample: maild gm chaos gal1 bob",
        (GmArg("player", "player", "the chaosed player"),), summary="chaos of {player}", idempotent=True),
    GmOrderSpec(
        "epoch", "gm_epoch", "open the cards of a later epoch",
        "From the open turn on, the cards of epochs up to EPOCH may be drawn.\n\nexample: maild gm epoch gal1 2",
        (GmArg("epoch", "int", "the epoch", positive=True),), summary="epoch {epoch}", idempotent=True),
)


#: Orders one mail gives together: a later mail with any of them replaces all of the earlier mail's.
DECLARATIONS = frozenset({"battle", "war", "mill", "pass"})


def order_group(order: Order) -> tuple[str, ...]:
    """What a later mail's orders replace: the opening bid, the lists, the turn bid, the number or decision of
    one seat (a stand-in's "for X" is another seat), the card list, the discards, and a phase's declarations
    (battles, wars, mills, pass) all together, since a player writes them as one list."""
    if order.kind in ("number", "shortage"):
        return ("3.3", str(order.args.get("for") or "").lower())
    return ("declarations",) if order.kind in DECLARATIONS else (order.kind,)


AMEND_KEYS = {"advances", "capital", "cards", "luck"}


def amendment_problem(state: dict[str, Any], doc: dict[str, Any]) -> str | None:
    """Why an amendment file cannot be applied to `state`, or None."""
    unknown = set(doc) - {"players", "note"}
    if unknown:
        return f"unknown key(s) {', '.join(sorted(unknown))}: give [players.NAME] tables and a note"
    deck = st.deck(state)
    for name, t in (doc.get("players") or {}).items():
        if name not in state["players"] or not isinstance(t, dict):
            return f"players.{name}: no such player (players: {', '.join(state['players'])})"
        if set(t) - AMEND_KEYS:
            return f"players.{name}: unknown key(s) {', '.join(sorted(set(t) - AMEND_KEYS))}"
        if "advances" in t and (not isinstance(t["advances"], list) or set(t["advances"]) - set(st.ADVANCES)):
            return f"players.{name}.advances: a list of {', '.join(st.ADVANCES)}"
        if "capital" in t and t["capital"] not in state["capitals"]:
            return f"players.{name}.capital: one of {', '.join(state['capitals'])}"
        if "cards" in t and (not isinstance(t["cards"], list)
                             or any(cards.find_card(deck, str(c)) is None for c in t["cards"])):
            return f"players.{name}.cards: a list of card ids of the deck"
        if "luck" in t:
            try:
                read_correction(str(t["luck"]))
            except ValueError as e:
                return f"players.{name}.luck: {e}"
    return None


def setup_words(state: dict[str, Any]) -> list[str]:
    """The setup's choices as the welcome tells them: the starting cash, the turn order, the cards drawn."""
    cash = st.choice(state, "starting_cash")
    each = st.choice(state, "cards_each")
    ties = ("the earlier mail" if st.choice(state, "ties") == "receipt"
            else "who chose his capital later in the opening, then the earlier mail")
    return [("Your two opening bids together may not exceed your starting cash of "
             f"{cash} (3.2; you pay both)." if cash is not None else
             "The setup sets no starting cash: your two opening bids have no upper bound (you pay both)."),
            f"In the opening each player drafts {each} card{'s' if each != 1 else ''} and one capital.",
            "Turn order each turn: " + ("the fewest" if st.choice(state, "fewest_first") else "the most")
            + f" tokens bought first; ties go to {ties}.",
            f"Cards drawn each turn: {st.choice(state, 'cards_per_turn')} each, in turn order."]


class Galilei(Ruleset):
    """Galilei, a reduced-luck Age of Renaissance by mail: you play the board game on your own copy; maild
    keeps the sealed bids, the secret shortage/surplus numbers, rolls your battles, wars and mills and keeps
    the public luck ledger. Each turn has four phases: bids, shortage, battles, cards; each closes as soon as
    every player has sent, so send "pass" when you have nothing to declare."""

    name = "galilei"
    late_policy = "next_turn"
    # A mail with only "turn bid 3" keeps the opening bid of the mail before; a second list of battles replaces
    # the first list whole. Each order keeps its own mail's receipt sequence (ties go by it: GA-OQ-26).
    resubmission = LaterReplacesSameGroup(
        group=order_group,
        second_mail=("Send a later mail any time before this phase's deadline: its orders replace the orders of "
                     "the same kind on file (all your battles, wars and mills together), and the others stand."))
    order_kinds = orders.ORDER_KINDS
    gm_orders = GM_ORDERS

    def parse(self, text: str) -> ParsedOrders:
        return orders.parse(text)

    def new_game(self, setup_doc: dict[str, Any]) -> dict[str, Any]:
        return setup.new_game(setup_doc)

    def players(self, state: dict[str, Any]) -> list[PlayerSpec]:
        return [PlayerSpec(n, p["email"], p["password"]) for n, p in state["players"].items()]

    def help_examples(self, state: dict[str, Any], player: str | None) -> dict[str, str]:
        return sheet_examples.help_examples(state, player)

    def phases(self) -> tuple[Phase, ...]:
        return tuple(Phase(name, kinds=turn.KINDS[name], closes_early=True) for name in turn.PHASES)

    def must_send(self, state: dict[str, Any], turn_: int, phase: str) -> list[str] | None:
        """Every player in every phase ("pass" where there is nothing to declare), except in the shortage
        phase a chaosed player, for whom the player three places after him answers (3.3)."""
        if phase == turn.SHORTAGE:
            asks = shortage.who_answers(st.order(state), set(state["shortage"]["chaosed"]))
            return [p for p in st.order(state) if asks.get(p)]
        return None

    def still_owed(self, state: dict[str, Any], turn_: int, phase: str,
                   orders_: dict[str, list[PlacedOrder]]) -> list[str]:
        """In the shortage phase, every player who has not answered for each seat he acts for: a stand-in
        answers for his own seat and the chaosed player's (3.3 "will act twice"), and the phase waits for
        both (GA-OQ-23)."""
        if phase != turn.SHORTAGE:
            return []
        return shortage.missing(st.order(state), turn.chaosed(state), state["shortage"]["history"],
                                turn.submissions(state, orders_))

    def resolve(self, state: dict[str, Any], turn_: int, orders_: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        raise NotImplementedError("Galilei's turns are resolved phase by phase")

    def resolve_phase(self, state: dict[str, Any], turn_: int, phase: str, placed: dict[str, list[PlacedOrder]],
                      rng: random.Random) -> TurnResult:
        earlier = len(state["rolls"])  # the history before this phase: its own rolls are in its results
        report = turn.run_phase(state, turn_, phase, placed, rng)
        following = turn.PHASES[(turn.PHASES.index(phase) + 1) % len(turn.PHASES)]
        public = {"title": f"Results of the {phase} phase", "lines": printed.wrap(report.public)
                  or ["Nothing to resolve."]}
        players = {"title": "Players in turn order: capitals, luck scores (3.4), cards held (3.1)",
                   "lines": printed.players_table(state)}
        history = {"title": "History of rolls and GM corrections before this phase",
                   "lines": printed.wrap(turn.history_lines(state)[:earlier]) or ["(none yet)"]}
        sections = [public, players, history]
        if following == turn.CARDS:  # 3.1: "one selects which card wants ... among those available"
            sections.append({"title": "Cards on offer for the draw (3.1; write the id)",
                             "lines": turn.offer_lines(state)})
        printouts = {}
        for name in state["players"]:
            mine = [{"title": "For you", "lines": printed.wrap(report.private[name])}] \
                if name in report.private else []
            printouts[name] = {"sections": [public, *mine, *sections[1:]], "phase_done": phase,
                               "position": st.position(state, name), "next_phase": following,
                               "to_send": self.to_send(state, following, name)}
        newsletter = {"sections": sections, "phase_done": phase, "next_phase": following}
        return TurnResult(state, printouts, newsletter, events=report.events)

    @staticmethod
    def to_send(state: dict[str, Any], phase: str, player: str) -> str:
        """What `player` sends in `phase`, in a line, for the printout before it."""
        if phase == turn.BIDS:
            return "your turn-order bid: turn bid N"
        if phase == turn.SHORTAGE:
            asks = shortage.who_answers(st.order(state), set(state["shortage"]["chaosed"])).get(player, [])
            if not asks:
                return "nothing: you are chaosed this turn, the player three places after you acts for you"
            sides = shortage.allowed(state["shortage"]["history"], player)
            wanted = [("number 1-6" if a.kind == "number" else " or ".join(sorted(sides)))
                      + (f" for {a.for_player}" if a.stand_in else "") + f" (seat {a.seat})" for a in asks]
            return "; ".join(wanted)
        if phase == turn.BATTLES:
            return "your battles, wars and mills (battle: attack Paris, 2 tokens), or pass"
        return "the card you draw (card War, Stirrups: the first still on offer), discards, or pass"

    def welcome(self, state: dict[str, Any], player: str, turn: int = 1) -> dict[str, Any] | None:
        if player not in state.get("players", {}):
            return None
        lines = [f"Players, in seat order: {', '.join(state['players'])}.",
                 f"Capitals: {', '.join(state['capitals'])}.",
                 "Option 3.12 is " + ("in force." if state["option_312"] else "not in force."),
                 *setup_words(state),
                 "Each turn has four phases, each closing as soon as all six have sent: bids, shortage, battles, "
                 "cards. Send pass in a phase where you have nothing to declare."]
        first = ["bid 12 for cards, 8 for capitals", "prefer cards: War, Armor; capitals: Venice, Genoa",
                 "turn bid 3"]
        pool = [f"{c.id}: {c.name}, {c.kind}" for c in cards.opening_pool(st.deck(state))]
        return {"sections": [{"title": "The game", "lines": printed.wrap(lines)},
                             {"title": "Cards of the opening draft (write the id)", "lines": pool},
                             {"title": "Your first mail (the opening, 3.2, and the turn order)", "lines": first}]}

    def check(self, state: dict[str, Any], turn_: int, player: str, given: list[Order]) -> list[Diagnostic]:
        """What the state refuses at intake: a name that is no capital, card or player; a number or decision
        from the wrong position; the opening bid after the opening."""
        out: list[Diagnostic] = []
        if player not in state.get("players", {}):
            return out
        low_caps = {c.lower() for c in state["capitals"]}
        deck = st.deck(state)
        for o in given:
            a = o.args
            if o.kind in ("bid", "prefer") and state["opening"] is not None:
                out.append(orders.diagnostic(o, "the opening double bid is over (turn 1 only)"))
            elif o.kind == "bid" and (why := opening.check_bid(a["cards"], a["capitals"],
                                                               st.choice(state, "starting_cash"))):
                out.append(orders.diagnostic(o, why, rule="3.2"))
            elif o.kind == "prefer":
                for w in a.get("capitals", []):
                    if w.lower() not in low_caps:
                        out.append(orders.diagnostic(o, f"{w} is no capital of this game "
                                                        f"({', '.join(state['capitals'])})"))
                for w in a.get("cards", []):
                    if cards.find_card(deck, w) is None:
                        out.append(orders.diagnostic(o, f"{w} is no card of this game's deck (write its id, "
                                                        "e.g. Stone-1)"))
            elif o.kind == "card":
                for w in a["cards"]:
                    if cards.find_card(deck, w) is None:
                        out.append(orders.diagnostic(o, f"{w} is no card of this game's deck (write its id, "
                                                        "e.g. Stone-1)"))
            elif o.kind in ("battle", "mill") and a.get("target") and st.owner_of(state, a["target"]) is None:
                out.append(orders.diagnostic(o, f"{a['target']} is neither a player nor a capital held"))
            elif o.kind == "battle" and isinstance(why := turn.battle_declaration(state, player, a), str):
                out.append(orders.diagnostic(o, why))  # a spend that names no whole rows, rows beyond the table
            elif o.kind == "war" and a.get("spend"):
                out.append(orders.diagnostic(
                    o, f"no luck may be spent on a war: send it without 'spend {a['spend']}' (rule 3.7: \"No "
                       "luck points can be used to modify the war dice rolls\")", rule="3.7"))
            elif o.kind == "war" and st.owner_of(state, a["opponent"]) is None:
                out.append(orders.diagnostic(o, f"{a['opponent']} is neither a player nor a capital held"))
            elif o.kind == "mill" and isinstance(why := turn.mill_steps(state, a), str):
                out.append(orders.diagnostic(o, why, rule="3.9"))
            elif o.kind == "discard" and not state["players"][player]["advances"].get("master_art"):
                out.append(orders.diagnostic(
                    o, "you do not hold Master Art: this discard fails unless the GM gives you the advance "
                       "before the draw (rule 2)",
                    warning=True))
            elif o.kind in ("number", "shortage"):
                why = shortage.check(st.order(state), set(state["shortage"]["chaosed"]),
                                     state["shortage"]["history"], turn.submission(state, player, o, 0))
                if why:
                    out.append(orders.diagnostic(o, why))
                else:
                    out += self._other_seat(state, player, o, given)
        return out

    def _other_seat(self, state: dict[str, Any], player: str, order: Order, given: list[Order]) -> list[Diagnostic]:
        """A note on a stand-in's answer for one of his two seats when this mail has none for the other: the
        phase waits for it (3.3 "will act twice", GA-OQ-23), and this is how he writes it."""
        asks = shortage.who_answers(st.order(state), set(state["shortage"]["chaosed"])).get(player, [])
        answered = {turn.submission(state, player, o, 0).for_player or player for o in given
                    if o.kind in ("number", "shortage")}
        if len(asks) < 2 or order.args.get("for"):
            return []
        notes = []
        for ask in asks:
            if ask.stand_in and ask.for_player not in answered:
                how = ("number N" if ask.kind == "number" else "shortage or surplus") + f" for {ask.for_player}"
                notes.append(orders.diagnostic(
                    order, f"you also act for {ask.for_player} this turn (seat {ask.seat}, rule 3.3): unless "
                           f"you have already, send {how}; the phase waits for it", warning=True))
        return notes

    def check_gm(self, state: dict[str, Any], kind: str, fields: dict[str, Any],
                 pending: tuple[Order, ...] = (), turn: int | None = None) -> str | None:
        if kind == "gm_advances":
            words = {w.strip().lower() for w in str(fields["advances"]).split(",") if w.strip()} - {"none"}
            if words - set(st.ADVANCES):
                return f"unknown advance(s) {', '.join(sorted(words - set(st.ADVANCES)))}: " \
                       f"give any of {', '.join(st.ADVANCES)} or none"
        if kind == "gm_amend":
            return amendment_problem(state, fields["amendment"])
        if kind == "gm_luck":
            try:
                read_correction(str(fields["change"]))
            except ValueError as e:
                return f"the change: {e}"
        return None

    def status(self, state: dict[str, Any], turn_: int, player: str) -> dict[str, Any]:
        if player not in state.get("players", {}):
            return {}
        p = state["players"][player]
        return {"position": st.position(state, player), "capital": p["capital"] or "-",
                "luck": display(st.luck_ledger(state).balance(player, st.LUCK)),
                "cards": ", ".join(state["held"][player]) or "-"}

    def export_players(self, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
        ledger = st.luck_ledger(state)
        return {n: {"email": p["email"], "capital": p["capital"], "luck": display(ledger.balance(n, st.LUCK)),
                    "cards": state["held"][n], "position": st.position(state, n)}
                for n, p in state["players"].items()}
