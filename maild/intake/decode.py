"""Raw RFC 5322 bytes to what intake needs: addresses, subject, threading ids and the order text.

`decode_mail` never raises: garbage, truncated MIME, bad base64 and unknown charsets give what could be
read, with the trouble listed in `DecodedMail.problems` (worded for the player's ack).

**Which text is read**

- Plain text is preferred: in ``multipart/alternative`` the ``text/plain`` part is taken unless it is
  empty (a game that reads bold asks for the HTML part first: `read.EMPHASIS_FIRST`); HTML-only mail is
  converted by `htmltext` (bold kept as ``**word**``) and a problem notes it.
  ``multipart/mixed`` bodies made of several inline text parts (Apple Mail around an inline picture)
  are joined. ``multipart/signed`` is read through; ``multipart/encrypted`` cannot be and is noted.
- **Attachment rule**: a *text attachment* is a part whose file name ends in ``.txt`` (whatever its
  type, e.g. ``application/octet-stream``), or a ``text/plain`` part with ``Content-Disposition:
  attachment``. If a mail has a non-empty text attachment, the orders are read from it (several are
  joined in order) and the body is ignored, with a note if the body had text of its own: someone who
  attaches a file of orders means the file, and the body then holds greetings and signatures. A header
  line (``#GAME PLAYER PASSWORD``) in the body still applies when the attachment has none. Other
  attachments are ignored and noted; inline images of ``multipart/related`` HTML and signature parts
  silently.
- Charsets: see `charsets` (declared charset first, latin-1 read as cp1252, undeclared 8-bit as UTF-8
  then cp1252; never raises). ``format=flowed`` is undone. The text is then cleaned by
  `plaintext.normalize`: ``\\n`` line ends, no trailing blanks, non-breaking spaces to spaces,
  zero-width characters removed, NFC; smart quotes kept.
- The order text is then cut out by `ordertext.extract` (header line, ``#end``, quoted replies,
  signatures, HELP/STATUS); see there for what "line N" means. `DecodedMail.text` keeps the emphasis,
  bullets and smart punctuation the mail had: `intake.orders.read_orders` takes them out (and sets
  greetings aside) just before the ruleset parses (docs/mail-formatting.md).

**Speed**: the stdlib parser runs with the ``compat32`` policy (about 35 µs for a small mail, against
about 1 ms with ``policy.default`` and ``get_body().get_content()``), once per mail; header decoding,
address splitting, part selection and charsets are ours, with fast paths for the common cases. The whole
of `decode_mail` takes about 150-200 µs for an ordinary plain-text order mail (``bench/bench_decode.py``).
"""

from __future__ import annotations

import email
import email.errors
import re
from dataclasses import dataclass, field
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import collapse_rfc2231_value, getaddresses

from maild.controlchars import strip_controls
from maild.intake.autoreply import auto_reason
from maild.intake.charsets import decode_bytes, decode_header_value, fix_surrogates
from maild.intake.header import OrderHeader, subject_tags
from maild.intake.htmlguard import defuse
from maild.intake.htmltext import html_to_text
from maild.intake.ordertext import extract
from maild.intake.plaintext import normalize, unflow

_MAX_DEPTH = 20  # MIME nesting deeper than this is an attack or a loop, not a player's mail
TOO_DEEP = f"MIME nested deeper than {_MAX_DEPTH} levels; the parts below were not read"
# Each multipart declares a boundary. Far more of them than any mail program writes means the stdlib parser
# would recurse (1,000 levels: 0.7 s, then RecursionError, and the sender was lost with the rest): such a
# body is not parsed at all, its headers are.
_MAX_MULTIPARTS = 100
_BOUNDARY = re.compile(rb"boundary\s*=", re.IGNORECASE)
# Parts looked at in one mail: each costs tens of microseconds, and no player's mail has this many.
_MAX_PARTS = 1000
TOO_MANY_WALKED = f"the mail has more than {_MAX_PARTS} MIME parts; the rest were not read"
TOO_MANY_PARTS = (f"MIME nested deeper than {_MAX_DEPTH} levels (more than {_MAX_MULTIPARTS} multiparts); "
                  "the body was not read")
_ROUTING_HEADERS = ("to", "cc", "delivered-to", "x-original-to", "envelope-to")
_MSGID = re.compile(r"<([^<>]*)>")
_SIGNATURE_TYPES = frozenset({"application/pgp-signature", "application/pkcs7-signature",
                              "application/x-pkcs7-signature"})
_BASE64_DEFECTS = (email.errors.InvalidBase64CharactersDefect, email.errors.InvalidBase64PaddingDefect,
                   email.errors.InvalidBase64LengthDefect)
_STRUCTURE_DEFECTS = (email.errors.StartBoundaryNotFoundDefect, email.errors.CloseBoundaryNotFoundDefect,
                      email.errors.NoBoundaryInMultipartDefect,
                      email.errors.MultipartInvariantViolationDefect)


@dataclass(frozen=True)
class DecodedMail:
    message_id: str | None  # "<id@host>"
    from_addr: str | None  # bare address, lowercased
    from_display: str | None  # display name, decoded
    to_addrs: list[str]  # To, Cc, Delivered-To, X-Original-To, Envelope-To: bare, lowercased, no repeats
    subject: str
    in_reply_to: str | None
    references: list[str]
    date: str | None  # the Date header as written: informational only, never used for ordering
    text: str  # the order text (see `ordertext`): what the ruleset parses
    text_source: str  # "plain", "html", "attachment:NAME[,NAME...]" or "none"
    quoted_removed: bool  # quoted text, attributions or a signature were removed from `text`
    problems: list[str]  # for the ack, in the player's words
    size: int  # bytes of the raw mail
    body: str = ""  # the whole decoded text `text` was cut from, for the GM's view
    line_map: tuple[int, ...] = ()  # 1-based line in `body` of each line of `text`
    header: OrderHeader | None = None  # the #GAME PLAYER PASSWORD line, if any
    command: str | None = None  # "help" or "status"
    auto: str | None = None  # why the mail must not be answered (`autoreply.auto_reason`), or None
    subject_tags: list[str] = field(default_factory=list)  # "[venice1] my bids" -> ["venice1"]


@dataclass
class _Found:
    plain: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    attachments: list[tuple[str, str]] = field(default_factory=list)  # (file name, text)
    ignored: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    _html_text: list[str] = field(default_factory=list)

    def merge(self, other: _Found) -> None:
        self.plain += other.plain
        self.html += other.html
        self.attachments += other.attachments
        self.ignored += other.ignored
        self.problems += other.problems

    def html_text(self) -> list[str]:
        # Converted only when needed (no usable plain part), and only once.
        if len(self._html_text) != len(self.html):
            self._html_text = [html_to_text(defuse(h)) for h in self.html]
        return self._html_text

    def has_text(self, kind: str) -> bool:
        return any(t.strip() for t in (self.plain if kind == "plain" else self.html_text()))


def decode_mail(raw: bytes, *, max_size: int | None = None,
                prefer: tuple[str, str] = ("plain", "html")) -> DecodedMail:
    """Decode a raw mail; never raises. Over `max_size` bytes, only the headers are read.

    `prefer` is the order in which alternative parts are taken; ``("html", "plain")`` suits a ruleset
    that needs bold, which plain alternatives lose.
    """
    size = len(raw) if isinstance(raw, bytes | bytearray) else 0
    try:
        return _decode(bytes(raw), size, max_size, prefer)
    except Exception:  # noqa: BLE001 - the last line of defence: the mail is kept for the GM, unread
        return DecodedMail(None, None, None, [], "", None, [], None, "", "none", False,
                           ["the mail could not be read"], size)


def _decode(raw: bytes, size: int, max_size: int | None, prefer: tuple[str, str]) -> DecodedMail:
    problems: list[str] = []
    oversized = bool(max_size) and size > (max_size or 0)
    too_deep = not oversized and len(_BOUNDARY.findall(raw)) > _MAX_MULTIPARTS
    msg: Message | None = None
    if not (oversized or too_deep):
        try:
            msg = email.message_from_bytes(raw)
        except RecursionError:
            too_deep = True
    if msg is None:
        msg = BytesHeaderParser().parsebytes(raw)
    headers: dict[str, list[str]] = {}
    for name, value in msg.raw_items():
        # NUL and other controls go here, once for every header read (PostgreSQL refuses NUL in text).
        headers.setdefault(name.lower(), []).append(strip_controls(value if isinstance(value, str) else str(value)))

    if not headers:
        problems.append("the mail has no headers")
    subject = _decoded(headers, "subject") or ""
    from_addr, from_display = _from(headers)
    auto = auto_reason(headers)

    body, source = "", "none"
    attachments: list[tuple[str, str]] = []
    if oversized:
        problems.append(f"the mail is {size} bytes, more than the {max_size} bytes accepted; it was not read")
    elif too_deep:
        problems.append(TOO_MANY_PARTS)
    else:
        try:
            found = _Found()
            _walk(msg, found, 0, prefer, [_MAX_PARTS])
            body, source = _choose(found, prefer, problems)
            attachments = [(n, normalize(t)) for n, t in found.attachments if t.strip()]
            problems += found.problems
            problems += [f"the attachment {name} was ignored" for name in found.ignored]
        except Exception:  # noqa: BLE001 - keep the headers; say the body was unreadable
            problems.append("the body of the mail could not be read")
        if any(isinstance(d, _STRUCTURE_DEFECTS) for part in msg.walk() for d in part.defects):
            problems.append("the mail's structure was damaged (truncated?); some text may be missing")

    if attachments:
        body_part = extract(body, subject)
        body = "\n".join(t for _, t in attachments)
        ot = extract(body, subject)
        header = ot.header
        if header is None:
            header = body_part.header
        if body_part.text.strip():
            problems.append("the orders were read from the attached file; the text in the mail itself "
                            "was ignored")
        source = "attachment:" + ",".join(n for n, _ in attachments)
        command = ot.command or body_part.command
    else:
        ot = extract(body, subject)
        header, command = ot.header, ot.command
    if source == "none" and not (oversized or too_deep):
        problems.append("the mail has no text that could be read")
    problems += ot.notes + ot.dropped

    return DecodedMail(
        message_id=_msgid(headers.get("message-id")),
        from_addr=from_addr,
        from_display=from_display,
        to_addrs=_routing_addrs(headers),
        subject=subject,
        in_reply_to=_msgid(headers.get("in-reply-to")),
        references=_msgids(headers.get("references")),
        date=_decoded(headers, "date"),
        text=ot.text,
        text_source=source,
        quoted_removed=ot.quoted_removed,
        problems=_unique(problems),
        size=size,
        body=body,
        line_map=ot.line_map,
        header=header,
        command=command,
        auto=auto,
        subject_tags=subject_tags(subject),
    )


# -- headers -------------------------------------------------------------------------------------------

def _decoded(headers: dict[str, list[str]], name: str) -> str | None:
    values = headers.get(name)
    return decode_header_value(values[0]) if values else None


# The usual single address, bare or as `Name <addr>` with a plain name, skips the general parser (which
# is slow); quotes, commas, comments, groups and encoded words go the long way. No pattern here may
# backtrack: a display name of 300,000 spaces once cost a minute (see `_simple_address`).
_ADDR_SPEC = re.compile(r"[^\s<>\",;:()@]+@[^\s<>\",;:()]+")
_NAME_SPECIALS = re.compile(r"[<>\",;:()=]")
# Longer address headers are not given to the stdlib parser (which recurses on nested comments and
# takes about 3 µs a byte): their addresses are picked out by a scan that starts only where a run of
# address characters starts and never backtracks, without display names.
_MAX_ADDRESS_HEADER = 16384
_ADDRESS_SCAN = re.compile(r"(?<![^\s<>\",;:()@\[\]])[^\s<>\",;:()@\[\]]++@[^\s<>\",;:()@\[\]]++")


def _simple_address(value: str) -> tuple[str, str] | None:
    """(name, address) of `Name <addr>`, `<addr>` or `addr`; None for anything else. Linear: it splits
    at the one '<' instead of letting a pattern guess where the name ends."""
    value = value.strip()
    if value.endswith(">") and value.count("<") == 1:
        name, _, addr = value[:-1].partition("<")
        if _ADDR_SPEC.fullmatch(addr) and not _NAME_SPECIALS.search(name):
            return name.strip(), addr
        return None
    bare = value[1:] if value.startswith("<") else value
    bare = bare[:-1] if bare.endswith(">") else bare
    return ("", bare) if _ADDR_SPEC.fullmatch(bare) else None


def _addresses(values: list[str]) -> list[tuple[str, str]]:
    """(display name, address) pairs; encoded words are decoded after splitting, as they may hide commas."""
    out: list[tuple[str, str]] = []
    for value in values:
        simple = _simple_address(value) if value.isascii() and "\n" not in value else None
        if simple:
            out.append(simple)
            continue
        if len(value) > _MAX_ADDRESS_HEADER:
            out += [("", addr) for addr in _ADDRESS_SCAN.findall(value)]
            continue
        unfolded = re.sub(r"\r?\n(?=[ \t])", "", fix_surrogates(value))
        try:
            pairs = getaddresses([unfolded])
        except RecursionError:  # comments nested thousands deep
            continue
        out += [(decode_header_value(name), addr.strip()) for name, addr in pairs]
    return out


def _from(headers: dict[str, list[str]]) -> tuple[str | None, str | None]:
    pairs = _addresses(headers.get("from", [])[:1])
    for name, addr in pairs:
        if "@" in addr:
            return addr.lower(), name or None
    for name, _ in pairs:
        if name:
            return None, name
    return None, None


def _routing_addrs(headers: dict[str, list[str]]) -> list[str]:
    out: dict[str, None] = {}  # ordered, and no list scan per address (40,000 recipients took 16 s)
    for name in _ROUTING_HEADERS:
        for _, addr in _addresses(headers.get(name, [])):
            addr = addr.lower()
            if "@" in addr:
                out.setdefault(addr)
    return list(out)


def _msgids(values: list[str] | None) -> list[str]:
    if not values:
        return []
    text = " ".join(fix_surrogates(v) for v in values)
    ids = ["<" + re.sub(r"\s+", "", m) + ">" for m in _MSGID.findall(text) if m.strip()]
    if not ids:
        # Some software writes ids without brackets.
        ids = [f"<{w}>" for w in text.split() if "@" in w and "<" not in w and ">" not in w]
    return ids


def _msgid(values: list[str] | None) -> str | None:
    ids = _msgids(values)
    return ids[0] if ids else None


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


# -- body ----------------------------------------------------------------------------------------------

_PARAM = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')


def _params(part: Message) -> dict[str, str]:
    """Content-Type parameters, lowercased names; Message.get_param is slow and this runs on every part."""
    ctype = part.get("content-type")
    if not isinstance(ctype, str) or ";" not in ctype:
        return {}
    out: dict[str, str] = {}
    for name, value in _PARAM.findall(ctype.replace("\r", "").replace("\n", "")):
        name = name.lower()
        if "*" in name:
            # RFC 2231 (charset*=utf-8''..., name*0=...): the stdlib knows how to put it together.
            name = name.split("*", 1)[0]
            try:
                full = part.get_param(name)
                out[name] = collapse_rfc2231_value(full) if isinstance(full, tuple) else str(full or "")
            except Exception:  # noqa: BLE001 - a mangled parameter is as good as none
                pass
            continue
        value = value.strip()
        if value[:1] == '"' and value[-1:] == '"' and len(value) >= 2:
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        out.setdefault(name, value)
    return out


def _filename(part: Message, params: dict[str, str]) -> str | None:
    if "content-disposition" not in part and "name" not in params:
        return None
    try:
        name = part.get_filename()
    except Exception:  # noqa: BLE001 - a mangled RFC 2231 parameter: treat as unnamed
        return None
    return decode_header_value(str(name)) if name else None


def _part_text(part: Message, params: dict[str, str], found: _Found) -> str:
    """The decoded text of a leaf part, format=flowed undone (not yet normalized)."""
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        data = b"" if data is None else str(data).encode("utf-8", errors="surrogateescape")
    if any(isinstance(d, _BASE64_DEFECTS) for d in part.defects):
        found.problems.append("part of the mail was damaged (bad base64); some text may be missing")
    text, problem = decode_bytes(data, params.get("charset") or None)
    if problem:
        found.problems.append(problem)
    if params.get("format", "").lower() == "flowed":
        delsp = params.get("delsp", "").lower() == "yes"
        text = unflow(text.replace("\r\n", "\n").replace("\r", "\n"), delsp)
    return text


def _is_text_attachment(ctype: str, filename: str | None, disposition: str | None) -> bool:
    if filename and filename.lower().endswith(".txt"):
        return True
    return ctype == "text/plain" and disposition == "attachment"


def _walk(part: Message, found: _Found, depth: int, prefer: tuple[str, str], budget: list[int]) -> None:
    """Gather `part`'s text into `found`: a container's parts (`_walk_multipart`), a leaf's text or its name
    among what was not read (`_walk_leaf`); no deeper than _MAX_DEPTH, no more parts than the budget."""
    if depth > _MAX_DEPTH:
        found.problems.append(TOO_DEEP)
        return
    budget[0] -= 1
    if budget[0] < 0:
        if budget[0] == -1:
            found.problems.append(TOO_MANY_WALKED)
        return
    ctype = part.get_content_type()
    if ctype == "message/rfc822" or ctype.startswith("message/") and part.is_multipart():
        found.ignored.append(_filename(part, _params(part)) or "(a forwarded mail)")
    elif part.is_multipart():
        _walk_multipart(part, ctype, found, depth, prefer, budget)
    else:
        _walk_leaf(part, ctype, found)


def _walk_multipart(part: Message, ctype: str, found: _Found, depth: int, prefer: tuple[str, str],
                    budget: list[int]) -> None:
    children = [c for c in part.get_payload() if isinstance(c, Message)]
    if ctype == "multipart/alternative":
        _alternative(children, found, depth, prefer, budget)
    elif ctype == "multipart/encrypted":
        found.problems.append("the mail is encrypted and could not be read")
    elif ctype in ("multipart/signed", "multipart/related", "multipart/report"):
        # The first part is the content; the rest are a signature, inline images, or the
        # machine-readable report and returned mail.
        if children:
            _walk(children[0], found, depth + 1, prefer, budget)
    else:
        for child in children:
            _walk(child, found, depth + 1, prefer, budget)


def _walk_leaf(part: Message, ctype: str, found: _Found) -> None:
    params = _params(part)
    filename = _filename(part, params)
    disposition = part.get_content_disposition() if "content-disposition" in part else None
    if _is_text_attachment(ctype, filename, disposition):
        found.attachments.append((filename or "attachment.txt", _part_text(part, params, found)))
    elif disposition == "attachment" or (filename and not ctype.startswith("text/")):
        if ctype not in _SIGNATURE_TYPES:
            found.ignored.append(filename or ctype)
    elif ctype == "text/html":
        found.html.append(_part_text(part, params, found))
    elif ctype == "text/plain" or ctype.startswith("multipart/"):
        # A multipart without its boundary is not split by the parser: its raw text is the best we have.
        found.plain.append(_part_text(part, params, found))
    elif ctype not in _SIGNATURE_TYPES:
        found.ignored.append(filename or ctype)


def _alternative(children: list[Message], found: _Found, depth: int, prefer: tuple[str, str],
                 budget: list[int]) -> None:
    results = []
    for child in children:
        sub = _Found()
        _walk(child, sub, depth + 1, prefer, budget)
        results.append(sub)
    for kind in prefer:
        for sub in results:
            if sub.has_text(kind):
                found.merge(sub)
                return
    # Nothing readable: take the preferred kind anyway (an empty mail with a subject command is plain,
    # not "converted HTML"), else whatever carries attachments.
    for kind in prefer:
        for sub in results:
            if sub.plain if kind == "plain" else sub.html:
                found.merge(sub)
                return
    for sub in results:
        if sub.attachments:
            found.merge(sub)
            return
    if results:
        found.problems += results[0].problems


def _choose(found: _Found, prefer: tuple[str, str], problems: list[str]) -> tuple[str, str]:
    for kind in prefer:
        if found.has_text(kind):
            if kind == "html":
                if "plain" in prefer[:1]:
                    problems.append("the mail had no plain-text part; its HTML part was converted to text")
                return normalize("\n".join(found.html_text())), "html"
            return normalize("\n".join(found.plain)), "plain"
    for kind in prefer:
        if found.plain if kind == "plain" else found.html:
            return "", kind  # the part is there but blank
    return "", "none"
