"""Named points where the crash tests kill the daemon (SIGKILL), to prove nothing is lost or done twice.

Set MAILD_CRASH_AT=name[:n] to die the n-th time (default 1st) the point `name` is reached. Unset, a
crash point costs one dictionary-free comparison.
"""

from __future__ import annotations

import os
import signal

_SPEC = os.environ.get("MAILD_CRASH_AT", "")
_NAME, _, _COUNT = _SPEC.partition(":")
_TARGET = int(_COUNT) if _COUNT else 1
_hits = 0


def crashpoint(name: str) -> None:
    global _hits
    if _NAME and name == _NAME:
        _hits += 1
        if _hits == _TARGET:
            os.kill(os.getpid(), signal.SIGKILL)
