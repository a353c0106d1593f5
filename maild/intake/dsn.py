"""Reading a bounce: which addresses failed, for good or for now, why, and which of our mails it returns.

Which addresses failed is Mailman's `flufl.bounce` (its RFC 3464 reader first, then the detectors for Exim's
X-Failed-Recipients, qmail's QSBMF and the other formats mail servers write). It gives addresses only, so the
reason and the original mail are read here:

- the reason: the DSN's Diagnostic-Code for that recipient (else its Status); in a bounce of plain text
  (Exim's, qmail's), the SMTP reply in the paragraph that names the address;
- the original mail: the Message-ID in the returned copy (message/rfc822 or text/rfc822-headers), Gmail's
  X-Original-Message-ID, a `Message-ID:` line of a copy in plain text, and the bounce's own In-Reply-To and
  References (Exim sets them).

Only mail that `autoreply` already takes for a bounce comes here, and only its first BOUNCE_BYTES: a report's
parts come before the copy of the returned mail, and the heuristic detectors never see megabytes.
"""

from __future__ import annotations

import email
import logging
import re
from dataclasses import dataclass, field
from email.message import Message
from email.parser import HeaderParser
from email.policy import compat32

from maild.controlchars import strip_controls
from maild.intake.ackecho import clip

log = logging.getLogger("maild.intake")

BOUNCE_BYTES = 256 * 1024
MAX_FAILURES = 50  # addresses taken from one bounce: a forged one may list thousands
MAX_IDS = 20
REASON_CHARS = 300

_MSG_ID = re.compile(r"<[^<>\s]{1,250}>")
# A `Message-ID:` header line of a returned copy in plain text.
_ID_LINE = re.compile(r"^\s*message-id:\s*(<[^<>\s]{1,250}>)", re.IGNORECASE)
# An SMTP reply code, with its enhanced status code if it has one ("550 5.1.1", "550-5.1.1", "554").
_SMTP_REPLY = re.compile(r"\b[45]\d\d(?:[ -][45]\.\d{1,3}\.\d{1,3})?\b")
_WHITESPACE = re.compile(r"\s+")
_REPEATED_CODE = re.compile(r"\s[45]\d\d[ -][45]\.\d{1,3}\.\d{1,3}\s+")


@dataclass(frozen=True)
class Failure:
    address: str  # lower case
    permanent: bool  # False: a delay (RFC 3464 Action: delayed), the server still tries
    reason: str


@dataclass(frozen=True)
class BounceReport:
    failures: list[Failure] = field(default_factory=list)
    message_ids: list[str] = field(default_factory=list)  # of the returned mail, most telling first

    @property
    def permanent(self) -> list[Failure]:
        return [f for f in self.failures if f.permanent]

    @property
    def delayed(self) -> list[Failure]:
        return [f for f in self.failures if not f.permanent]


def read_bounce(raw: bytes) -> BounceReport:
    """What a bounce says. A report with no failure in it (a success DSN, a bounce that cannot be read) has
    none: the mail is then only never answered."""
    from flufl.bounce import all_failures  # only when a bounce is read: `game list` does without it

    msg = email.message_from_bytes(raw[:BOUNCE_BYTES], policy=compat32)
    try:
        temporary, permanent = all_failures(msg)
    except Exception:  # a detector that breaks on odd input: the mail is then an unread bounce, never answered
        log.warning("the bounce detectors failed on a mail", exc_info=True)
        return BounceReport()
    reasons = _dsn_reasons(msg)
    text = _text(msg)
    failures = []
    for address, is_permanent in [*((a, True) for a in sorted(permanent)), *((a, False) for a in sorted(temporary))]:
        name = strip_controls(address.decode("ascii", "replace")).strip().lower()
        if not name or any(f.address == name for f in failures):
            continue
        reason = reasons.get(name) or _text_reason(text, name) or \
            ("permanent failure" if is_permanent else "delivery delayed")
        failures.append(Failure(name[:320], is_permanent, clip(reason, REASON_CHARS)))
        if len(failures) >= MAX_FAILURES:
            break
    return BounceReport(failures, _message_ids(msg, text))


def _parts(msg: Message, maintype: str, subtype: str) -> list[Message]:
    return [part for part in msg.walk() if part.get_content_maintype() == maintype
            and part.get_content_subtype() == subtype]


def _one_line(value: object) -> str:
    return _WHITESPACE.sub(" ", strip_controls(str(value))).strip()


def _dsn_reasons(msg: Message) -> dict[str, str]:
    """Recipient (Final- and Original-Recipient, lower case) -> its Diagnostic-Code, else its Status."""
    reasons: dict[str, str] = {}
    for part in _parts(msg, "message", "delivery-status"):
        blocks = part.get_payload()
        if not isinstance(blocks, list):
            continue
        for block in blocks[1:]:  # the first block is about the message, the rest one per recipient
            diagnostic = _one_line(block.get("diagnostic-code", ""))
            # "smtp; 550 5.1.1 ..." : the type (RFC 3464 §2.3.6) says how to read the rest, not what happened.
            diagnostic = diagnostic.partition(";")[2].strip() if ";" in diagnostic[:20] else diagnostic
            # A reply of several lines repeats its code on each ("550-5.1.1 ... 550-5.1.1 ..."): said once.
            if _REPEATED_CODE.match(f" {diagnostic} "):
                diagnostic = f"{diagnostic[:3]} {diagnostic[4:9]}{_REPEATED_CODE.sub(' ', diagnostic[9:])}"
            status = _one_line(block.get("status", ""))
            reason = diagnostic or (f"status {status}" if status else "")
            for header in ("final-recipient", "original-recipient"):
                value = _one_line(block.get(header, ""))
                address = (value.partition(";")[2] if ";" in value else value).strip().strip("<>").lower()
                if address and reason:
                    reasons.setdefault(address, reason)
    return reasons


def _text(msg: Message) -> str:
    """The bounce's own words: its first text/plain part (a report's notification, a plain bounce's body)."""
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                return payload[:BOUNCE_BYTES].decode(part.get_content_charset() or "utf-8", "replace")
    return ""


def _text_reason(text: str, address: str) -> str | None:
    """The SMTP reply in the paragraph that names `address` (Exim: the address on a line, its reply indented
    under it; qmail: `<address>:` and "Remote host said: 550 ..."), else the paragraph's next line."""
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if address not in line.lower():
            continue
        paragraph = [line.strip()]
        for follow in lines[n + 1:n + 8]:
            if not follow.strip():
                break
            paragraph.append(follow.strip())
        for m, said in enumerate(paragraph):
            found = _SMTP_REPLY.search(said)
            if found is not None:
                # A reply folded over the lines that follow it: up to the end of the paragraph's reply.
                rest = [p for p in paragraph[m + 1:] if not p.lower().startswith("giving up")]
                return _one_line(" ".join([said[found.start():], *rest]))
        if len(paragraph) > 1:
            return _one_line(paragraph[1])
    return None


def _message_ids(msg: Message, text: str) -> list[str]:
    ids: list[str] = []

    def add(value: object) -> None:
        for found in _MSG_ID.findall(str(value or ""))[:MAX_IDS]:
            if found not in ids and len(ids) < MAX_IDS:
                ids.append(found)

    for part in _parts(msg, "message", "rfc822"):
        copied = part.get_payload()
        if isinstance(copied, list) and copied:
            add(copied[0].get("message-id"))
    for part in _parts(msg, "text", "rfc822-headers"):
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            add(HeaderParser(policy=compat32).parsestr(payload[:64 * 1024].decode("utf-8", "replace"))
                .get("message-id"))
    for part in _parts(msg, "message", "delivery-status"):
        blocks = part.get_payload()
        if isinstance(blocks, list) and blocks:
            add(blocks[0].get("x-original-message-id"))  # Gmail's
    for line in text.splitlines():
        found = _ID_LINE.match(line)
        if found is not None:
            add(found.group(1))
    add(msg.get("in-reply-to"))
    add(msg.get("references"))
    return ids
