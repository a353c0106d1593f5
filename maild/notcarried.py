"""What a printout repeats of a player's mail for the turn that the turn did not carry out: the mails refused at
intake (their orders, with the reason) and the lines not understood, so a player who missed an ack still learns
it with his results. Every printout template gets it as `not_carried_out` (None when there is nothing) and shows
it with templates/not_carried_out.txt.j2; the ruleset adds the orders that stood and failed when the turn ran
(Venice: a bid for an item no longer on offer), which only it knows.

What is listed is what still stood when the turn ran, each once:
- a mail refused at intake (the resubmission policy refused it: Renaissance's second mail for a family), with
  its reason and its orders: none of it was carried out, and the player may have missed the ack that said so;
- the lines not understood of a mail no later mail could have put right. Where the game's resubmission policy
  lets a later mail change the orders on file (`maild.policies.later_mail_changes`: Venice, Galilei, The Law of
  the Jungle, a game that adds every mail's orders), a later accepted mail of the player for the same turn (and
  phase) is his answer to the earlier ack: that ack named the lines, the later one listed every order on file,
  and what he sent again corrected (Venice: `bid 35$ for 2 of silk tax` after `... silk tx`) is in force. So
  only the lines not understood of his last accepted mail and of the mails after it are repeated. Where a later
  mail cannot change the first (Renaissance: the first mail for a family stands), an accepted mail's lines not
  understood stand whatever came after. A mail none of whose lines was understood put nothing on file: a later
  accepted mail answers it under every policy (Renaissance: the family's orders sent again, corrected).
- a line the player wrote in several mails (a greeting, a sign-off, the same mistake sent twice) once, at its
  first listing; the lines of a mail that share a reason (but for what it quotes of the line) together,
  under the reason given once, and a reason given for an earlier mail's line by a pointer to that line.

In a game of several phases a turn, each phase's printout lists the mails booked for that phase only
(`phase`), so the turn's list is not repeated in every phase's mail.

Bounded (MAILS_SHOWN mails, and as an ack's echo within each: `limits.ack_lines` items a list,
`limits.ack_line_chars` a line): a flood of bad mails must not make a printout without end."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from maild.config import ReplyLimits
from maild.deadlines import format_deadline
from maild.intake.ackecho import Echo
from maild.models import InboundMail, OrderSetRow, Player
from maild.orderbook import NOT_UNDERSTOOD
from maild.policies import later_mail_changes
from maild.ruleset import Diagnostic, Order, Ruleset


@dataclass(frozen=True)
class MailNotCarriedOut:
    received: str  # when the mail came, as players read a time
    subject: str | None  # its subject, to tell apart mails of the same minute
    reason: str | None  # why the whole mail was refused; None when it was accepted but had lines not understood
    orders: list[Order]  # the refused mail's orders (none when it was accepted: those were carried out)
    errors: list[Diagnostic]  # its lines not understood
    more: dict[str, int]  # how many orders and errors were left out of the lists above


@dataclass
class NotCarriedOut:
    mails: list[MailNotCarriedOut] = field(default_factory=list)
    more_mails: int = 0  # mails left out


# Mails listed per printout: a player sends a few a turn; a robot answering each ack (which intake keeps and
# books when it reads as orders) must not fill his printout. The lists within a mail are bounded as an ack's.
MAILS_SHOWN = 20

Listed = TypeVar("Listed", Order, Diagnostic)

# Every set of the turn (an accepted one may have lines not understood); orders only of the refused ones, read
# apart, so a turn does not read every accepted order twice.
_SETS = (select(OrderSetRow.id, OrderSetRow.seq, OrderSetRow.status, OrderSetRow.reason, OrderSetRow.diagnostics,
                InboundMail.received_at, InboundMail.subject, Player.name)
         .join(InboundMail, InboundMail.id == OrderSetRow.mail_id).join(Player, Player.id == OrderSetRow.player_id)
         .where(OrderSetRow.game_id == bindparam("game"), OrderSetRow.turn == bindparam("turn"),
                OrderSetRow.status.in_(("accepted", "refused", NOT_UNDERSTOOD)))
         .order_by(OrderSetRow.seq))
_PHASE_SETS = _SETS.where(OrderSetRow.phase == bindparam("phase"))
_ORDERS = select(OrderSetRow.id, OrderSetRow.orders).where(OrderSetRow.id.in_(bindparam("ids", expanding=True)))


def not_carried_out(s: Session, game_id: int, turn: int, tz: ZoneInfo, limits: ReplyLimits, ruleset: Ruleset,
                    phase: str | None = None) -> dict[str, NotCarriedOut]:
    """Player name -> what of his mail for `turn` (with `phase`, for that phase of it) was not carried out;
    players with nothing are left out."""
    query, params = (_SETS, {"game": game_id, "turn": turn}) if phase is None else \
        (_PHASE_SETS, {"game": game_id, "turn": turn, "phase": phase})
    rows = list(s.execute(query, params))
    last_accepted = {r.name: r.seq for r in rows if r.status == "accepted"}  # rows come by seq
    changes = later_mail_changes(ruleset)

    def stood(r: Any) -> bool:
        if r.status == "refused":
            return True
        if not any(not d.get("warning") for d in r.diagnostics):
            return False
        answered = r.seq < last_accepted.get(r.name, r.seq)
        # A mail with nothing on file is answered by any later accepted mail; one with orders on file only
        # where a later mail may change them.
        return not answered or (r.status == "accepted" and not changes)

    rows = [r for r in rows if stood(r)]
    refused = [r.id for r in rows if r.status == "refused"]
    orders = {r.id: r.orders for r in s.execute(_ORDERS, {"ids": refused})} if refused else {}
    out: dict[str, NotCarriedOut] = {}
    seen: dict[str, set[str]] = {}  # per player, the lines listed so far (as `_same`)
    explained: dict[str, dict[str, str]] = {}  # per player, reason given so far (as `_reason`) -> where
    for r in rows:
        said = seen.setdefault(r.name, set())
        mail_orders = _once([Order.from_json(o) for o in orders.get(r.id, [])], said)
        errors = _once([Diagnostic.from_json(d) for d in r.diagnostics if not d.get("warning")], said)
        reason = r.reason if r.status == "refused" else None
        if reason is None and not errors:
            continue
        player = out.setdefault(r.name, NotCarriedOut())
        if len(player.mails) >= MAILS_SHOWN:
            player.more_mails += 1
            continue
        where = f'your mail "{r.subject}"' if r.subject else f"your mail of {format_deadline(r.received_at, tz)}"
        errors = _grouped(errors, explained.setdefault(r.name, {}), where, limits.ack_lines)
        player.mails.append(_mail(r.received_at, r.subject, reason, mail_orders, errors, tz, limits))
    return out


def _same(text: str) -> str:
    """A line as compared for "said before": its words, whatever the spacing and case."""
    return " ".join(text.split()).casefold()


def _once(items: list[Listed], said: set[str]) -> list[Listed]:
    """The items whose line was not listed before (adding them to `said`)."""
    kept: list[Listed] = []
    for item in items:
        key = _same(item.text)
        if key not in said:
            said.add(key)
            kept.append(item)
    return kept


# What a player wrote, quoted in a reason ("but found 'see'", "no item called 'silk tx'"): the line itself is
# listed with its reason, so two reasons that differ only there say the same thing.
_QUOTED = re.compile(r"'[^']*'")


def _reason(message: str) -> str:
    return _QUOTED.sub("''", message)


def _grouped(errors: list[Diagnostic], explained: dict[str, str], where: str, shown: int) -> list[Diagnostic]:
    """A mail's lines not understood grouped by reason (the same but for what it quotes of the line), each
    group in the order of its first line, its reason given once, under its last line (the others get an
    empty message): a mail of chatter gets one explanation, not one a line. A reason given for an earlier
    mail's line is named by it ("as for line 2 of your mail ..."). The reasons of the first `shown` lines
    (those the printout lists) go into `explained`, reason -> that pointer."""
    groups: dict[str, list[Diagnostic]] = {}
    for error in errors:
        groups.setdefault(_reason(error.message), []).append(error)
    out: list[Diagnostic] = []
    for key, members in groups.items():
        message = f"(as for {explained[key]})" if key in explained else members[0].message
        if key not in explained and len(out) < shown:
            explained[key] = f"line {members[0].line} of {where}"
        out += [replace(e, message="") for e in members[:-1]] + [replace(members[-1], message=message)]
    return out


def _mail(received: datetime, subject: str | None, reason: str | None, orders: list[Order],
          errors: list[Diagnostic], tz: ZoneInfo, limits: ReplyLimits) -> MailNotCarriedOut:
    echo = Echo(limits)
    shown_orders, shown_errors = echo("orders", orders), echo("errors", errors)
    return MailNotCarriedOut(format_deadline(received, tz), echo.line(subject), echo.line(reason), shown_orders,
                             shown_errors, echo.more)
