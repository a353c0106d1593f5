"""A time budget per mail: intake that runs far past it on one mail ends the process.

Python cannot stop a thread inside a regular expression or a parser, and a daemon stuck on one mail stops
every game. So a watcher thread ends the whole process when one mail has taken longer than
`daemon.intake_mail_seconds`; the attempt was counted before intake began (see `attempts`), the service
manager (or the next `maild run --once`) starts again, the mail is retried alone, and after
`daemon.max_intake_attempts` it is set aside as poison. Ordinary mails take milliseconds; the budget is
minutes.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time

log = logging.getLogger("maild.intake")

EXIT_STALLED = 75  # EX_TEMPFAIL: try again later


class StallGuard:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._mail: int | None = None
        self._deadline = 0.0
        self._thread: threading.Thread | None = None

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
                message = (f"intake stalled on mail {mail}; exiting so that the attempt counts "
                           f"(the mail is set aside after daemon.max_intake_attempts)")
                log.critical(message)
                print(f"maild: {message}", file=sys.stderr, flush=True)
                os._exit(EXIT_STALLED)


guard = StallGuard()
