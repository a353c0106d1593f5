"""The one gate every mail maild sends *in answer to* a mail passes through: acks, HELP, refusals, answers
to strangers. Whatever reaches the inbox, what maild sends back stays bounded:

- per recipient address, at most `limits.replies_per_hour` and `limits.replies_per_day` answers;
- a stranger (no player of the game) gets at most one answer a day from each game (and one from each
  address several games share, answered for all of them: its answer's game is None), so at most one more
  than there are games; strangers together at most `limits.strangers_per_hour` (mail with forged senders
  must not make maild a source of backscatter);
- refusals of mail in a player's name (bad password, unverified) reach that player at most once per game a
  day; the next notice says how many came since (`flush_refusals` sends it once the day is over);
- a correspondent whose mails answer maild's own answers `limits.loop_replies` times within
  `limits.loop_window` (a forwarding loop, a responder that sets no RFC 3834 header) is not answered again
  until the window has passed.

Every decision is a row in `replies` (so the counts hold across restarts and across daemons on one
database: nothing is kept in process memory), and what is held back carries its reason there, in the
inbound mail's note and in one notice to the GM. Printouts, newsletters, reminders and GM notices are not
answers and do not come here.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import bindparam, event, func, insert, select, text, update
from sqlalchemy.orm import Session

from maild.app import App
from maild.intake.ackecho import clip
from maild.models import InboundMail, OutboundMail, Reply
from maild.outbox import AUTO_REPLIED, insert_rows, outbound_row
from maild.ruleset import Attachment

log = logging.getLogger("maild.replies")

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
# Of a mail's References and In-Reply-To, the last this many are looked up among our answers: a loop
# answers the newest, and a forged header with thousands of ids must not cost thousands of look-ups.
ECHO_IDS = 20

# RFC 5321 §4.5.3.1.3: a path is at most 256 octets with its angle brackets. A longer From is forged.
MAX_ADDRESS = 254

STRANGER = "stranger"
REFUSAL = "refusal"
# How a mail's note says that its answer was held back by the reply limits.
NOT_ANSWERED = "; not answered: "
_REPLIES = Reply.__table__


def reply_address(address: str) -> str:
    """The address the caps count by: lower case and without a +tag, so alice+1@, alice+2@ … are one
    mailbox (the tag is how most providers let one person have any number of addresses)."""
    local, at, domain = address.strip().lower().rpartition("@")
    if not at:
        return domain
    return f"{local.split('+', 1)[0] or local}@{domain}"


@dataclass(frozen=True)
class Answer:
    """A mail maild means to send in answer to an inbound mail."""

    kind: str  # what the limits count it as: "ack", "stranger" or "refusal"
    key: str  # the outbox key
    outbox_kind: str  # the outbox row's kind ("ack", "warning", ...)
    to: str
    subject: str
    body: str
    game_id: int | None
    mail_id: int | None
    in_reply_to: str | None = None
    thread: tuple[str, ...] = ()  # the ids the inbound mail answers (its References and In-Reply-To)
    attachments: tuple[Attachment, ...] = ()  # files beside the text (a calendar file; a printout's pictures)


@dataclass(frozen=True)
class HeldBack:
    """An answer not sent, for the GM's notice."""

    address: str
    kind: str
    reason: str
    mail_id: int | None
    game_id: int | None


@dataclass
class Gate:
    """The answers of one intake transaction: what was held back and must be told to the GM."""

    held_back: list[HeldBack] = field(default_factory=list)


def give(s: Session, app: App, answer: Answer, gate: Gate) -> str | None:
    """Queue `answer` unless a limit holds it back. Returns None if it was queued, else why not (for the
    inbound mail's note). Either way the decision is recorded."""
    return give_tracked(s, app, answer, gate)[0]


def give_tracked(s: Session, app: App, answer: Answer, gate: Gate) -> tuple[str | None, str | None]:
    """`give`, with the Message-ID of the mail queued (None when held back): a relayed press mail is known
    again by it when a reply names it."""
    address = reply_address(answer.to)
    _lock(s, address)
    if answer.kind == STRANGER:
        _settle(s)  # strangers are also counted all together, from the database
    now = app.now()
    echo = _is_echo(s, answer.thread)
    reason = _blocked(s, app, address, answer.kind, echo, now, answer.game_id)
    if reason is not None:
        _hold_back(s, gate, answer, address, echo, now, "suppressed", reason)
        return reason, None
    return None, _queue(s, app, answer, address, echo, now)


def give_refusal(s: Session, app: App, answer: Answer, gate: Gate,
                 body: Callable[[int, datetime | None], str]) -> str | None:
    """A refusal of mail in a player's name: sent if the player had no refusal notice for this game in the
    last day, else counted for the next one. `body(count, since)` writes the notice: `count` refused mails
    (this one and those batched since the last notice), the first of them received at `since`."""
    address = reply_address(answer.to)
    _lock(s, address)
    _settle(s)
    now = app.now()
    echo = _is_echo(s, answer.thread)
    last = _last_refusal_notice(s, address, answer.game_id)
    if last is not None and last > now - DAY:
        reason = (f"one refusal notice a day per game: the player was told at {last:%Y-%m-%d %H:%M} UTC, "
                  "the next notice counts this mail")
        _hold_back(s, gate, answer, address, echo, now, "batched", reason)
        return reason
    pending = _pending_refusals(s, address, answer.game_id)
    since = _received(s, pending[0]) if pending else None
    answer = Answer(**{**answer.__dict__, "body": body(len(pending) + 1, since)})
    reason = _blocked(s, app, address, REFUSAL, echo, now)
    if reason is not None:  # stays batched: counted by the next notice that gets through
        _hold_back(s, gate, answer, address, echo, now, "batched", reason)
        return reason
    _told(s, pending)
    _queue(s, app, answer, address, echo, now)
    return None


# Writes the notice owed to an address for its refusals batched in a game (see `flush_refusals`).
Build = Callable[[Session, App, int | None, str, list[int]], Answer | None]


def flush_refusals(s: Session, app: App, build: Build) -> int:
    """Send, in this transaction, the notices owed for refusals batched more than a day after the last notice.
    `build(s, app, game_id, address, mail_ids)` writes one (None if its game or player is gone). Returns how
    many were sent. (Intake sends each in a transaction of its own: `maild.intake.refusals.send_owed`.)"""
    return sum(flush_refusal(s, app, address, game_id, build) for address, game_id in owed_refusals(s, app))


def owed_refusals(s: Session, app: App) -> list[tuple[str, int | None]]:
    """(address, game) of the refusals batched whose notice is due: the last notice was more than a day ago."""
    _settle(s)
    owed = s.execute(select(Reply.address, Reply.game_id).where(Reply.status == "batched", Reply.kind == REFUSAL)
                     .distinct()).all()
    since = app.now() - DAY
    return [(address, game_id) for address, game_id in owed
            if (last := _last_refusal_notice(s, address, game_id)) is None or last <= since]


def flush_refusal(s: Session, app: App, address: str, game_id: int | None, build: Build) -> bool:
    """Queue the notice owed to `address` for the refusals batched in game `game_id`, if it is still owed
    (checked again under the address's lock) and no cap holds it back; whether it was queued."""
    now = app.now()
    _lock(s, address)
    last = _last_refusal_notice(s, address, game_id)
    if last is not None and last > now - DAY:
        return False
    if _blocked(s, app, address, REFUSAL, False, now) is not None:
        return False  # tried again on a later pass; nothing is recorded meanwhile
    pending = _pending_refusals(s, address, game_id)
    mails = list(s.scalars(select(Reply.mail_id).where(Reply.id.in_(pending)).order_by(Reply.id)))
    answer = build(s, app, game_id, address, [m for m in mails if m is not None]) if pending else None
    if answer is None:
        return False
    _told(s, pending)
    _queue(s, app, answer, address, False, now)
    return True


def set_aside_refusals(s: Session, address: str, game_id: int | None, reason: str) -> list[int]:
    """Mark the refusals batched for `address` in game `game_id` `failed`, with `reason`: their notice could not
    be queued, and trying again each pass would fail each pass. `maild replies list` shows them. Returns the
    mails they refused."""
    pending = _pending_refusals(s, address, game_id)
    if not pending:
        return []
    mails = list(s.scalars(select(Reply.mail_id).where(Reply.id.in_(pending)).order_by(Reply.id)))
    s.execute(update(Reply).where(Reply.id.in_(pending)).values(status="failed", reason=reason[:2000]))
    return [m for m in mails if m is not None]


def held_back_lines(gate: Gate) -> list[str]:
    """For the GM's notice: one line per address and reason held back in this transaction (an address
    already reported within the day is not in `gate`: its later mails are in `maild replies list`)."""
    return list(dict.fromkeys(f"{clip(h.address, 100)}: {h.kind} not sent, {h.reason}" for h in gate.held_back))


def reply_rows(s: Session, held_back_only: bool = True) -> list[Reply]:
    """For `maild replies list`: the answers held back (suppressed, batched, told later), or all."""
    q = select(Reply).order_by(Reply.id)
    if held_back_only:
        q = q.where(Reply.status != "queued")
    return list(s.scalars(q))


def shown_status(s: Session, rows: list[Reply]) -> dict[int, str]:
    """What `maild replies list` says of each answer: its decision, and for one queued, what became of its
    mail since (`sent`, `failed`, `bounced`, or still `queued`), read from the outbox by Message-ID."""
    ids = [r.message_id for r in rows if r.status == "queued" and r.message_id]
    mailed: dict[str, str] = {}
    for start in range(0, len(ids), 500):  # bounded IN lists, for `replies list --all` on a long season
        mailed.update(s.execute(select(OutboundMail.message_id, OutboundMail.status)
                                .where(OutboundMail.message_id.in_(ids[start:start + 500]))).all())
    return {r.id: mailed.get(r.message_id or "", r.status) if r.status == "queued" else r.status for r in rows}


_SCHEMA = "maild.replylimits.schema"


def prepare_answers(s: Session, addresses: list[str], now: datetime) -> None:
    """Lock and count, for the transaction, the addresses a batch of mails will be answered at: one statement
    for the locks and one for the counts of them all, where `give` would take two an address (an address left
    out is locked and counted when it is answered)."""
    locked: set[str] = s.info.setdefault(_LOCKED, set())
    counted: dict[str, list[int]] = s.info.setdefault(_COUNTED, {})
    wanted = sorted({reply_address(a) for a in addresses} - locked)
    wanted = [a for a in wanted if len(a) <= MAX_ADDRESS and a not in counted]
    if not wanted:
        return
    _settle(s)
    if s.get_bind().dialect.name == "postgresql":
        # In the order of their keys, as any other batch takes them: two batches never wait on each other.
        keys = sorted({_lock_key(s, a) for a in wanted})
        s.execute(_LOCK_MANY, {"keys": keys})
    locked.update(wanted)
    found = {address: [hour, day] for address, hour, day in
             s.execute(_COUNTS_OF, {"addresses": wanted, "hour": now - HOUR, "day": now - DAY})}
    for address in wanted:
        counted[address] = found.get(address, [0, 0])


def _lock_key(s: Session, address: str) -> int:
    # Advisory locks are the whole database's: keyed by schema too, so that maild installs (or test runs) in
    # other schemas of one database never wait on, or deadlock with, each other's addresses.
    schema = s.info.get(_SCHEMA)
    if schema is None:
        schema = s.info[_SCHEMA] = s.execute(text("SELECT current_schema()")).scalar() or ""
    return int.from_bytes(hashlib.sha256(f"{schema}\0{address}".encode()).digest()[:4], "big", signed=True)


def _lock(s: Session, address: str) -> None:
    # Count and insert must not interleave with another process answering the same address, or two
    # daemons on one PostgreSQL database could each see the cap one short. SQLite has a single writer.
    # Held to the end of the transaction, so it is taken once an address (and `_counts` may be cached).
    locked: set[str] = s.info.setdefault(_LOCKED, set())
    if address in locked:
        return
    locked.add(address)
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("SELECT pg_advisory_xact_lock(8334, :k)"), {"k": _lock_key(s, address)})


def _is_echo(s: Session, thread: tuple[str, ...]) -> bool:
    ids = [i for i in thread[-ECHO_IDS:] if len(i) <= 300]
    return bool(ids) and s.scalar(_ECHO_OF, {"ids": ids}) is not None


# Built once with bind parameters (building and caching a statement per call cost milliseconds a mail):
# these run for every ack.
_C = _REPLIES.c
# The two counts the caps on an address need, in one query on the (address, created_at) index (a stranger's
# answers, by game, are counted apart: `_stranger_answers`).
_COUNTS = select(func.count().filter(_C.created_at >= bindparam("hour")), func.count()).where(
    _C.address == bindparam("address"), _C.created_at >= bindparam("day"), _C.status == "queued")
# The same for a batch's addresses at once (`prepare_answers`).
_COUNTS_OF = select(_C.address, func.count().filter(_C.created_at >= bindparam("hour")), func.count()).where(
    _C.address.in_(bindparam("addresses", expanding=True)), _C.created_at >= bindparam("day"),
    _C.status == "queued").group_by(_C.address)
# Taken one after the other in the order given (unnest keeps the array's order).
_LOCK_MANY = text("SELECT count(pg_advisory_xact_lock(8334, k)) FROM unnest(CAST(:keys AS integer[])) AS k")
_ECHOES = select(func.count()).where(_C.address == bindparam("address"), _C.created_at >= bindparam("since"),
                                     _C.echo.is_(True))
_STRANGERS = select(func.count()).where(_C.kind == STRANGER, _C.created_at >= bindparam("since"),
                                        _C.status == "queued")
# A game's answers to a stranger, or (game None) those of an address games share: IS NOT DISTINCT FROM matches
# NULL to NULL on SQLite and PostgreSQL alike.
_STRANGER_OF = select(func.count()).where(
    _C.address == bindparam("address"), _C.created_at >= bindparam("day"), _C.status == "queued",
    _C.kind == STRANGER, _C.game_id.is_not_distinct_from(bindparam("game")))
_ECHO_OF = select(_C.id).where(_C.message_id.in_(bindparam("ids", expanding=True))).limit(1)
_INSERT = insert(_REPLIES)


def _blocked(s: Session, app: App, address: str, kind: str, echo: bool, now: datetime,
             game_id: int | None = None) -> str | None:
    limits = app.config.limits
    if len(address) > MAX_ADDRESS:
        return f"the address is longer than mail allows ({len(address):,} characters)"
    if echo:
        echoes = s.scalar(_ECHOES, {"address": address, "since": now - limits.loop_window}) or 0
        if echoes >= limits.loop_replies:
            return (f"loop guard: {echoes} mails from this address answered maild's own answers within "
                    f"{_span(limits.loop_window)}")
    hour, day = _counts(s, address, now)
    if kind == STRANGER and _stranger_answers(s, address, game_id, now):
        return ("a stranger gets one answer a day from each game, and this address had it" if game_id is not None
                else "a stranger gets one answer a day from an address games share, and this address had it")
    if kind == STRANGER and (s.scalar(_STRANGERS, {"since": now - HOUR}) or 0) >= limits.strangers_per_hour:
        return f"reply cap: {_answers(limits.strangers_per_hour)} an hour to strangers in all"
    if hour >= limits.replies_per_hour:
        return f"reply cap: {_answers(limits.replies_per_hour)} an hour to this address"
    if day >= limits.replies_per_day:
        return f"reply cap: {_answers(limits.replies_per_day)} a day to this address"
    return None


# Per transaction (a session is one), under the address's lock: address -> [answers in the last hour, in the
# last day]. Read once an address and kept up by `_queue`, so a batch
# of mails from one player costs one count, not one a mail.
_COUNTED = "maild.replylimits.counted"
_LOCKED = "maild.replylimits.locked"


def _counts(s: Session, address: str, now: datetime) -> list[int]:
    counted: dict[str, list[int]] = s.info.setdefault(_COUNTED, {})
    counts = counted.get(address)
    if counts is None:
        _settle(s, address)
        counts = counted[address] = list(
            s.execute(_COUNTS, {"address": address, "hour": now - HOUR, "day": now - DAY}).one())
    return counts


# Per transaction: (address, game id) -> answers to it as a stranger from that game (None: from an address
# games share) in the last day; kept up by `_queue`. Strangers are few: read when one is answered.
_STRANGERS_COUNTED = "maild.replylimits.strangers"


def _stranger_answers(s: Session, address: str, game_id: int | None, now: datetime) -> int:
    counted: dict[tuple[str, int | None], int] = s.info.setdefault(_STRANGERS_COUNTED, {})
    if (address, game_id) not in counted:
        _settle(s, address)
        counted[address, game_id] = s.scalar(_STRANGER_OF, {"address": address, "day": now - DAY,
                                                            "game": game_id}) or 0
    return counted[address, game_id]


def _answers(n: int) -> str:
    return "1 answer" if n == 1 else f"{n} answers"


def _span(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    if minutes % 1440 == 0:
        return f"{minutes // 1440} day(s)"
    return f"{minutes // 60} hour(s)" if minutes % 60 == 0 else f"{minutes} minutes"


def _queue(s: Session, app: App, answer: Answer, address: str, echo: bool, now: datetime) -> str:
    row = outbound_row(app, key=answer.key, kind=answer.outbox_kind, to=[answer.to], subject=answer.subject,
                       body=answer.body, game_id=answer.game_id, in_reply_to=answer.in_reply_to,
                       references=answer.thread, auto_submitted=AUTO_REPLIED, attachments=answer.attachments)
    _defer(s, _row(answer, address, echo, now, "queued", None, str(row["message_id"])), row)
    counts = s.info.get(_COUNTED, {}).get(address)
    if counts is not None:
        counts[0] += 1
        counts[1] += 1
    strangers = s.info.get(_STRANGERS_COUNTED, {})
    if answer.kind == STRANGER and (address, answer.game_id) in strangers:
        strangers[address, answer.game_id] += 1
    return str(row["message_id"])


def _hold_back(s: Session, gate: Gate, answer: Answer, address: str, echo: bool, now: datetime, status: str,
               reason: str) -> None:
    # The GM hears of an address once a day, not once a mail: a flood must not flood him.
    told = s.scalar(select(Reply.id).where(Reply.address == address, Reply.created_at >= now - DAY,
                                           Reply.status.in_(("suppressed", "batched", "told"))).limit(1))
    s.execute(_INSERT, [_row(answer, address, echo, now, status, reason, None)])
    # Nor the log: the first hold-back of an address in a day is news, the rest of a flood is detail.
    log.log(logging.INFO if told is None else logging.DEBUG, "%s to %s held back: %s", answer.kind,
            clip(address, 100), reason)
    if told is None:
        gate.held_back.append(HeldBack(address, answer.kind, reason, answer.mail_id, answer.game_id))


def _row(answer: Answer, address: str, echo: bool, now: datetime, status: str, reason: str | None,
         message_id: str | None) -> dict[str, object]:
    return dict(address=address[:320], kind=answer.kind, game_id=answer.game_id, mail_id=answer.mail_id,
                created_at=now, status=status, reason=reason, message_id=message_id, echo=echo)


@dataclass
class _Deferred:
    rows: list[dict[str, object]] = field(default_factory=list)
    addresses: set[str] = field(default_factory=set)
    outbound: list[dict[str, object]] = field(default_factory=list)  # the answers' outbox rows


_DEFERRED = "maild.replylimits.deferred"


def _defer(s: Session, row: dict[str, object], outbound: dict[str, object]) -> None:
    """Record an answer sent and queue it in the outbox, with the transaction's other answers in one INSERT
    each (a statement per answer cost a tenth of a millisecond a mail). Counts read the database, so
    `_settle` writes the records before any count that could include them; nothing reads the outbox rows
    before the commit, so they are written just before it (`_at_commit`)."""
    deferred = s.info.get(_DEFERRED)
    if deferred is None:
        deferred = s.info[_DEFERRED] = _Deferred()
        event.listen(s, "before_commit", _at_commit)
    deferred.rows.append(row)
    deferred.addresses.add(str(row["address"]))  # never cut: only addresses that fit are answered
    deferred.outbound.append(outbound)


def _at_commit(s: Session) -> None:
    _settle(s)
    deferred: _Deferred | None = s.info.get(_DEFERRED)
    if deferred is not None and deferred.outbound:
        _fresh_keys(s, deferred.outbound)
        insert_rows(s, deferred.outbound)
        deferred.outbound = []


def _fresh_keys(s: Session, rows: list[dict[str, object]]) -> None:
    """Give an answer whose outbox key is taken the key's next number (`ack:17` → `ack:17:2`). An answer's key
    names the mail it answers, and a mail is answered once a reading: a taken key means the mail is read again
    (`maild mail reprocess`), and its new answer is a deliberate new mail, not the old one queued twice. Without
    this the outbox's unique key failed the whole transaction, every pass. One indexed query a transaction."""
    keys = [str(row["key"]) for row in rows]
    taken = set(s.scalars(select(OutboundMail.key).where(OutboundMail.key.in_(keys))))
    seen: set[str] = set()
    for row in rows:
        key = str(row["key"])
        if key in taken or key in seen:
            numbered = set(s.scalars(select(OutboundMail.key).where(
                OutboundMail.key.startswith(f"{key}:", autoescape=True)))) | seen
            n = 2
            while f"{key}:{n}" in numbered:
                n += 1
            row["key"] = f"{key}:{n}"
            log.info("answer %s queued as %s: the mail it answers was answered before", key, row["key"])
        seen.add(str(row["key"]))


def _settle(s: Session, address: str | None = None) -> None:
    """Write the deferred rows (all, or only if one is for `address`)."""
    deferred: _Deferred | None = s.info.get(_DEFERRED)
    if deferred is None or not deferred.rows or (address is not None and address not in deferred.addresses):
        return
    s.execute(_INSERT, deferred.rows)
    deferred.rows = []
    deferred.addresses.clear()


def _last_refusal_notice(s: Session, address: str, game_id: int | None) -> datetime | None:
    return s.scalar(select(func.max(Reply.created_at)).where(
        Reply.address == address, Reply.game_id == game_id, Reply.kind == REFUSAL, Reply.status == "queued"))


def _pending_refusals(s: Session, address: str, game_id: int | None) -> list[int]:
    return list(s.scalars(select(Reply.id).where(Reply.address == address, Reply.game_id == game_id,
                                                 Reply.kind == REFUSAL, Reply.status == "batched")
                          .order_by(Reply.id)))


def _received(s: Session, reply_id: int) -> datetime | None:
    return s.scalar(select(InboundMail.received_at).join(Reply, Reply.mail_id == InboundMail.id)
                    .where(Reply.id == reply_id))


def _told(s: Session, ids: list[int]) -> None:
    if ids:
        s.execute(update(Reply).where(Reply.id.in_(ids)).values(status="told"))
