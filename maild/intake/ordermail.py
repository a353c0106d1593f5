"""A player's order mail, step by step: which turn it counts for, what it orders, what of that the game allows,
and what goes on file. `pipeline.handle_orders` runs the steps in this order and answers; each step is a
function of its own, to be read and tested alone.

- `order_target`: the turn (and phase) the mail counts for, late or not, or why it counts for none;
- `parse_orders`: the mail's lines read as the game's orders;
- `checked`: those orders against the game's state (`Ruleset.refine`, `Ruleset.check`), the bad ones dropped;
- `book_orders`: the orders offered to the book (`Ruleset.accept`), the order set row held back to be written.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from maild.intake.orders import names_of, read_orders
from maild.intake.read import ReadMail
from maild.intake.rereading import forced_turn
from maild.intake.run import IntakeRun, MailRow
from maild.intake.signup import sign_up_lines
from maild.models import Game, Player, Turn
from maild.orderbook import NOT_UNDERSTOOD
from maild.phases import PhaseTarget, came_before_results, is_phased, keep_phase_orders, target_phase
from maild.ruleset import SIGN_UP_ADDRESS, Diagnostic, OrderSet, ParsedOrders, Ruleset


@dataclass(frozen=True)
class Target:
    """The turn a player's mail counts for."""

    turn: Turn | None  # the turn row it was read for; None: it counts for no turn (`late` says why)
    late: str | None  # why it counts for a later turn than the one it came in; with no turn, why for none
    number: int  # the turn its orders are booked for
    state_turn: int  # the turn whose state its orders are checked against
    phase: PhaseTarget | None = None  # in a game of several phases a turn, the phase it counts for
    forced: int | None = None  # the GM's `mail reprocess ID --turn N`

    @property
    def phase_name(self) -> str | None:
        return self.phase.phase if self.phase is not None else None


def target_turn(turn: Turn | None, ruleset: Ruleset, game: Game, received: datetime,
                previous: Turn | None = None) -> tuple[Turn | None, str | None]:
    """The turn a mail received at `received` counts for, and a note if it came late: after the deadline of the
    open `turn`, or after that of the turn before it (`previous`) while that one had not run yet. A pass reads
    what came by a deadline, runs its turn, and only then what came after, so a mail late for a turn is often
    read when the next is open; it is late all the same (its sender had no results yet), and the late policy
    decides as if it had been read before. The turn returned is the one it was late for; it counts for the one
    after that."""
    if turn is None or game.finished:
        return None, "the game is over"
    missed = turn if turn.deadline is not None and received > turn.deadline else \
        previous if came_before_results(previous, received) else None
    if missed is None:
        return turn, None
    if ruleset.late_policy == "refuse":
        return None, f"it came after the deadline of turn {missed.number}"
    note = f"it came after the deadline of turn {missed.number}, so it counts for turn {missed.number + 1}"
    days = ruleset.late_cancel_days
    if days:
        note += f" (mail CANCEL within {days} days of turn {missed.number}'s results to withdraw it)"
    return missed, note


def order_target(s: Session, run: IntakeRun, row: MailRow, game: Game, player: Player, ruleset: Ruleset
                 ) -> Target:
    """The turn `row` counts for (`target_turn`); in a game of phases, the phase decides (`target_phase`); a
    turn the GM named when he had the mail read again replaces intake's choice, once checked (`forced_turn`)."""
    current = run.turn(s, game, game.turn)
    turn, late = target_turn(current, ruleset, game, row.received_at, run.turn(s, game, game.turn - 1))
    number = game.turn if turn is None else (turn.number + 1 if late else turn.number)
    phase: PhaseTarget | None = None
    if current is not None and not game.finished and is_phased(ruleset):  # the phase decides, not the turn
        phase = target_phase(s, ruleset, game, current, player.name, row.received_at, ruleset.late_policy)
        turn, late, number = (None, phase.refused, phase.turn) if phase.refused else (current, phase.late,
                                                                                      phase.turn)
    forced = run.book_turn
    if forced is not None:
        booked, forced_late = forced_turn(s, game, ruleset, row.id, row.received_at, forced, current,
                                          phase is not None, late)
        if phase is None:
            turn, late, number = booked, forced_late, forced
        run.booked_into = forced
    # The state orders are checked against: the open turn's, or the state before the processed turn they go to.
    state_turn = number if forced is not None and number < game.turn else game.turn
    return Target(turn, late, number, state_turn, phase, forced)


def marked_turn(ruleset: Ruleset, state: dict[str, Any], target: Target, parsed: ParsedOrders) -> Target:
    """The target once the orders had their say: orders marked for a later turn are kept for it, whenever they
    came (`Ruleset.requested_turn`); never when the GM named the turn."""
    if target.turn is None or not parsed.orders or target.forced is not None:
        return target
    ahead = ruleset.requested_turn(state, target.number, parsed.orders)
    if ahead is None or ahead <= target.number:
        return target
    return dataclasses.replace(target, number=ahead, late=None)


def parse_orders(ruleset: Ruleset, mail: ReadMail, player: Player) -> tuple[ParsedOrders, list[Diagnostic]]:
    """The mail's order text read as `ruleset`'s orders: (orders and diagnostics, the lines taken for prose). A
    sign-up order carries the player's address into the state (see SIGN_UP_ADDRESS)."""
    read = read_orders(ruleset, mail.order_text, names_of(mail.from_display, player.name), mail.line_map)
    parsed = read.parsed
    if ruleset.sign_up_word:
        lines = sign_up_lines(ruleset, mail)
        parsed = ParsedOrders([dataclasses.replace(o, args={**o.args, SIGN_UP_ADDRESS: player.email})
                               if o.line in lines else o for o in parsed.orders], parsed.diagnostics)
    return parsed, read.ignored


def in_phase(ruleset: Ruleset, target: Target, parsed: ParsedOrders) -> ParsedOrders:
    """In a game of phases, only the orders of the phase the mail counts for (`keep_phase_orders`)."""
    if target.phase is None or target.turn is None:
        return parsed
    return keep_phase_orders(ruleset, target.phase, parsed)


def checked(ruleset: Ruleset, state: dict[str, Any], turn: int, player: str, parsed: ParsedOrders) -> ParsedOrders:
    """`parsed` against the game's `state` for `turn`: refined (`Ruleset.refine`), then checked; an order with an
    error is dropped, and every diagnostic comes in line order."""
    if not parsed.orders:
        return parsed
    orders = ruleset.refine(state, turn, player, parsed.orders)
    checks = ruleset.check(state, turn, player, orders)
    bad_lines = {d.line for d in checks if not d.warning}
    return ParsedOrders(orders=[o for o in orders if o.line not in bad_lines],
                        diagnostics=sorted([*parsed.diagnostics, *checks], key=lambda d: d.line))


def book_orders(run: IntakeRun, ruleset: Ruleset, game: Game, player: Player, row: MailRow, target: Target,
                parsed: ParsedOrders, on_file: list[OrderSet]) -> str | None:
    """Offer the mail's orders to the player's book (`on_file`, which an accepted set joins) and hold back its
    order set row in `run`; a mail whose every line failed is booked too, for the turn's printout to repeat
    (`notcarried`). Returns why the set was refused (`Ruleset.accept`), or None."""
    if target.turn is None:
        return None
    if parsed.orders:
        new = OrderSet(player=player.name, seq=row.id, orders=parsed.orders)
        refused = ruleset.accept(on_file, new)
        if not refused:
            on_file.append(new)
            run.pending = (game, target.number, player, new, target.phase_name)
        run.book(_set_row(game, player, row, target, parsed, "refused" if refused else "accepted", refused))
        return refused
    if any(not d.warning for d in parsed.diagnostics):
        run.book(_set_row(game, player, row, target, ParsedOrders([], parsed.diagnostics),
                          NOT_UNDERSTOOD, None))
    return None


def _set_row(game: Game, player: Player, row: MailRow, target: Target, parsed: ParsedOrders, status: str,
             reason: str | None) -> dict[str, Any]:
    return dict(game_id=game.id, player_id=player.id, turn=target.number, mail_id=row.id, seq=row.id,
                orders=[o.to_json() for o in parsed.orders], diagnostics=[d.to_json() for d in parsed.diagnostics],
                status=status, reason=reason, phase=target.phase_name)
