"""Was a mail really sent from its From address? The GM's receiving server says so in its
``Authentication-Results`` header (RFC 8601); this module reads that header, it checks nothing itself.

Only headers whose authserv-id is the configured one (the GM's own receiving server) count: any other
may have been written by the sender. RFC 8601 §5 requires the receiving server to remove incoming
headers that carry its own id; a server that does not leaves a forger the same power, so the GM should
check that theirs does (big providers and current OpenDKIM/OpenDMARC do).

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
    authserv_id = head[0].lower().rstrip(".")
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


def header_values(mail: bytes | str | Message | list[str]) -> list[str]:
    """The Authentication-Results values of a raw mail (bytes or str: only its header block is parsed),
    a parsed message, or a list of values as they are."""
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
    return [str(v) for v in mail.get_all(_HEADER) or []]


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
    server = authserv_id.strip().rstrip(".").lower()
    domain = _domain(from_addr or "")
    try:
        values = header_values(mail)
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
        if r.result != "pass":
            continue
        if r.method == "dmarc" and _dmarc_for(r, domain):
            return True, f"{authserv_id} reported dmarc=pass for {domain}"
        if r.method == "dkim":
            signer = r.props.get("header.d") or r.props.get("header.i") or ""
            if aligned(signer, domain):
                return True, f"{authserv_id} reported dkim=pass, signed by {_domain(signer)}"
        if r.method == "spf":
            envelope = r.props.get("smtp.mailfrom") or ""
            if aligned(envelope, domain):
                return True, f"{authserv_id} reported spf=pass for {_domain(envelope)}"
    said = [_describe(r, domain) for r in trusted if r.method in ("dmarc", "dkim", "spf")]
    if not said:
        return False, f"{authserv_id} reported no DMARC, DKIM or SPF result"
    return False, f"{authserv_id} reported {', '.join(said)}"


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
