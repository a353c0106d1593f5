"""Hostile input costs linear time: inputs big enough that one quadratic step would take minutes."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from maild.intake.autoreply import auto_reason
from maild.intake.decode import decode_mail
from maild.intake.htmlguard import defuse
from maild.intake.htmltext import html_to_text

# Each of these took from a minute (300,000 spaces in a From display name: 66 s) to hours before.
BOUND = 5.0  # seconds; a linear pass over these inputs takes well under one


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


@pytest.mark.parametrize("from_value", [
    "x" + " " * 300_000 + "<alice@example.org",  # the reported case: no closing bracket
    "x" + " " * 300_000 + "<alice@example.org> trailing",
    "x" + " " * 300_000 + "y",
    "x" + " " * 300_000 + "alice@example.org",
    "(" * 300_000 + "alice@example.org",  # nested comments: the stdlib parser recurses
])
def test_from_header_is_read_in_linear_time(from_value: str) -> None:
    raw = f"From: {from_value}\nSubject: orders\n\nbid 1\n".encode()
    assert _timed(lambda: decode_mail(raw)) < BOUND


def test_ordinary_from_still_read() -> None:
    d = decode_mail(b"From: Alice   Smith <Alice@Example.org>\nSubject: s\n\nx\n")
    assert (d.from_addr, d.from_display) == ("alice@example.org", "Alice   Smith")
    assert decode_mail(b"From: <bob@example.org>\n\nx\n").from_addr == "bob@example.org"
    assert decode_mail(b'From: "Smith, Carol" <carol@example.net>\n\nx\n').from_addr == "carol@example.net"


def test_long_recipient_lists_are_read_in_linear_time() -> None:
    to = ", ".join(f"player{n} <p{n}@example.org>" for n in range(40_000)) + ", gm@example.org"
    raw = f"From: alice@example.org\nTo: {to}\nCc: {'(' * 100_000}\nSubject: s\n\nbid 1\n".encode()
    assert _timed(lambda: decode_mail(raw)) < BOUND
    assert "gm@example.org" in decode_mail(raw).to_addrs


def test_megabyte_header_of_address_characters() -> None:
    # A From, Sender or Reply-To of one long run of name characters and no "@".
    headers = {"from": ["a" * 1_000_000], "sender": ["b" * 1_000_000]}
    assert _timed(lambda: auto_reason(headers)) < BOUND
    assert auto_reason({"from": ["x" * 100 + " MAILER-DAEMON@example.org"]}) is not None


@pytest.mark.parametrize("html", ["<a" * 500_000, "</" * 500_000, "<?" * 500_000, "<" * 1_000_000,
                                  "<b>" + "<a x='" * 150_000])
def test_html_with_open_tags_is_converted_in_linear_time(html: str) -> None:
    raw = ("From: alice@example.org\nSubject: s\nContent-Type: text/html\n\n" + html).encode()
    assert _timed(lambda: decode_mail(raw)) < BOUND


def test_defuse_keeps_ordinary_html() -> None:
    html = ('<p>bid <b>20</b> for 1 of silk tax</p><!--[if mso]><xml><o:x/></xml><![endif]-->'
            '<p>a < b and c<d</p>')
    # A "<" that opens no whole tag is text, as a browser shows it.
    assert html_to_text(defuse(html)) == "bid **20** for 1 of silk tax\na < b and c<d"


def test_megabyte_line_of_tricky_characters_in_headers() -> None:
    tricky = ('=?utf-8?q?' + '"«„<>[]();:,@=?' * 70_000)[:1_000_000]
    raw = (f"From: alice@example.org\nSubject: {tricky}\nReferences: {tricky}\nIn-Reply-To: {tricky}\n"
           f"Content-Type: text/plain; {tricky}\n\n#GAME {tricky}\nbid 1\n").encode()
    assert _timed(lambda: decode_mail(raw)) < BOUND


def test_ten_thousand_mime_parts_are_not_all_walked() -> None:
    parts = "".join(f'--B\nContent-Type: application/octet-stream\nContent-Disposition: attachment; '
                    f'filename="f{i}.bin"\n\nxx\n' for i in range(10_000))
    raw = ('From: alice@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n'
           f'--B\nContent-Type: text/plain\n\nbid 1\n{parts}--B--\n').encode()
    assert _timed(lambda: decode_mail(raw)) < BOUND
    d = decode_mail(raw)
    assert d.text.strip() == "bid 1"
    assert "the mail has more than 1000 MIME parts; the rest were not read" in d.problems
    assert len(d.problems) < 1010
