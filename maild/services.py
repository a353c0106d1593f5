"""The player's own mail services: RESEND and HISTORY (docs/season.md, "RESEND and HISTORY").

- RESEND: his last printout (the newest the outbox holds for him: a phase's, a corrected rerun's) and the
  newest newsletter, each sent again as it went, pictures and all, in a mail of its own.
- HISTORY: the game's turns (number, when each ran), in the ack; HISTORY 12: turn 12's newsletter again.

What is sent again is the mail as it was stored in the outbox, never rendered anew: it is what he had. Each
mail is an answer to his mail and passes the reply limits (`maild.replylimits.give`); the ack says what went
and what was held back.
"""

from __future__ import annotations

import email
from email.message import EmailMessage
from email.policy import default
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.deadlines import game_timezone
from maild.models import Game, OutboundMail, Player, Turn
from maild.replylimits import Answer, Gate, give
from maild.ruleset import Attachment

if TYPE_CHECKING:
    from maild.app import App

# What a player's old address is shown as wherever a text made for him goes to his substitute.
FORMER_ADDRESS = "(the former player's address)"
SERVICE_WORDS = frozenset({"RESEND", "HISTORY", "STANDBY", "TAKEOVER"})
# How many turns HISTORY lists (the newest); a long game's whole list would make a long ack.
HISTORY_TURNS = 60


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _newest(s: Session, game: Game, kind: str, pattern: str) -> list[OutboundMail]:
    return list(s.scalars(select(OutboundMail).where(
        OutboundMail.game_id == game.id, OutboundMail.kind == kind,
        OutboundMail.key.like(pattern, escape="\\")).order_by(OutboundMail.id.desc()).limit(50)))


def last_printout(s: Session, game: Game, player: str) -> OutboundMail | None:
    """The newest printout the outbox holds for `player` (keys `printout:GAME:N:PLAYER[:...]`)."""
    prefix = f"printout:{_escaped(game.name)}:%:{_escaped(player)}"
    for row in _newest(s, game, "printout", prefix) + _newest(s, game, "printout", prefix + ":%"):
        parts = row.key.split(":")
        if len(parts) >= 4 and parts[3] == player:
            return row
    return None


def last_newsletter(s: Session, game: Game, turn: int | None = None) -> OutboundMail | None:
    """The newest newsletter of the game, or of turn `turn` (its first part: every part has the same text)."""
    pattern = f"newsletter:{_escaped(game.name)}:" + (f"{turn}:1" if turn is not None else "%:1")
    rows = _newest(s, game, "newsletter", pattern) + _newest(s, game, "newsletter", pattern + ":%")
    return max(rows, key=lambda r: r.id, default=None)


def text_and_files(row: OutboundMail) -> tuple[str, tuple[Attachment, ...]]:
    """A stored mail's text and the files it carried."""
    message: EmailMessage = email.message_from_bytes(row.raw, policy=default)  # type: ignore[assignment]
    body = message.get_body(("plain",)) if message.is_multipart() else message
    text = str((body or message).get_content())
    files = tuple(Attachment(part.get_filename() or "file", part.get_content_type(),
                             part.get_payload(decode=True), inline=part.get_content_disposition() != "attachment")
                  for part in message.iter_attachments())
    return text, files


def history_lines(s: Session, app: App, game: Game) -> list[str]:
    """HISTORY: the game's turns, newest last, with when each ran (in the game's zone)."""
    tz = game_timezone(app.config, game.name)
    rows = list(s.execute(select(Turn.number, Turn.processed_at, Turn.status).where(Turn.game_id == game.id)
                          .order_by(Turn.number.desc()).limit(HISTORY_TURNS)))
    lines = []
    for number, processed, status in reversed(rows):
        if status == "done" and processed is not None:
            lines.append(f"turn {number}: ran {processed.astimezone(tz):%Y-%m-%d %H:%M %Z}")
        else:
            lines.append(f"turn {number}: open")
    return lines


def answer_services(s: Session, app: App, gate: Gate, game: Game, player: Player, commands: frozenset[str],
                    args: tuple[str, ...], mail_id: int, in_reply_to: str | None, thread: tuple[str, ...]
                    ) -> str | None:
    """RESEND and HISTORY in a player's mail: their mails queued (through the reply limits), and what the ack
    says of them; None for a mail with neither."""
    said: list[str] = []

    def send(row: OutboundMail, key: str, what: str) -> None:
        text, files = text_and_files(row)
        for address in row.recipients:  # a printout of the position's former player: never his address
            if address != player.email and row.kind == "printout":
                text = text.replace(address, FORMER_ADDRESS)
        held = give(s, app, Answer(kind="ack", key=key, outbox_kind="resend", to=player.email,
                                   subject=f"{row.subject} (sent again)", body=text, game_id=game.id,
                                   mail_id=mail_id, in_reply_to=in_reply_to, thread=thread, attachments=files),
                    gate)
        said.append(f"{what}: sent again in a mail of its own." if held is None else
                    f"{what}: not sent again ({held}).")

    if "RESEND" in commands:
        printout = last_printout(s, game, player.name)
        letter = last_newsletter(s, game)
        if printout is None and letter is None:
            said.append("RESEND: no turn has been mailed yet, so there is nothing to send again.")
        if printout is not None:
            send(printout, f"resend:{mail_id}:printout", f"RESEND, your printout ({printout.subject})")
        if letter is not None:
            send(letter, f"resend:{mail_id}:newsletter", f"RESEND, the newsletter ({letter.subject})")
    if "HISTORY" in commands:
        wanted = args[0] if args else None
        if wanted is None:
            said.append("HISTORY of " + game.name + ":\n" + "\n".join(f"  {line}" for line in
                                                                      history_lines(s, app, game)))
            said.append("Mail HISTORY N (a turn's number) for that turn's newsletter again.")
        elif not wanted.isdigit():
            said.append(f"HISTORY {wanted}: give a turn's number, e.g. HISTORY 1.")
        else:
            letter = last_newsletter(s, game, int(wanted))
            if letter is None:
                said.append(f"HISTORY {int(wanted)}: turn {int(wanted)} has no newsletter (it has not run).")
            else:
                send(letter, f"history:{mail_id}", f"HISTORY {int(wanted)}, the newsletter of turn {int(wanted)}")
    for word in sorted(commands & {"STANDBY", "TAKEOVER"}):  # a volunteer's words, from a player
        said.append(f"{word}: you play {player.name} in {game.name} already; {word} is for volunteers who play "
                    "no position in it.")
    return "\n".join(said) if said else None
