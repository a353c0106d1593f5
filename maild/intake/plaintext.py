"""Cleaning decoded text so the grammar sees what the player meant.

What `normalize` does, and why:

- line endings become ``\\n``; trailing whitespace is stripped (clients pad lines, and format=flowed
  leaves trailing spaces that mean nothing once unflowed);
- non-breaking and other typographic spaces become plain spaces (HTML mail and phones insert them
  between words, and ``30\\u00a0$`` must read as ``30 $``);
- zero-width characters, soft hyphens and the BOM are removed (invisible, but they break keywords);
- other control characters but the tab are removed (they come from garbage or misdecoded bytes);
- the text is put in Unicode NFC (Apple software may send decomposed accents);
- "smart quotes", dashes, bullets and emphasis are kept as they are here (the header line's password and
  the quote rules see the mail as written); `normalize.clean_orders` reads them in the order text.
"""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff\ufffe]")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def normalize(text: str) -> str:
    """The cleaned text (see the module docstring); lines end with ``\\n``, none has trailing blanks."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii():
        text = _SPACES.sub(" ", text)
        text = _INVISIBLE.sub("", text)
        if not unicodedata.is_normalized("NFC", text):
            text = unicodedata.normalize("NFC", text)
    text = _CONTROLS.sub("", text.replace("\f", "\n").replace("\v", "\n"))
    # Not a "[ \t]+$" regex: that backtracks quadratically on long runs of blanks inside a line.
    return "\n".join(line.rstrip(" \t") for line in text.split("\n"))


def unflow(text: str, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed: join soft-broken lines, remove space-stuffing.

    Quoted flowed lines (``>``-prefixed) come out as ``> `` per level, so quote detection sees ordinary
    quoting. Expects ``\\n`` line ends.
    """
    out: list[str] = []
    para: list[str] = []
    para_depth = -1
    for raw in text.split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if para and depth != para_depth:
            out.append(_quoted("".join(para), para_depth))
            para = []
        # A line ending in a space is soft-broken, except the signature separator "-- ".
        if line.endswith(" ") and line != "-- ":
            para.append(line[:-1] if delsp else line)
            para_depth = depth
            continue
        para.append(line)
        out.append(_quoted("".join(para), depth))
        para = []
    if para:
        out.append(_quoted("".join(para), para_depth))
    return "\n".join(out)


def _quoted(line: str, depth: int) -> str:
    return "> " * depth + line if depth > 0 else line
