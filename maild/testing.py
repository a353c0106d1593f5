"""A harness to test a game by mail, the way the daemon plays it: players' mails go into a Maildir inbox, a
pass of the daemon reads them and answers, the GM runs a turn, and the acks, printouts and newsletters are
read back as text from the outbox Maildir.

    from maild.testing import Table

    table = Table(tmp_path)                                  # SQLite in tmp_path, or PostgreSQL:
                                                             # with postgres_schema(URL) as url: Table(p, db_url=url)
    table.create_game("rps1", "rps", {"players": [...]})     # a setup table, a TOML file or "example:NAME"
    table.send("ann@example.org", "throw rock")              # a plain-text mail from a player
    table.intake()                                           # one pass: read the mail, queue and send the ack
    print(table.ack("ann@example.org"))
    table.run_turn("rps1")
    print(table.printout("rps1", 1, "ann"), table.newsletter("rps1", 1))

A game that lives outside `maild_rules` (in the tests, say) is made known with `maild.ruleset.register`.
The lower-level helpers (`maildir_config`, `open_app`, `drop`, `run_pass`, `sent`) serve tests that need
more control. docs/writing-a-ruleset.md shows the harness at work; maild's own tests use it too.
"""

from __future__ import annotations

import asyncio
import email
import os
import random
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

from maild.app import App
from maild.clock import Clock
from maild.config import ReplyLimits, parse_config
from maild.db import Database, upgrade
from maild.mail.maildir import MaildirInbox, MaildirSender, deliver

GM_ADDRESS = "gm@example.org"


def maildir_config(folder: Path, db_url: str, games: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A config (as its TOML would read) on `db_url`, with Maildirs inbox/ and outbox/ in `folder`, the GM at
    referee@example.org, and `games` as its [[games]]."""
    return {
        "database": {"url": db_url},
        "mail": {
            "inbound": {"kind": "maildir", "path": str(folder / "inbox")},
            "outbound": {"kind": "maildir", "path": str(folder / "outbox"), "from": GM_ADDRESS},
        },
        "daemon": {"gm": "referee@example.org"},
        "games": list(games or []),
    }


def open_app(config: dict[str, Any], folder: Path, now: datetime) -> App:
    """An App on `config` (relative paths from `folder`), its database upgraded, its clock frozen at `now`."""
    parsed = parse_config(config, folder, None)
    db = Database(parsed.database_url)
    upgrade(db.engine)
    return App(config=parsed, db=db, clock=Clock(now, frozen=True))


def answering_every_mail(app: App) -> App:
    """`app` with the per-address reply caps raised above any test's mails a player: for tests where each of
    many mails from one player must be answered (the caps themselves are tests/test_replies.py's)."""
    app.config = replace(app.config, limits=ReplyLimits(replies_per_hour=1000, replies_per_day=1000))
    return app


@contextmanager
def postgres_schema(url: str, prefix: str = "t") -> Iterator[str]:
    """A fresh schema in the PostgreSQL database at `url`, dropped afterwards: the URL to give maild."""
    import sqlalchemy as sa

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(url)
    with admin.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def compose(sender: str, body: str, *, subject: str = "orders", to: str = GM_ADDRESS,
            headers: dict[str, str] | None = None, message_id: str | None = None) -> bytes:
    """A plain-text mail as a player's program would send it."""
    lines = [f"From: Player <{sender}>", f"To: {to}", f"Subject: {subject}",
             f"Message-ID: {message_id or f'<{uuid.uuid4().hex}@example.org>'}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n" + body.replace("\n", "\r\n") + "\r\n").encode()


def drop(app: App, raw: bytes, when: datetime) -> None:
    """Deliver `raw` into the app's inbox Maildir, arrived at `when`."""
    assert app.config.inbound.path is not None
    path = deliver(app.config.inbound.path, raw)
    os.utime(path, (when.timestamp(), when.timestamp()))


def run_pass(app: App, at: datetime) -> None:
    """One pass of the daemon at `at` (`maild run --once`): fetch and read the mail, run the deadlines due,
    send the outbox into the outbox Maildir."""
    from maild.daemon import Daemon

    app.clock = Clock(at, frozen=True)
    assert app.config.inbound.path and app.config.outbound.path
    daemon = Daemon(app, MaildirInbox(app.config.inbound.path), MaildirSender(app.config.outbound.path),
                    status_line=False)
    asyncio.run(daemon.run(once=True))


def sent(app: App, welcomes: bool = False) -> list[EmailMessage]:
    """The mail delivered so far, oldest first; without the players' welcomes (mailed when a game is created)
    unless `welcomes`."""
    assert app.config.outbound.path is not None
    new = app.config.outbound.path / "new"
    if not new.is_dir():
        return []
    stats = sorted(((p.stat(), p) for p in new.iterdir()), key=lambda sp: (sp[0].st_mtime_ns, sp[1].name))
    mails = [_parsed(p, st.st_mtime_ns, st.st_size) for st, p in stats]
    return [m for m in mails if welcomes or not _is_welcome(m)]


# A delivered file never changes (Maildir): each is parsed once, however often a test reads the mail sent so far
# (a game's printouts carry pictures of a few hundred kB, read for every phase of a long game).
_PARSED: dict[tuple[Path, int, int], EmailMessage] = {}


def _parsed(path: Path, mtime_ns: int, size: int) -> EmailMessage:
    key = (path, mtime_ns, size)
    found = _PARSED.get(key)
    if found is None:
        if len(_PARSED) > 20_000:
            _PARSED.clear()
        found = _PARSED[key] = email.message_from_bytes(path.read_bytes(), policy=default)  # type: ignore[assignment]
    return found


def _is_welcome(mail: EmailMessage) -> bool:
    return "] welcome, " in str(mail["Subject"]) and mail["In-Reply-To"] is None  # an ack answers a mail


def text_of(message: EmailMessage) -> str:
    """A mail's text: its text/plain part when it carries attachments (a game's pictures)."""
    body = message.get_body(("plain",)) if message.is_multipart() else None
    return str((body or message).get_content())


def attachments_of(message: EmailMessage) -> list[tuple[str | None, str, bytes]]:
    """The files a mail carries (a printout's pictures): file name, type and bytes of each, in order."""
    return [(part.get_filename(), part.get_content_type(), part.get_payload(decode=True))  # type: ignore[misc]
            for part in message.iter_attachments()]


def _turn_subject(game: str, turn: int, player: str | None, phase: str | None) -> str:
    what = f"printout for {player}" if player is not None else "newsletter"
    return f"[{game}] turn {turn} {what}" + (f" ({phase})" if phase else "")


class Table:
    """One GM's maild in a folder, with games and players mailing it (see the module docstring)."""

    def __init__(self, folder: Path, *, db_url: str | None = None, now: datetime | None = None,
                 every_answer: bool = True) -> None:
        self.folder = folder
        self._config = maildir_config(folder, db_url or f"sqlite:///{folder / 'maild.db'}")
        self.app = open_app(self._config, folder, now or datetime(2027, 1, 4, 9, 0, tzinfo=UTC))
        if every_answer:  # a test's players mail more often than the reply caps allow a real one
            answering_every_mail(self.app)
        self._seen = 0
        self._phase_done = False

    def now(self) -> datetime:
        return self.app.now()

    def advance(self, **delta: float) -> datetime:
        """Move the clock on (`advance(hours=2)`)."""
        self.app.clock = Clock(self.now() + timedelta(**delta), frozen=True)
        return self.now()

    def create_game(self, name: str, ruleset: str, setup: dict[str, Any] | Path | str, *,
                    address: str = GM_ADDRESS, schedule: dict[str, Any] | None = None,
                    seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start game `name` of `ruleset` from a setup table, a TOML file or "example:NAME", listed in the
        config (so mail to `address` reaches it) with `schedule` if given (else the GM runs its turns) and the
        game's other config keys in `options` (`{"grace": "24h"}`, `{"press": "grey"}`). A `seed` replaces the
        game's random one, so a test of a game with dice plays the same rolls each run."""
        from sqlalchemy import select

        from maild.games import create_game, load_setup, turn_seed
        from maild.models import Game, Turn
        from maild.paths import setup_path

        if not isinstance(setup, dict):
            setup = load_setup(setup_path(str(setup), self.folder))
        entry: dict[str, Any] = {"name": name, "ruleset": ruleset, "setup": f"{name}.setup.toml",
                                 "address": address}
        if schedule is not None:
            entry["schedule"] = schedule
        entry.update(options or {})
        self._config["games"].append(entry)
        self.app.config = replace(parse_config(self._config, self.folder, None), limits=self.app.config.limits)
        with self.app.db.session() as s:  # as `maild game create` does: the welcomes are queued with it
            create_game(s, name, ruleset, setup, self.now(), self.app.config.game(name), self.app)
            if seed is not None:
                game = s.scalars(select(Game).where(Game.name == name)).one()
                game.seed = seed
                for turn in s.scalars(select(Turn).where(Turn.game_id == game.id)):
                    turn.seed = turn_seed(seed, turn.number)
                s.commit()

    def send(self, sender: str, body: str, *, subject: str = "orders", to: str = GM_ADDRESS,
             headers: dict[str, str] | None = None) -> None:
        """A player's plain-text mail arrives now."""
        drop(self.app, compose(sender, body, subject=subject, to=to, headers=headers), self.now())

    def intake(self) -> list[EmailMessage]:
        """One pass of the daemon now; the mails it sent."""
        run_pass(self.app, self.now())
        return self._new()

    def run_turn(self, game: str) -> list[EmailMessage]:
        """The GM's `maild turn run GAME` now (in a game of phases: its open phase), then a pass to send what it
        queued; the mails sent."""
        from maild.turn import run_turn

        outcome = run_turn(self.app, game, force=True)
        if outcome.status not in ("done", "phase_done"):
            raise AssertionError(f"{game} turn {outcome.turn}: {outcome.status} {outcome.message}")
        self._phase_done = outcome.status == "phase_done"
        return self.intake()

    def run_whole_turn(self, game: str) -> list[EmailMessage]:
        """`run_turn` until the turn is over: in a game of phases, every phase still open in the turn, one
        after another; the mails sent."""
        mails = self.run_turn(game)
        while self._phase_done:
            mails += self.run_turn(game)
        return mails

    def gm(self, game: str, word: str, *args: str) -> str:
        """The GM's `maild gm WORD GAME ARGS...`, recorded now; what the command says."""
        from maild.gmcli import record

        with self.app.db.session() as s:
            said = record(s, self.app, game, word, [game, *args])
            s.commit()
        return said

    def _new(self) -> list[EmailMessage]:
        mails = sent(self.app, welcomes=True)
        fresh, self._seen = mails[self._seen:], len(mails)
        return fresh

    def replay(self, game: str, turn: int) -> tuple[dict[str, str], str]:
        """Turn `turn` of `game` resolved again from the state before it, with its recorded seed and the orders
        on file, and its mail rendered (printouts by player, newsletter): what a re-run would mail. Nothing is
        stored or sent."""
        from maild.deadlines import format_deadline, game_timezone
        from maild.games import get_game, get_turn, players_of, ruleset_named, state_before
        from maild.ladder import place_defaults
        from maild.orderbook import accepted_sets, orders_for_turn
        from maild.receipts import turn_hashes
        from maild.turn import render_turn, resolve

        with self.app.db.session() as s:
            g = get_game(s, game)
            done = get_turn(s, g, turn)
            assert done is not None and done.status == "done", f"{game} turn {turn} has not run"
            ruleset = ruleset_named(g.ruleset)
            players = players_of(s, g)
            orders = orders_for_turn(s, ruleset, g, turn, accepted_sets(s, g, turn), [p.name for p in players])
            state = state_before(s, g, turn)
            place_defaults(s, ruleset, g, turn, state, orders, (done.result or {}).get("defaults", []))
            result = resolve(ruleset, state, done, orders)
            following = get_turn(s, g, turn + 1)  # none after the last turn
            deadline = format_deadline(following.deadline if following else None,
                                       game_timezone(self.app.config, game))
            texts = render_turn(g, turn, result, following is None, deadline, players,
                                hashes=turn_hashes(orders, [p.name for p in players]))
            s.rollback()
        return texts

    def replay_phases(self, game: str, turn: int) -> dict[str, tuple[dict[str, str], str]]:
        """`replay` for a game of phases: each phase of `turn` resolved again from the state after the phase
        before, with its recorded seed and its orders on file, and its mail rendered, by phase name."""
        from maild.deadlines import format_deadline, game_timezone
        from maild.games import get_game, get_turn, players_of, ruleset_named
        from maild.orderbook import accepted_sets, orders_in_force
        from maild.phased_turn import resolve_row
        from maild.phases import rows_of
        from maild.receipts import turn_hashes
        from maild.turn import render_turn

        out: dict[str, tuple[dict[str, str], str]] = {}
        with self.app.db.session() as s:
            g = get_game(s, game)
            ruleset = ruleset_named(g.ruleset)
            players = players_of(s, g)
            rows = [r for r in rows_of(s, g.id, turn) if r.status == "done"]
            following = get_turn(s, g, turn + 1)
            deadlines = [r.deadline for r in rows[1:]] + [following.deadline if following else None]
            tz = game_timezone(self.app.config, game)
            for row, deadline in zip(rows, deadlines, strict=True):
                result, _missing, _share = resolve_row(s, ruleset, g, turn, rows, row)
                book = accepted_sets(s, g, turn, phase=row.name)
                names = [p.name for p in players]
                out[row.name] = render_turn(g, turn, result, False, format_deadline(deadline, tz), players,
                                            phase=row.name,
                                            hashes=turn_hashes(orders_in_force(ruleset, book, names), names))
            s.rollback()
        return out

    def mails(self) -> list[EmailMessage]:
        """Every mail sent so far, welcomes included, oldest first."""
        return sent(self.app, welcomes=True)

    def ack(self, to: str) -> str:
        """The text of the last answer to `to` (an ack, HELP, an answer to a stranger)."""
        answers = [m for m in self.mails() if str(m["To"]) == to and m["Auto-Submitted"] == "auto-replied"]
        assert answers, f"no answer to {to}"
        return text_of(answers[-1])

    def welcome(self, game: str, player: str) -> str:
        """The welcome `player` got when `game` was created (sent by the first `intake`)."""
        found = [m for m in self.mails() if str(m["Subject"]).startswith(f"[{game}] welcome, {player}:")]
        assert found, f"no welcome to {player} of {game}"
        return text_of(found[-1])

    def printout(self, game: str, turn: int, player: str, phase: str | None = None) -> str:
        """The printout of `turn` (of its `phase`, in a game of phases) to `player`."""
        return text_of(self._one(_turn_subject(game, turn, player, phase)))

    def newsletter(self, game: str, turn: int, phase: str | None = None) -> str:
        return text_of(self._one(_turn_subject(game, turn, None, phase)))

    def pictures(self, game: str, turn: int, player: str | None = None, phase: str | None = None
                 ) -> list[tuple[str | None, str, bytes]]:
        """The files (`Ruleset.attachments`) the printout of `turn` to `player` carried, or the newsletter's
        (`player` None; its first part, when it went out in several): name, type and bytes of each."""
        return attachments_of(self._one(_turn_subject(game, turn, player, phase), first=player is None))

    def _one(self, subject: str, first: bool = False) -> EmailMessage:
        found = [m for m in self.mails() if str(m["Subject"]) == subject]
        assert len(found) == 1 or (first and found), (subject, [str(m["Subject"]) for m in self.mails()])
        return found[0]

    def close(self) -> None:
        self.app.db.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ScriptedRandom(random.Random):
    """An RNG for a game's unit tests whose `randint`, `randrange` and `random` return the listed values in turn
    (one queue for all three), so a test writes down every number drawn and works the results by hand.

    ``ScriptedRandom([3, 0, 0.5])`` or ``ScriptedRandom(3, 0, 0.5)``. A value outside the range asked, or a draw
    after the values ran out, fails the test; `calls` records each draw as asked (``("randint", a, b)`` with
    b included, ``("randrange", start, stop)`` with stop excluded, ``("random",)``), so a test can check the
    weights' totals a weighted draw used, and `done` says every value was drawn."""

    def __init__(self, *values: Any) -> None:
        super().__init__(0)
        if len(values) == 1 and isinstance(values[0], Iterable) and not isinstance(values[0], str):
            values = tuple(values[0])
        self.values = list(values)
        self.calls: list[tuple[Any, ...]] = []

    def _next(self) -> Any:
        if not self.values:
            raise AssertionError("the scripted RNG ran out of values")
        return self.values.pop(0)

    def randint(self, a: int, b: int) -> int:
        v = self._next()
        self.calls.append(("randint", a, b))
        assert a <= v <= b, f"scripted {v} outside randint({a}, {b})"
        return int(v)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        lo, hi = (0, start) if stop is None else (start, stop)
        v = self._next()
        self.calls.append(("randrange", lo, hi))
        assert lo <= v < hi, f"scripted {v} outside randrange({lo}, {hi})"
        return int(v)

    def random(self) -> float:
        self.calls.append(("random",))
        return float(self._next())

    @property
    def done(self) -> bool:
        return not self.values
