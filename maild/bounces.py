"""Bounces of mail maild sent: each failed address recorded (table `bounces`) with the outbound mail it returns
and the player whose registered address it is, that mail marked `bounced`, the GM told once per player a day;
and the players a bounce left unreachable, for `maild game list`.

A bounce names our mail by its Message-ID where it can (`maild.intake.dsn`); else it is taken for the latest
mail sent to the failed address. A bounce for an address maild never mailed and no player has (backscatter
of forged mail, most often) is recorded and marks nothing, and the GM is not told: such bounces come by the
hundred. A delay notice (a temporary failure) marks nothing either: the server still tries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Text, cast, func, select
from sqlalchemy.orm import Session

from maild.app import App
from maild.deadlines import game_timezone
from maild.intake.ackecho import clip
from maild.intake.dsn import BounceReport, Failure
from maild.models import Bounce, Game, InboundMail, OutboundMail, Player
from maild.outbox import mark_bounced, notify_gm
from maild.render import render

# Mails from a player that prove his registered address reads and writes: read as his, from that address.
HEARD_FROM = ("orders", "command", "empty", "press")
# Of the mails sent to an address, the latest this many are looked at for the one a bounce returns.
LATEST_SENT = 20


def record(s: Session, app: App, mail_id: int, received: datetime, report: BounceReport) -> str:
    """Record what the bounce `mail_id` (received at `received`) reports; the mail's note for the GM."""
    said = []
    for failure in report.permanent:
        outbound = returned_mail(s, failure.address, report.message_ids)
        if outbound is not None:
            mark_bounced(outbound, failure.address, failure.reason)
        players = _players(s, failure.address, outbound)
        for game, player in players or [(None, None)]:
            s.add(Bounce(address=failure.address, outbound_id=outbound.id if outbound else None, mail_id=mail_id,
                         game_id=game.id if game else (outbound.game_id if outbound else None),
                         player_id=player.id if player else None, reason=failure.reason, created_at=received))
            if game is not None and player is not None:
                _tell_gm(s, app, game, player, failure, outbound, mail_id, received)
        if outbound is not None:
            said.append(f"{failure.address} ({failure.reason}): {outbound.key} marked bounced")
        elif players:
            said.append(f"{failure.address} ({failure.reason}): no mail of ours to it found")
        else:
            said.append(f"{failure.address} ({failure.reason}): maild never mailed it and no player has it; "
                        "nothing marked")
    for failure in report.delayed:
        said.append(f"{failure.address} delayed ({failure.reason}): the server still tries; nothing marked")
    return "bounce: " + "; ".join(said) if said else "bounce, but no failed address could be read from it"


def returned_mail(s: Session, address: str, message_ids: list[str]) -> OutboundMail | None:
    """Our mail that bounced for `address`: the one the bounce names by Message-ID, else the latest sent to it."""
    if message_ids:
        named = list(s.scalars(select(OutboundMail).where(OutboundMail.message_id.in_(message_ids))
                               .order_by(OutboundMail.id.desc())))
        for row in named:
            if address in (r.lower() for r in row.recipients):
                return row
        # Forwarded: the bounce names the address our one recipient forwards to, not ours.
        alone = [row for row in named if len(row.recipients) == 1]
        if alone:
            return alone[0]
    escaped = address.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    # The recipients are a JSON list: its text holds the address in quotes (both databases write it so).
    latest = s.scalars(select(OutboundMail).where(
        OutboundMail.status.in_(("sent", "bounced")),
        func.lower(cast(OutboundMail.recipients, Text)).like(f'%"{escaped}"%', escape="\\"))
        .order_by(OutboundMail.id.desc()).limit(LATEST_SENT))
    return next((row for row in latest if address in (r.lower() for r in row.recipients)), None)


def _players(s: Session, address: str, outbound: OutboundMail | None) -> list[tuple[Game, Player]]:
    """The players whose registered address failed (in the bounced mail's game, if it has one and he is in
    it); for a forwarded address, the one recipient of the bounced mail."""
    addresses = [address]
    if outbound is not None and len(outbound.recipients) == 1 and outbound.recipients[0].lower() != address:
        addresses.append(outbound.recipients[0].lower())
    rows = [(game, player) for player, game in s.execute(
        select(Player, Game).join(Game, Game.id == Player.game_id).where(Player.email.in_(addresses))
        .order_by(Game.name, Player.name))]
    if outbound is not None and outbound.game_id is not None:
        return [(g, p) for g, p in rows if g.id == outbound.game_id] or rows
    return rows


def _tell_gm(s: Session, app: App, game: Game, player: Player, failure: Failure, outbound: OutboundMail | None,
             mail_id: int, received: datetime) -> None:
    """One notice per player and day (the game's day): a flood of bounces for one address is one mail."""
    day = received.astimezone(game_timezone(app.config, game.name)).date().isoformat()
    notify_gm(s, app, f"bounce:{game.name}:{player.name}:{day}",
              f"{game.name}: mail to {player.name} bounced",
              render(None, "gm_bounce.txt.j2", game=game.name, player=player.name, address=failure.address,
                     reason=failure.reason, mail_id=mail_id, outbound=outbound,
                     subject=clip(outbound.subject, 200) if outbound else None), game.id)


@dataclass(frozen=True)
class Unreachable:
    player: str
    reason: str
    since: datetime  # when the bounce came


def unreachable(s: Session, game: Game) -> list[Unreachable]:
    """The game's players whose latest bounce came after the last mail they sent us from their registered
    address: what maild sends them is lost until they write (or the GM mends the address). By name."""
    latest: dict[int, tuple[str, datetime]] = {}
    for player_id, reason, at in s.execute(
            select(Bounce.player_id, Bounce.reason, Bounce.created_at)
            .where(Bounce.game_id == game.id, Bounce.player_id.is_not(None)).order_by(Bounce.created_at, Bounce.id)):
        latest[player_id] = (reason or "bounced", at)
    if not latest:
        return []
    heard = dict(s.execute(
        select(InboundMail.player_id, func.max(InboundMail.received_at))
        .join(Player, Player.id == InboundMail.player_id)
        .where(InboundMail.player_id.in_(latest), InboundMail.status.in_(HEARD_FROM),
               InboundMail.sender == Player.email)
        .group_by(InboundMail.player_id)).all())
    names = dict(s.execute(select(Player.id, Player.name).where(Player.id.in_(latest))).all())
    found = [Unreachable(names[pid], reason, at) for pid, (reason, at) in latest.items()
             if pid in names and (heard.get(pid) is None or heard[pid] < at)]
    return sorted(found, key=lambda u: u.player)


def unreachable_line(found: list[Unreachable]) -> str:
    """For `maild game list`: "unreachable: carol (550 5.1.1 user unknown, 2027-03-01)"."""
    return "unreachable: " + ", ".join(f"{u.player} ({clip(u.reason, 100)}, {u.since:%Y-%m-%d})" for u in found)
