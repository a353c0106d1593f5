"""Rock, paper, scissors by mail: the tiny complete game of docs/writing-a-ruleset.md.

Written only against maild.ruleset.Ruleset and the framework's templates (no templates of its own). The rules:

1. Each round (a turn) every player throws rock, paper or scissors (`throw rock`); a later throw, in the same
   mail or a later one, replaces an earlier one. A player may also `say` a line for the newsletter.
2. Every player meets every other once a round: rock beats scissors, scissors beat paper, paper beats rock.
   A win scores `points.win` (default 2), a draw `points.draw` (default 1) to each, a loss nothing.
3. A player who sent no throw has one drawn by lot (the turn's RNG, in the order the setup lists the players).
4. The GM may give a player bonus points (`maild gm bonus GAME PLAYER POINTS [--note TEXT]`).
5. The game lasts `rounds` rounds; the highest score wins. Mail SCORES for the standings.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from lark import Lark, Tree

from maild.parsing import OrderError, SyntaxHelp, parse_orders
from maild.ruleset import (
    GM_ORDERS,
    Diagnostic,
    GmArg,
    GmOrderSpec,
    MailCommand,
    Order,
    OrderKind,
    OrderSet,
    ParsedOrders,
    PlacedOrder,
    PlayerSpec,
    Ruleset,
    SetupError,
    TurnResult,
    register,
)

State = dict[str, Any]
THROWS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}

# One order a line; the framework's parse_orders feeds it each stripped line and turns Lark's errors into
# "expected ..., e.g. throw rock" for the player.
GRAMMAR = r"""
start: throw | say
throw: THROW WORD
say: SAY TEXT
THROW: /throw\b/i
SAY: /say\b/i
WORD: /[A-Za-z]+/
TEXT: /\S.*/
%ignore /[ \t]+/
"""
SYNTAX = SyntaxHelp(words={"THROW": "'throw'", "SAY": "'say'", "WORD": "rock, paper or scissors",
                           "TEXT": "what to say"},
                    examples={"throw": "throw rock", "say": "say good luck, all"})
_PARSER = Lark(GRAMMAR, parser="lalr", lexer="contextual")

EXAMPLE_SETUP: dict[str, Any] = {
    "rounds": 3,
    "players": [{"name": "ann", "email": "ann@example.org"},
                {"name": "bob", "email": "bob@example.org", "password": "sesame"},
                {"name": "cat", "email": "cat@example.org"}],
}
# What the contract test sends for the first round of EXAMPLE_SETUP: player -> order text.
EXAMPLE_ORDERS = {"ann": "throw rock\nsay good luck, all", "bob": "throw scissors"}


def _build(tree: Tree, line: int, text: str) -> Order:
    kind = tree.children[0].data
    word = str(tree.children[0].children[1])
    if kind == "say":
        return Order(line, text, "say", {"text": word}, f"say: {word}")
    throw = word.lower()
    if throw not in THROWS:
        raise OrderError(f"you can throw rock, paper or scissors, not {word!r}")
    return Order(line, text, "throw", {"throw": throw}, f"throw {throw}")


class RockPaperScissors(Ruleset):
    """Rock, paper, scissors: every player meets every other each round; a win scores 2, a draw 1."""

    name = "rps"
    late_policy = "next_turn"
    order_kinds = (
        OrderKind("throw", "throw rock|paper|scissors", "your throw this round; a later one replaces it",
                  "throw rock"),
        OrderKind("say", "say TEXT", "a line for the newsletter", "say good luck, all"),
    )
    mail_commands = (MailCommand("SCORES", "the standings so far", "command.txt.j2"),)
    gm_orders = (
        GmOrderSpec("bonus", "rps_bonus", "give a player bonus points",
                    "Add POINTS to PLAYER's score when the open round is played.\n\n"
                    "example: maild gm bonus rps1 ann 3 --note \"best sportsman\"",
                    (GmArg("player", "player", "the player's name"),
                     GmArg("points", "int", "how many points, above zero", positive=True),
                     GmArg("note", "text", "why, for the newsletter", optional=True, default="bonus")),
                    summary="{points} bonus points to {player}"),
    )

    def parse(self, text: str) -> ParsedOrders:
        parsed = parse_orders(_PARSER, text, _build, SYNTAX)
        throws = [o for o in parsed.orders if o.kind == "throw"]
        # Rule 1: the last throw of a mail stands; the player hears that the earlier ones do not.
        parsed.diagnostics += [Diagnostic(o.line, o.text, "a later throw in this mail replaces this one",
                                          warning=True) for o in throws[:-1]]
        parsed.diagnostics.sort(key=lambda d: d.line)
        return parsed

    def new_game(self, setup: dict[str, Any]) -> State:
        players = setup.get("players")
        if not isinstance(players, list) or len(players) < 2:
            raise SetupError("players: at least two [[players]] are needed")
        names = [str(p.get("name", "")) for p in players]
        if any(not n.isidentifier() for n in names) or len({n.lower() for n in names}) != len(names):
            raise SetupError("players: each needs a name of one word, unique ignoring case")
        if any("@" not in str(p.get("email", "")) for p in players):
            raise SetupError("players: each needs an email address")
        rounds = setup.get("rounds", 3)
        if not isinstance(rounds, int) or rounds < 1:
            raise SetupError("rounds: a whole number of at least 1")
        points = {"win": 2, "draw": 1, **setup.get("points", {})}
        return {"rounds": rounds, "points": points,
                "players": [{"name": p["name"], "email": p["email"], "password": p.get("password")}
                            for p in players],
                "scores": {n: 0 for n in names}, "played": []}

    def players(self, state: State) -> list[PlayerSpec]:
        return [PlayerSpec(p["name"], p["email"], p["password"]) for p in state["players"]]

    def total_turns(self, state: State) -> int:
        return int(state["rounds"])

    def effective(self, order_sets: list[OrderSet]) -> list[PlacedOrder]:
        placed = [PlacedOrder(o, s.seq) for s in order_sets for o in s.orders]
        throws = [p for p in placed if p.order.kind == "throw"]
        return [p for p in placed if p.order.kind == "say"] + throws[-1:]

    def resolve(self, state: State, turn: int, orders: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        new = copy.deepcopy(state)
        names = [p["name"] for p in state["players"]]
        throws: dict[str, str] = {}
        by_lot = []
        for name in names:  # rule 3: the lot is drawn in the setup's order, so a re-run draws the same
            mine = [p.order.args["throw"] for p in orders.get(name, []) if p.order.kind == "throw"]
            if mine:
                throws[name] = mine[-1]
            else:
                throws[name] = rng.choice(THROWS)
                by_lot.append(name)
        bouts = []
        gained = {n: 0 for n in names}
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                winner = a if BEATS[throws[a]] == throws[b] else b if BEATS[throws[b]] == throws[a] else None
                if winner is None:
                    gained[a] += new["points"]["draw"]
                    gained[b] += new["points"]["draw"]
                else:
                    gained[winner] += new["points"]["win"]
                bouts.append({"a": a, "b": b, "winner": winner})
        bonuses = [p.order.args for p in orders.get(GM_ORDERS, []) if p.order.kind == "rps_bonus"]
        for bonus in bonuses:
            gained[bonus["player"]] += bonus["points"]
        for name in names:
            new["scores"][name] += gained[name]
        said = [(name, p.order.args["text"]) for name in names for p in orders.get(name, [])
                if p.order.kind == "say"]
        new["played"].append({"turn": turn, "throws": throws, "by_lot": by_lot, "bouts": bouts})
        standings = _standings(new)
        printouts = {}
        for name in names:
            mine = [f"{b['b'] if b['a'] == name else b['a']} threw "
                    f"{throws[b['b'] if b['a'] == name else b['a']]}: "
                    f"{'draw' if b['winner'] is None else 'won' if b['winner'] == name else 'lost'}"
                    for b in bouts if name in (b["a"], b["b"])]
            lot = " (drawn by lot: you sent no throw)" if name in by_lot else ""
            printouts[name] = {"sections": [
                {"title": "Your throw", "lines": [f"{throws[name]}{lot}"]},
                {"title": f"Your bouts (+{gained[name]} points)", "lines": mine},
                {"title": "Standings", "lines": standings}]}
        newsletter = {"sections": [
            {"title": f"Round {turn} of {new['rounds']}",
             "lines": [f"{n}: {throws[n]}{' (by lot)' if n in by_lot else ''}" for n in names]},
            *([{"title": "Said", "lines": [f"{n}: {text}" for n, text in said]}] if said else []),
            *([{"title": "The GM's bonuses", "lines": [f"{b['points']} to {b['player']}: {b['note']}"
                                                      for b in bonuses]}] if bonuses else []),
            {"title": "Standings", "lines": standings}]}
        events = [{"type": "bout", "turn": turn, **b} for b in bouts]
        return TurnResult(state=new, printouts=printouts, newsletter=newsletter, events=events,
                          finished=turn >= new["rounds"])

    def welcome(self, state: State, player: str, turn: int = 1) -> dict[str, Any]:
        others = [p["name"] for p in state["players"] if p["name"] != player]
        return {"sections": [{"title": "The game", "lines": [
            f"{state['rounds']} rounds; each round you meet {', '.join(others)}.",
            f"A win scores {state['points']['win']}, a draw {state['points']['draw']}."]}]}

    def template_context(self, state: State, turn: int) -> dict[str, Any]:
        # The framework's command.txt.j2 answers SCORES with the lines under "scores".
        return {"scores": _standings(state)}

    def export_players(self, state: State) -> dict[str, dict[str, Any]]:
        return {p["name"]: {"email": p["email"], "score": state["scores"][p["name"]]} for p in state["players"]}

    def public_ledger(self, state: State) -> dict[str, dict[str, Any]]:
        # The standings the newsletter prints anyway.
        return {p["name"]: {"score": state["scores"][p["name"]]} for p in state["players"]}


def _standings(state: State) -> list[str]:
    ranked = sorted(state["scores"].items(), key=lambda kv: (-kv[1], kv[0]))
    return [f"{n}. {name}: {score}" for n, (name, score) in enumerate(ranked, start=1)]


RULESET = register(RockPaperScissors())
