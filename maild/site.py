"""The game's public record as a small static site (`maild site build GAME DIR`; docs/season.md, "The game's
public record (site build)").

What the site shows is what every player was mailed: each turn's newsletter as the outbox keeps it (its
`outbound_mails` row of kind "newsletter": the text and the pictures it carried, never rendered anew; the newest
correction of a rerun in place of the first), and the ruleset's public ledger (`Ruleset.public_ledger`), if it
gives one. Never a printout, never an address: every address maild ever mailed for the game is blotted out of
whatever the site writes, in case a text carried one. Static HTML, UTF-8, relative links, no JavaScript: the GM
copies the folder to any web server, or opens index.html from the disk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.deadlines import game_timezone
from maild.games import get_game, players_of, ruleset_named, state_before
from maild.models import Game, OutboundMail, Player, Turn
from maild.paths import TEMPLATE_DIR
from maild.services import text_and_files

if TYPE_CHECKING:
    from maild.app import App

WITHHELD = "(address withheld)"
# Shown in the page; any other file is a link to open.
PICTURE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/svg+xml", "image/webp"})
# A newsletter the players had: one in the outbox is not part of the record until it goes.
MAILED = ("sent", "bounced")


@dataclass
class SiteFile:
    """A file a newsletter carried, as the site keeps it: `path` relative to the site's folder."""

    path: str
    name: str
    content_type: str
    data: bytes
    # Shown in the page: a picture, and the first of its name (a board sent as PNG and SVG shows once, the SVG
    # a link beside it).
    picture: bool = False


@dataclass
class Letter:
    """One newsletter: a turn's, or in a game of phases one phase's."""

    phase: str | None
    text: str
    files: list[SiteFile]
    corrected: bool  # a rerun's correction replaced the first one


@dataclass
class TurnPage:
    number: int
    ran: str  # when the turn ran, in the game's zone ("" if the record does not say)
    letters: list[Letter] = field(default_factory=list)

    @property
    def filename(self) -> str:
        return f"turn-{self.number}.html"


@dataclass
class Record:
    """Everything the site shows of a game."""

    game: str
    ruleset: str
    status: str
    turns: list[TurnPage]
    ledger: list[tuple[str, list[str]]]  # (player, values in the order of `ledger_labels`)
    ledger_labels: list[str]
    written: str  # when the site was built, by the app's clock


def newsletter_key(key: str, game: str) -> tuple[int, int, str | None, bool] | None:
    """The turn, part, phase and whether it is a rerun's correction, read from a newsletter's outbox key
    (`newsletter:GAME:N:PART[:PHASE][:rerun:WHEN]`, maild/turn.py's `turn_rows`); None for another game's."""
    prefix = f"newsletter:{game}:"
    if not key.startswith(prefix):
        return None
    number, part, *more = key.removeprefix(prefix).split(":")
    if not (number.isdigit() and part.isdigit()):
        return None
    phase = more[0] if more and more[0] != "rerun" else None
    return int(number), int(part), phase, "rerun" in more


def blotter(addresses: set[str]) -> Any:
    """A function that replaces each of `addresses` (in any case) in a text by WITHHELD."""
    found = sorted((a for a in addresses if a), key=len, reverse=True)  # a longer address before its tail
    if not found:
        return lambda text: text
    pattern = re.compile("|".join(re.escape(a) for a in found), re.IGNORECASE)
    return lambda text: pattern.sub(WITHHELD, text)


def safe_name(name: str) -> str:
    """A file name safe on any web server and disk: letters, digits, '.', '-', '_'; no leading dot."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name).lstrip(".-")
    return cleaned or "file"


def _addresses(s: Session, game: Game) -> set[str]:
    """Every address maild mailed for the game (former players', volunteers' too) and the players' own."""
    known = {p.email.lower() for p in s.scalars(select(Player).where(Player.game_id == game.id))}
    for recipients in s.scalars(select(OutboundMail.recipients).where(OutboundMail.game_id == game.id)):
        known.update(str(a).lower() for a in recipients or ())
    return known


def _turn_pages(s: Session, app: App, game: Game, blot: Any) -> list[TurnPage]:
    tz = game_timezone(app.config, game.name)
    ran = {n: when for n, when in s.execute(select(Turn.number, Turn.processed_at).where(Turn.game_id == game.id))}
    rows = s.scalars(select(OutboundMail).where(OutboundMail.game_id == game.id, OutboundMail.kind == "newsletter",
                                                OutboundMail.status.in_(MAILED)).order_by(OutboundMail.id))
    # (turn, phase) -> (the newest row, whether a correction); the phases keep the order they were first mailed.
    newest: dict[tuple[int, str | None], tuple[OutboundMail, bool]] = {}
    for row in rows:
        parsed = newsletter_key(row.key, game.name)
        if parsed is None or parsed[1] != 1:  # every part of a newsletter has the same text
            continue
        number, _part, phase, corrected = parsed
        earlier = newest.get((number, phase))
        newest[(number, phase)] = (row, corrected or (earlier is not None and earlier[1]))
    pages: dict[int, TurnPage] = {}
    for (number, phase), (row, corrected) in newest.items():
        when = ran.get(number)
        page = pages.setdefault(number, TurnPage(number, f"{when.astimezone(tz):%Y-%m-%d %H:%M %Z}" if when else ""))
        text, attached = text_and_files(row)
        files: list[SiteFile] = []
        used: set[str] = set()
        pictured: set[str] = set()
        for f in attached:
            name = first = safe_name((f"{phase}-" if phase else "") + f.filename)
            while name in used:  # two files of one name in a turn: the second gets a number
                name = f"{len(used) + 1}-{first}"
            used.add(name)
            data = f.data
            if f.content_type.startswith("text/") or f.content_type == "image/svg+xml":
                data = blot(data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
            stem = name.rsplit(".", 1)[0]
            picture = f.content_type in PICTURE_TYPES and stem not in pictured
            if picture:
                pictured.add(stem)
            files.append(SiteFile(f"turn-{number}/{name}", name, f.content_type, data, picture))
        page.letters.append(Letter(phase, blot(text), files, corrected))
    return [pages[n] for n in sorted(pages)]


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_shown(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_shown(v) for v in value)
    return str(value)


def public_record(s: Session, app: App, name: str) -> Record:
    """What the site of game `name` shows (GameError for a game that does not exist)."""
    game = get_game(s, name)
    blot = blotter(_addresses(s, game))
    turns = _turn_pages(s, app, game, blot)
    figures = ruleset_named(game.ruleset).public_ledger(state_before(s, game, game.turn))
    labels: list[str] = []
    for row in figures.values():
        labels += [str(k) for k in row if str(k) not in labels]
    ledger = [(blot(str(player)), [blot(_shown(row[k])) if k in row else "" for k in labels])
              for player, row in figures.items()]
    done = game.turn - 1
    played = f"; {done} turn{'s' if done != 1 else ''} played" if done else ""
    status = f"finished after turn {done}" if game.finished else f"turn {game.turn} is taking orders{played}"
    tz = game_timezone(app.config, game.name)
    players = len(players_of(s, game))
    return Record(game.name, game.ruleset, f"{players} players; {status}", turns, ledger,
                  [blot(label) for label in labels], f"{app.now().astimezone(tz):%Y-%m-%d %H:%M %Z}")


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATE_DIR), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              auto_reload=False)


def pages(record: Record) -> dict[str, bytes]:
    """The site's files, by path relative to its folder: the HTML pages and the newsletters' files."""
    env = environment()
    out = {"index.html": env.get_template("site/index.html.j2").render(r=record).encode()}
    for i, page in enumerate(record.turns):
        before = record.turns[i - 1] if i else None
        after = record.turns[i + 1] if i + 1 < len(record.turns) else None
        out[page.filename] = env.get_template("site/turn.html.j2").render(
            r=record, page=page, before=before, after=after).encode()
        for letter in page.letters:
            out.update({f.path: f.data for f in letter.files})
    if record.ledger:
        out["ledger.html"] = env.get_template("site/ledger.html.j2").render(r=record).encode()
    return out


def write_site(files: dict[str, bytes], folder: Path) -> None:
    """Write `files` into `folder` (made if missing), replacing those of the same names; nothing else is
    touched or deleted."""
    for path, data in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def build_site(app: App, name: str, folder: Path) -> Record:
    """Write game `name`'s site into `folder`; what it shows."""
    with app.db.session() as s:
        record = public_record(s, app, name)
    write_site(pages(record), folder)
    return record


def summary(record: Record, folder: Path) -> str:
    files = sum(len(letter.files) for page in record.turns for letter in page.letters)
    parts = [f"{len(record.turns)} turn page{'s' if len(record.turns) != 1 else ''}"]
    if record.ledger:
        parts.append("the ledger")
    if files:
        parts.append(f"{files} file{'s' if files != 1 else ''} the newsletters carried")
    return f"{record.game}: the site is in {folder}: index.html, {', '.join(parts)} (open {folder / 'index.html'})"

