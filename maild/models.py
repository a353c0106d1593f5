"""The tables: games, players, inbound mail, order sets, turns, state snapshots, outbound mail."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite keeps no time zone)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None else None


NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Game(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    ruleset: Mapped[str] = mapped_column(String(50))
    seed: Mapped[int] = mapped_column(BigInteger)
    turn: Mapped[int] = mapped_column(Integer, default=1)  # the turn now taking orders
    finished: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Since when the GM paused the game (`maild game pause`): no turn runs, no reminder goes; None when running.
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # The SEQUENCE of the game's calendar file (maild/calendar.py): one more at each change of a deadline, so a
    # player's calendar program updates the events it has in place.
    calendar_sequence: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "name", name="uq_players_game_name"),
                      UniqueConstraint("game_id", "email", name="uq_players_game_email"),
                      Index("ix_players_game_joined", "game_id", "joined_at"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    email: Mapped[str] = mapped_column(String(320))  # lower case
    password: Mapped[str | None] = mapped_column(String(200))
    # When he signed up by mail (a ruleset's `sign_up_word`); None for players of the setup or a GM's order.
    # What the daily cap on sign-ups counts (limits.signups_per_day).
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # His own time zone (`TIMEZONE Europe/Berlin` by mail), an IANA name: deadlines are shown in it beside the
    # game's. None: the game's only.
    timezone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Since when his position is open to a substitute (None: it is not): set by the GM (`maild player open`),
    # or by whatever puts a position in civil disorder; a volunteer of the standby list may then TAKEOVER it.
    # Cleared when a substitute takes it (maild/substitutes.py).
    open_to_substitute_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class InboundMail(Base):
    """Every mail that reached the inbox, raw, in order of arrival; `id` is the receipt sequence."""

    __tablename__ = "inbound_mails"
    __table_args__ = (UniqueConstraint("source", "uidvalidity", "uid", name="uq_inbound_source_uid"),
                      Index("ix_inbound_new_sender", "sender_key", "id", postgresql_where=text("status = 'new'"),
                            sqlite_where=text("status = 'new'")))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    source: Mapped[str] = mapped_column(String(300))
    uidvalidity: Mapped[int] = mapped_column(BigInteger)
    uid: Mapped[str] = mapped_column(String(300))
    message_id: Mapped[str | None] = mapped_column(String(998), index=True)
    # The whole mail; for an oversized one only its header block (at most MAX_HEADER_BYTES), for a
    # duplicate nothing (the bytes are those of the mail its note names).
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(Integer)  # bytes of the whole mail, as the server or file said
    # sha256 of the whole mail; None when not read whole. Indexed: the same bytes are the same mail, however
    # it came again (a re-delivery after UIDVALIDITY changed has a new source id and perhaps no Message-ID).
    digest: Mapped[str | None] = mapped_column(String(64), index=True)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # new → orders / command / auto / bounce (reports mail of ours that failed for good: `maild.bounces`) /
    # unknown_sender / which_game (a player of several games at the address, asked which) /
    # unroutable / oversized / bad_password / unverified / garbage / error / duplicate (stored,
    # never processed) / poison (intake stopped on it too often)
    status: Mapped[str] = mapped_column(String(30), default="new", index=True)
    # Intake runs begun on this mail, counted (and committed) before each: a run that crashed, was killed
    # or stalled counts too, and after `max_intake_attempts` the mail is set aside as poison.
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    note: Mapped[str | None] = mapped_column(Text)
    sender: Mapped[str | None] = mapped_column(String(320))
    subject: Mapped[str | None] = mapped_column(Text)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    # Whose mail it is for intake's claims, set when stored (maild/intake/senders.py); None: no address.
    sender_key: Mapped[str | None] = mapped_column(String(320))


class OrderSetRow(Base):
    __tablename__ = "order_sets"
    # Intake asks for one player's sets of a turn with every order mail.
    __table_args__ = (Index("ix_order_sets_game_turn", "game_id", "turn", "player_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    turn: Mapped[int] = mapped_column(Integer)
    mail_id: Mapped[int] = mapped_column(ForeignKey("inbound_mails.id"), unique=True)
    seq: Mapped[int] = mapped_column(Integer)  # receipt sequence = mail_id
    orders: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    diagnostics: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20))  # accepted / refused
    reason: Mapped[str | None] = mapped_column(Text)
    # The phase of the turn the orders are for, in a game of several phases a turn (None: a one-phase game).
    phase: Mapped[str | None] = mapped_column(String(50))


class GmOrder(Base):
    """An order the GM gives a game himself (a payment recorded, a bulletin, an amendment of the world): it
    counts for one turn like a player's orders, and stays on file so a re-run of that turn sees it too."""

    __tablename__ = "gm_orders"
    __table_args__ = (Index("ix_gm_orders_game_turn", "game_id", "turn"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    turn: Mapped[int] = mapped_column(Integer)
    order: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # When the GM withdrew it (`maild gm withdraw`): kept, listed as withdrawn, never given to `resolve`.
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Turn(Base):
    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_turns_game_number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    number: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(20), default="open")  # open / held / released / done
    note: Mapped[str | None] = mapped_column(Text)
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # events and who had orders
    # Seconds added to the deadline the config gives this turn (`maild game extend`, a pause's length), and in a
    # game of phases the phase they were given for: kept apart, so a deadline taken again from the config at a
    # start keeps them.
    extended_by: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    extended_phase: Mapped[str | None] = mapped_column(String(50), nullable=True)


class TurnPhase(Base):
    """One phase of a turn in a game of several phases a turn (see maild/phases.py): opened in order, each
    resolved exactly once, with its own deadline, seed and the state after it. The Turn row's deadline is
    that of its open phase, so whatever watches turn deadlines watches phases."""

    __tablename__ = "turn_phases"
    __table_args__ = (UniqueConstraint("game_id", "turn", "name", name="uq_turn_phases_game_turn_name"),
                      UniqueConstraint("game_id", "turn", "position", name="uq_turn_phases_game_turn_position"),
                      Index("ix_turn_phases_status", "status"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    turn: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)  # 0, 1, ... in the order the phases opened
    name: Mapped[str] = mapped_column(String(50))
    extra: Mapped[bool] = mapped_column(default=False)  # opened by a phase's result, not by the schedule
    closes_early: Mapped[bool] = mapped_column(default=False)  # once everyone in must_send has sent
    must_send: Mapped[list[str] | None] = mapped_column(JSON)  # player names; None: every player
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(20), default="open")  # open / done
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Deferred: which phase is open is asked of every mail, and must not decode every phase's state to say.
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, deferred=True)  # the game state after this phase
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, deferred=True)  # events and who had orders


class Snapshot(Base):
    """The game state before turn `turn` (turn 1: the state from the setup file)."""

    __tablename__ = "snapshots"
    __table_args__ = (UniqueConstraint("game_id", "turn", name="uq_snapshots_game_turn"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    turn: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class OutboundMail(Base):
    __tablename__ = "outbound_mails"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # What this mail is, e.g. "ack:17" or "printout:venice1:3:alice"; unique so nothing is queued twice.
    key: Mapped[str] = mapped_column(String(300), unique=True)
    message_id: Mapped[str] = mapped_column(String(300), unique=True)
    kind: Mapped[str] = mapped_column(String(30))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    sender: Mapped[str] = mapped_column(String(320))
    recipients: Mapped[list[str]] = mapped_column(JSON)
    subject: Mapped[str] = mapped_column(Text)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    # queued / sent / failed / bounced (sent, and a bounce came back for its one recipient: `outbox.mark_bounced`)
    status: Mapped[str] = mapped_column(String(20), default="queued", index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The daemon sending it now, and until when (the database's clock): another daemon leaves it alone until
    # then, and takes it over after (maild/outbox.py, `next_batch`). Cleared when the outcome is recorded.
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    claim_until: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Reply(Base):
    """Every answer maild gave or held back (acks, HELP, refusals, answers to strangers), one row per
    recipient address: what the reply caps, the refusal batching and the loop guard count, in the database
    so that they hold across restarts and across daemons sharing it."""

    __tablename__ = "replies"
    __table_args__ = (Index("ix_replies_address_created", "address", "created_at"),
                      Index("ix_replies_kind_created", "kind", "created_at"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address: Mapped[str] = mapped_column(String(320))  # lower case, without a +tag (see replylimits)
    kind: Mapped[str] = mapped_column(String(30))  # ack / stranger / refusal
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    mail_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mails.id"))  # the mail answered
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # queued: sent; suppressed: held back (reason says why); batched: a refusal the next notice will count;
    # told: a batched refusal a later notice counted; failed: a batched refusal whose notice could not be queued
    # (reason says why), set aside so that intake goes on
    status: Mapped[str] = mapped_column(String(20), index=True)
    reason: Mapped[str | None] = mapped_column(Text)
    message_id: Mapped[str | None] = mapped_column(String(300), index=True)  # of our answer, if queued
    echo: Mapped[bool] = mapped_column(default=False)  # the mail answered was itself a reply to our answer


class Lease(Base):
    """Who may work: a named piece of work (today "daemon", the one daemon of a PostgreSQL database) held by one
    process until `expires_at` (the database server's clock), renewed while it works. A taker takes a lapsed
    lease with a new `token`; the holder checks it in each of its transactions, so it notices the loss before
    its next write (see maild/lease.py and docs/daemon.md)."""

    __tablename__ = "leases"
    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))  # host, pid and a random part: one process's one run
    token: Mapped[int] = mapped_column(BigInteger)  # grows with every new holder (a fencing token)
    acquired_at: Mapped[datetime] = mapped_column(UTCDateTime)
    renewed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PasswordFailure(Base):
    """A mail that named a player with a wrong password (or none), what the limits on guessing count."""

    __tablename__ = "password_failures"
    __table_args__ = (Index("ix_password_failures_player_created", "player_id", "created_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    address: Mapped[str] = mapped_column(String(320))  # the sender, lower case, without a +tag
    mail_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mails.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Bounce(Base):
    """A delivery status notification (RFC 3464) or other bounce for a mail maild sent: which address failed,
    the outbound mail it names where it could be told, the bounce mail itself, and the reason given."""

    __tablename__ = "bounces"
    __table_args__ = (Index("ix_bounces_address_created", "address", "created_at"),
                      Index("ix_bounces_game_player", "game_id", "player_id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address: Mapped[str] = mapped_column(String(320))  # the failed recipient, lower case
    outbound_id: Mapped[int | None] = mapped_column(ForeignKey("outbound_mails.id"))
    mail_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mails.id"))  # the bounce as received
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Standing(Base):
    """Where a player stands on the missed-orders ladder (maild/ladder.py): the turns he has missed in a row and
    the step they brought him to. No row: he has missed nothing."""

    __tablename__ = "standings"
    __table_args__ = (UniqueConstraint("player_id", name="uq_standings_player"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    missed: Mapped[int] = mapped_column(Integer, default=0)  # turns missed in a row, absences not counted
    # "" (in play) / warned / defaults / disorder / removed (see maild.ladder.STEPS)
    step: Mapped[str] = mapped_column(String(20), default="")
    step_turn: Mapped[int | None] = mapped_column(Integer)  # the turn whose running put him on that step
    # Civil disorder: the position may be handed to a substitute (maild.ladder.open_to_substitute).
    open_to_substitute: Mapped[bool] = mapped_column(default=False)


class Grace(Base):
    """A deadline that passed with players missing and was moved (maild/grace.py): given the game's grace (the
    turn, or its phase, runs at `until`, or once everyone has sent), or moved past an absent player's absence."""

    __tablename__ = "graces"
    __table_args__ = (UniqueConstraint("game_id", "turn", "phase", "kind", name="uq_graces_game_turn_phase_kind"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(50), default="")  # "" for a turn of one phase
    kind: Mapped[str] = mapped_column(String(20), default="grace")  # grace / absence (an absent player's wait)
    deadline: Mapped[datetime] = mapped_column(UTCDateTime)  # the deadline as it was
    until: Mapped[datetime] = mapped_column(UTCDateTime)
    late: Mapped[list[str]] = mapped_column(JSON)  # who was missing when the grace began


class Absence(Base):
    """A player's declared absence (`ABSENT 2027-03-01 TO 2027-03-14`), both days included (maild/absences.py)."""

    __tablename__ = "absences"
    __table_args__ = (Index("ix_absences_game_player", "game_id", "player_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    starts: Mapped[date] = mapped_column(Date)
    ends: Mapped[date] = mapped_column(Date)  # BACK moves it to the day before the mail came
    declared_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PressRelay(Base):
    """A press mail relayed to one player: its Message-ID, who wrote it and who got it, so that a reply to it
    (In-Reply-To or References naming the id) goes back to its author without naming him (grey press)."""

    __tablename__ = "press_relays"
    __table_args__ = (Index("ix_press_relays_game_message", "game_id", "message_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    message_id: Mapped[str] = mapped_column(String(300))
    author_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    recipient_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    mail_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_mails.id"))  # the press mail as received
    grey: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Substitute(Base):
    """A volunteer of a game's standby list (STANDBY by mail), and every handover of a position: a volunteer's
    TAKEOVER or the GM's `maild player replace` (then without a standby row before it). The addresses stay
    here for the GM; players are told names only (maild/substitutes.py)."""

    __tablename__ = "substitutes"
    __table_args__ = (Index("ix_substitutes_game_status", "game_id", "status"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    email: Mapped[str] = mapped_column(String(320))  # the volunteer's, lower case
    status: Mapped[str] = mapped_column(String(20))  # standby / took_over
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    player: Mapped[str | None] = mapped_column(String(100))  # the position he took over
    previous_email: Mapped[str | None] = mapped_column(String(320))  # the address of the player he replaced
    turn: Mapped[int | None] = mapped_column(Integer)  # the open turn when he took it over
    took_over_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
