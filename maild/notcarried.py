"""What a printout repeats of a player's mail for the turn that the turn did not carry out: the mails refused at
intake (their orders, with the reason) and the lines not understood, so a player who missed an ack still learns
it with his results. Every printout template gets it as `not_carried_out` (None when there is nothing) and shows
it with templates/not_carried_out.txt.j2.

Bounded (MAILS_SHOWN mails, and as an ack's echo within each: `limits.ack_lines` items a list,
`limits.ack_line_chars` a line): a flood of bad mails must not make a printout without end."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from maild.config import ReplyLimits
from maild.deadlines import format_deadline
from maild.intake.ackecho import Echo
from maild.models import InboundMail, OrderSetRow, Player
from maild.orderbook import NOT_UNDERSTOOD
from maild.ruleset import Diagnostic, Order


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

# Diagnostics of every set of the turn (an accepted one may have lines not understood); orders only of the
# refused ones, read apart, so a turn does not read every accepted order twice.
_SETS = (select(OrderSetRow.id, OrderSetRow.status, OrderSetRow.reason, OrderSetRow.diagnostics,
                InboundMail.received_at, InboundMail.subject, Player.name)
         .join(InboundMail, InboundMail.id == OrderSetRow.mail_id).join(Player, Player.id == OrderSetRow.player_id)
         .where(OrderSetRow.game_id == bindparam("game"), OrderSetRow.turn == bindparam("turn"),
                OrderSetRow.status.in_(("accepted", "refused", NOT_UNDERSTOOD)))
         .order_by(OrderSetRow.seq))
_ORDERS = select(OrderSetRow.id, OrderSetRow.orders).where(OrderSetRow.id.in_(bindparam("ids", expanding=True)))


def not_carried_out(s: Session, game_id: int, turn: int, tz: ZoneInfo, limits: ReplyLimits
                    ) -> dict[str, NotCarriedOut]:
    """Player name -> what of his mail for `turn` was not carried out; players with nothing are left out."""
    rows = [r for r in s.execute(_SETS, {"game": game_id, "turn": turn})
            if r.status == "refused" or any(not d.get("warning") for d in r.diagnostics)]
    refused = [r.id for r in rows if r.status == "refused"]
    orders = {r.id: r.orders for r in s.execute(_ORDERS, {"ids": refused})} if refused else {}
    out: dict[str, NotCarriedOut] = {}
    for r in rows:
        player = out.setdefault(r.name, NotCarriedOut())
        if len(player.mails) >= MAILS_SHOWN:
            player.more_mails += 1
            continue
        player.mails.append(_mail(r.received_at, r.subject, r.reason if r.status == "refused" else None,
                                  [Order.from_json(o) for o in orders.get(r.id, [])],
                                  [Diagnostic.from_json(d) for d in r.diagnostics if not d.get("warning")],
                                  tz, limits))
    return out


def _mail(received: datetime, subject: str | None, reason: str | None, orders: list[Order],
          errors: list[Diagnostic], tz: ZoneInfo, limits: ReplyLimits) -> MailNotCarriedOut:
    echo = Echo(limits)
    shown_orders, shown_errors = echo("orders", orders), echo("errors", errors)
    return MailNotCarriedOut(format_deadline(received, tz), echo.line(subject), echo.line(reason), shown_orders,
                             shown_errors, echo.more)
