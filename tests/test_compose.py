"""The headers maild writes: bounded, threaded without growing, free of control characters."""

from __future__ import annotations

import email
from datetime import UTC, datetime
from email.policy import default

from maild.mail.compose import compose, header_value, subject_line, thread_ids


def composed(**kw: object) -> email.message.EmailMessage:
    args: dict[str, object] = dict(key="k", sender="gm@example.org", to=["a@example.org"], subject="s", body="b",
                                   date=datetime(2026, 11, 22, tzinfo=UTC), auto_submitted="auto-replied")
    args.update(kw)
    return email.message_from_bytes(compose(**args).raw, policy=default)  # type: ignore[arg-type, return-value]


def test_references_keep_the_first_and_the_last_few_ids() -> None:
    chain = tuple(f"<m{i}@example.org>" for i in range(500))
    msg = composed(in_reply_to="<m500@example.org>", references=chain)
    ids = str(msg["References"]).split()
    assert ids == ["<m0@example.org>", *[f"<m{i}@example.org>" for i in range(495, 501)]]
    assert msg["In-Reply-To"] == "<m500@example.org>"


def test_references_drop_repeats_and_malformed_ids() -> None:
    assert thread_ids(("<a@x>", "junk", "<a@x>", "<" + "y" * 400 + "@x>", "<b@x>"), "<b@x>") == ["<a@x>", "<b@x>"]
    msg = composed(in_reply_to="not an id")
    assert msg["In-Reply-To"] is None and msg["References"] is None


def test_subjects_have_no_control_characters_and_a_bounded_length() -> None:
    assert subject_line("bids\x00 for\x07 turn\r\n 3\x1b[31m") == "bids for turn 3[31m"
    long = subject_line("x" * 5000)
    assert len(long) == 200 and long.endswith("…")
    msg = composed(subject="Re: " + "y" * 5000 + "\x00")
    assert len(str(msg["Subject"])) <= 400 and "\x00" not in str(msg["Subject"])
    assert "\x00" not in header_value("a\x00b") and header_value("a\x7fb\x85c") == "abc"
