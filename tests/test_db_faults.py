"""The database failing for a passing reason, for real: a SQLite file that cannot grow (SQLITE_FULL, a full disk),
PostgreSQL connections the server terminates between two statements, a database that is not there. Mail is never
marked `error` for it nor lost, the store of fetched mail and the GM's commands are done again, and a command
whose database stays away says so in one line (exit status 75)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.exc import OperationalError

from maild import db
from maild.cli import EXIT_TEMPFAIL, main
from maild.clock import Clock
from maild.daemon import Daemon
from maild.intake.store import store_batch
from maild.mail.base import FetchedMail
from maild.mail.maildir import MaildirInbox, MaildirSender
from maild.models import InboundMail, OutboundMail
from tests.conftest import write_gm_config
from tests.dbfaults import FullDisk, Terminator, count_passes
from tests.mailflow import BEFORE, drop, fetched, game_app, order_mail, run_pass, sent
from tests.servers import free_port

MAILS = 6


def long_orders(n: int) -> FetchedMail:
    """A mail of many bids: its order set and its ack need pages of their own, so no room left over in a page
    of the database can take them."""
    mail = fetched(n)
    head, _, body = mail.raw.partition(b"\r\n\r\n")
    bids = b"".join(b"bid %d$ for 1 of silk tax\r\n" % (k + 1) for k in range(150))
    return FetchedMail(mail.source, mail.uidvalidity, mail.uid, head + b"\r\n\r\n" + body + bids, mail.arrived_at)


def statuses(app: db.Database) -> list[tuple[str, int]]:
    with app.session() as s:
        return [tuple(r) for r in s.execute(select(InboundMail.status, InboundMail.attempts)
                                            .order_by(InboundMail.id))]  # type: ignore[misc]


@pytest.mark.parametrize("room", [0, 4])
def test_a_full_disk_keeps_mail_new_until_space_returns(tmp_path: Path, venice_setup: Path,
                                                        monkeypatch: pytest.MonkeyPatch, room: int) -> None:
    """`room`: pages the database may still grow by, as a disk nearly full: before, a mail's error note fitted
    where its orders did not, and innocent mails were marked `error`, then `poison`."""
    monkeypatch.setattr(db, "FIRST_PAUSE_S", 0.001)  # the pauses between tries: the test need not sit them out
    app = game_app(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", venice_setup)
    store_batch(app, [long_orders(n) for n in range(MAILS)])
    disk = FullDisk(app.db)
    disk.fill(room)
    # As many passes as would set a mail aside as poison, were its attempts counted.
    for _ in range(app.config.max_intake_attempts + 1):
        run_pass(app, BEFORE)
    # The disk, not the mail: no mail `error` or `poison`, no attempt counted; those that found room are read.
    left = [row for row in statuses(app.db) if row != ("orders", 1)]
    assert left == [("new", 0)] * len(left) and len(left) >= MAILS - 1, statuses(app.db)
    disk.lift()
    run_pass(app, BEFORE)
    assert statuses(app.db) == [("orders", 1)] * MAILS
    assert sorted(str(m["To"]) for m in sent(app)) == sorted(["alice@example.org", "bob@example.org",
                                                               "carol@example.net"] * 2)


@pytest.mark.postgres
def test_mail_is_stored_though_its_connection_drops_meanwhile(tmp_path: Path, pg_url: str,
                                                              venice_setup: Path) -> None:
    app = game_app(tmp_path, pg_url, venice_setup)
    for n in range(3):
        drop(app, order_mail(n), BEFORE)
    killer = Terminator(pg_url, app.db.engine, "INSERT INTO inbound_mails")
    try:
        run_pass(app, BEFORE)
    finally:
        killer.close()
    assert killer.done == 1
    assert statuses(app.db) == [("orders", 1)] * 3
    assert not list((tmp_path / "inbox" / "new").iterdir())


@pytest.mark.postgres
def test_mail_the_database_would_not_store_comes_again_next_pass(tmp_path: Path, pg_url: str, venice_setup: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db, "FIRST_PAUSE_S", 0.001)
    app = game_app(tmp_path, pg_url, venice_setup)
    for n in range(3):
        drop(app, order_mail(n), BEFORE)
    killer = Terminator(pg_url, app.db.engine, "INSERT INTO inbound_mails", times=db.RETRY_ATTEMPTS)
    try:
        with pytest.raises(OperationalError):
            run_pass(app, BEFORE)
    finally:
        killer.close()
    assert killer.done == db.RETRY_ATTEMPTS
    # Not stored, so not marked done: the mails are still waiting in the inbox ...
    assert statuses(app.db) == []
    assert len(list((tmp_path / "inbox" / "new").iterdir())) == 3
    # ... and the next pass takes them, once.
    run_pass(app, BEFORE)
    assert statuses(app.db) == [("orders", 1)] * 3
    assert not list((tmp_path / "inbox" / "new").iterdir())


NOW = "2026-11-22T09:00+01:00"  # the morning of turn 1 of write_gm_config's week


def pg_config(folder: Path, url: str) -> Path:
    config = write_gm_config(folder)
    config.write_text(config.read_text().replace('url = "sqlite:///maild.db"', f'url = "{url}"'))
    return config


@pytest.mark.postgres
def test_game_list_is_done_again_when_its_connection_drops(tmp_path: Path, pg_url: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    config = pg_config(tmp_path, pg_url)
    assert main(["--config", str(config), "--now", NOW, "init"]) == 0
    capsys.readouterr()
    # The command makes its own engine: every engine's statement reading the order book is watched.
    killer = Terminator(pg_url, Engine, "order_sets")
    try:
        code = main(["--config", str(config), "--now", NOW, "game", "list"])
    finally:
        killer.close()
    out = capsys.readouterr()
    assert (killer.done, code) == (1, 0), out.err
    assert out.out.splitlines() == ["venice1  venice  turn 1  deadline 2026-11-22T17:15+01:00 Europe/Rome  "
                                    "no orders from: alice, bob, carol"]


@pytest.mark.postgres
def test_a_command_the_database_fails_midway_is_not_done_twice(tmp_path: Path, pg_url: str,
                                                             capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """`mail ingest` stored the first mail, then the database went away: doing it all again could read a mail
    twice, so it ends, saying part of the work may be done."""
    monkeypatch.setattr(db, "FIRST_PAUSE_S", 0.001)
    config = pg_config(tmp_path, pg_url)
    assert main(["--config", str(config), "--now", NOW, "init"]) == 0
    for n in range(2):
        (tmp_path / f"{n}.eml").write_bytes(order_mail(n))
    capsys.readouterr()
    killer = Terminator(pg_url, Engine, "INSERT INTO inbound_mails", times=db.RETRY_ATTEMPTS, skip=1)
    try:
        code = main(["--config", str(config), "--now", NOW, "mail", "ingest", str(tmp_path / "0.eml"),
                     str(tmp_path / "1.eml")])
    finally:
        killer.close()
    assert (code, killer.done) == (EXIT_TEMPFAIL, db.RETRY_ATTEMPTS)
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("maild: the database failed midway (") and \
        line.endswith("); part of the work may be done: check before running it again"), line


def test_a_command_without_its_database_says_so_in_one_line(tmp_path: Path) -> None:
    config = pg_config(tmp_path, f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/test")
    done = subprocess.run([sys.executable, "-m", "maild", "--config", str(config), "--now", NOW, "game", "list"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == EXIT_TEMPFAIL, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("maild: the database is unavailable (OperationalError: connection failed: ") and \
        line.endswith("); nothing was changed: try again later"), line
    assert done.stdout == ""


def test_no_notice_is_queued_for_the_gm_by_a_full_disk(tmp_path: Path, venice_setup: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing the full disk did is left for the GM to mend: no `error` notice waits in the outbox."""
    monkeypatch.setattr(db, "FIRST_PAUSE_S", 0.001)
    app = game_app(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", venice_setup)
    store_batch(app, [long_orders(n) for n in range(2)])
    disk = FullDisk(app.db)
    disk.fill()
    run_pass(app, BEFORE)
    disk.lift()
    with app.db.session() as s:
        assert s.scalars(select(OutboundMail.key)).all() == []


def test_a_daemon_on_a_full_disk_backs_off_however_much_mail_waits(tmp_path: Path, venice_setup: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Mail waiting in the inbox that cannot be stored, and stored mail that cannot be read: the daemon's passes
    fail, and it tries again after pauses of 1, 2, 4 s..., not at once (the Maildir inbox says mail waits)."""
    monkeypatch.setattr(db, "FIRST_PAUSE_S", 0.001)  # each try fails fast: the pauses are the daemon's own
    app = game_app(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", venice_setup)
    store_batch(app, [long_orders(n) for n in range(2)])
    disk = FullDisk(app.db)
    disk.fill()
    for n in range(2, 4):
        drop(app, long_orders(n).raw, BEFORE)
    app.clock = Clock(BEFORE)
    tries: list[float] = []

    async def scenario() -> None:
        daemon = Daemon(app, MaildirInbox(tmp_path / "inbox"), MaildirSender(tmp_path / "outbox"),
                        status_line=False)
        count_passes(daemon, tries)
        task = asyncio.create_task(daemon.run())
        await asyncio.sleep(6)
        daemon.stop()
        await asyncio.wait_for(task, 30)

    asyncio.run(scenario())
    # Tries at 0, 1, 3 s (and 7 s): a handful, not one after another.
    assert 2 <= len(tries) <= 4, len(tries)
    assert statuses(app.db) == [("new", 0)] * 2
    disk.lift()
    run_pass(app, BEFORE)
    assert statuses(app.db) == [("orders", 1)] * 4
