"""Issue 26, acceptance 1: a whole season by mail through the daemon (docs/season.md).

Five players play rock, paper, scissors (tests/season_games.py: a silent position throws again its last throw)
every day at 18:00 in Europe/Berlin, with the missed-orders ladder, a grace of six hours, the "defaults" absence
rule and white press; a second game at another address has grey press. cat falls silent and climbs the ladder to
civil disorder; eve, on the standby list, takes his position over; dan declares an absence; ann sets her time
zone and reads the calendar files back with `icalendar`; a RESEND; the GM pauses and resumes. Every mail maild
sent is scanned, headers, text and attachments, for the address of anyone but its own recipient.

Figures (by hand): the season starts Thursday 25 March 2027 at 09:00 UTC. 18:00 in Berlin is 17:00 UTC (CET)
until the EU's summer time begins on Sunday 28 March at 01:00 UTC, 16:00 UTC (CEST) from then on. New York has
been on summer time (EDT, UTC-4) since 14 March: 17:00 UTC is 13:00 EDT, 16:00 UTC is 12:00 EDT.
"""

from __future__ import annotations

import email
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

from icalendar import Calendar

from maild.deadline_changes import pause, resume
from maild.games import get_game, get_turn
from maild.ladder import open_to_substitute
from maild.models import OutboundMail
from maild.testing import Table, attachments_of, sent, text_of
from tests import season_games  # noqa: F401 - registers rps_standing

START = datetime(2027, 3, 25, 9, 0, tzinfo=UTC)
GM = "referee@example.org"
GREY = "grey@example.org"  # the grey game's address (the white game's is maild.testing.GM_ADDRESS)
PEOPLE = {name: f"{name}@example.org" for name in ("ann", "bob", "cat", "dan", "fay", "eve")}  # eve: a volunteer
BOB = "#season1 bob sesame\n"  # bob's mails carry his password line
SETUP: dict[str, Any] = {"rounds": 10, "players": [
    {"name": "ann", "email": PEOPLE["ann"]}, {"name": "bob", "email": PEOPLE["bob"], "password": "sesame"},
    {"name": "cat", "email": PEOPLE["cat"]}, {"name": "dan", "email": PEOPLE["dan"]},
    {"name": "fay", "email": PEOPLE["fay"]}]}
OPTIONS = {"missed": {"defaults_after": 2, "disorder_after": 3}, "grace": "6h", "press": "white",
           "absence": {"rule": "defaults", "max_days": 10, "announce": "players"}}


def utc(month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2027, month, day, hour, minute, tzinfo=UTC)


def flat(text: str) -> str:
    return " ".join(text.split())


def to(mails: list[EmailMessage], address: str, subject: str = "") -> list[EmailMessage]:
    return [m for m in mails if str(m["To"]) == address and subject in str(m["Subject"])]


def one(mails: list[EmailMessage], address: str, subject: str = "") -> EmailMessage:
    found = to(mails, address, subject)
    assert len(found) == 1, (address, subject, [(str(m["To"]), str(m["Subject"])) for m in mails])
    return found[0]


def subjects(mails: list[EmailMessage]) -> set[str]:
    return {str(m["Subject"]) for m in mails}


def events(mail: EmailMessage) -> list[tuple[str, int, datetime]]:
    """The deadlines of the calendar file `mail` carries, as a calendar program reads them: UID, SEQUENCE and
    the instant in UTC of each event."""
    [data] = [blob for _name, kind, blob in attachments_of(mail) if kind == "text/calendar"]
    cal = Calendar.from_ical(data)
    return [(str(e["uid"]), int(e["sequence"]), e.decoded("dtstart").astimezone(UTC)) for e in cal.walk("VEVENT")]


def deadline(table: Table, game: str = "season1") -> tuple[int, datetime | None]:
    with table.app.db.session() as s:
        g = get_game(s, game)
        turn = get_turn(s, g, g.turn)
        return g.turn, turn.deadline if turn else None


def throw(table: Table, throws: dict[str, str]) -> list[EmailMessage]:
    """Each one named (by his address's name: eve throws for cat once she has his position) mails his throw;
    one pass reads them."""
    for name, word in throws.items():
        table.send(PEOPLE[name], (BOB if name == "bob" else "") + f"throw {word}")
    return table.intake()


def at(table: Table, when: datetime) -> list[EmailMessage]:
    """The clock moves on to `when` and the daemon makes a pass: the mails it sent."""
    assert when > table.now()
    table.advance(seconds=(when - table.now()).total_seconds())
    return table.intake()


def assert_no_address_leaked(table: Table) -> None:
    """Every mail maild sent (read from the outbox with its envelope) names no one's address but its own
    recipient's: not in a header, not in its text, not in an attachment. A mail to several players (the
    newsletter, the grace's notice, an absence's) may name none of them. The GM's own mails are his to read."""
    with table.app.db.session() as s:
        rows = [(list(r.recipients), bytes(r.raw)) for r in s.query(OutboundMail).order_by(OutboundMail.id)]
    assert len(rows) == len(sent(table.app, welcomes=True))  # every mail in the outbox was delivered
    for recipients, raw in rows:
        if recipients == [GM]:
            continue
        assert GM not in recipients, recipients  # no player reads what the GM is told
        mail = email.message_from_bytes(raw, policy=default)
        seen = "\n".join(f"{k}: {v}" for k, v in mail.items())
        for part in mail.walk():
            if not part.is_multipart():
                seen += "\n" + (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
        seen = seen.lower()
        own = set(recipients) if len(recipients) == 1 else set()
        for address in set(PEOPLE.values()) - own:
            assert address not in seen, (recipients, str(mail["Subject"]), address)


def test_a_season_by_mail(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url, now=START) as table:
        table.create_game("season1", "rps_standing", SETUP, options=OPTIONS,
                          schedule={"timezone": "Europe/Berlin", "cron": "0 18 * * *"})
        table.create_game("grey1", "rps", {"rounds": 3, "players": [
            {"name": n, "email": PEOPLE[n]} for n in ("ann", "bob", "fay")]}, address=GREY, options={"press": "grey"})
        mails = table.intake()  # the welcomes, each with the calendar of the coming deadlines
        first_five = [utc(3, 25, 17), utc(3, 26, 17), utc(3, 27, 17), utc(3, 28, 16), utc(3, 29, 16)]
        welcome = one(mails, PEOPLE["ann"], "[season1] welcome")
        assert events(welcome) == [(f"season1-turn-{n}@example.org", 0, when)
                                   for n, when in enumerate(first_five, start=1)]

        # --- Thursday 25 March, morning: ann's time zone, a volunteer, an absence declared, white press ---
        table.send(PEOPLE["ann"], "TIMEZONE America/New_York")
        table.send(PEOPLE["bob"], BOB + "TIMEZONE Asia/Tokyo")
        table.send(PEOPLE["eve"], "STANDBY season1", subject="standby")
        table.send(PEOPLE["dan"], "throw rock\nABSENT 2027-03-29 TO 2027-03-30")
        table.send(PEOPLE["ann"], "PRESS TO bob, fay\nShall we gang up on cat?\nAnn <ann@example.org>")
        mails = table.intake()
        zone = one(mails, PEOPLE["ann"], "your time zone")
        assert ("Thursday 25 March 2027, 18:00 CET (Europe/Berlin); for you Thursday 25 March 2027, 13:00 EDT "
                "(America/New_York)") in flat(text_of(zone))
        assert [when for _uid, _seq, when in events(zone)] == first_five
        assert "you are on the standby list" in text_of(one(mails, PEOPLE["eve"]))
        assert "absence recorded, 2027-03-29 to 2027-03-30 (2 days; 2 of the 10 the game allows)" in \
            flat(text_of(one(mails, PEOPLE["dan"], "Re:")))
        away = one(mails, "undisclosed-recipients:;", "[season1] dan is away from 2027-03-29 to 2027-03-30")
        assert "dan" in text_of(away)
        for reader in ("bob", "fay"):
            relayed = one(mails, PEOPLE[reader], "[season1] press from ann")
            assert "Shall we gang up on cat?" in text_of(relayed) and "[address removed]" in text_of(relayed)
        assert not to(mails, PEOPLE["cat"], "press")
        one(mails, GM, "white press from ann")  # the GM's copy
        # bob answers through the relay: it goes back to ann, signed bob.
        relayed_to_bob = one(mails, PEOPLE["bob"], "[season1] press from ann")
        table.send(PEOPLE["bob"], BOB + "Count me in.", subject="Re: [season1] press from ann",
                   headers={"In-Reply-To": str(relayed_to_bob["Message-ID"])})
        mails = table.intake()
        assert "Count me in." in text_of(one(mails, PEOPLE["ann"], "[season1] reply to your press, from bob"))

        # Grey press in the second game: signed "someone"; the answer goes back without naming the author.
        table.send(PEOPLE["ann"], "PRESS TO ALL\nbob is bluffing.", to=GREY)
        mails = table.intake()
        for reader in ("bob", "fay"):
            relayed = one(mails, PEOPLE[reader], "[grey1] press from someone")
            assert "bob is bluffing." in text_of(relayed) and "ann" not in text_of(relayed).lower()
        one(mails, GM, "grey press from ann")
        table.send(PEOPLE["fay"], "Says who?", to=GREY, subject="Re: [grey1] press from someone",
                   headers={"In-Reply-To": str(one(mails, PEOPLE["fay"], "press")["Message-ID"])})
        mails = table.intake()
        assert "Says who?" in text_of(one(mails, PEOPLE["ann"], "[grey1] reply to your press, from someone"))
        assert "the author of the press you answered" in text_of(one(mails, PEOPLE["fay"]))

        # --- Turn 1, due 17:00 UTC: cat is silent. The grace: he is reminded, the others told (names only) ---
        throw(table, {"ann": "paper", "bob": "scissors", "fay": "rock"})
        acked = table.ack(PEOPLE["ann"])
        assert "Your receipt" in acked
        mails = at(table, utc(3, 25, 17, 1))
        late = one(mails, PEOPLE["cat"], "[season1] late for turn 1")
        assert "The game waits for you until Friday 26 March 2027, 00:00 CET (Europe/Berlin)" in flat(text_of(late))
        told = one(mails, "undisclosed-recipients:;", "[season1] turn 1 waits for late players")
        assert "orders are still missing from: cat." in text_of(told)
        assert deadline(table) == (1, utc(3, 25, 23))
        mails = at(table, utc(3, 25, 23, 1))  # the grace is over: the turn runs without cat (by lot)
        assert "[season1] turn 1 newsletter" in subjects(mails)
        missed = one(mails, PEOPLE["cat"], "[season1] you missed turn 1")
        assert "Your position is warned." in text_of(missed)
        # The receipt: ann's printout shows the hash of the orders her last ack reported.
        receipt = flat(acked).split("orders on file ")[1].split(".")[0]
        assert f"Your orders on file when this turn ran: {receipt}." in flat(table.printout("season1", 1, "ann"))

        # --- Turns 2 and 3: cat silent again; default orders, then civil disorder, open to a substitute ---
        for day, step in ((26, "plays on default orders while silent"), (27, "civil disorder")):
            throw(table, {"ann": "paper", "bob": "scissors", "dan": "paper", "fay": "rock"})
            one(at(table, utc(3, day, 17, 1)), PEOPLE["cat"], "late for turn")
            mails = at(table, utc(3, day, 23, 1))
            assert step in text_of(one(mails, PEOPLE["cat"], "you missed turn"))
        one(mails, GM, "season1: cat in civil disorder")
        assert "cat: paper" not in table.newsletter("season1", 3)  # cat never threw: rock, the game's default
        assert "cat: rock\n" in table.newsletter("season1", 3)
        with table.app.db.session() as s:
            assert open_to_substitute(s, get_game(s, "season1"), "cat")

        # --- Saturday 27, 23:30: eve, on standby, takes cat's position over ---
        table.advance(minutes=29)
        assert deadline(table) == (4, utc(3, 28, 16))  # 18:00 CEST, summer time since this night
        table.send(PEOPLE["eve"], "TAKEOVER season1 cat")
        mails = table.intake()
        assert "you have taken over cat" in table.ack(PEOPLE["eve"])
        handover = text_of(one(mails, PEOPLE["eve"], "you take over cat"))
        assert "The last printout of cat" in handover
        assert table.printout("season1", 3, "cat").strip() in handover
        assert "throw rock|paper|scissors" in handover  # the order sheet
        assert deadline(table) == (4, utc(3, 30, 16))  # moved on by the default extension, two days
        assert "handed on" in str(one(mails, PEOPLE["cat"])["Subject"])
        for reader in ("ann", "bob", "dan", "fay"):
            notice = one(mails, PEOPLE[reader], "[season1] cat has a new player; deadline moved")
            assert "moved on by 2 days for everyone: it is now Tuesday 30 March 2027, 18:00 CEST" in \
                flat(text_of(notice))
            # The deadline changed: the calendar again, the same events with a higher SEQUENCE.
            assert events(notice)[0] == ("season1-turn-4@example.org", 1, utc(3, 30, 16))
        assert "for you Tuesday 30 March 2027, 12:00 EDT (America/New_York)" in \
            flat(text_of(one(mails, PEOPLE["ann"], "new player")))
        assert events(one(mails, PEOPLE["eve"], "you take over cat"))[0][2] == utc(3, 30, 16)
        # eve's RESEND brings her position's last printout as it went to cat.
        table.send(PEOPLE["eve"], "RESEND")
        mails = table.intake()
        again = one(mails, PEOPLE["eve"], "[season1] turn 3 printout for cat (sent again)")
        assert text_of(again) == table.printout("season1", 3, "cat")
        one(mails, PEOPLE["eve"], "[season1] turn 3 newsletter (sent again)")

        # --- Turn 4, due Tuesday 30 at 16:00 UTC: dan is away (29 and 30): default orders, no ladder, no wait ---
        throw(table, {"ann": "rock", "bob": "rock", "eve": "paper", "fay": "rock"})  # eve throws for cat
        assert "Hello cat," in table.ack(PEOPLE["eve"])
        mails = at(table, utc(3, 30, 16, 1))
        assert not [m for m in mails if "late for" in str(m["Subject"]) or "you missed" in str(m["Subject"])]
        letter = table.newsletter("season1", 4)
        assert "dan: paper\n" in letter  # his last throw, turn 3's
        assert "cat: paper\n" in letter and "cat's position has a new player" in letter
        assert deadline(table) == (5, utc(3, 31, 16))

        # --- Turn 5: the GM pauses at 10:00 on Wednesday 31; nothing runs past the deadline; resumed at 20:00 ---
        table.advance(hours=18)  # 2027-03-31 10:01
        table.app.db.transaction(lambda s: pause(s, table.app, "season1"))
        mails = table.intake()
        assert {str(m["To"]) for m in mails if str(m["Subject"]).startswith("[season1] paused")} == {
            PEOPLE[n] for n in ("ann", "bob", "eve", "dan", "fay")}
        throw(table, {"ann": "scissors", "eve": "rock", "dan": "scissors", "fay": "paper"})  # bob will be late
        mails = at(table, utc(3, 31, 20, 1))
        assert not [m for m in mails if "printout" in str(m["Subject"]) or "late for" in str(m["Subject"])]
        said = table.app.db.transaction(lambda s: resume(s, table.app, "season1"))
        assert "after 10 hours" in said
        assert deadline(table) == (5, utc(4, 1, 2))  # the ten hours given back
        mails = table.intake()
        resumed = one(mails, PEOPLE["ann"], "[season1] resumed")
        assert "for you Wednesday 31 March 2027, 22:00 EDT (America/New_York)" in flat(text_of(resumed))
        calendar = events(resumed)
        assert calendar[0][0] == "season1-turn-5@example.org" and calendar[0][2] == utc(4, 1, 2)
        assert calendar[0][1] == 3  # SEQUENCE: the handover's change 1, the pause 2, the resume 3
        assert calendar[1][2] == utc(4, 1, 16)  # turn 6: the cron's next 18:00 CEST

        # --- The deadline passes with bob late; the grace ends as soon as he sends ---
        mails = at(table, utc(4, 1, 2, 1))
        late = flat(text_of(one(mails, PEOPLE["bob"], "[season1] late for turn 5")))
        assert ("waits for you until Thursday 01 April 2027, 10:00 CEST (Europe/Berlin); for you Thursday 01 April "
                "2027, 17:00 JST (Asia/Tokyo)") in late  # 08:00 UTC, the grace's end, in his zone too
        assert "missing from: bob." in text_of(one(mails, "undisclosed-recipients:;", "waits for late players"))
        table.advance(hours=1)
        mails = throw(table, {"bob": "rock"})
        assert "[season1] turn 5 newsletter" in subjects(mails)
        assert deadline(table)[0] == 6

        # HISTORY: the turns so far, each with when it ran in the game's zone; turn 1 ran at the grace's end.
        table.send(PEOPLE["fay"], "HISTORY")
        table.intake()
        history = table.ack(PEOPLE["fay"])
        assert "turn 1: ran 2027-03-26 00:01 CET" in history and "turn 6: open" in history

        assert_no_address_leaked(table)
        # The scan reads where an address would be: the GM's notice of the handover names both (his to read).
        assert "cat@example.org" in text_of(one(table.mails(), GM, "season1: cat handed over"))

        # PREVIEW AND RERUN (issue 26, acceptance 1, its last two items). Before turn 6's deadline the GM's
        # preview says who has nothing on file and what the deadline would bring, and resolves the turn as a dry
        # run: nothing stored, nothing sent.
        from maild.preview import preview
        from maild.turn import rerun_turn

        ahead = preview(table.app, "season1")
        assert ahead.turn == 6 and ahead.with_orders == [] and "ann" in ahead.without_orders
        assert ahead.dry_run is not None and ahead.dry_run.error is None
        assert table.intake() == []
        # A rerun of turn 5 with the orders as they stand gives the same printouts: nobody is mailed again
        # (tests/test_rerun_changed.py mails the one printout a GM's correction changed, its changes first).
        assert [o.status for o in rerun_turn(table.app, "season1", 5, mail=True)] == ["same"]
        assert not [m for m in table.intake() if "(corrected)" in str(m["Subject"])]

