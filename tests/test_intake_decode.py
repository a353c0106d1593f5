"""Decoding raw mail: the corpus of real-shaped mails, the pieces, and a light fuzz."""

from __future__ import annotations

import gzip
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from maild.intake.autoreply import auto_reason
from maild.intake.charsets import decode_bytes, decode_header_value
from maild.intake.decode import DecodedMail, decode_mail
from maild.intake.htmltext import html_to_text
from maild.intake.ordertext import extract
from maild.intake.plaintext import normalize, unflow

CORPUS = Path(__file__).parent / "corpus"
MANIFEST: dict[str, Any] = tomllib.loads((CORPUS / "MANIFEST.toml").read_text(encoding="utf-8"))
FILES: dict[str, dict[str, Any]] = MANIFEST["files"]
SIZE_LIMIT: int = MANIFEST["size_limit"]
REGISTERED = {"alice": "alice@example.org", "bob": "bob@example.org", "carol": "carol@example.net"}


def load(name: str) -> bytes:
    raw = (CORPUS / name).read_bytes()
    return gzip.decompress(raw) if FILES[name].get("gzip") else raw


def text_lines(d: DecodedMail) -> list[str]:
    return [line.strip() for line in d.text.split("\n")]


# -- the corpus -----------------------------------------------------------------------------------------

def test_manifest_covers_the_corpus() -> None:
    on_disk = {p.name for p in CORPUS.iterdir() if p.name not in ("MANIFEST.toml", ".gitattributes")}
    assert on_disk == set(FILES)
    assert len(FILES) >= 36
    expects = {"orders", "auto", "bounce", "unknown_sender", "unroutable", "oversized", "bad_password", "help",
               "status", "garbage"}
    assert {spec["expect"] for spec in FILES.values()} == expects


@pytest.mark.parametrize("name", sorted(FILES))
def test_corpus_mail(name: str) -> None:
    spec = FILES[name]
    raw = load(name)
    d = decode_mail(raw, max_size=SIZE_LIMIT)
    expect = spec["expect"]
    assert d.size == len(raw)

    if expect == "oversized":
        assert d.size > SIZE_LIMIT
        assert d.text == "" and d.text_source == "none"
        assert any("bytes" in p for p in d.problems)
        assert d.from_addr == REGISTERED[spec["player"]]  # the headers are still read, for the GM
        return

    if expect in ("auto", "bounce"):  # a bounce is automatic mail too: never answered
        assert d.auto is not None and spec["auto"].lower() in d.auto.lower()
        return
    assert d.auto is None, f"mistaken for automatic mail: {d.auto}"

    if "text_source" in spec:
        assert d.text_source == spec["text_source"]
    for word in spec.get("problems", []):
        assert any(word.lower() in p.lower() for p in d.problems), (word, d.problems)

    lines = text_lines(d)
    for line in spec.get("orders", []) + spec.get("contains", []):
        assert line in lines, f"{line!r} not in the order text:\n{d.text}"
    for fragment in spec.get("absent", []):
        assert fragment not in d.text, f"{fragment!r} left in the order text:\n{d.text}"
    assert not any(line.startswith(">") for line in lines), d.text
    if "errors" in spec:
        # Every line of the order text is a listed order, one of the `errors` rejected lines or an ignored one.
        meaningful = [line for line in lines if line and not line.startswith("#")]
        assert len(meaningful) == len(spec["orders"]) + spec["errors"] + spec.get("ignored", 0), meaningful

    if "header" in spec:
        game, player, *password = spec["header"]
        assert d.header is not None
        assert (d.header.game, d.header.player, d.header.password) == (game, player, (password or [None])[0])
    elif expect not in ("garbage",):
        assert d.header is None

    if expect in ("help", "status"):
        assert d.command == expect
    else:
        assert d.command is None

    player = spec.get("player")
    if player and expect != "bad_password" or expect == "bad_password" and "header" not in spec:
        # Identified by address, or named in the header line from the player's own address.
        assert d.from_addr == spec["reply_to"] == REGISTERED[player]
    if expect == "bad_password" and "header" in spec:
        assert d.header is not None and d.header.player == player
        assert d.header.password != "sesame"
    if expect == "unknown_sender":
        assert d.from_addr is not None and d.from_addr not in REGISTERED.values()
    if expect == "garbage":
        assert d.from_addr is None
    if expect == "unroutable":
        assert "venice1" not in d.subject_tags and d.header is None
        assert not {"gm@example.org", "gm+venice1@example.org"} & set(d.to_addrs)

    route = spec.get("route")
    if route == "address":
        assert "gm@example.org" in d.to_addrs
    elif route == "plus":
        assert "gm+venice1@example.org" in d.to_addrs
    elif route == "tag":
        assert "venice1" in d.subject_tags
    elif route == "header":
        assert d.header is not None and d.header.game == "venice1"

    # "line N" maps back to the decoded text.
    body_lines = d.body.split("\n")
    assert len(d.line_map) == len(d.text.split("\n")) or d.text == ""
    for n, line in zip(d.line_map, d.text.split("\n"), strict=False):
        assert body_lines[n - 1] == line


def test_corpus_decodes_names_and_charsets() -> None:
    d = decode_mail(load("carol-latin1.eml"))
    assert d.from_display == "Carole Lefèvre" and d.subject == "Voilà mes enchères"
    d = decode_mail(load("bob-cp1252.eml"))
    assert d.subject == "Gebote – Kredit 200 €"
    assert "Kredit 200 €, „wie immer“." in d.body
    d = decode_mail(load("alice-utf8-emoji.eml"))
    assert d.subject == "🎲 my bids 🎲" and d.from_display == "Alice 🎲 Liddell"
    assert "🎲🍀" in d.body
    d = decode_mail(load("bob-outlook.eml"))
    assert d.subject == "bids – turn 1"
    assert "500 €" in d.body
    d = decode_mail(load("uppercase-sender.eml"))
    assert d.from_addr == "alice@example.org" and d.from_display == "LIDDELL, Alice"
    assert d.to_addrs == ["gm@example.org"]


def test_corpus_threading_headers() -> None:
    d = decode_mail(load("alice-gmail-reply-toppost.eml"))
    assert d.message_id == "<CAJr7pQ=9kLm3nB4vC5xZ6aS7dF8gH9jK0lP1oI2uY3tR4eW5qQ@mail.gmail.com>"
    assert d.in_reply_to == "<20261122161501.4f2a.venice1-ack-1@example.org>"
    assert d.references == ["<20261122161500.8c1e.venice1-turn-0@example.org>",
                            "<20261122161501.4f2a.venice1-ack-1@example.org>"]
    assert d.date == "Sun, 22 Nov 2026 19:40:02 +0100"
    assert d.quoted_removed


def test_corpus_line_numbers_point_at_the_mail() -> None:
    d = decode_mail(load("carol-thunderbird-interleaved.eml"))
    assert d.text.split("\n")[:3] == ["bid 20$ for 2 of silk tax", "borrow 120$", ""]
    body = d.body.split("\n")
    assert body[d.line_map[1] - 1] == "borrow 120$"
    assert body[d.header.line_index] == "#venice1 carol"  # type: ignore[union-attr]


def test_corpus_routing_addresses() -> None:
    d = decode_mail(load("plus-address.eml"))
    assert d.to_addrs == ["gm+venice1@example.org"]  # To, Delivered-To and X-Original-To, once
    d = decode_mail(load("auto-mailing-list.eml"))
    assert d.to_addrs == ["pbm@lists.example.com", "gm@example.org"]


# -- fuzz ----------------------------------------------------------------------------------------------

def _mutations(rng: random.Random, seeds: list[bytes]) -> list[bytes]:
    tokens = [b"\r\n\r\n", b"\n--", b"Content-Type: multipart/mixed; boundary=x\r\n", b"=?utf-8?b?", b"?=",
              b"Content-Transfer-Encoding: base64\r\n", b"charset=\"x-bogus\"", b"=\r\n", b"=F", b"\xff\xfe",
              b"<html><b>", b"</blockquote>", b"#venice1 ", b"> ", b"format=flowed", b"\x00", b"\x1b$B"]
    out: list[bytes] = []
    for _ in range(300):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 8)):
            op = rng.randrange(5)
            pos = rng.randrange(len(data) + 1)
            if op == 0 and data:
                data[min(pos, len(data) - 1)] = rng.randrange(256)
            elif op == 1:
                data[pos:pos] = rng.choice(tokens)
            elif op == 2:
                del data[pos:pos + rng.randint(1, 200)]
            elif op == 3:
                data = data[:pos]
            else:
                data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
        out.append(bytes(data))
    out += [b"", b"\r\n", b"\n\n\n", b":", b"From:", b"Content-Type: multipart/mixed\r\n\r\n--",
            bytes(rng.randrange(256) for _ in range(5000))]
    return out


def test_fuzz_never_raises() -> None:
    rng = random.Random(5322)
    seeds = [load(name) for name in sorted(FILES) if not FILES[name].get("gzip")]
    for data in _mutations(rng, seeds):
        d = decode_mail(data)
        assert isinstance(d, DecodedMail) and isinstance(d.text, str)
        auto_reason(data)


def test_deep_nesting_is_cut_off() -> None:
    parts = [b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i) for i in range(60)]
    d = decode_mail(b"From: a@b.c\r\n" + b"".join(parts) + b"Content-Type: text/plain\r\n\r\nbid 1$\r\n")
    assert isinstance(d, DecodedMail)


def test_input_that_is_not_bytes_does_not_raise() -> None:
    d = decode_mail(bytearray(b"From: a@b.c\r\n\r\nhello"))  # type: ignore[arg-type]
    assert d.text == "hello"
    assert decode_mail(None).problems  # type: ignore[arg-type]


# -- charsets and headers -------------------------------------------------------------------------------

@pytest.mark.parametrize("data, declared, text, problem", [
    (b"caf\xc3\xa9", "utf-8", "café", False),
    (b"caf\xe9", "iso-8859-1", "café", False),
    (b"200 \x80", "iso-8859-1", "200 €", False),  # latin-1 labels are read as cp1252
    (b"\x93quoted\x94", None, "“quoted”", False),  # undeclared 8-bit: utf-8 fails, cp1252
    (b"caf\xc3\xa9", None, "café", False),  # undeclared UTF-8
    (b"caf\xc3\xa9", "us-ascii", "café", False),
    (b"caf\xc3\xa9", "x-bogus", "café", True),
    (b"caf\xe9", "utf-8", "café", True),  # mislabelled cp1252
    (b"\xe9t\xe9 \x81", "utf-8", "été \x81", True),  # no charset fits: latin-1, reported
    (b"\xd0\xd2\xc9", "koi8-r", "при", False),  # a real declared charset wins
    (b"abc", "base64", "abc", False),  # not a text codec: ignored
])
def test_decode_bytes(data: bytes, declared: str | None, text: str, problem: bool) -> None:
    got, why = decode_bytes(data, declared)
    assert got == text
    assert (why is not None) == problem


def test_decode_bytes_mostly_utf8() -> None:
    text, why = decode_bytes("déjà vu, naïve café ".encode() + b"\xff", "utf-8")
    assert text.startswith("déjà vu, naïve café") and why


@pytest.mark.parametrize("raw, decoded", [
    ("=?utf-8?q?Caf=C3=A9?= au lait", "Café au lait"),
    ("=?utf-8?b?8J+Osg==?= =?utf-8?b?8J+Osg==?=", "🎲🎲"),  # blanks between encoded words go
    ("=?ISO-8859-1?Q?Lef=E8vre?=,\r\n Carole", "Lefèvre, Carole"),
    ("=?x-unknown?q?caf=E9?=", "café"),
    ("=?utf-8?b?!!!?=", "=?utf-8?b?!!!?="),
    ("=?utf-8*en?q?hello?=", "hello"),  # RFC 2231 language tag
    ("plain \udcc3\udca9t\udcc3\udca9", "plain été"),  # raw 8-bit header bytes
])
def test_decode_header_value(raw: str, decoded: str) -> None:
    assert decode_header_value(raw) == decoded


def test_addresses_and_ids() -> None:
    raw = (b"From: =?utf-8?q?Smith=2C_John?= <John.Smith@Example.COM>\r\n"
           b"To: a@x.org, \"B, C\" <B@X.org>\r\nCc: <c@x.org>\r\nDelivered-To: a@x.org\r\n"
           b"Message-ID: no-brackets@host\r\nIn-Reply-To: junk <id1@h> <id2@h>\r\n"
           b"References: <id0@h>\r\n <id1@h>\r\n\r\nhi\r\n")
    d = decode_mail(raw)
    assert d.from_addr == "john.smith@example.com" and d.from_display == "Smith, John"
    assert d.to_addrs == ["a@x.org", "b@x.org", "c@x.org"]
    assert d.message_id == "<no-brackets@host>"
    assert d.in_reply_to == "<id1@h>"
    assert d.references == ["<id0@h>", "<id1@h>"]


def test_missing_headers() -> None:
    d = decode_mail(b"\r\nbid 1$ for 1 of silk tax\r\n")
    assert d.from_addr is None and d.subject == "" and d.message_id is None and d.to_addrs == []
    assert d.text == "bid 1$ for 1 of silk tax"


# -- body selection -------------------------------------------------------------------------------------

def _mime(ctype: str, body: str, extra: str = "") -> bytes:
    return f"From: a@example.org\r\nMIME-Version: 1.0\r\nContent-Type: {ctype}\r\n{extra}\r\n{body}".encode()


def test_alternative_prefers_plain_and_can_prefer_html() -> None:
    body = ("--b\r\nContent-Type: text/plain\r\n\r\nbid 1$ for 1 of silk tax\r\n"
            "--b\r\nContent-Type: text/html\r\n\r\n<b>bid</b> 1$ for 1 of silk tax\r\n--b--\r\n")
    raw = _mime('multipart/alternative; boundary="b"', body)
    assert decode_mail(raw).text == "bid 1$ for 1 of silk tax"
    d = decode_mail(raw, prefer=("html", "plain"))
    assert d.text == "**bid** 1$ for 1 of silk tax" and d.text_source == "html"
    assert not any("HTML" in p for p in d.problems)


def test_blank_plain_alternative_falls_back_to_html() -> None:
    body = ("--b\r\nContent-Type: text/plain\r\n\r\n \r\n"
            "--b\r\nContent-Type: text/html\r\n\r\n<p>borrow 5$</p>\r\n--b--\r\n")
    d = decode_mail(_mime('multipart/alternative; boundary="b"', body))
    assert d.text == "borrow 5$" and d.text_source == "html"


def test_attachment_rule() -> None:
    body = ("--b\r\nContent-Type: text/plain\r\n\r\n#venice1 bob sesame\r\nsee attached\r\n"
            "--b\r\nContent-Type: text/plain; name=o.txt\r\nContent-Disposition: attachment; filename=o.txt\r\n"
            "\r\nborrow 5$\r\n"
            "--b\r\nContent-Type: image/png; name=x.png\r\nContent-Disposition: attachment; filename=x.png\r\n"
            "Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--b--\r\n")
    d = decode_mail(_mime('multipart/mixed; boundary="b"', body))
    assert d.text == "borrow 5$" and d.text_source == "attachment:o.txt"
    assert d.header is not None and d.header.player == "bob"  # the body's header line still applies
    assert any("x.png" in p for p in d.problems)
    assert any("attached file" in p for p in d.problems)


def test_empty_text_attachment_leaves_the_body() -> None:
    body = ("--b\r\nContent-Type: text/plain\r\n\r\nborrow 5$\r\n"
            "--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=empty.txt\r\n"
            "\r\n\r\n--b--\r\n")
    d = decode_mail(_mime('multipart/mixed; boundary="b"', body))
    assert d.text == "borrow 5$" and d.text_source == "plain"


def test_encrypted_and_forwarded_parts() -> None:
    body = ("--b\r\nContent-Type: application/pgp-encrypted\r\n\r\nVersion: 1\r\n"
            "--b\r\nContent-Type: application/octet-stream\r\n\r\n-----BEGIN PGP MESSAGE-----\r\n--b--\r\n")
    d = decode_mail(_mime('multipart/encrypted; boundary="b"', body))
    assert d.text == "" and any("encrypted" in p for p in d.problems)
    body = ("--b\r\nContent-Type: text/plain\r\n\r\nborrow 5$\r\n"
            "--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: x@y\r\n\r\nbid 9$ for 1 of silk tax\r\n--b--\r\n")
    d = decode_mail(_mime('multipart/mixed; boundary="b"', body))
    assert d.text == "borrow 5$" and any("ignored" in p for p in d.problems)


def test_bad_base64_is_reported() -> None:
    d = decode_mail(_mime("text/plain", "Ym9y!!cm93IDUk\r\n", "Content-Transfer-Encoding: base64\r\n"))
    assert any("base64" in p for p in d.problems)


def test_flowed_delsp() -> None:
    raw = _mime("text/plain; format=flowed; delsp=yes", "bid 30$ for 2 of sil \r\nk tax\r\n")
    assert decode_mail(raw).text == "bid 30$ for 2 of silk tax"


def test_oversized_reads_headers_only() -> None:
    raw = _mime("text/plain", "x" * 5000, "Subject: big\r\n")
    d = decode_mail(raw, max_size=1000)
    assert d.subject == "big" and d.text == "" and d.from_addr == "a@example.org"


# -- text cleaning --------------------------------------------------------------------------------------

def test_normalize() -> None:
    text = "bid\u00a030$ for 2 of si\u200blk tax  \r\n\ufeff“quoted” — ok\t\r\ne\u0301\x00\x85\r"
    assert normalize(text) == "bid 30$ for 2 of silk tax\n“quoted” — ok\né\n"


def test_unflow() -> None:
    flowed = "a long \nline\n> quoted \n> on\n>> deeper\n -- stuffed\n-- \nsig"
    assert unflow(flowed, delsp=False) == "a long line\n> quoted on\n> > deeper\n-- stuffed\n-- \nsig"


# -- HTML -----------------------------------------------------------------------------------------------

def test_html_bold_and_blocks() -> None:
    html = ("<html><head><title>t</title><style>p{}</style></head><body>"
            "<div>Hi<br></div><div><br></div>"
            "<p class=MsoNormal><b>bid <strong>30$</strong></b> for 2 of silk tax<o:p></o:p></p>"
            "<p><span style='font-weight:600'>borrow</span> <span style=\"font-weight: 400\">5$</span></p>"
            "<p style='font-weight:bold'>a <span style='font-weight:normal'>b</span> c</p>"
            "<ul><li>one<li>two</ul><table><tr><td>x</td><td>y</td></tr></table>"
            "<b>split<br>line</b><div style='display:none'>hidden</div><script>s()</script>"
            "&amp; &lt;&gt; &eacute; &#8364;</body></html>")
    assert html_to_text(html).split("\n") == [
        "Hi", "", "**bid 30$** for 2 of silk tax", "**borrow** 5$", "**a** b **c**", "one", "two", "x y",
        "**split**", "**line**", "& <> é €"]


def test_html_blockquote_and_hr() -> None:
    html = ("<div>mine</div><blockquote type=cite><div>On x wrote:</div>"
            "<blockquote>deep</blockquote>back</blockquote><hr><b>From:</b> GM")
    assert html_to_text(html).split("\n") == ["mine", "> On x wrote:", "> > deep", "> back", "_" * 32,
                                               "**From:** GM"]


def test_html_broken_markup_does_not_raise() -> None:
    for html in ["<b>unclosed <i>tags", "</div></div>stray", "<![if !supportLists]>1.<![endif]>x",
                 "<a href='x>bad quote", "<<<>>>", "<pre>  keep\n  lines</pre>", "<!-- unclosed comment"]:
        assert isinstance(html_to_text(html), str)


def test_extract_on_decoded_text_is_what_decode_uses() -> None:
    d = decode_mail(load("carol-thunderbird-interleaved.eml"))
    again = extract(d.body, d.subject)
    assert again.text == d.text and again.line_map == d.line_map
