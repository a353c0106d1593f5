"""Who may read and write maild's files.

What maild creates is its own: the SQLite database (players' mail with the passwords of their header lines, the
sign-up acks that tell new passwords) and its -wal/-shm, the lock files beside it, and the Maildirs are made
0600 (files) and 0700 (folders). SQLite makes a database's -wal and -shm with the database file's mode, so the
database file is made first, 0600, before SQLite opens it. A file or folder that exists already keeps its mode
(an MDA may deliver into the inbox under its own user); an existing database that others can read is warned of.

What maild reads and trusts, the config file and a `password_file`, is checked the way OpenSSH checks its keys
and config, and Postfix and Dovecot advise for their secrets:

- others can WRITE it (world-writable; group-writable unless the group is the owner's own, with no other
  member; owned by another user than maild's or root): refused, since whoever can change it decides where
  maild's mail and passwords go;
- others can READ it while it holds a password (a `password =` in the config's [mail.inbound] or
  [mail.outbound], or any password_file): a warning naming the file and the chmod that fixes it, not a
  refusal: the secret is out already, and refusing would stop the game's mail without taking it back.
"""

from __future__ import annotations

import grp
import logging
import os
import pwd
import stat
from pathlib import Path

from maild.errors import ConfigError

log = logging.getLogger("maild.config")

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700

_warned: set[str] = set()  # a command reads its config more than once: one warning a file a process


def private_opener(path: str, flags: int) -> int:
    """For `open(..., opener=private_opener)`: a file it creates is 0600."""
    return os.open(path, flags, PRIVATE_FILE)


def private_dir(path: Path) -> None:
    """Make `path` (and the parents it needs) if it is not there; the folder itself 0700."""
    path.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)


def prepare_database_file(path: Path) -> None:
    """Before SQLite opens `path`: make it 0600 if it is not there (its -wal and -shm then follow), or warn
    if others can read the one there."""
    private_dir(path.parent)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
    except FileExistsError:
        if _others_can(os.stat(path), read=True):
            _warn(path, "holds the players' mail, whose header lines carry their passwords")


def check_config_file(path: Path, holds_password: bool) -> None:
    _check(path, "config file", holds_password)


def check_password_file(path: Path) -> None:
    _check(path, "password_file", True)


def _check(path: Path, what: str, holds_password: bool) -> None:
    try:
        st = os.stat(path)
    except OSError:
        return  # reading it reports a missing file in its own words
    me = os.geteuid()
    if st.st_uid not in (me, 0):
        raise ConfigError(f"{path}: the {what} is owned by {_user(st.st_uid)}, who can change it at will; maild "
                          f"refuses it. Fix: chown {_user(me)} {path}")
    if _others_can(st, read=False):
        raise ConfigError(f"{path}: others can write to the {what} (mode {stat.S_IMODE(st.st_mode):04o}), so they "
                          f"could change what maild does; maild refuses it. Fix: chmod go-w {path}")
    if holds_password and _others_can(st, read=True):
        _warn(path, f"is a {what} that holds a password" if what == "password_file" else
              f"is the {what} and holds a password (password = in [mail.inbound] or [mail.outbound])")


def _others_can(st: os.stat_result, read: bool) -> bool:
    """Whether anyone but the owner (and root) may read (or write) the file."""
    world, group = (stat.S_IROTH, stat.S_IRGRP) if read else (stat.S_IWOTH, stat.S_IWGRP)
    return bool(st.st_mode & world) or bool(st.st_mode & group) and not _private_group(st)


def _private_group(st: os.stat_result) -> bool:
    """Whether the file's group is its owner's alone (the user private groups of many systems): then its group
    bits give nobody else anything (OpenSSH's secure_permissions decides so too)."""
    try:
        owner, group = pwd.getpwuid(st.st_uid), grp.getgrgid(st.st_gid)
    except KeyError:
        return False
    if owner.pw_gid != st.st_gid and owner.pw_name not in group.gr_mem or set(group.gr_mem) - {owner.pw_name}:
        return False
    return all(p.pw_gid != st.st_gid or p.pw_uid == st.st_uid for p in pwd.getpwall())


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _warn(path: Path, why: str) -> None:
    key = str(path)
    if key in _warned:
        return
    _warned.add(key)
    log.warning("%s: others can read this file, and it %s. Fix: chmod 600 %s", path, why, path)
