"""Password guessing by mail is bounded, and no answer tells a guesser how he did (issue 22, "Guessing and
secrets"). Each attack runs through the real intake (stored raw mail, `process_new`, the outbox table) on
SQLite and PostgreSQL, with the injected clock; each failed on the code before the limits: all 400 guesses
were checked and the right one booked, and a HELP with a wrong password was answered "it carried a wrong
password"."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from maild.app import App
from maild.config import GuessingLimits, load_config, parse_config
from maild.errors import ConfigError
from maild.intake.pipeline import NOT_ANSWERED
from maild.models import InboundMail, OrderSetRow, PasswordFailure
from tests.conftest import config_dict
from tests.paths import ROOT
from tests.replyflow import MORNING, answers, at, deliver, gm_notices, limited_app, mail, text_of

BOB = "bob@example.org"  # bob's password in VENICE_SETUP is "sesame"
LIMIT_NOTE = "password guessing limit reached for bob"


def statuses(app: App) -> list[tuple[str, str]]:
    """Each mail's status and note, without what the note adds about the answer (NOT_ANSWERED)."""
    with app.db.session() as s:
        return [(r.status, (r.note or "").split(NOT_ANSWERED)[0])
                for r in s.scalars(select(InboundMail).order_by(InboundMail.id))]


def failures(app: App) -> int:
    with app.db.session() as s:
        return s.scalar(select(func.count()).select_from(PasswordFailure)) or 0


def booked(app: App) -> list[str]:
    """The senders of the mails read as bob's orders (booked for the turn they count for, or, for a turn after
    whose deadline only some orders are good, booked as not understood)."""
    with app.db.session() as s:
        return list(s.scalars(select(InboundMail.sender).join(OrderSetRow, OrderSetRow.mail_id == InboundMail.id)
                              .order_by(InboundMail.id)))


def guessing_notices(app: App) -> tuple[list[str], list[str]]:
    """The texts of the guessing notices to bob and to the GM."""
    to_bob = [text_of(a) for a in answers(app, BOB, "warning") if "guessing your password" in str(a.subject)]
    to_gm = [text_of(n) for n in gm_notices(app) if "password guessing for bob" in str(n.subject)]
    return to_bob, to_gm


def test_400_guesses_from_one_address_are_10_checks_and_the_right_one_is_not_booked(
        tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    """Mallory mails 400 guesses at bob's password, ten every ten minutes (6h40m), the last one right."""
    app = limited_app(tmp_path, db_url, venice_setup)
    guesses = [f"guess{i}" for i in range(399)] + ["sesame"]
    for n in range(40):
        deliver(at(app, MORNING + timedelta(minutes=10 * n)),
                *[mail("mallory@example.com", f"#venice1 bob {g}\nbid 1$ for 1 of opera")
                  for g in guesses[10 * n:10 * n + 10]])
    rows = statuses(app)
    held = [note for status, note in rows if status == "bad_password" and note.startswith(LIMIT_NOTE)]
    # Checked: 3 in the first hour, 3 in the second, 3 in the third, the 10th (the day's limit) in the fourth.
    assert failures(app) == 10
    assert len(rows) == 400 and {status for status, _note in rows} == {"bad_password"}
    assert len(held) == 390
    assert booked(app) == []  # the right password came while the lock held: it was never looked at
    assert held[-1] == ("password guessing limit reached for bob: 10 wrong passwords from mallory@example.com in "
                        "the last 24 hours; not read until 2026-11-23 08:00 UTC")
    assert held[0].endswith("3 wrong passwords from mallory@example.com in the last hour; not read until "
                            "2026-11-22 09:00 UTC")
    # Told once, however many lock-outs: bob (one guessing notice, one refusal notice counting the rest the
    # next day) and the GM; the guesser gets nothing.
    to_bob, to_gm = guessing_notices(app)
    assert len(to_bob) == 1 and len(to_gm) == 1
    assert "3 mails in your name with a wrong or missing password from" in " ".join(to_bob[0].split())
    assert "#venice1 bob YOUR-PASSWORD" in to_bob[0] and "sesame" not in to_bob[0]
    assert LIMIT_NOTE in to_gm[0] and "maild mail list" in to_gm[0]
    assert len(answers(app, BOB, "warning")) == 2
    assert answers(app, "mallory@example.com") == []

    # Bob's own mail with his password is read at once.
    deliver(at(app, MORNING + timedelta(hours=7)), mail(BOB, "#venice1 bob sesame\nborrow 2$"))
    assert booked(app) == [BOB]
    # Mallory's right password is read once the 24 hours since her first wrong one have passed ...
    deliver(at(app, MORNING + timedelta(days=1)), mail("mallory@example.com",
                                                       "#venice1 bob sesame\nborrow 3$"))
    assert booked(app) == [BOB, "mallory@example.com"]
    # ... and three more wrong ones lock her out again, which bob and the GM hear of on this new day.
    deliver(at(app, MORNING + timedelta(days=1, minutes=5)),
            *[mail("mallory+x@example.com", f"#venice1 bob again{i}\nborrow 5$") for i in range(4)])
    assert statuses(app)[-1][1].startswith(LIMIT_NOTE)
    assert failures(app) == 13
    assert [len(notices) for notices in guessing_notices(app)] == [2, 2]


def test_many_addresses_lock_every_sender_but_the_players_own_mail(tmp_path: Path, db_url: str,
                                                                  venice_setup: Path) -> None:
    app = limited_app(tmp_path, db_url, venice_setup, password_failures_per_player_hour=5)
    deliver(app, *[mail(f"bot{i}@example.net", f"#venice1 bob try{i}\nborrow 1$") for i in range(5)])
    assert failures(app) == 5
    later = at(app, MORNING + timedelta(minutes=20))
    deliver(later, mail("fresh@example.net", "#venice1 bob sesame\nborrow 2$"),  # the right password: held
            mail(BOB, "#venice1 bob sesame\nborrow 3$"),  # bob's own: read
            mail(BOB, "#venice1 bob guess\nborrow 4$"),  # forged From with a wrong one: held, and counted
            mail(BOB, "HELP"))  # his HELP needs no password
    rows = statuses(app)[-4:]
    assert rows[0] == ("bad_password", "password guessing limit reached for bob: 5 wrong passwords from all "
                                       "addresses together in the last hour; not read until 2026-11-22 09:00 UTC")
    assert rows[1][0] == "orders" and rows[2][0] == "bad_password" and rows[3][0] == "command"
    assert booked(app) == [BOB]
    assert failures(app) == 6
    # The hour passes (counted from the oldest of the five): the fresh address is read again.
    deliver(at(app, MORNING + timedelta(hours=1)), mail("fresh@example.net", "#venice1 bob sesame\nborrow 5$"))
    assert booked(app) == [BOB, "fresh@example.net"]


def test_a_help_with_a_wrong_password_is_answered_as_a_strangers(tmp_path: Path, db_url: str,
                                                                 venice_setup: Path) -> None:
    """The answer is the same text whether the password was wrong, right, or the player does not exist."""
    app = limited_app(tmp_path, db_url, venice_setup)
    deliver(app, mail("wrong@example.com", "#venice1 bob guess\nHELP", subject="help"),
            mail("right@example.com", "#venice1 bob sesame\nHELP", subject="help"),
            mail("nobody@example.com", "#venice1 zed whatever\nHELP", subject="help"),
            mail("stranger@example.com", "HELP", subject="help"))
    texts = {}
    for sender in ("wrong", "right", "nobody", "stranger"):
        [answer] = answers(app, f"{sender}@example.com")
        texts[sender] = text_of(answer).replace(f"{sender}@example.com", "SENDER")
    assert texts["wrong"] == texts["right"] == texts["nobody"] == texts["stranger"]
    assert "wrong password" not in texts["wrong"] and "bob" not in texts["wrong"]
    assert failures(app) == 0  # a HELP's password is not looked at: it is no guess
    assert answers(app, BOB) == []
    # With orders beside the HELP, the sender's answer is still a stranger's, right password or wrong; the
    # orders go by the password, and only bob's registered address hears what became of them.
    deliver(app, mail("wrong2@example.com", "#venice1 bob guess\nHELP\nborrow 5$", subject="help"),
            mail("right2@example.com", "#venice1 bob sesame\nHELP\nborrow 5$", subject="help"))
    wrong, right = (text_of(answers(app, f"{s}@example.com")[0]).replace(f"{s}@example.com", "SENDER")
                    for s in ("wrong2", "right2"))
    assert wrong == right == texts["stranger"]
    assert booked(app) == ["right2@example.com"] and failures(app) == 1
    assert [a.kind for a in answers(app, BOB)] == ["warning", "ack"]


def test_the_limits_are_config_keys(tmp_path: Path) -> None:
    data = config_dict(tmp_path, "sqlite://")
    assert parse_config(data, tmp_path, None).guessing == GuessingLimits(3, 10, 10, 30)
    assert load_config(ROOT / "config.example.toml").guessing == GuessingLimits()  # the example shows them
    data["limits"] = {"password_failures_per_sender_hour": 2, "password_failures_per_player_day": 50}
    assert parse_config(data, tmp_path, None).guessing == GuessingLimits(2, 10, 10, 50)
    data["limits"] = {"password_failures_per_player_day": 5}
    with pytest.raises(ConfigError, match="password_failures_per_player_day: 5 is less than "
                                          "limits.password_failures_per_player_hour"):
        parse_config(data, tmp_path, None)
    data["limits"] = {"password_failures_per_sender_hour": 0}
    with pytest.raises(ConfigError, match="expected a whole number of at least 1"):
        parse_config(data, tmp_path, None)
