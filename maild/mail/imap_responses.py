"""Reading aioimaplib's response lines: FETCH items and literals, SEARCH UIDs, INTERNALDATE, the
UIDVALIDITY of a SELECT, the separator from LIST, and IDLE pushes.

Pure functions over the lines aioimaplib hands over, testable without a server. aioimaplib removes
"* " from untagged lines and, for the answer to a SEARCH or LIST, the command name too
(`* SEARCH 1 2` arrives as `1 2`); FETCH lines keep theirs (`1 FETCH (UID 1 BODY[] {377}`). Text lines
are bytes, and each literal is a separate bytearray right after the line that announced it with
{size}. The last line of a `Response` is the text of the tagged status line, so callers pass
`response.lines[:-1]`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import aioimaplib

# The inbox's logger: log lines name the IMAP inbox, whichever module of it writes them.
log = logging.getLogger("maild.mail.imap")


def response_text(response: aioimaplib.Response) -> str:
    """The server's text in the tagged status line ("[AUTHENTICATIONFAILED] ..."), or the result."""
    if not response.lines:
        return response.result
    last = response.lines[-1]
    return bytes(last).decode("utf-8", "replace") if isinstance(last, bytes | bytearray) else str(last)


def parse_uidvalidity(lines: Iterable[Any]) -> int | None:
    """UIDVALIDITY from a SELECT answer (`OK [UIDVALIDITY n]`), None if it has none."""
    for line in lines:
        match = re.search(rb"\[UIDVALIDITY (\d+)\]", bytes(line))
        if match:
            return int(match.group(1))
    return None


def parse_list_delimiter(lines: Iterable[Any]) -> str | None:
    """The hierarchy separator from a `LIST "" ""` answer (`(\\Noselect) "." ""`); None if none is given."""
    for line in lines:
        match = re.match(rb'\([^)]*\) "(.)"', bytes(line))
        if match:
            return match.group(1).decode()
    return None


def is_bye(line: bytes) -> bool:
    return bytes(line).lstrip(b"* ").upper().startswith(b"BYE")


def announces_mail(line: bytes) -> bool:
    # Only "* n EXISTS" means mail arrived; "* OK Still here", EXPUNGE or FETCH (flag changes) do not.
    return re.match(rb"(\* )?\d+ EXISTS\b", bytes(line), re.IGNORECASE) is not None


def parse_search_response(lines: Iterable[Any]) -> list[int]:
    """UIDs from aioimaplib's SEARCH lines (each is the text after "* SEARCH")."""
    uids: list[int] = []
    for line in lines:
        uids.extend(int(token) for token in bytes(line).split() if token.isdigit())
    return uids


@dataclass
class FetchItem:
    uid: int | None = None
    body: bytes | None = None
    arrived_at: datetime | None = None
    flags: list[str] = field(default_factory=list)
    size: int | None = None  # RFC822.SIZE


_FETCH_START = re.compile(rb"(\d+) FETCH \(")
_TOKEN = re.compile(rb'[ \t]*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|\{(\d+)\+?\}$|([^\s()"{]+))', re.DOTALL)


def parse_fetch_response(lines: Iterable[Any]) -> dict[int, FetchItem]:
    """UID -> what a UID FETCH returned, from aioimaplib's response lines.

    aioimaplib hands over `n FETCH (...` text lines as bytes and each literal (the message) as a
    separate bytearray right after the line that announced it with {size}. The items may come in
    any order, and unsolicited FETCH responses (flag changes) may be mixed in. A response that
    cannot be read is logged and left out.
    """
    groups: list[list[bytes | bytearray]] = []
    for line in lines:
        if isinstance(line, bytes) and _FETCH_START.match(line):
            groups.append([line])
        elif groups:
            groups[-1].append(line)
    result: dict[int, FetchItem] = {}
    for group in groups:
        try:
            item = _parse_fetch_group(group)
        except ValueError as exc:
            log.error("unreadable FETCH response %r: %s", bytes(group[0])[:200], exc)
            continue
        if item.uid is not None and (item.uid not in result or item.body is not None):
            result[item.uid] = item
    return result


def _tokens(group: list[bytes | bytearray]) -> list[tuple[str, bytes]]:
    tokens: list[tuple[str, bytes]] = []
    parts = iter(group)
    for part in parts:
        if isinstance(part, bytearray):
            raise ValueError("literal without {size}")
        pos, text = 0, bytes(part)
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                if text[pos:].strip() == b"":
                    break
                raise ValueError(f"unexpected {text[pos:pos + 20]!r}")
            pos = match.end()
            opening, closing, quoted, literal_size, atom = match.groups()
            if opening:
                tokens.append(("(", b""))
            elif closing:
                tokens.append((")", b""))
            elif quoted is not None:
                tokens.append(("string", re.sub(rb"\\(.)", rb"\1", quoted)))
            elif literal_size is not None:
                literal = next(parts, None)
                if not isinstance(literal, bytearray) or len(literal) != int(literal_size):
                    raise ValueError("literal missing or of the wrong size")
                tokens.append(("string", bytes(literal)))
            else:
                tokens.append(("atom", atom))
    return tokens


def _parse_fetch_group(group: list[bytes | bytearray]) -> FetchItem:
    tokens = _tokens(group)
    # tokens: <seq> FETCH ( key value key value ... )
    if len(tokens) < 3 or tokens[1] != ("atom", b"FETCH") or tokens[2][0] != "(":
        raise ValueError("not a FETCH response")
    values, _ = _parse_list(tokens, 3)
    item = FetchItem()
    for key, value in zip(values[::2], values[1::2], strict=False):
        if not isinstance(key, bytes):
            raise ValueError(f"bad item name {key!r}")
        name = key.upper()
        if name == b"UID" and isinstance(value, bytes):
            item.uid = int(value)
        elif name in (b"BODY[]", b"RFC822", b"BODY[]<0>") and isinstance(value, bytes):
            item.body = None if value == b"NIL" else value  # <0>: the start only, of an oversized mail
        elif name == b"RFC822.SIZE" and isinstance(value, bytes) and value.isdigit():
            item.size = int(value)
        elif name == b"INTERNALDATE" and isinstance(value, bytes):
            item.arrived_at = parse_internaldate(value.decode("ascii", "replace"))
        elif name == b"FLAGS" and isinstance(value, list):
            item.flags = [flag.decode("ascii", "replace") for flag in value if isinstance(flag, bytes)]
    return item


_Value = bytes | list[Any]


def _parse_list(tokens: list[tuple[str, bytes]], pos: int) -> tuple[list[_Value], int]:
    """Parse after an opening parenthesis up to its closing one; returns (items, next position)."""
    items: list[_Value] = []
    while pos < len(tokens):
        kind, value = tokens[pos]
        pos += 1
        if kind == ")":
            return items, pos
        if kind == "(":
            sub, pos = _parse_list(tokens, pos)
            items.append(sub)
        else:
            items.append(value)
    raise ValueError("unbalanced parentheses")


_MONTHS = {m: i for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), start=1)}


def parse_internaldate(text: str) -> datetime | None:
    """'17-Jul-1996 02:44:25 -0700' -> aware UTC datetime (None if unreadable)."""
    match = re.fullmatch(r"\s*(\d{1,2})-(\w{3})-(\d{4}) (\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)\s*", text)
    if match is None or match.group(2).title() not in _MONTHS:
        return None
    day, month, year, hour, minute, second = (
        int(match.group(1)), _MONTHS[match.group(2).title()], int(match.group(3)),
        int(match.group(4)), int(match.group(5)), int(match.group(6)),
    )
    offset = timedelta(hours=int(match.group(8)), minutes=int(match.group(9)))
    if match.group(7) == "-":
        offset = -offset
    try:
        local = datetime(year, month, day, hour, minute, second, tzinfo=timezone(offset))
    except ValueError:
        return None
    return local.astimezone(UTC)
