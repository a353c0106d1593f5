"""A time budget per mail: intake that runs far past it on one mail starts the process again.

Python cannot stop a thread inside a regular expression or a parser, and a daemon stuck on one mail stops
every game. So a watcher thread acts when one mail has taken longer than `daemon.intake_mail_seconds`: the
attempt was counted before intake began (see `attempts`), so whatever starts next retries the mail alone,
and after `daemon.max_intake_attempts` sets it aside as poison. The daemon (`maild run`) starts itself again
in place, with the command line it was given, so that no supervisor is needed to keep the games going; a
one-off command (`run --once`, `mail ingest`) ends with exit status 75 (EX_TEMPFAIL: try again later).
Ordinary mails take milliseconds; the budget is minutes.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time

log = logging.getLogger("maild.intake")

EXIT_STALLED = 75  # EX_TEMPFAIL: try again later
# Set in the environment of a daemon started again after a stall: its predecessor's single-daemon lock may
# take a moment to be released (a PostgreSQL session ends when the server notices), so it waits for it.
RESTARTED = "MAILD_RESTARTED_AFTER_STALL"


class StallGuard:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._mail: int | None = None
        self._deadline = 0.0
        self._thread: threading.Thread | None = None
        self.restart = False  # the daemon: start again in place instead of ending

    def watch(self, mail_id: int, seconds: float) -> None:
        """Intake now works on `mail_id`, and may for `seconds` (0: no limit)."""
        if seconds <= 0:
            return
        with self._lock:
            self._mail, self._deadline = mail_id, time.monotonic() + seconds
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="maild-stall-guard", daemon=True)
                self._thread.start()

    def clear(self) -> None:
        with self._lock:
            self._mail = None

    def _run(self) -> None:
        while True:
            time.sleep(0.2)
            with self._lock:
                mail, late = self._mail, self._mail is not None and time.monotonic() > self._deadline
            if late:
                what = "the daemon starts again" if self.restart else "exiting"
                message = (f"intake stalled on mail {mail}; {what} and tries it alone (it is set aside after "
                           "daemon.max_intake_attempts)")
                log.critical(message)
                print(f"maild: {message}", file=sys.stderr, flush=True)
                if self.restart:
                    _start_again()
                os._exit(EXIT_STALLED)


def _start_again() -> None:
    """Replace this process by a new one with the same command line (its descriptors, and so its locks and
    database connections, are closed on exec: none is inheritable)."""
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stdout.flush()
    os.environ[RESTARTED] = "1"
    try:
        os.execv(sys.executable, sys.orig_argv)
    except OSError:
        log.exception("cannot start maild again; ending instead")


guard = StallGuard()
