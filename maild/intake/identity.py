"""Which game a mail is for, which player sent it, and whether it may speak for them."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.orm import Session

from maild.app import App
from maild.config import AuthCheck
from maild.intake.authres import sender_verified
from maild.intake.read import ReadMail
from maild.intake.run import IntakeRun, PlayerIndex
from maild.models import Game, Player
from maild.passwords import Checker

log = logging.getLogger("maild.intake")


@dataclass
class Routed:
    game: Game
    player: Player | None


# Built once with bind parameters on the bare tables (not the ORM classes, whose bulk paths cost about
# a millisecond a statement): intake runs these for every mail.
def route(s: Session, app: App, mail: ReadMail, run: IntakeRun) -> Routed | None:
    games = {g.name.lower(): g for g in run.games(s)}
    candidates: list[Game] = []
    if mail.header is not None and mail.header.game.lower() in games:
        candidates = [games[mail.header.game.lower()]]
    if not candidates:
        for addr in mail.to_addrs:
            local, _, domain = addr.partition("@")
            base, plus, tag = local.partition("+")
            if plus and tag.lower() in games:
                candidates = [games[tag.lower()]]
                break
    if not candidates:
        candidates = [games[t.lower()] for t in mail.subject_tags if t.lower() in games][:1]
    if not candidates:
        addressed = set(mail.to_addrs)
        for gcfg in app.config.games:
            if gcfg.name.lower() in games and (gcfg.address in addressed or addressed & set(gcfg.aliases)):
                candidates.append(games[gcfg.name.lower()])
    if not candidates:
        return None
    # Several games share the GM's address: the sender's registration tells which one is meant.
    for game in candidates:
        player = find_player(run.players(s, game), mail)
        if player is not None:
            return Routed(game, player)
    return Routed(candidates[0], None)


def find_player(players: PlayerIndex, mail: ReadMail) -> Player | None:
    if mail.header is not None and mail.header.player:
        return players.by_name.get(mail.header.player.lower())
    return players.by_email.get(mail.from_addr or "")


@dataclass(frozen=True)
class Refusal:
    status: str  # "bad_password" or "unverified"
    problem: str  # what is wrong, for the player's registered address (and the GM's mail list)
    unverified: str | None = None  # for the warning's advice: "password_helps" or "everyone"


def authenticate(player: Player, mail: ReadMail, auth: AuthCheck | None = None, raw: bytes = b"",
                 passwords: Checker | None = None) -> Refusal | None:
    """None if the mail may speak for `player`; else why not. With the game's `auth` check, the
    receiving server's Authentication-Results must also show that the mail comes from its From address:
    for players without a password, or for everyone (`require_for`). `passwords`: the intake run's checker,
    which remembers the passwords it found right."""
    given = mail.header.password if mail.header is not None else None
    if player.password:
        if given is None:
            return Refusal("bad_password",
                           "it carried no password (your game has one: put it on a '#GAME PLAYER PASSWORD' line)")
        if not (passwords or Checker()).check(player.password, given):
            return Refusal("bad_password", "it carried a wrong password")
        if auth is None or auth.require_for != "everyone":
            return None  # the password is the stronger proof
    elif mail.from_addr != player.email:
        return Refusal("bad_password",
                       f"it came from {mail.from_addr}, not from your registered address, and your game has "
                       "no password that could prove it was you")
    if auth is None:
        return None
    verified, why = sender_verified(raw, mail.from_addr or "", auth.authserv_id)
    if verified:
        return None
    log.info("mail from %s not verified: %s", mail.from_addr, why)
    # The warning suggests a password where one would get the mail in (see bad_auth.txt.j2).
    return Refusal("unverified", f"it could not be verified as coming from {mail.from_addr} ({why})",
                   unverified="password_helps" if auth.require_for != "everyone" else "everyone")
