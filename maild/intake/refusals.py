"""The notice to a player that mail in his name was refused (wrong password, unverified sender): the first at
once, the next a day later counting those batched since (see maild/replylimits.py).

The notices owed since yesterday go out at the start of each intake, each in a transaction of its own: one
that cannot be queued for a reason that is not the database's passing trouble (a bug, a key taken) is set
aside — its refusals marked `failed` with the reason, shown by `maild replies list`, the GM told once — and
intake goes on with the rest. Before, one such notice failed the shared transaction every pass, and the
daemon read no mail at all until the database was mended by hand.
"""

from __future__ import annotations

import hashlib
import logging

from sqlalchemy.orm import Session

from maild.app import App
from maild.controlchars import strip_controls
from maild.db import is_transient
from maild.intake.ackecho import Echo, clip
from maild.models import Game, InboundMail, Player
from maild.outbox import notify_gm
from maild.render import render
from maild.replylimits import NOT_ANSWERED, REFUSAL, Answer, flush_refusal, owed_refusals, set_aside_refusals

log = logging.getLogger("maild.intake")


def refusal(game: Game, player: Player, mail_id: int, body: str = "") -> Answer:
    return Answer(kind=REFUSAL, key=f"badauth:{mail_id}", outbox_kind="warning", to=player.email,
                  subject=f"[{game.name}] orders in your name were refused", body=body, game_id=game.id,
                  mail_id=mail_id)


def summary(s: Session, app: App, game_id: int | None, address: str, mail_ids: list[int]) -> Answer | None:
    """The notice owed for refusals batched since the last one (see replylimits.flush_refusals)."""
    first, last = s.get(InboundMail, mail_ids[0]), s.get(InboundMail, mail_ids[-1])
    game = s.get(Game, game_id) if game_id is not None else None
    player = s.get(Player, last.player_id) if last is not None and last.player_id is not None else None
    if first is None or last is None or game is None or player is None:
        return None
    auth = gcfg.auth if (gcfg := app.config.game(game.name)) is not None else None
    unverified = None if last.status != "unverified" else \
        "everyone" if auth is not None and auth.require_for == "everyone" else "password_helps"
    echo = Echo(app.config.limits)
    body = render(game.ruleset, "bad_auth.txt.j2", game=game.name, player=player.name,
                  sender=echo.line(last.sender), subject=echo.line(last.subject),
                  problem=(last.note or "it was refused").split(NOT_ANSWERED)[0], received=last.received_at,
                  unverified=unverified, count=len(mail_ids), since=first.received_at)
    return refusal(game, player, last.id, body)


def send_owed(app: App) -> int:
    """Queue the refusal notices owed since yesterday, each in its own transaction; returns how many went.
    A notice that fails for a passing reason is left for the next pass; any other failure sets it aside."""
    sent = 0
    for address, game_id in app.db.transaction(lambda s: owed_refusals(s, app), "listing refusal notices owed"):
        try:
            sent += app.db.transaction(lambda s, a=address, g=game_id: flush_refusal(s, app, a, g, summary),
                                       f"the refusal notice to {clip(address, 100)}")
        except Exception as exc:
            if is_transient(exc):
                log.warning("refusal notice to %s left for the next pass: %s", clip(address, 100), exc)
                continue
            log.exception("refusal notice to %s could not be queued; set aside", clip(address, 100))
            reason = strip_controls(f"the notice could not be queued: {type(exc).__name__}: {exc}".splitlines()[0])
            app.db.transaction(lambda s, a=address, g=game_id, r=reason: _set_aside(s, app, a, g, r),
                               "setting a refusal notice aside")
    return sent


def _set_aside(s: Session, app: App, address: str, game_id: int | None, reason: str) -> None:
    mails = set_aside_refusals(s, address, game_id, reason)
    if not mails:
        return
    digest = hashlib.sha256(f"{address}:{game_id}:{mails[0]}".encode()).hexdigest()[:16]
    listed = ", ".join(map(str, mails[:20])) + (f" and {len(mails) - 20} more" if len(mails) > 20 else "")
    notify_gm(s, app, f"notice-failed:{digest}", f"a refusal notice to {clip(address, 100)} was set aside",
              f"maild could not queue the notice to {clip(address, 100)} about mail in his name that was refused "
              f"(mails {listed}).\n\n  {reason}\n\nIt is set aside so that intake goes on; `maild replies list` "
              "shows it (status failed), `maild mail show ID` each mail. The player was not told of these mails.\n",
              game_id)
