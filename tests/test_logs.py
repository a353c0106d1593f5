"""Structured log lines and the one-line status per pass."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from maild.daemon import PassReport
from maild.logs import KeyValueFormatter


def test_log_lines_are_key_value_and_quote_what_needs_it() -> None:
    record = logging.LogRecord("maild.intake", logging.INFO, __file__, 1, 'mail %d held: "%s"', (7, "no game"),
                               None)
    record.mail_id = 7
    line = KeyValueFormatter().format(record)
    assert line.startswith("ts=")
    assert ' level=info logger=maild.intake msg="mail 7 held: \\"no game\\"" mail_id=7' in line


def test_status_line_sums_up_a_pass() -> None:
    report = PassReport(fetched=3, processed={"orders": 2, "auto": 1}, turns=["venice1:1 done"], sent=5)
    assert report.line(datetime(2026, 11, 22, 16, 16, tzinfo=UTC)) == (
        "2026-11-22 16:16:00 fetched 3, processed 1 auto, 2 orders, turns venice1:1 done, reminders 0, "
        "sent 5, failed 0")
