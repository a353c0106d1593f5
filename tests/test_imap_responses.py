"""Reading aioimaplib's response lines (maild.mail.imap_responses), and folder names (imap_folders).

No server: the lines are shaped like what aioimaplib 2.x hands over from Dovecot — "* " removed from
untagged lines, SEARCH/LIST answers without their command name, text lines as bytes, each literal a
bytearray right after the line announcing it, and the tagged status line last (callers drop it).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import aioimaplib
import pytest

from maild.mail.imap_folders import encode_mailbox, mailbox_argument
from maild.mail.imap_responses import (
    FetchItem,
    announces_mail,
    is_bye,
    parse_fetch_response,
    parse_internaldate,
    parse_list_delimiter,
    parse_search_response,
    parse_uidvalidity,
    response_text,
)
from tests.mailshapes import TRICKY  # the mail the server tests use

SHORT = b"Subject: two\r\n\r\nhi\r\n"


def fetch_lines(*mails: tuple[int, int, bytes]) -> list[bytes | bytearray]:
    """UID FETCH (UID INTERNALDATE BODY.PEEK[]) lines as Dovecot answers them, status line left off."""
    lines: list[bytes | bytearray] = []
    for seq, uid, raw in mails:
        lines.append(b'%d FETCH (UID %d INTERNALDATE "22-Nov-2026 05:48:37 +0000" BODY[] {%d}' % (seq, uid, len(raw)))
        lines.append(bytearray(raw))
        lines.append(b")")
    return lines


# ---------------------------------------------------------------------------- FETCH


def test_fetch_keeps_the_exact_bytes_of_every_literal() -> None:
    items = parse_fetch_response(fetch_lines((1, 11, TRICKY), (2, 12, SHORT)))
    assert set(items) == {11, 12}
    assert items[11].body == TRICKY  # 8-bit bytes, CRLF and the IMAP-looking lines untouched
    assert items[12].body == SHORT
    assert items[11].arrived_at == datetime(2026, 11, 22, 5, 48, 37, tzinfo=UTC)
    assert isinstance(items[11].body, bytes)


def test_body_lines_that_look_like_responses_start_no_new_item() -> None:
    # The literal holds "* 1 FETCH (UID 99 BODY[] {5}"; only text lines (bytes) start an item.
    items = parse_fetch_response(fetch_lines((1, 11, TRICKY)))
    assert list(items) == [11]


def test_body_that_is_only_a_fetch_line() -> None:
    raw = b"1 FETCH (UID 99 BODY[] {5}\r\n"
    items = parse_fetch_response(fetch_lines((1, 11, raw)))
    assert list(items) == [11] and items[11].body == raw


def test_items_in_any_order_and_text_after_the_literal() -> None:
    lines = [
        b'4 FETCH (BODY[] {%d}' % len(SHORT),
        bytearray(SHORT),
        b' INTERNALDATE " 7-Mar-2026 18:15:00 +0100" UID 40)',
    ]
    item = parse_fetch_response(lines)[40]
    assert item.body == SHORT
    assert item.arrived_at == datetime(2026, 3, 7, 17, 15, tzinfo=UTC)


def test_quoted_body_with_escapes_and_lowercase_names() -> None:
    lines = [b'1 FETCH (uid 5 body[] "short \\"quoted\\" \\\\ body" internaldate "07-Mar-2026 17:15:00 +0000")']
    item = parse_fetch_response(lines)[5]
    assert item.body == b'short "quoted" \\ body'
    assert item.arrived_at == datetime(2026, 3, 7, 17, 15, tzinfo=UTC)


def test_rfc822_empty_literal_nil_body_and_nonsync_literal() -> None:
    lines = [
        b"1 FETCH (UID 1 RFC822 {%d}" % len(SHORT), bytearray(SHORT), b")",
        b"2 FETCH (UID 2 BODY[] {0}", bytearray(), b")",
        b"3 FETCH (UID 3 BODY[] NIL)",
        b"4 FETCH (UID 4 BODY[] {2+}", bytearray(b"ok"), b")",
    ]
    items = parse_fetch_response(lines)
    assert items[1].body == SHORT
    assert items[2].body == b""
    assert items[3].body is None
    assert items[4].body == b"ok"


def test_unsolicited_flag_changes_do_not_replace_a_body() -> None:
    lines = [
        b"7 FETCH (UID 70 FLAGS (\\Seen \\Flagged))",  # before its body: replaced by the full answer
        *fetch_lines((7, 70, SHORT)),
        b"7 FETCH (FLAGS (\\Seen) UID 70)",  # after: ignored
        b"8 FETCH (FLAGS (\\Deleted))",  # no UID: another session's change, ignored
        b"9 FETCH (UID 90 FLAGS ())",  # a mail we did not ask for: an item without body
    ]
    items = parse_fetch_response(lines)
    assert items[70].body == SHORT
    assert items[90] == FetchItem(uid=90)
    assert set(items) == {70, 90}


def test_flags_and_nested_lists() -> None:
    lines = [b"1 FETCH (FLAGS (\\Seen $Forwarded) BODYSTRUCTURE (\"text\" \"plain\" (\"charset\" \"utf-8\")) UID 3)"]
    assert parse_fetch_response(lines)[3].flags == ["\\Seen", "$Forwarded"]


def test_lines_before_the_first_fetch_and_between_items_are_harmless() -> None:
    lines = [b"3 EXISTS", *fetch_lines((1, 11, SHORT)), b"4 EXISTS", *fetch_lines((2, 12, SHORT))]
    assert set(parse_fetch_response(lines)) == {11, 12}


@pytest.mark.parametrize(
    "bad",
    [
        [b"1 FETCH (UID 1 BODY[] {10}", bytearray(b"short"), b")"],  # literal of the wrong size
        [b"1 FETCH (UID 1 BODY[] {5}", b"hello)"],  # announced literal missing
        [b"1 FETCH (UID 1 BODY[] \"x\"", bytearray(b"stray"), b")"],  # literal nobody announced
        [b"1 FETCH (UID 1 BODY[] \"unterminated)"],
        [b"1 FETCH (UID 1 BODY[] (x)"],  # unbalanced
        [b"1 FETCH (UID 1 (BODY[]) x)"],  # an item name that is a list
    ],
)
def test_an_unreadable_item_is_logged_and_left_out(bad: list[bytes | bytearray],
                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="maild.mail.imap")
    items = parse_fetch_response([*fetch_lines((1, 11, SHORT)), *bad, *fetch_lines((3, 13, TRICKY))])
    assert set(items) == {11, 13}
    assert items[13].body == TRICKY
    [record] = caplog.records
    assert record.name == "maild.mail.imap" and "unreadable FETCH response" in record.getMessage()


def test_no_fetch_lines() -> None:
    assert parse_fetch_response([]) == {}
    assert parse_fetch_response([b"3 EXISTS", bytearray(b"x")]) == {}


# ---------------------------------------------------------------------------- SEARCH, SELECT, LIST


def test_search_uids() -> None:
    assert parse_search_response([b"1 2 10"]) == [1, 2, 10]
    assert parse_search_response([b"3", b"9 4"]) == [3, 9, 4]  # unsorted: the caller sorts
    assert parse_search_response([b""]) == []  # "* SEARCH" with no match
    assert parse_search_response([]) == []


SELECT_LINES = [
    b"FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft)",
    b"OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft \\*)] Flags permitted.",
    b"2 EXISTS",
    b"2 RECENT",
    b"OK [UNSEEN 1] First unseen.",
    b"OK [UIDVALIDITY 1795326517] UIDs valid",
    b"OK [UIDNEXT 3] Predicted next UID",
    b"[READ-WRITE] Select completed (0.001 + 0.000 secs).",
]


def test_uidvalidity_from_select() -> None:
    assert parse_uidvalidity(SELECT_LINES) == 1795326517
    assert parse_uidvalidity([bytearray(b"OK [UIDVALIDITY 7] UIDs valid")]) == 7
    assert parse_uidvalidity([line for line in SELECT_LINES if b"UIDVALIDITY" not in line]) is None
    assert parse_uidvalidity([]) is None


def test_delimiter_from_list() -> None:
    assert parse_list_delimiter([b'(\\Noselect) "." ""']) == "."
    assert parse_list_delimiter([b'(\\Noselect) "/" ""']) == "/"
    assert parse_list_delimiter([b'() "." ""']) == "."
    assert parse_list_delimiter([b'(\\Noselect) NIL ""']) is None  # flat namespace
    assert parse_list_delimiter([]) is None


def test_response_text() -> None:
    response = aioimaplib.Response("OK", [*SELECT_LINES])
    assert response_text(response) == "[READ-WRITE] Select completed (0.001 + 0.000 secs)."
    refused = aioimaplib.Response("NO", [b"[AUTHENTICATIONFAILED] Authentication failed."])
    assert response_text(refused) == "[AUTHENTICATIONFAILED] Authentication failed."
    assert response_text(aioimaplib.Response("NO", [b"caf\xe9"])) == "caf\ufffd"
    assert response_text(aioimaplib.Response("BAD", [])) == "BAD"
    assert response_text(aioimaplib.Response("KO", ["timed out"])) == "timed out"


# ---------------------------------------------------------------------------- IDLE pushes


def test_only_exists_announces_mail() -> None:
    assert announces_mail(b"3 EXISTS")
    assert announces_mail(b"* 3 EXISTS")
    assert announces_mail(b"4 exists")
    assert not announces_mail(b"3 RECENT")
    assert not announces_mail(b"OK Still here")
    assert not announces_mail(b"3 EXPUNGE")
    assert not announces_mail(b"1 FETCH (FLAGS (\\Seen))")
    assert not announces_mail(b"OK 3 EXISTS")


def test_bye() -> None:
    assert is_bye(b"BYE Server shutting down.")
    assert is_bye(b"* BYE see you")
    assert is_bye(b"bye")
    assert not is_bye(b"OK Still here")
    assert not is_bye(b"3 EXISTS")


# ---------------------------------------------------------------------------- INTERNALDATE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("17-Jul-1996 02:44:25 -0700", datetime(1996, 7, 17, 9, 44, 25, tzinfo=UTC)),
        (" 7-Mar-2026 18:15:00 +0100", datetime(2026, 3, 7, 17, 15, tzinfo=UTC)),
        ("07-mar-2026 18:15:00 +0530", datetime(2026, 3, 7, 12, 45, tzinfo=UTC)),
        ("31-Dec-2025 23:30:00 -0100", datetime(2026, 1, 1, 0, 30, tzinfo=UTC)),
        ("31-Feb-2026 10:00:00 +0000", None),
        ("17-Jux-1996 02:44:25 -0700", None),
        ("17-Jul-1996 02:44:25", None),
        ("garbage", None),
        ("", None),
    ],
)
def test_internaldate(text: str, expected: datetime | None) -> None:
    assert parse_internaldate(text) == expected


# ---------------------------------------------------------------------------- folder names (imap_folders)


def test_encode_mailbox_modified_utf7() -> None:
    assert encode_mailbox("INBOX") == '"INBOX"'
    assert encode_mailbox("Züge & Co") == '"Z&APw-ge &- Co"'
    assert encode_mailbox("~peter/mail/台北/日本語") == '"~peter/mail/&U,BTFw-/&ZeVnLIqe-"'  # RFC 3501 5.1.3
    assert encode_mailbox('a"b\\c') == '"a\\"b\\\\c"'


def test_mailbox_argument_uses_the_server_separator() -> None:
    assert mailbox_argument("Archive/2026", ".") == '"Archive.2026"'
    assert mailbox_argument("Archive/2026", "/") == '"Archive/2026"'
    assert mailbox_argument("Archive/2026", None) == '"Archive/2026"'
    assert mailbox_argument("Archiv/Züge", ".") == '"Archiv.Z&APw-ge"'
