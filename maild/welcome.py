"""Welcome mails: what a player is mailed when he joins a game (Ruleset.welcome), queued in the transaction that
creates the game or applies the GM's order that brought him in. Keyed by game, player and what the welcome is for,
so a rerun, a second sync or a turn that changes nothing for him never mails twice."""

from __future__ import annotations

import bisect
import hashlib
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.calendar import calendar_file
from maild.models import Game, OutboundMail, Player
from maild.outbox import insert_rows, outbound_row
from maild.passwords import is_hash
from maild.render import render
from maild.ruleset import Ruleset

if TYPE_CHECKING:
    from maild.app import App

# The outbox key has 300 characters; a long `welcome_for` (a player of many families) is shortened to a digest.
_LONGEST_FOR = 120


def welcome_key(game: str, player: str, welcome_for: str) -> str:
    if len(welcome_for) > _LONGEST_FOR:
        welcome_for = hashlib.sha256(welcome_for.encode()).hexdigest()
    return f"welcome:{game}:{player}:{welcome_for}"


def setup_passwords(setup: Any) -> dict[str, str]:
    """The passwords a setup file gives in words, by the address (lower case) of the table that gives each
    with its `email`: every game's setup lists a player so. The database and the state keep only hashes, so
    the welcomes mailed when the game is created are the one place the words can be told. An address two
    tables give different passwords is left out (its welcome names no password then)."""
    found: dict[str, set[str]] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            email, password = value.get("email"), value.get("password")
            if isinstance(email, str) and isinstance(password, str) and password and not is_hash(password):
                found.setdefault(email.strip().lower(), set()).add(password)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(setup)
    return {email: next(iter(words)) for email, words in found.items() if len(words) == 1}


def password_note(game: Game, player: Player, passwords: dict[str, str] | None) -> str:
    """For a player with a password: that his mail must carry it, and the `#GAME PLAYER PASSWORD` line to copy
    above his orders (the password in it where `passwords`, by address, knows it); else nothing."""
    if not player.password:
        return ""
    known = (passwords or {}).get(player.email.lower())
    return render(None, "password_note.txt.j2", game=game.name, player=player.name, password=known).rstrip("\n")


def queue_welcomes(s: Session, app: App, game: Game, ruleset: Ruleset, state: dict[str, Any],
                   players: list[Player], turn: int, deadline: str,
                   passwords: dict[str, str] | None = None) -> list[str]:
    """Queue the welcome owed to each of `players` (those the ruleset welcomes and not welcomed before for the
    same thing). Returns the names welcomed. `passwords`: the setup's passwords in words, by address
    (`setup_passwords`), when the game is created from it."""
    sent = set(s.scalars(select(OutboundMail.key).where(OutboundMail.game_id == game.id,
                                                        OutboundMail.kind == "welcome")))
    rows, welcomed = [], []
    calendar = calendar_file(s, app, game)
    for player in players:
        context = ruleset.welcome(state, player.name, turn=turn)
        if context is None:
            continue
        key = welcome_key(game.name, player.name, str(context.get("welcome_for", "")))
        if key in sent:
            continue
        body = render(game.ruleset, "welcome.txt.j2", **context, game=game.name, player=player.name, turn=turn,
                      deadline=deadline, password_note=password_note(game, player, passwords))
        # A welcome carries what the ruleset attaches to a mail of its (the Grand Game's board), asked with
        # no phase: the game has not begun.
        files = ruleset.attachments(state, turn, None, player.name, context) \
            if type(ruleset).attachments is not Ruleset.attachments else []
        if calendar is not None:  # the game's coming deadlines, for his calendar program
            files = [*files, calendar]
        rows.append(outbound_row(app, key=key, kind="welcome", to=[player.email], game_id=game.id, body=body,
                                 subject=f"[{game.name}] welcome, {player.name}: your position and how to send "
                                         f"orders", attachments=files))
        sent.add(key)
        welcomed.append(player.name)
    insert_rows(s, rows)
    return welcomed


def signed_up_unwelcomed(s: Session, game: Game, players: list[Player]) -> list[Player]:
    """Those of `players` who signed up by mail (see maild/intake/signup.py) and have had no welcome yet: a
    turn offers them one once the ruleset has brought them into the state (their JOIN resolved)."""
    newcomers = [p for p in players if p.joined_at is not None]
    if not newcomers:
        return []
    keys = sorted(s.scalars(select(OutboundMail.key).where(OutboundMail.game_id == game.id,
                                                           OutboundMail.kind == "welcome")))

    def welcomed(player: Player) -> bool:  # a key of his is the first at or after his prefix, if any is
        prefix = welcome_key(game.name, player.name, "")
        at = bisect.bisect_left(keys, prefix)
        return at < len(keys) and keys[at].startswith(prefix)

    return [p for p in newcomers if not welcomed(p)]
