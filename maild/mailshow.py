"""`maild mail show ID`: one stored mail as the GM needs it to judge what maild made of it.

Its headers as received (decoded, bounded), the text intake read from it (quotes and signatures removed, as
`maild.intake.read.read_mail` gives it), its status and note, the order set booked from it, and what was
answered: the outbound mails keyed to it (`ack:ID`, `badauth:ID`, `stranger:ID`, ... and a second reading's
`ack:ID:2`) with their status, the `replies` rows for it, and the bounces it reported. Every part is bounded:
the mail may be hostile.
"""

from __future__ import annotations

from email.parser import BytesHeaderParser
from email.policy import compat32

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from maild.controlchars import strip_controls
from maild.errors import GameError
from maild.games import ruleset_named
from maild.intake.ackecho import clip
from maild.intake.charsets import decode_header_value
from maild.intake.read import EMPHASIS_FIRST, read_mail
from maild.mail.base import header_block
from maild.models import Bounce, Game, InboundMail, OrderSetRow, OutboundMail, Player, Reply

HEADERS = 40
HEADER_CHARS = 200
TEXT_LINES = 200
LINE_CHARS = 200
# The answers a mail can have, by the first word of their outbox key: `KIND:ID`, and `KIND:ID:N` for a later
# reading's (replylimits._fresh_keys); the GM's notices about it are `gm:KIND:ID`.
ANSWER_KEYS = ("ack", "stranger", "badauth", "oversized")
GM_KEYS = ("error", "poison")


class NoSuchMail(GameError):
    """`mail show` of an id no mail has: exit 2 with one line."""


def show(s: Session, mail_id: int) -> list[str]:
    row = s.get(InboundMail, mail_id)
    if row is None:
        raise NoSuchMail(f"no mail {mail_id}")
    game = s.get(Game, row.game_id) if row.game_id is not None else None
    player = s.get(Player, row.player_id) if row.player_id is not None else None
    lines = [f"mail {row.id}  received {row.received_at:%Y-%m-%d %H:%M} UTC  {row.size} bytes  status {row.status}"]
    if row.note:
        lines.append(f"note: {clip(strip_controls(row.note), 2000)}")
    if game is not None:
        lines.append(f"game: {game.name}" + (f"  player: {player.name} <{player.email}>" if player else ""))
    lines += ["", "headers:", *_headers(row.raw)]
    lines += ["", "text as read:", *_text(row, game)]
    lines += _booked(s, mail_id)
    lines += _answered(s, mail_id)
    lines += _bounces(s, mail_id)
    return lines


def _headers(raw: bytes) -> list[str]:
    if not raw:
        return ["  (none kept: see the note)"]
    try:
        items = list(BytesHeaderParser(policy=compat32).parsebytes(header_block(raw)).raw_items())
    except Exception:  # garbage: the GM still sees the rest
        return ["  (unreadable)"]
    out = [f"  {clip(str(name), 60)}: {clip(decode_header_value(str(value)), HEADER_CHARS)}" for name, value in
           items[:HEADERS]]
    if len(items) > HEADERS:
        out.append(f"  ... and {len(items) - HEADERS} more headers")
    return out


def _text(row: InboundMail, game: Game | None) -> list[str]:
    if not row.raw:
        return ["  (its bytes are not kept: see the note)"]
    if len(row.raw) < row.size:
        return ["  (only its headers were kept: it was over the size limit)"]
    emphasis = game is not None and _reads_emphasis(game)
    text = read_mail(row.raw, prefer=EMPHASIS_FIRST) if emphasis else read_mail(row.raw)
    body = text.order_text.splitlines()
    if not body:
        return ["  (nothing)"]
    # Numbered as the player's mail is (from its first line, the password line included), as acks and the
    # booked lines below number them; lines dropped as quotes or signature leave gaps in the numbers.
    numbers = text.line_map or range(1, len(body) + 1)
    out = [f"  {n:>3}  {clip(strip_controls(line), LINE_CHARS)}".rstrip() for n, line in zip(numbers, body[:TEXT_LINES],
                                                                                            strict=False)]
    if len(body) > TEXT_LINES:
        out.append(f"  ... and {len(body) - TEXT_LINES} more lines")
    return out


def _reads_emphasis(game: Game) -> bool:
    try:
        return ruleset_named(game.ruleset).reads_emphasis
    except GameError:  # a game whose ruleset is no longer installed: its text read plain
        return False


def _booked(s: Session, mail_id: int) -> list[str]:
    booked = s.scalar(select(OrderSetRow).where(OrderSetRow.mail_id == mail_id))
    if booked is None:
        return ["", "booked: nothing"]
    phase = f" ({booked.phase})" if booked.phase else ""
    lines = ["", f"booked: turn {booked.turn}{phase}, {booked.status}" + (f": {booked.reason}" if booked.reason else "")
             + f", {len(booked.orders)} order{'s' if len(booked.orders) != 1 else ''}"]
    lines += [f"  line {o['line']}: {clip(o['summary'], LINE_CHARS)}" for o in booked.orders[:TEXT_LINES]]
    lines += [f"  line {d['line']}: {'warning' if d.get('warning') else 'not understood'}: "
              f"{clip(str(d.get('text', '')), 80)} ({clip(str(d.get('message', '')), LINE_CHARS)})"
              for d in booked.diagnostics[:TEXT_LINES]]
    return lines


def _answered(s: Session, mail_id: int) -> list[str]:
    replies = list(s.scalars(select(Reply).where(Reply.mail_id == mail_id).order_by(Reply.id)))
    keys = [f"{kind}:{mail_id}" for kind in ANSWER_KEYS] + [f"gm:{kind}:{mail_id}" for kind in GM_KEYS]
    ids = [r.message_id for r in replies if r.message_id]
    mails = list(s.scalars(select(OutboundMail).where(or_(
        OutboundMail.key.in_(keys), OutboundMail.message_id.in_(ids),
        *(OutboundMail.key.startswith(f"{kind}:{mail_id}:", autoescape=True) for kind in ANSWER_KEYS)))
        .order_by(OutboundMail.id)))
    lines = ["", "answered:" if mails else "answered: nothing"]
    for m in mails:
        when = f" {m.sent_at:%Y-%m-%d %H:%M}" if m.sent_at else ""
        said = f"  {m.last_error}" if m.last_error else ""
        lines.append(f"  {m.key}  {m.kind}  {m.status}{when}  to {', '.join(m.recipients)}  {m.subject!r}{said}")
    if replies:
        sent = {m.message_id: m.status for m in mails}
        lines.append("replies:")
        for r in replies:
            status = sent.get(r.message_id or "", r.status) if r.status == "queued" else r.status
            lines.append(f"  {r.id}  {r.created_at:%Y-%m-%d %H:%M}  {status}  {r.kind}  to {r.address}"
                         + (f"  {r.reason}" if r.reason else ""))
    return lines


def _bounces(s: Session, mail_id: int) -> list[str]:
    found = list(s.scalars(select(Bounce).where(Bounce.mail_id == mail_id).order_by(Bounce.id)))
    if not found:
        return []
    lines = ["", "bounces it reported:"]
    for b in found:
        returned = s.get(OutboundMail, b.outbound_id) if b.outbound_id is not None else None
        lines.append(f"  {b.address}: {b.reason}" + (f" ({returned.key})" if returned else " (no mail of ours)"))
    return lines
