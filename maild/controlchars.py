"""Control characters out of mail text and headers: the one place that says which ones.

PostgreSQL refuses NUL in text, a terminal obeys escape sequences, and a header with a line break of its
own is header injection. Mail text keeps tab and line feed; a header value keeps neither.
"""

from __future__ import annotations

import re

# C0 except tab, line feed and carriage return (folding and line ends are dealt with by their readers),
# DEL and C1.
_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]+")
_IN_HEADER = re.compile("[\x00-\x1f\x7f-\x9f]+")
_BREAKS = re.compile("[\t\n\r]+")


def strip_controls(text: str) -> str:
    """`text` without control characters other than tab, line feed and carriage return."""
    return _IN_TEXT.sub("", text)


def header_safe(value: str) -> str:
    """One header value to write: a run of line breaks and tabs is one space (header injection ends there),
    other control characters go."""
    return _IN_HEADER.sub("", _BREAKS.sub(" ", value))
