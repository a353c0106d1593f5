"""Files maild makes are its own, and files it trusts are no one else's (issue 22, "Guessing and secrets"):
the database and its -wal/-shm 0600, the lock files 0600, Maildirs 0700 and the mails maild writes in them
0600; a config or password_file others can write is refused, one others can read that holds a password is
warned of. Each failed before: the database was made 0644, the Maildirs 0755, and any config was taken."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from maild.cli import main
from maild.config import load_config
from maild.db import Database
from maild.errors import ConfigError
from maild.lock import single_daemon
from maild.mail.base import OutgoingMail
from maild.mail.maildir import MaildirSender, deliver
from tests.conftest import write_gm_config

ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner or group needs root")


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The modes must not depend on a strict umask: run under the common 022 (and 002 would do the same)."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_the_database_and_its_companions_are_private(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'var' / 'maild.db'}"
    db = Database(url)
    with db.session() as s:  # a write: SQLite makes the -wal and -shm now
        s.execute(text("CREATE TABLE t (x INTEGER)"))
        s.execute(text("INSERT INTO t VALUES (1)"))
    with single_daemon(db):
        lock = tmp_path / "var" / "maild.db.daemon.lock"
        assert mode(lock) == 0o600
    files = {p.name: mode(p) for p in (tmp_path / "var").iterdir()}
    db.close()
    assert files["maild.db"] == 0o600 and files["maild.db-wal"] == 0o600 and files["maild.db-shm"] == 0o600
    assert mode(tmp_path / "var") == 0o700  # the folder maild made for it
    assert all(m == 0o600 for m in files.values()), files  # the writers' waiting lock too


def test_an_existing_database_others_can_read_is_warned_of(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "old.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING, logger="maild.config"):
        Database(f"sqlite:///{path}").close()
    assert f"{path}: others can read this file" in caplog.text and f"chmod 600 {path}" in caplog.text
    assert mode(path) == 0o644  # the GM's file: told, not changed


def test_maildirs_are_private_and_so_is_the_mail_written_in_them(tmp_path: Path) -> None:
    inbox, outbox = tmp_path / "mail" / "inbox", tmp_path / "mail" / "outbox"
    delivered = deliver(inbox, b"From: a@example.org\r\n\r\nhello\r\n")
    sender = MaildirSender(outbox)
    [result] = asyncio.run(sender.send_batch([OutgoingMail("<1@x>", "gm@example.org", ["a@example.org"],
                                                           b"Subject: hi\r\n\r\nhello\r\n")]))
    for box in (inbox, outbox):
        assert [mode(box / sub) for sub in ("", "tmp", "new", "cur")] == [0o700] * 4
    assert mode(delivered) == 0o600 and mode(Path(result.detail)) == 0o600


def test_a_config_others_can_write_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gm = write_gm_config(tmp_path)
    os.chmod(gm, 0o646)
    with pytest.raises(ConfigError, match=rf"{gm}: others can write to the config file \(mode 0646\).*"
                                          rf"Fix: chmod go-w {gm}"):
        load_config(gm)
    assert main(["--config", str(gm), "game", "list"]) == 2
    assert "others can write to the config file" in capsys.readouterr().err
    os.chmod(gm, 0o644)  # readable by all, but it holds no password: fine
    load_config(gm)


@ROOT_ONLY
def test_a_config_writable_by_a_shared_group_or_owned_by_another_user_is_refused(tmp_path: Path) -> None:
    gm = write_gm_config(tmp_path)
    os.chown(gm, -1, 1)  # group "daemon": the daemon user's, not root's alone
    os.chmod(gm, 0o664)
    with pytest.raises(ConfigError, match="others can write to the config file"):
        load_config(gm)
    os.chmod(gm, 0o644)
    load_config(gm)
    os.chown(gm, 65534, -1)  # nobody
    with pytest.raises(ConfigError, match=rf"owned by nobody, who can change it at will.*Fix: chown root {gm}"):
        load_config(gm)


def test_a_password_others_can_read_is_warned_of(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    gm = write_gm_config(tmp_path, inbox="var/in")
    secret = tmp_path / "imap.txt"
    secret.write_text("hunter2\n")
    gm.write_text(gm.read_text().replace('kind = "maildir"\npath = "var/in"',
                                         'kind = "maildir"\npath = "var/in"\npassword_file = "imap.txt"'))
    os.chmod(gm, 0o600)
    os.chmod(secret, 0o644)
    with caplog.at_level(logging.WARNING, logger="maild.config"):
        load_config(gm)
    assert f"{secret}: others can read this file, and it is a password_file" in caplog.text
    assert f"Fix: chmod 600 {secret}" in caplog.text and str(gm) not in caplog.text
    os.chmod(secret, 0o666)
    with pytest.raises(ConfigError, match=rf"{secret}: others can write to the password_file"):
        load_config(gm)
    # An inline password in a config others can read.
    os.chmod(secret, 0o600)
    inline = tmp_path / "inline.toml"
    inline.write_text(gm.read_text().replace('password_file = "imap.txt"', 'password = "hunter2"'))
    os.chmod(inline, 0o644)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="maild.config"):
        load_config(inline)
    assert f"{inline}: others can read this file, and it is the config file and holds a password" in caplog.text
    os.chmod(inline, 0o600)
    caplog.clear()
    load_config(inline)
    assert caplog.text == ""
