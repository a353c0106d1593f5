"""Bytes to str for mail bodies and headers, never raising.

Real mail lies about its charset often enough that the declared one is a hint, not a fact:

- ``iso-8859-1``, ``latin1`` and ``us-ascii`` are read as Windows-1252, as every browser does (WHATWG
  Encoding), because Outlook and friends label cp1252 text (with its €, smart quotes and dashes) as latin-1;
  cp1252 is a superset of latin-1's printable range, so genuine latin-1 text decodes the same.
- Those labels, no label, an unknown label, or a declared charset that fails: valid UTF-8 is taken as
  UTF-8 (multi-byte UTF-8 practically never arises by accident from single-byte text), then UTF-8 with a
  few broken bytes, then Windows-1252, then latin-1 (which maps every byte). Guesses that may have
  garbled the text are reported so the ack can say so.
"""

from __future__ import annotations

import base64
import codecs
import re

from maild.controlchars import strip_controls

# Labels read as cp1252 instead (WHATWG maps all of these to windows-1252).
_CP1252_ALIASES = frozenset({"latin_1", "iso8859_1", "ascii", "cp1252"})
# Codecs that are not text encodings would "succeed" with nonsense.
_NOT_TEXT = frozenset({"base64", "hex", "quopri", "uu", "zlib", "bz2", "rot_13", "undefined"})


def _codec_name(label: str | None) -> str | None:
    """Python's canonical codec name for a charset label, or None if unknown or unusable."""
    if not label:
        return None
    label = label.strip().strip('"').strip().lower()
    if not label:
        return None
    try:
        name = codecs.lookup(label).name.replace("-", "_")
    except (LookupError, ValueError):
        return None
    if name in _NOT_TEXT:
        return None
    return "cp1252" if name in _CP1252_ALIASES else name


def decode_bytes(data: bytes, declared: str | None) -> tuple[str, str | None]:
    """Decode `data`, preferring the `declared` charset; return (text, problem or None)."""
    if data.isascii():
        return data.decode("ascii"), None
    codec = _codec_name(declared)
    if codec is not None and codec != "cp1252":
        text = _strict(data, codec)
        if text is not None:
            return text, None
    # A single-byte label (or none) on UTF-8 or cp1252 text is ordinary and goes unreported.
    silent = codec == "cp1252" or not (declared or "").strip().strip('"')
    text = _strict(data, "utf_8")
    if text is not None:
        return text, None if silent else _problem(declared, "UTF-8")
    text = _mostly_utf8(data)
    if text is not None:
        return text, _problem(declared, None)
    text = _strict(data, "cp1252")
    if text is not None:
        return text, None if silent else _problem(declared, "Windows-1252")
    # cp1252 leaves five bytes undefined; latin-1 maps every byte, and normalization drops the controls.
    return data.decode("latin_1"), _problem(declared, None)


def _strict(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except Exception:  # noqa: BLE001 - UnicodeDecodeError, or anything an odd codec raises
        return None


def _mostly_utf8(data: bytes) -> str | None:
    """UTF-8 with a few broken bytes (a cut multi-byte sequence, a stray latin-1 byte) beats mojibake."""
    text = data.decode("utf_8", errors="replace")
    bad = text.count("\ufffd")
    good = sum(1 for c in text if ord(c) > 127) - bad
    return text if good > 2 * bad else None


def _problem(declared: str | None, used: str | None) -> str:
    how = f"it was read as {used}" if used else "some characters could not be read"
    label = (declared or "").strip().strip('"')
    if label and _codec_name(label) is None:
        return f"the text was marked with an unknown character set {label!r}; {how}"
    if label:
        return f"the text was not valid {label}; {how}"
    return f"the text had no character set; {how}"


def fix_surrogates(value: str) -> str:
    """Header values parsed from bytes carry raw 8-bit bytes as surrogate escapes: decode them properly."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        pass
    return decode_bytes(value.encode("utf-8", errors="surrogateescape"), None)[0]


_ENCODED_WORD = re.compile(r"=\?([^?\s*]+)(?:\*[^?\s]*)?\?([QqBb])\?([^?\s]*)\?=")
_BETWEEN_WORDS = re.compile(r"(\?=)[ \t]+(?==\?)")
_Q_ESCAPE = re.compile(rb"=([0-9A-Fa-f]{2})")


def _decode_word(match: re.Match[str]) -> str:
    charset, enc, payload = match.group(1), match.group(2).upper(), match.group(3)
    try:
        if enc == "B":
            payload = payload.rstrip("=")
            data = base64.b64decode(payload + "=" * (-len(payload) % 4), validate=True)
        else:
            data = _Q_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]),
                                 payload.replace("_", " ").encode("ascii", errors="replace"))
    except Exception:  # noqa: BLE001 - a broken encoded word stays as it was written
        return match.group(0)
    return decode_bytes(data, charset)[0]


def decode_header_value(value: str) -> str:
    """A header value with folding undone and RFC 2047 encoded words decoded; never raises."""
    if value.isascii() and "=?" not in value and "\n" not in value and "\r" not in value:
        return strip_controls(value).strip()  # the common case, and hot: every header of every mail comes here
    value = fix_surrogates(value)
    value = re.sub(r"\r?\n(?=[ \t])", "", value)
    value = value.replace("\r", " ").replace("\n", " ")
    if "=?" in value:
        # Whitespace between two adjacent encoded words is not part of the text (RFC 2047 §6.2).
        value = _BETWEEN_WORDS.sub(r"\1", value)
        value = _ENCODED_WORD.sub(_decode_word, value)
    # Encoded words may carry controls of their own (=?utf-8?q?=00?=); none may reach a header we write.
    return strip_controls(value).strip()
