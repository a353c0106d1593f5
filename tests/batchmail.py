"""Order mails fetched in a batch, for the tests of intake's batches (tests/test_intake_batch.py) and of the
orders in force kept with them (tests/test_orders_in_force.py)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from maild.mail.base import FetchedMail

MORNING = datetime(2026, 11, 22, 10, 0, tzinfo=ZoneInfo("Europe/Rome"))


def order_mail(n: int, body: str = "") -> FetchedMail:
    sender = ("alice@example.org", "carol@example.net")[n % 2]
    raw = (f"From: {sender}\r\nTo: gm@example.org\r\nSubject: bids {n}\r\nMessage-ID: <b-{n}@example.org>\r\n\r\n"
           f"bid {n % 30 + 1}$ for 1 of silk tax\r\n{body}").encode()
    return FetchedMail(source="test", uidvalidity=0, uid=str(n), raw=raw, arrived_at=None)
