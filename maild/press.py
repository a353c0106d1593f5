"""Press: players' mail to each other, relayed by the game's address (docs/season.md, "Press").

A mail whose text starts with ``PRESS TO alice, bob`` (or ``PRESS TO ALL``) is not orders: its other lines are
mailed by the game's address to each player named, headed by the sender's player name (white press) or by
"someone" (grey press), and a copy goes to the GM. A recipient answers by replying to the relayed mail: its
Message-ID is recorded with its author (`PressRelay`), so the reply goes back to him, through the relay again,
without his name in grey press. No address is ever relayed: the mails go out from the game's address to one
recipient each, and whatever looks like an address in the text is blanked.

Every relayed mail is an answer to the press mail and passes the reply limits (`maild.replylimits`): a flood of
press stops at each recipient's caps. The GM's copy goes only where at least one player got it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.games import ruleset_named
from maild.intake.read import ReadMail
from maild.intake.run import IntakeRun, MailRow
from maild.models import Game, Player, PressRelay
from maild.outbox import notify_gm
from maild.phases import is_phased, open_row
from maild.render import render
from maild.replylimits import Answer, give, give_tracked

_PRESS_LINE = re.compile(r"\**\s*press\s+to\s+(.+?)\s*\**", re.IGNORECASE)
_ALL = "all"
# Anything shaped like an address (a player's signature, a quoted header) is blanked in what is relayed.
_ADDRESS = re.compile(r"[^\s<>()\[\],;:\"']+@[^\s<>()\[\],;:\"']+\.[A-Za-z]{2,}")
ADDRESS_REMOVED = "[address removed]"
# The most of a press text relayed; the rest is cut, and the sender told.
MAX_PRESS_CHARS = 20_000
# A reply's References are looked up among the relays up to this many (the newest): a forged header with
# thousands of ids must not cost thousands of look-ups.
REPLY_IDS = 20


@dataclass(frozen=True)
class PressMail:
    """What a press mail asks: to whom (None: every other player), the text, and the relay it answers, if any."""

    to: tuple[str, ...] | None
    text: str
    answers: PressRelay | None = None


def press_line(text: str) -> tuple[tuple[str, ...] | None, str] | None:
    """The names of a ``PRESS TO`` line heading `text` (None for ``TO ALL``) and the text after it; None when
    the first line that is not blank is no press line."""
    lines = text.split("\n")
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return None
    m = _PRESS_LINE.fullmatch(lines[first].strip())
    if m is None:
        return None
    names = tuple(n.strip() for n in re.split(r"[,\s]+(?:and\s+)?", m.group(1)) if n.strip())
    body = "\n".join(lines[first + 1:]).strip("\n")
    if len(names) == 1 and names[0].lower() == _ALL:
        return None, body
    return names, body


def answered_relay(s: Session, game: Game, player: Player, mail: ReadMail) -> PressRelay | None:
    """The press mail relayed to `player` in `game` that `mail` answers (its In-Reply-To or References), or
    None: a reply to a relay goes back to its author."""
    ids = [i for i in mail.thread[-REPLY_IDS:] if len(i) <= 300]
    if not ids:
        return None
    return s.scalars(select(PressRelay).where(PressRelay.game_id == game.id, PressRelay.message_id.in_(ids),
                                              PressRelay.recipient_id == player.id)
                     .order_by(PressRelay.id.desc()).limit(1)).first()


def press_mail(s: Session, game: Game, player: Player, mail: ReadMail) -> PressMail | None:
    """What `mail` asks as press: a ``PRESS TO`` line, or a reply to a relayed press mail; None for neither."""
    asked = press_line(mail.order_text)
    if asked is not None:
        return PressMail(asked[0], asked[1])
    relay = answered_relay(s, game, player, mail)
    if relay is not None:
        return PressMail(None, mail.order_text.strip("\n"), relay)
    return None


def blank_addresses(text: str) -> str:
    return _ADDRESS.sub(ADDRESS_REMOVED, text)


def press_closed(s: Session, app: App, game: Game, run: IntakeRun) -> str | None:
    """Why `game` takes no press now, or None when it does: its config, then its ruleset's phase."""
    gcfg = app.config.game(game.name)
    if gcfg is None or gcfg.press == "none":
        return f"{game.name} has no press: players' mail is not relayed in this game"
    if game.finished:
        return "the game is over"
    ruleset = ruleset_named(game.ruleset)
    phase = None
    if is_phased(ruleset):
        row = open_row(s, game.id, game.turn)
        phase = row.name if row is not None else None
    if not ruleset.press_open(run.state(s, game, game.turn), game.turn, phase):
        return f"press is closed in this {'phase (' + phase + ')' if phase else 'turn'} by the rules of the game"
    return None


def relay(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, player: Player, mail: ReadMail,
          press: PressMail) -> None:
    """Relay `press` from `player` and ack it to him; the mail's status is "press"."""
    gcfg = app.config.game(game.name)
    grey = gcfg is not None and gcfg.press == "grey"
    refused = press_closed(s, app, game, run)
    players = run.players(s, game).by_name
    recipients: list[Player] = []
    unknown: list[str] = []
    if refused is None and press.answers is not None:
        author = s.get(Player, press.answers.author_id)
        recipients = [author] if author is not None else []
        grey = press.answers.grey or grey  # an answer to grey press stays grey: its author chose so
    elif refused is None and press.to is None:
        recipients = [p for p in players.values() if p.id != player.id]
    elif refused is None:
        for name in dict.fromkeys(n.lower() for n in press.to or ()):
            found = players.get(name)
            if found is None:
                unknown.append(name)
            elif found.id != player.id:
                recipients.append(found)
    text = blank_addresses(press.text)
    cut = len(text) > MAX_PRESS_CHARS
    text = text[:MAX_PRESS_CHARS]
    if refused is None and not text.strip():
        refused = "the press mail had no text after its PRESS TO line"
    if refused is None and not recipients:
        refused = "it named no other player of the game"
    signed = "someone" if grey else player.name
    delivered: list[str] = []
    held: list[str] = []
    for n, recipient in enumerate([] if refused else recipients):
        body = render(game.ruleset, "press.txt.j2", game=game.name, signed=signed, grey=grey, text=text,
                      reply=press.answers is not None, everyone=press.to is None and press.answers is None)
        reason, message_id = give_tracked(s, app, Answer(
            kind="press", key=f"press:{row.id}:{n}", outbox_kind="press", to=recipient.email,
            subject=f"[{game.name}] " + (f"press from {signed}" if press.answers is None else
                                         f"reply to your press, from {signed}"),
            body=body, game_id=game.id, mail_id=row.id), run.gate)
        if message_id is None:
            held.append(f"{recipient.name} ({reason})")
            continue
        delivered.append(recipient.name)
        s.add(PressRelay(game_id=game.id, message_id=message_id, author_id=player.id, recipient_id=recipient.id,
                         mail_id=row.id, grey=grey, created_at=app.now()))
    # Answering grey press, the sender learns only that his answer went back: a name would undo the greyness.
    hidden = press.answers is not None and press.answers.grey
    shown = ["the author of the press you answered"] if hidden and delivered else delivered
    held_shown = ["the author of the press you answered"] if hidden and held else [h.split(" (")[0] for h in held]
    if delivered:
        names = ", ".join(delivered)
        notify_gm(s, app, f"press:{row.id}", f"{game.name}: {'grey' if grey else 'white'} press from "
                  f"{player.name} to {names}",
                  render(game.ruleset, "press_gm.txt.j2", game=game.name, sender=player.name, signed=signed,
                         grey=grey, recipients=names, text=text, reply=press.answers is not None), game.id)
    row.status = "press"
    row.note = refused or f"press relayed to {', '.join(delivered) or 'nobody'}" + (
        f"; held back for {', '.join(held)}" if held else "")
    body = render(game.ruleset, "press_ack.txt.j2", game=game.name, player=player.name, refused=refused,
                  delivered=shown, held=held_shown, unknown=unknown, signed=signed,
                  cut=cut, limit=MAX_PRESS_CHARS)
    give(s, app, Answer(kind="ack", key=f"ack:{row.id}", outbox_kind="ack", to=player.email,
                        subject=f"[{game.name}] your press", body=body, game_id=game.id, mail_id=row.id,
                        in_reply_to=mail.message_id, thread=mail.thread), run.gate)
