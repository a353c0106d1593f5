"""Limits on guessing a player's password by mail.

Every mail refused for a wrong or missing password in a player's name is a row of `password_failures` (the
sender as the reply limits count addresses: lower case, no +tag). Once the failures for a player reach a limit
of `[limits]` (`password_failures_per_sender_hour`/`_day` from one address, `..._per_player_hour`/`_day` from
all together; config.GuessingLimits), mail naming him from that address (or from any, for the per-player
limits) is held as `bad_password` without its password being looked at, until the window has passed: a right
guess among the held mails is worth nothing. The one exception is the player's own mail from his registered
address with his password, which is always read, so a guesser cannot lock the player out.

The player (at his registered address, through the reply gate) and the GM are told when a lock-out begins, once
a day per player however many lock-outs follow: the GM's notice in the outbox is the record of it. Counts come
from the database, so they hold across restarts and processes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.orm import Session

from maild.app import App
from maild.intake.ackecho import Echo, clip
from maild.intake.identity import Refusal
from maild.intake.read import ReadMail
from maild.intake.run import IntakeRun, MailRow
from maild.models import Game, OutboundMail, PasswordFailure, Player
from maild.outbox import notify_gm
from maild.render import render
from maild.replylimits import DAY, HOUR, Answer, give, reply_address

# What the reply gate counts a lock-out notice as (beside "ack", "stranger", "refusal").
LOCKOUT = "lockout"
_NOTICE = "pwlock"  # the GM notice's outbox key: gm:pwlock:GAME:PLAYER:MAIL
_TOLD = "maild.guessing.told"  # players whose notice was settled in this transaction

_F = PasswordFailure.__table__.c
# The four counts in one query on the (player_id, created_at) index. A failure counts while it is less than a
# window old, so that mail is read again at the very minute a lock's note names.
_COUNTS = select(func.count().filter(_F.address == bindparam("address"), _F.created_at > bindparam("hour")),
                 func.count().filter(_F.address == bindparam("address")),
                 func.count().filter(_F.created_at > bindparam("hour")),
                 func.count()).where(_F.player_id == bindparam("player"), _F.created_at > bindparam("day"))


@dataclass(frozen=True)
class Lock:
    """A limit reached: mail naming `player` from `sender` (None: from any address) is not read until `until`."""

    player: str
    failures: int
    sender: str | None
    window: timedelta
    until: datetime

    @property
    def span(self) -> str:
        return "hour" if self.window == HOUR else "24 hours"

    @property
    def note(self) -> str:
        senders = f"from {clip(self.sender, 200)}" if self.sender else "from all addresses together"
        return (f"password guessing limit reached for {self.player}: {self.failures} wrong passwords {senders} "
                f"in the last {self.span}; not read until {self.until:%Y-%m-%d %H:%M} UTC")


def held_by_lock(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, player: Player,
                 mail: ReadMail) -> str | None:
    """Why this mail naming `player` is not read (the note for `bad_password`), if a limit holds it: its
    password is then not looked at, unless it comes from his registered address (which a lock never keeps
    out with the right password; a wrong one from there counts as any)."""
    if not player.password or mail.from_addr is None:
        return None  # without a password there is nothing to guess: the address decides
    lock = current_lock(s, app, player, reply_address(mail.from_addr))
    if lock is None:
        return None
    if mail.from_addr == player.email:
        given = mail.header.password if mail.header is not None else None
        if given is not None and run.passwords.check(player.password, given):
            return None
        _record(s, app, game, player, mail.from_addr, row.id)
    _tell(s, app, run, game, player, lock, row.id)
    return lock.note


def count_refusal(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, player: Player,
                  mail: ReadMail, refusal: Refusal) -> None:
    """Record a refusal for a wrong or missing password (not one of an unverified sender, nor one of a player
    without a password), and tell of the lock-out it begins."""
    if refusal.status != "bad_password" or not player.password or mail.from_addr is None:
        return
    address = reply_address(mail.from_addr)
    _record(s, app, game, player, address, row.id)
    lock = current_lock(s, app, player, address)
    if lock is not None:
        row.note = f"{row.note}; {lock.note}"
        _tell(s, app, run, game, player, lock, row.id)


def current_lock(s: Session, app: App, player: Player, address: str) -> Lock | None:
    """The limit that holds mail naming `player` from `address` now, the one lasting longest if several do."""
    limits, now = app.config.guessing, app.now()
    from_sender_hour, from_sender_day, all_hour, all_day = s.execute(_COUNTS, {
        "player": player.id, "address": address, "hour": now - HOUR, "day": now - DAY}).one()
    reached = [(sender, window, count, limit) for sender, window, count, limit in (
        (address, HOUR, from_sender_hour, limits.per_sender_hour),
        (address, DAY, from_sender_day, limits.per_sender_day),
        (None, HOUR, all_hour, limits.per_player_hour),
        (None, DAY, all_day, limits.per_player_day)) if count >= limit]
    if not reached:
        return None
    locks = [Lock(player.name, count, sender, window, _until(s, player, sender, window, limit, now))
             for sender, window, count, limit in reached]
    return max(locks, key=lambda lock: lock.until)


def _until(s: Session, player: Player, sender: str | None, window: timedelta, limit: int, now: datetime
           ) -> datetime:
    """When fewer than `limit` of the failures counted will be in the window: the `limit`-th newest leaves it."""
    q = select(_F.created_at).where(_F.player_id == player.id, _F.created_at > now - window)
    if sender is not None:
        q = q.where(_F.address == sender)
    times = list(s.scalars(q.order_by(_F.created_at.desc()).limit(limit)))
    return times[-1] + window


def _record(s: Session, app: App, game: Game, player: Player, address: str, mail_id: int) -> None:
    s.execute(insert(PasswordFailure.__table__), [dict(game_id=game.id, player_id=player.id,
                                                       address=reply_address(address)[:320], mail_id=mail_id,
                                                       created_at=app.now())])


def _tell(s: Session, app: App, run: IntakeRun, game: Game, player: Player, lock: Lock, mail_id: int) -> None:
    """The player and the GM hear of a lock-out once a day per player: a guesser at work for days, or from many
    addresses, must not become a stream of notices (each mail's note, and the daily refusal notice's count,
    say the rest)."""
    told: set[int] = s.info.setdefault(_TOLD, set())
    if player.id in told:
        return
    told.add(player.id)
    prefix = f"gm:{_NOTICE}:{game.id}:{player.id}:"
    if s.scalar(select(OutboundMail.id).where(OutboundMail.key.startswith(prefix),
                                              OutboundMail.created_at > app.now() - DAY).limit(1)) is not None:
        return
    echo = Echo(app.config.limits)
    context = dict(game=game.name, player=player.name, failures=lock.failures, span=lock.span,
                   sender=echo.line(lock.sender), until=lock.until, registered=player.email)
    give(s, app, Answer(kind=LOCKOUT, key=f"{_NOTICE}:{mail_id}", outbox_kind="warning", to=player.email,
                        subject=f"[{game.name}] someone may be guessing your password",
                        body=render(game.ruleset, "password_guessing.txt.j2", **context), game_id=game.id,
                        mail_id=mail_id), run.gate)
    notify_gm(s, app, f"{_NOTICE}:{game.id}:{player.id}:{mail_id}",
              f"{game.name}: password guessing for {player.name}",
              render(game.ruleset, "gm_password_guessing.txt.j2", note=lock.note, **context), game.id)
