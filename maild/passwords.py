"""Players' passwords as maild keeps them: argon2id hashes (argon2-cffi), never the text, checked by the library.

A password is hashed where it first enters maild (`maild.setupfile.password` for a setup file, so a ruleset's
state holds the hash; `stored` when the framework makes a player's row, for a ruleset that keeps its own text;
a sign-up's password before its row is written), and the hash is what `players.password`, every snapshot and
`maild game show --json` hold. The text exists only in mail: the header lines players write, and the ack that
tells a newcomer the password his sign-up gave him.

Parameters: argon2id with 8 MiB and 2 passes in 1 lane, about 12 ms a hash or check on this 2-core machine
idle (17-27 ms loaded). argon2-cffi's defaults (64 MiB, 3 passes, 4 lanes) cost 150-200 ms, and OWASP's
minimum (19 MiB, 2 passes) 25 ms idle and 55-85 ms loaded: intake of a thousand mails from as many players,
or creating a game of a thousand players with passwords, would take a minute or more. These are below OWASP's
minimum on purpose: guessing online is bounded by the limits on guessing (maild/intake/guessing.py), and a
thief of the database needs no hash cracking, since the mails stored beside the hashes carry the passwords in
their header lines; the hashes keep the text out of states, snapshots, exports and their copies, where a
few thousand guesses a second per core against a salted hash is what a stolen export would offer. `Checker`
checks each (hash, password) pair once an intake run, so a player's later mails of the run cost nothing. A
hash made with other parameters (older, or given in a setup file) still checks: argon2 hashes carry their own.
"""

from __future__ import annotations

import hashlib
import logging
import re

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

log = logging.getLogger("maild.passwords")

MEMORY_KIB = 8 * 1024
TIME_COST = 2
PARALLELISM = 1
HASHER = PasswordHasher(time_cost=TIME_COST, memory_cost=MEMORY_KIB, parallelism=PARALLELISM, hash_len=32,
                        salt_len=16, type=Type.ID)

# An argon2 hash in the PHC string format argon2-cffi writes. A whole match, not just the "$argon2" prefix: a
# player's text password may start so, and taken for a hash it could never be given right.
_HASH = re.compile(r"\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+")


def is_hash(value: str) -> bool:
    return _HASH.fullmatch(value) is not None


# The hashes this process made, by a digest of the text: one text is hashed once a process, so reading one setup
# twice (a test building its game again, `orders check --game` beside the daemon) gives the same state, as the
# migration gives one hash per game and text, and costs its hashes once. Bounded; the text itself is not kept.
_MADE: dict[bytes, str] = {}
MADE_KEPT = 4096


def hash_password(plain: str) -> str:
    key = hashlib.sha256(plain.encode()).digest()
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= MADE_KEPT:
            _MADE.clear()
        made = _MADE[key] = HASHER.hash(plain)
    return made


def stored(value: str | None) -> str | None:
    """What maild keeps of a password: its hash; a value that is a hash already (from a setup file or a
    ruleset's state) is kept as it is, so the state and the player's row hold the same one."""
    if value is None or is_hash(value):
        return value
    return hash_password(value)


def verify(hashed: str, given: str) -> bool:
    """Whether `given` is the password `hashed` was made from, in the library's constant time."""
    try:
        return HASHER.verify(hashed, given)
    except VerificationError:
        return False
    except InvalidHashError:
        # Every stored password is a hash (migration 0009 hashed the older ones): this is a bug, and taking
        # the text as a password would hide it.
        log.error("a stored password is no argon2 hash; it matches nothing until the GM sets it again")
        return False


class Checker:
    """`verify` with the pairs found right remembered, for one intake run: a player's tenth mail of a backlog
    costs a dictionary look-up, not another 25 ms. Only right pairs are kept (a wrong one is counted by the
    limits on guessing, and must cost the guesser the full check), and only as a digest, so the run's memory
    holds no password longer than its mail."""

    def __init__(self) -> None:
        self._right: set[bytes] = set()

    def check(self, hashed: str, given: str) -> bool:
        key = hashlib.sha256(f"{hashed}\0{given}".encode()).digest()
        if key in self._right:
            return True
        if verify(hashed, given):
            self._right.add(key)
            return True
        return False
