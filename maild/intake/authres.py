"""Was a mail really sent from its From address? The GM's receiving server says so in its
``Authentication-Results`` header (RFC 8601); this module reads that header, it checks nothing itself.

Only headers whose authserv-id is the configured one (the GM's own receiving server) count: any other
may have been written by the sender. The id is compared as RFC 8601 §2.5 says: the whole value
(a token, or a quoted-string without its quotes), case-insensitively, nothing else stripped, so
``mx.example.org.`` or ``"mx.example"org`` is not ``mx.example.org``.

And only headers our own server added count: those at the top of the header block, above the first
``Received`` field that another host wrote (RFC 8601 §5: the receiving server prepends its header; what
sits below a foreign hop's trace was there before the mail reached us, whoever wrote it). A ``Received``
field is ours when its ``by`` host is the authserv-id, or shares the authserv-id's parent domain
(``mx2.example.org`` for ``mx.example.org``), or is an address literal or missing (a hop inside the
receiving system, as Gmail writes above its own results). RFC 8601 §5 also requires the server to remove
incoming headers that carry its own id; one that does not still leaves a forger a header directly under
our first ``Received``, so the GM should check that theirs does (big providers and current
OpenDKIM/OpenDMARC do).

A sender is verified when one of the trusted results says so:

- ``dmarc=pass`` for the From domain (``header.from``, when given, must be the From domain: a mail with
  two From fields may have been judged on the other one);
- ``dkim=pass`` with ``header.d`` (or ``header.i``) aligned with the From domain;
- ``spf=pass`` with the ``smtp.mailfrom`` domain aligned with the From domain.

Aligned means the same domain or one a subdomain of the other (DMARC's relaxed alignment, without the
public suffix list; a bare top-level domain never aligns). A trusted ``dmarc=fail`` for the From domain
is final: the domain's owner published a policy and this mail fails it.

The parser is our own, small and tolerant rather than the ``authres`` package (last released 2019), which
raises on the malformed headers real servers write and would still leave alignment to us: comments in
parentheses (nested, with quotes), quoted values, several results in one header and several headers,
folded lines, any case, ``method/version``. It never raises; what it cannot read it ignores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import compat32

_HEADER = "Authentication-Results"
_EQ = object()  # the "=" token


@dataclass(frozen=True)
class AuthResult:
    method: str  # "dkim", "spf", "dmarc", ... lowercased, without "/version"
    result: str  # "pass", "fail", "none", ... lowercased
    props: dict[str, str] = field(default_factory=dict)  # "header.d" -> "example.org" (keys lowercased)
    reason: str | None = None


def parse_header(value: str) -> tuple[str | None, list[AuthResult]]:
    """One Authentication-Results value: its authserv-id (lowercased) and results; (None, []) when no
    authserv-id can be read (e.g. Exchange Online writes none)."""
    try:
        segments = _segments(value)
    except Exception:  # tolerant by contract: a header we cannot read is a header we ignore
        return None, []
    if not segments or not segments[0]:
        return None, []
    head = segments[0]
    if _EQ in head or not isinstance(head[0], str):
        return None, []
    authserv_id = _authserv_id(value)
    if authserv_id is None:
        return None, []
    results = []
    for seg in segments[1:]:
        pairs = _pairs(seg)
        if not pairs:
            continue  # "none", or something unreadable
        method, result = pairs[0]
        props: dict[str, str] = {}
        reason = None
        for key, val in pairs[1:]:
            if key == "reason":
                reason = val
            elif key:
                props.setdefault(key, val)
        results.append(AuthResult(method.split("/")[0].strip(), result.lower(), props, reason))
    return authserv_id, results


_TSPECIALS = frozenset('()<>@,;:\\"/[]?=')


def _skip_cfws(value: str, i: int) -> int:
    """Past white space and (nested) comments from `i`."""
    n = len(value)
    while i < n:
        if value[i].isspace():
            i += 1
        elif value[i] == "(":
            depth, i = 1, i + 1
            while i < n and depth:
                if value[i] == "\\":
                    i += 1
                elif value[i] == "(":
                    depth += 1
                elif value[i] == ")":
                    depth -= 1
                i += 1
        else:
            break
    return i


def _authserv_id(value: str) -> str | None:
    """The authserv-id (lowercased) as RFC 8601 writes it: a token or a quoted-string, then white space, a
    comment, ';' or the end; anything else (``"exam"ple.org``) is no id at all."""
    i = _skip_cfws(value, 0)
    n = len(value)
    if i < n and value[i] == '"':
        chars, i = [], i + 1
        while i < n and value[i] != '"':
            if value[i] == "\\" and i + 1 < n:
                i += 1
            chars.append(value[i])
            i += 1
        if i >= n:
            return None  # unclosed quote
        i += 1
        sid = "".join(chars)
    else:
        start = i
        while i < n and not value[i].isspace() and value[i] not in _TSPECIALS and ord(value[i]) > 31:
            i += 1
        sid = value[start:i]
    if not sid or (i < n and not value[i].isspace() and value[i] not in "(;"):
        return None
    return sid.lower()


def _segments(value: str) -> list[list[object]]:
    """Tokens per ';'-separated part, comments dropped: words (str, quoted ones unquoted, adjacent pieces
    such as '"john doe"@example.org' joined) and _EQ."""
    segments: list[list[object]] = [[]]
    tokens = segments[0]
    word: list[str] | None = None  # the word being read
    i, n = 0, len(value)

    def end_word() -> None:
        nonlocal word
        if word is not None:
            tokens.append("".join(word))
            word = None

    while i < n:
        c = value[i]
        if c == "(":
            depth = 1
            i += 1
            while i < n and depth:
                c = value[i]
                if c == "\\":
                    i += 1
                elif c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                i += 1
            end_word()  # a comment separates like whitespace
            continue
        if c == '"':
            i += 1
            chunk = []
            while i < n and value[i] != '"':
                if value[i] == "\\" and i + 1 < n:
                    i += 1
                chunk.append(value[i])
                i += 1
            i += 1  # the closing quote (or the end)
            word = (word or []) + chunk
            continue
        if c == ";":
            end_word()
            tokens = []
            segments.append(tokens)
        elif c == "=":
            end_word()
            tokens.append(_EQ)
        elif c.isspace() or c == ")":
            end_word()
        else:
            word = word or []
            word.append(c)
        i += 1
    end_word()
    return segments


def _pairs(tokens: list[object]) -> list[tuple[str, str]]:
    """KEY=VALUE pairs of one result; a key may have been written with spaces ("header . d")."""
    pairs = []
    pending: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok is _EQ:
            key = " ".join(pending)
            for sep in (".", "/"):
                key = key.replace(f" {sep} ", sep).replace(f" {sep}", sep).replace(f"{sep} ", sep)
            key = key.split(" ")[-1].lower() if key else ""
            value = ""
            if i + 1 < len(tokens) and tokens[i + 1] is not _EQ:
                value = str(tokens[i + 1])
                i += 1
            # "a=b=c" (base64 padding in header.b): the rest belongs to the value
            while i + 1 < len(tokens) and tokens[i + 1] is _EQ:
                value += "="
                i += 1
            pairs.append((key, value))
            pending = []
        else:
            pending.append(str(tok))
        i += 1
    return pairs


def header_values(mail: bytes | str | Message | list[str], authserv_id: str | None = None) -> list[str]:
    """The Authentication-Results values of a raw mail (bytes or str: only its header block is parsed),
    a parsed message, or a list of values as they are. With `authserv_id`, only those our own server
    added: above the first Received field written by another host (see the module docstring)."""
    if isinstance(mail, list):
        return [str(v) for v in mail]
    if isinstance(mail, str):
        mail = mail.encode("utf-8", "surrogateescape")
    if isinstance(mail, bytes):
        ends = [p for p in (mail.find(b"\r\n\r\n"), mail.find(b"\n\n")) if p >= 0]
        block = mail[:min(ends) + 2] if ends else mail
        if b"authentication-results" not in block.lower():
            return []
        mail = BytesHeaderParser(policy=compat32).parsebytes(block)
    values = []
    for name, value in mail.items():
        name = name.lower()
        if name == "received" and authserv_id is not None and not _received_by_us(str(value), authserv_id):
            break
        if name == _HEADER.lower():
            values.append(str(value))
    return values


_BY_HOST = re.compile(r"\bby\s+(\S+)", re.IGNORECASE)


def _received_by_us(value: str, authserv_id: str) -> bool:
    """Was this Received field written by our own receiving system (see the module docstring)?"""
    match = _BY_HOST.search(" ".join(value.split()))
    if match is None:
        return True
    host = match.group(1).strip("[]();").rstrip(".").lower()
    if not host or host.startswith("ipv6:") or ":" in host or host.replace(".", "").isdigit():
        return True
    ours = authserv_id.lower().rstrip(".")
    parent = ours.partition(".")[2] if ours.count(".") >= 2 else ours
    return host == ours or host == parent or host.endswith("." + parent)


def _domain(value: str) -> str:
    value = value.strip().strip("<>").rpartition("@")[2].strip().rstrip(".").lower()
    if value and not value.isascii():
        try:
            value = value.encode("idna").decode("ascii")
        except UnicodeError:
            pass
    return value


def aligned(a: str, b: str) -> bool:
    """Relaxed alignment of two domains: equal, or one a subdomain of the other (never a bare TLD)."""
    a, b = _domain(a), _domain(b)
    if not a or not b:
        return False
    short, long = sorted((a, b), key=len)
    return "." in short and (long == short or long.endswith("." + short))


def sender_verified(mail: bytes | str | Message | list[str], from_addr: str, authserv_id: str
                    ) -> tuple[bool, str]:
    """Did the receiving server `authserv_id` verify that `mail` comes from `from_addr`'s domain?
    The verdict and, in words for the player and the GM, why."""
    server = authserv_id.strip().lower()
    domain = _domain(from_addr or "")
    try:
        values = header_values(mail, server)
    except Exception:  # a header block the stdlib cannot parse proves nothing
        values = []
    trusted: list[AuthResult] = []
    found = False
    for value in values:
        sid, results = parse_header(value)
        if sid == server:
            found = True
            trusted.extend(results)
    if not found:
        return False, f"no Authentication-Results from {authserv_id}"
    if not domain:
        return False, "no sender domain to verify"
    for r in trusted:
        if r.method == "dmarc" and r.result == "fail" and _dmarc_for(r, domain):
            return False, f"{authserv_id} reported dmarc=fail for {domain}"
    for r in trusted:
        why = _passed(r, domain, authserv_id)
        if why is not None:
            return True, why
    said = [_describe(r, domain) for r in trusted if r.method in ("dmarc", "dkim", "spf")]
    if not said:
        return False, f"{authserv_id} reported no DMARC, DKIM or SPF result"
    return False, f"{authserv_id} reported {', '.join(said)}"


def _passed(r: AuthResult, domain: str, authserv_id: str) -> str | None:
    """Why `r` verifies `domain` (a DMARC pass for it, a DKIM pass by a signer aligned with it, an SPF pass for
    an aligned envelope sender), in words; None if it does not."""
    if r.result != "pass":
        return None
    if r.method == "dmarc" and _dmarc_for(r, domain):
        return f"{authserv_id} reported dmarc=pass for {domain}"
    if r.method == "dkim":
        signer = r.props.get("header.d") or r.props.get("header.i") or ""
        if aligned(signer, domain):
            return f"{authserv_id} reported dkim=pass, signed by {_domain(signer)}"
    if r.method == "spf":
        envelope = r.props.get("smtp.mailfrom") or ""
        if aligned(envelope, domain):
            return f"{authserv_id} reported spf=pass for {_domain(envelope)}"
    return None


def _dmarc_for(r: AuthResult, domain: str) -> bool:
    judged = r.props.get("header.from")
    return judged is None or _domain(judged) == domain


def _describe(r: AuthResult, domain: str) -> str:
    text = f"{r.method}={r.result}"
    other = {"dmarc": "header.from", "dkim": "header.d", "spf": "smtp.mailfrom"}[r.method]
    whose = r.props.get(other) or (r.props.get("header.i") if r.method == "dkim" else None)
    if r.result == "pass" and whose:
        text += f" for {_domain(whose)} (not {domain})"
    return text
