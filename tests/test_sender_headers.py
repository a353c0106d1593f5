"""`senders.headers_of` reads a plain header block itself, not through the stdlib's parser: the same values
as compat32's parser gives, on random header blocks made of the pieces real mail and broken mail hold."""

from __future__ import annotations

import random

import pytest

from maild.intake import senders
from maild.mail.base import header_block

PIECES = ["From: Alice <alice@example.org>", "from:bob@example.net", "FROM:  carol+x@Example.COM ",
          "Message-ID: <a-1@example.org>", "message-id:<b@x>", "Message-Id:", "Message-ID: ", "Subject: hi",
          "X-Long: a", " folded on", "\tand tabbed", "From me to you", "From : spaced@example.org", ": no name",
          "No colon here", "Bad Name: x", "Subject: caf\u00e9", "From: \u00e9l\u00e8ve@example.org", "To: gm@x",
          "Received: from a\r by b", "Message-ID: <c@x> (comment)", "", " ", "X-Empty:"]


def parsed(raw: bytes) -> dict[str, str]:
    """What compat32's parser gives (the reference)."""
    msg = senders._HEADERS.parsebytes(header_block(raw))
    return {name: str(msg[name]) for name in senders._WANTED if msg[name] is not None}


@pytest.mark.parametrize("seed", range(5))
def test_the_same_values_as_the_stdlib_parser_on_random_header_blocks(seed: int) -> None:
    rng = random.Random(seed)
    plain = 0
    for _ in range(600):
        lines = [rng.choice(PIECES) for _ in range(rng.randrange(1, 9))]
        ending = rng.choice(["\r\n", "\n"])
        raw = (ending.join(lines) + ending * rng.randrange(0, 3) + "body\r\nFrom: later@example.org\r\n").encode()
        assert senders.headers_of(raw) == parsed(raw), raw
        plain += senders._plain_headers(header_block(raw)) is not None
    assert plain > 50  # the own reading was used, not only the parser


def test_a_plain_block_is_read_without_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = (b"Received: from x\r\n\tby y\r\nFrom: Alice\r\n <alice@example.org>\r\nMessage-ID: <m@x>\r\n"
           b"From: second@example.org\r\n\r\nFrom: body@example.org\r\n")
    want = parsed(raw)
    monkeypatch.setattr(senders, "_HEADERS", None)  # any use of the parser would fail
    assert senders.headers_of(raw) == want == {"Message-ID": "<m@x>", "From": "Alice\r\n <alice@example.org>"}
