"""Which game a mail is for, which player sent it, and whether it may speak for them."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

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
    """The game a mail is for and its sender's player there (None: a stranger to it). When the mail named no
    game and its address runs several: `shared`, every game of the address (in the config's order), and
    `played`, those of them the sender plays (more than one: the orders' grammar decides, see
    `maild.intake.choosing`)."""

    game: Game
    player: Player | None
    shared: list[Game] = field(default_factory=list)
    played: list[tuple[Game, Player]] = field(default_factory=list)


def plus_address(address: str, game: str) -> str:
    """The address that names `game` on an address several games share: its plus address."""
    local, _, domain = address.partition("@")
    return f"{local.split('+', 1)[0]}+{game}@{domain}"


def route(s: Session, app: App, mail: ReadMail, run: IntakeRun) -> Routed | None:
    """A game named by the mail (its #GAME header line, a plus address, a subject tag) is the one; else the
    games of the address it came to, of which the sender's registration picks those he plays."""
    games = {g.name.lower(): g for g in run.games(s)}
    named = _named(mail, games)
    if named is not None:
        return Routed(named, find_player(run.players(s, named), mail))
    addressed = set(mail.to_addrs)
    candidates = [games[g.name.lower()] for g in app.config.games
                  if g.name.lower() in games and (g.address in addressed or addressed & set(g.aliases))]
    if not candidates:
        return None
    played = [(game, player) for game in candidates
              if (player := find_player(run.players(s, game), mail)) is not None]
    shared = candidates if len(candidates) > 1 else []
    if played:
        return Routed(played[0][0], played[0][1], shared, played)
    return Routed(candidates[0], None, shared)


def _named(mail: ReadMail, games: dict[str, Game]) -> Game | None:
    """The game the mail names, by its header line, a plus address or a subject tag, in that order."""
    if mail.header is not None and mail.header.game.lower() in games:
        return games[mail.header.game.lower()]
    for addr in mail.to_addrs:
        local, _, _domain = addr.partition("@")
        _base, plus, tag = local.partition("+")
        if plus and tag.lower() in games:
            return games[tag.lower()]
    return next((games[t.lower()] for t in mail.subject_tags if t.lower() in games), None)


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
                 passwords: Checker | None = None, game: str = "GAME") -> Refusal | None:
    """None if the mail may speak for `player`; else why not. With the game's `auth` check, the
    receiving server's Authentication-Results must also show that the mail comes from its From address:
    for players without a password, or for everyone (`require_for`). `passwords`: the intake run's checker,
    which remembers the passwords it found right. `game`: its name, for the header line a refusal shows."""
    given = mail.header.password if mail.header is not None else None
    if player.password:
        if given is None:
            return Refusal("bad_password", "it carried no password (your game has one: put the line "
                                           f"'#{game} {player.name} PASSWORD', your password in it, above your orders)")
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
