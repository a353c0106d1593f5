"""The Renaissance ruleset object: the maild.ruleset.Ruleset contract, wired to this package's modules."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from maild.policies import FirstSetStands
from maild.ruleset import (
    Diagnostic,
    GmArg,
    GmOrderSpec,
    LatePolicy,
    MailCommand,
    Order,
    ParsedOrders,
    PlacedOrder,
    PlayerSpec,
    Ruleset,
    TurnResult,
)

from . import checks, codes, codesheet, corrections, reports, sheet_examples, standing
from . import setup as setup_rules
from .calendar import month_name, turn_of
from .context import State
from .engine import copy_state, run_month
from .family_orders import family_key


def families_in(orders: list[Order]) -> list[str]:
    """The families a mail's orders are for, as family keys, in the order they first appear."""
    return list(dict.fromkeys(family_key(o.args["family"]) for o in orders if o.args.get("family")))


def _family_on_file(again: list[str]) -> str:
    return (f"orders for {', '.join(again)} are already on file for this month, and the rules allow no "
            f"changes or additions once a family's orders are received; send orders for any other "
            f"family in a mail of their own")


# ORDERS: "once one, or more, orders have been received for a family, no changes, or additional orders may be
# made for that family for that turn."
RESUBMISSION = FirstSetStands(
    keys=families_in,
    refusal=_family_on_file,
    # docs/renaissance.md, readings 6 and 6a: a line not understood cannot be corrected this month.
    second_mail=("The first orders received for a family stand for the month (rules, ORDERS): a later mail with "
                 "orders for a family already on file is refused whole, so a line of that family that was not "
                 "understood cannot be corrected this month. A family with nothing on file may still send its "
                 "orders; orders for another family go in a mail of their own."),
)


GM_ORDER_SPECS = (
    GmOrderSpec(
        "pay", "gm_payment", "record a player's payment to his account",
        "Record money a player sent (a cheque, a transfer) on his account. The payment is posted at the start of\n"
        "the open month, before the CREDIT check and the month's fees, so it counts towards that month (a\n"
        "player who owed may have his orders executed, and it counts towards the prepayment discount).\n"
        "A payment that reached you after the month's due date belongs to the next month: record it after\n"
        "this month has run. PLAYER is a player code or a family's name, in any case.\n"
        "A payment that came in time for a month that has run but was not recorded (the GM's error: rules,\n"
        "ERRORS) is recorded for that month with --turn N; the re-run of the months since counts it.\n\n"
        "example: maild gm pay ren1 SFO 25.50 --note \"cheque 12\"\n"
        "         maild gm pay ren1 SFO 25.50 --turn 3 --note \"cheque 12, received in time\"",
        (GmArg("player", "player", "the player's code (SFO) or one of his families (SFORZA)"),
         GmArg("amount", "decimal", "the amount received, above zero", positive=True),
         GmArg("note", "text", "what the account's history says of it", optional=True, default="payment")),
        summary="payment of {amount:.2f} from {player}", retroactive=True),
    GmOrderSpec(
        "bulletin", "gm_bulletin", "a bulletin for the next newsletter",
        "Print TEXT among the GM's bulletins of the open month's newsletter. The same bulletin twice is recorded\n"
        "once.\n\nexample: maild gm bulletin ren1 \"Rome mourns; the conclave meets.\"",
        (GmArg("text", "text", "the bulletin, as it is to be printed"),),
        summary="bulletin", idempotent=True),
    GmOrderSpec(
        "amend", "gm_amend", "add to the game's world from a TOML file (new locations, families)",
        "Add players, families, locations or roads to the running game, from a TOML file of the setup's shape\n"
        "(docs/renaissance/world.md). It takes effect at the start of the open month. It is checked against the\n"
        "world as the amendments already recorded for the month will leave it: one that clashes (a code or a\n"
        "name used twice) is refused with the reason, and the same file again is a no-op.\n\n"
        "example: maild gm amend ren1 amend-1493-05.toml",
        (GmArg("amendment", "file", "the amendment (TOML)", metavar="FILE"),),
        summary="amendment from {amendment}", idempotent=True),
)


_VOID_ARGS = (GmArg("orders", "text", "the orders to void, as PERSONA:CODE the printout shows them, separated by "
                                       "commas: .0101:T0102ducat1000,.0102:OQFlorence", metavar="ORDERS"),
              GmArg("note", "text", "the GM's words for the newsletter", optional=True, default=""))

# ERRORS and STANDARDS OF CONDUCT (corrections.py; docs/renaissance/hierarchies.md, section H): each names the month
# it corrects with --turn N and is carried out by that month's re-run (`maild turn rerun GAME N --yes --mail`).
CORRECTIONS = (
    GmOrderSpec(
        "reverse", "gm_reverse", "reverse gifts in contemplation of resignation (void the orders)",
        "STANDARDS OF CONDUCT: transfers away of a family's assets or positions, made in contemplation of\n"
        "resignation, \"may be reversed by the GM upon his discovery of the violation\". The named orders of\n"
        "month N are void: its re-run, and the re-run of every month since, goes on without them. The\n"
        "newsletter of month N announces the reversal; the family's printout shows each order void.\n\n"
        "example: maild gm reverse ren1 --turn 3 .0101:T0301ducat40000,.0102:OQFlorence \\\n"
        "             --note \"the Medici's gifts to the Borgia before their player resigned\"",
        _VOID_ARGS, summary="reversal of {orders}", retroactive=True),
    GmOrderSpec(
        "negate", "gm_negate", "negate a staged battle (void the orders that arranged it)",
        "STANDARDS OF CONDUCT: \"Battles which appear to have been arranged for the purpose of circumventing\n"
        "this rule, or any other rule, are deemed staged battles and their effect is negated\". Name the orders\n"
        "that arranged the battle (each side's battle, siege or interception orders): month N is re-run without\n"
        "them, so the battle and all that followed from it never happened; the newsletter announces it.\n\n"
        "example: maild gm negate ren1 --turn 4 .0101:KF0301,.0301:KF0101 --note \"arranged to pass Pisa\"",
        _VOID_ARGS, summary="negation of {orders}", retroactive=True),
    GmOrderSpec(
        "compensate", "gm_compensate", "equitable compensation, in ducats, for an error of processing",
        "ERRORS: for an error in the processing of orders \"that were legible and in compliance with the rules\",\n"
        "the GM \"will make retroactive adjustments and/or equitable compensation\". The ducats reach the\n"
        "persona at the start of month N (the open month by default); with --turn N of a month that has run,\n"
        "its re-run and the months since count them. The family is told; the newsletter announces it.\n"
        "Players' errors are not corrected (\"Player errors are part of the game\").\n\n"
        "example: maild gm compensate ren1 --turn 2 0101 1200 --note \"wool sold below the market price\"",
        (GmArg("persona", "text", "the persona's number (0101)"),
         GmArg("ducats", "int", "the ducats he receives, above zero", positive=True),
         GmArg("note", "text", "the GM's words for the newsletter", optional=True, default="")),
        summary="compensation of {ducats} ducats to {persona}", retroactive=True),
)


class Renaissance(Ruleset):
    """The 1493 world: each player directs families of personae, with orders in the Renaissance action codes,
    carried out month by month."""

    name = "renaissance"
    # ORDERS: "Orders which reach me after the due date will be processed in the immediately subsequent turn
    # unless I receive contrary instructions within ten days of the day on which turn results are mailed out."
    late_policy: LatePolicy = "next_turn"
    late_cancel_days = 10
    gm_orders = GM_ORDER_SPECS + CORRECTIONS
    mail_commands = (MailCommand("CODESHEET", "the whole sheet of action codes", "codesheet.txt.j2"),)
    resubmission = RESUBMISSION

    def parse(self, text: str) -> ParsedOrders:
        return codes.parse(text)

    def new_game(self, setup: dict[str, Any]) -> State:
        return setup_rules.new_game(setup)

    def players(self, state: State) -> list[PlayerSpec]:
        return [PlayerSpec(code, p["email"], p.get("password")) for code, p in state["players"].items()]

    def total_turns(self, state: State) -> None:
        return None  # open-ended, as the rules' INTRODUCTION says

    def check(self, state: State, turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
        return checks.check(state, turn, player, orders)

    def check_gm(self, state: State, kind: str, fields: dict[str, Any], pending: tuple[Order, ...] = (),
                 turn: int | None = None) -> str | None:
        if (problem := corrections.check(state, kind, fields)) is not None:
            return problem
        if kind == "gm_amend":
            # Against the world as the month's pending amendments will leave it, as the month will apply them
            # (with its turn, so that LOCATION SETUPS' one location a player a turn counts them): two amendments
            # adding the same code would otherwise both pass, and the second stop the month at its start.
            ahead = copy_state(state)
            try:
                for order in pending:
                    if order.kind == "gm_amend":
                        setup_rules.amend(ahead, order.args["amendment"], turn=turn)
                setup_rules.amend(ahead, fields["amendment"], turn=turn)
            except ValueError as exc:
                return str(exc) + (" (counting the amendments already recorded for this month)" if pending else "")
        return None

    def find_player(self, state: State, word: str) -> str | None:
        # A payment names the player by his code or by a family he directs, in any case.
        key = family_key(word)
        for code in state["players"]:
            if code.upper() == word.upper():
                return code
        family = state["families"].get(key)
        return family["player"] if family is not None else None

    def requested_turn(self, state: State, turn: int, orders: list[Order]) -> int | None:
        marked = [o for o in orders if o.kind == "for_turn"]
        if not marked:
            return None
        return turn_of(state, int(marked[0].args["year"]), int(marked[0].args["month"]))

    def resolve(self, state: State, turn: int, orders: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        result = run_month(state, turn, orders, rng)
        new = result.ctx.state
        return TurnResult(state=new, printouts=reports.printouts(new, turn, result),
                          newsletter=reports.newsletter(new, turn, result), events=reports.events(result, turn))

    def export_players(self, state: State) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for code, p in state["players"].items():
            out[code] = {"name": p.get("name", code), "email": p["email"],
                         "families": [f for f, fam in state["families"].items() if fam["player"] == code],
                         "balance": p.get("account", {}).get("balance", 0.0)}
        return out

    def status(self, state: State, turn: int, player: str) -> dict[str, Any]:
        return standing.status(state, player)

    def welcome(self, state: State, player: str, turn: int = 1) -> dict[str, Any] | None:
        context = reports.welcome(state, player, turn)
        if context is not None:
            context["info"] = self.template_context(state, turn)  # the code sheet the welcome includes
        return context

    def help_examples(self, state: State, player: str | None) -> dict[str, str]:
        return sheet_examples.help_examples(state, player)

    def template_context(self, state: State, turn: int) -> dict[str, Any]:
        # families_of is called by the code sheet only, for its one reader: an ack does not pay for it.
        return {"month": month_name(state, turn), "codesheet": True, "sheet": codesheet.tables(),
                "families_of": partial(codesheet.families_of, state), "example_of": partial(codesheet.example, state)}


RULESET = Renaissance()
