"""A volunteer's mail: `STANDBY GAME` (onto the game's standby list) and `TAKEOVER GAME PLAYER` (a position open
to a substitute, taken by someone on that list). The sender is no player of the game; the work is
maild/substitutes.py's. A STANDBY is answered as a stranger's mail is (one answer a day from a game: a forged
sender must not make maild a source of backscatter); a TAKEOVER by someone on the list as an ack."""

from __future__ import annotations

import logging

from sqlalchemy.orm import Session

from maild.app import App
from maild.errors import GameError
from maild.games import players_of, ruleset_named
from maild.intake.authres import sender_verified
from maild.intake.read import ReadMail
from maild.intake.run import IntakeRun, MailRow
from maild.models import Game, Player
from maild.outbox import notify_gm
from maild.render import render
from maild.replylimits import NOT_ANSWERED, STRANGER, Answer, give
from maild.substitutes import add_standby, hand_over, on_standby

log = logging.getLogger("maild.intake")

VOLUNTEER_WORDS = frozenset({"STANDBY", "TAKEOVER"})


def names_a_game(mail: ReadMail, games: list[Game]) -> Game | None:
    """Of the games an address is shared by, the one a volunteer's STANDBY or TAKEOVER names."""
    if not mail.commands & VOLUNTEER_WORDS or not mail.command_args:
        return None
    return next((g for g in games if g.name.lower() == mail.command_args[0].lower()), None)


def volunteer(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, mail: ReadMail) -> None:
    """Answer a stranger's STANDBY or TAKEOVER (see the module docstring)."""
    assert mail.from_addr is not None
    address = mail.from_addr.lower()
    word = "TAKEOVER" if "TAKEOVER" in mail.commands else "STANDBY"
    args = mail.command_args
    row.status = "command"
    context: dict[str, object] = {"game": game.name, "player": None, "reason": None,
                                  "open": [p.name for p in players_of(s, game) if p.open_to_substitute_at]}
    kind = STRANGER
    refused = _refusal(app, row, game, word, args)
    taker: Player | None = None
    if refused is None and word == "STANDBY":
        context["what"] = "standby" if add_standby(s, app, game, address) else "already"
        row.note = f"{address} on the standby list of {game.name}"
        if context["what"] == "standby":
            notify_gm(s, app, f"standby:{game.name}:{row.id}", f"{game.name}: a volunteer on standby",
                      f"{address} put himself on the standby list of {game.name} (mail {row.id}).\n"
                      f"`maild player standby {game.name}` lists it; `maild player replace {game.name} PLAYER "
                      f"{address}` hands him a position.\n", game.id)
    elif refused is None:
        offer = on_standby(s, game, address)
        taker = next((p for p in players_of(s, game) if p.name.lower() == args[1].lower()), None)
        if offer is not None:
            kind = "ack"  # a volunteer the list knows: his answers count as a player's do
        if offer is None:
            refused = f"this address is not on the standby list of {game.name}: mail STANDBY {game.name} first"
        elif taker is None:
            refused = f"{game.name} has no player {args[1]}"
        elif taker.open_to_substitute_at is None:
            refused = f"{taker.name}'s position is not open to a substitute"
        else:
            try:
                hand_over(s, app, run.gate, game, taker, address, volunteer=offer)
            except GameError as exc:
                refused = str(exc)
        if refused is None and taker is not None:
            run.forget_players(game)
            row.player_id = taker.id
            row.note = f"{address} took over {taker.name} of {game.name}"
            context.update(what="took_over", player=taker.name)
    if refused is not None:
        context.update(what="refused", reason=refused)
        row.note = f"{word} refused: {refused}"
    log.info("mail %d: %s", row.id, row.note)
    held = give(s, app, Answer(kind=kind, key=f"volunteer:{row.id}", outbox_kind="ack", to=address,
                               subject=f"Re: {word} [{game.name}]", body=render(None, "standby.txt.j2", **context),
                               game_id=game.id, mail_id=row.id, in_reply_to=mail.message_id, thread=mail.thread),
                run.gate)
    if held is not None:
        row.note = f"{row.note}{NOT_ANSWERED}{held}"


def _refusal(app: App, row: MailRow, game: Game, word: str, args: tuple[str, ...]) -> str | None:
    if game.finished:
        return f"{game.name} is over"
    if not ruleset_named(game.ruleset).takes_substitutes:
        return f"{game.name} takes no substitutes"
    wanted = f"{word} {game.name}" + (" PLAYER" if word == "TAKEOVER" else "")
    if not args or args[0].lower() != game.name.lower() or (word == "TAKEOVER") != (len(args) == 2):
        return f"write the line as {wanted}"
    gcfg = app.config.game(game.name)
    if gcfg is not None and gcfg.auth is not None:
        verified, why = sender_verified(row.raw, row.sender or "", gcfg.auth.authserv_id)
        if not verified:
            return f"your mail could not be verified as coming from its sender ({why})"
    return None
