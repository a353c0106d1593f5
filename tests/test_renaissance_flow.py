"""A Renaissance month end to end by mail (Maildir in and out, SQLite and PostgreSQL): three families mail coded
orders, get acks (a bad code named, a second mail for a family refused, the code sheet on request), the
deadline passes, and printouts and the newsletter arrive with the month's results worked by hand."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from maild.cli import game_export
from maild.games import get_game
from maild.testing import text_of
from maild.turn import rerun_turn
from tests.mailflow import ROME, by_subject, drop, mail, run_pass, sent
from tests.renaissance_fixtures import CONFIG_TOML, VENICE_PORT, flat, mail_game, month_passes

MEDICI = """/MED *MEDICI
*Florence .0101
Bwool100 T0102ducat1000 WL0102
*Florence .0102
HC1000
"""
SFORZA = "/SFO *SFORZA\n*Florence .0201\nS0fibwool50\n"  # he is at Milan: a note, and the sale stands
BORGIA = "#ren1 BOR cantarella\n/BOR *BORGIA\n*Florence .0301\nT0101grain\nBwool50\n"


def test_a_month_by_mail(tmp_path: Path, db_url: str) -> None:
    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, db_url, morning)
    drop(app, mail("med@example.org", MEDICI, 1, subject="January orders"), morning)
    drop(app, mail("sfo@example.org", SFORZA, 2, subject="orders"), morning)
    drop(app, mail("bor@example.org", BORGIA, 3, subject="orders"), morning)
    drop(app, mail("med@example.org", "/MED *MEDICI\n*Florence .0101\nHC1000\n", 4, subject="more"), morning)
    drop(app, mail("sfo@example.org", "", 5, subject="CODESHEET"), morning)
    run_pass(app, morning)

    # The game was created by this first pass: each player got his welcome printout once.
    welcomes = {m["To"]: text_of(m) for m in sent(app, welcomes=True) if "welcome" in str(m["Subject"])}
    assert set(welcomes) == {"med@example.org", "sfo@example.org", "bor@example.org"}
    assert "/BOR *BORGIA" in welcomes["bor@example.org"] and "*Florence .0301" in welcomes["bor@example.org"]
    # The code sheet the welcome includes shows its example in the reader's own families (CODESHEET too).
    assert "  /MED *MEDICI\n  *Florence .0101\n  T0102grain500 Bwool100\n  *Florence .0102\n  HP\n" in \
        welcomes["med@example.org"]
    assert "/LMD" not in welcomes["med@example.org"] and "/MED" not in welcomes["bor@example.org"]
    acks = sent(app)
    assert len(acks) == 5
    medici = by_subject(acks, "January orders").get_content()
    assert "line 3: .0101 Bwool100: buy 100 wool" in medici and "line 5: .0102 HC1000: " in medici
    assert "Deadline for turn 1: " in medici
    # The bad code is named with its line in his mail, counted from its top: the #ren1 header line is line 1.
    borgia = [m for m in acks if m["To"] == "bor@example.org"][0].get_content()

    assert "line 4: T0101grain" in borgia and "Not understood (1)" in borgia
    assert "line 5: .0301 Bwool50: buy 50 wool" in borgia
    sforza = [m for m in acks if m["To"] == "sfo@example.org" and "Re: orders" in str(m["Subject"])][0]
    assert "Please note (1) - these orders were accepted all the same:" in sforza.get_content()
    assert "0201 is at Milan, not at Florence" in sforza.get_content()
    again = by_subject(acks, "Re: more").get_content()
    assert "Read but NOT ACCEPTED (1)" in again and "Reason: orders for MEDICI are already on file" in again
    assert "Understood" not in again
    sheet = [m for m in acks if m["To"] == "sfo@example.org" and "CODESHEET" in str(m["Subject"])][0]
    assert "Tnnnniiiiiiiiqqqqqqq" in sheet.get_content()
    # The sheet shows its reader's own header lines (Ludovico is at Milan), and no developer's notes.
    assert "/SFO *SFORZA" in sheet.get_content() and "*Milan .0201" in sheet.get_content()
    assert "codes.py" not in sheet.get_content() and "test suite" not in sheet.get_content()
    # Its example is written in his own family's header lines, never another family's.
    assert "  /SFO *SFORZA\n  *Milan .0201\n  Bwool100 HP\n" in sheet.get_content()
    assert "MEDICI" not in sheet.get_content() and "/LMD" not in sheet.get_content()

    deadline = datetime(2026, 12, 1, 12, 1, tzinfo=ROME)
    run_pass(app, deadline)
    mails = sent(app)[5:]
    printouts = {m["To"]: text_of(m) for m in mails if "printout" in str(m["Subject"])}
    assert set(printouts) == {"med@example.org", "sfo@example.org", "bor@example.org"}
    newsletter = by_subject(mails, "newsletter").get_content()
    assert "JANUARY 1493" in newsletter and "ORDERS FOR FEBRUARY 1493 ARE DUE:" in newsletter

    med = printouts["med@example.org"]
    # Piero: the transfer runs first (10,000 - 1,000 = 9,000), then the purchase of 100 wool at 10 with 5% export
    # tariff (1,000 + 50 = 1,050 -> 7,950), then a work of letters (100 ducats -> 7,850) for Giovanni, whose
    # popularity rises by 2% of Piero's letters 200 = 4. Giovanni gives the 1,000 ducats to charity: +1.
    # Giovanni: 100 + 4 + 1 = 105.
    assert "FAMILY MEDICI" in med
    piero = med.split(".0101  Piero de' Medici")[1].split(".0102")[0]
    assert "7,850" in piero and "wool" in piero
    giovanni = med.split(".0102  Giovanni de' Medici")[1].split("ORDERS EXECUTED")[0]
    assert "POPULARITY 105" in giovanni
    executed = med.split("ORDERS EXECUTED")[1]
    assert executed.index("T0102ducat1000") < executed.index("Bwool100") < executed.index("WL0102")
    assert ".0101 Bwool100 done bought 100 wool for 1000 ducats, 50 ducats export tariff" in flat(executed)
    # Florence's wool: 1,000 - 100 (Medici, received first) - 50 (Borgia) = 850 left.
    assert "wool" in med.split("LOCATION FLORENCE")[1] and "850" in med.split("LOCATION FLORENCE")[1]
    # INGRESS: Florence's list was set up from its citizens, the Medici (Cesare Borgia is a citizen of Rome, and
    # inside only because the setup says so); its external market starts closed.
    walls = med.split("LOCATION FLORENCE")[1]
    assert "  ingress: MEDICI\n" in walls and "  external market closed\n" in walls
    # Sforza sells 50 wool at Milan for 20: gross 1,000, 10% import tariff withheld: 5,000 + 900 = 5,900.
    assert "5,900" in printouts["sfo@example.org"]
    # Borgia buys 50 wool after the Medici: 500 + 25 tariff = 525; 2,000 - 525 = 1,475.
    assert "1,475" in printouts["bor@example.org"]

    with app.db.session() as s:
        export = game_export(s, app, get_game(s, "ren1"))
    assert export["ruleset"] == "renaissance" and export["turn"] == 2
    assert export["state"]["personae"]["0201"]["assets"]["ducats"] == 5900
    assert export["players"]["MED"]["families"] == ["MEDICI"]

    # Determinism: the month re-run from its snapshot gives the same state, hence byte-identical printouts.
    outcomes = rerun_turn(app, "ren1", 1)
    assert [o.status for o in outcomes] == ["same"]


def test_orders_check_reads_the_code_sheet_and_names_bad_codes(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from maild.cli import main

    sheet = (Path(__file__).resolve().parents[1] / "docs" / "renaissance-codes.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```orders\n(.*?)```", sheet, re.S)
    assert len(blocks) > 5
    good = tmp_path / "sheet.txt"
    for i, block in enumerate(blocks):
        good.write_text(block)
        assert main(["orders", "check", "--ruleset", "renaissance", str(good)]) == 0, (i, block)
    assert capsys.readouterr().out == ""

    bad = tmp_path / "orders.txt"
    bad.write_text("/MED *MEDICI\n*Florence .0101\nBwool100 T0102grain\nS0foowool10\n")
    assert main(["orders", "check", "--ruleset", "renaissance", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{bad}:3: \"T0102grain\": a transfer is T, the recipient's four-digit number")
    assert out[1].startswith(f"{bad}:4: \"S0foowool10\": wool is not in the class food")


def test_gm_payment_bulletin_and_amendment_reach_the_month(tmp_path: Path, db_url: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from maild.cli import main

    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, db_url, morning)
    config = tmp_path / "maild.toml"
    config.write_text(CONFIG_TOML.format(db=db_url, tmp=tmp_path))
    (tmp_path / "venice.toml").write_text(VENICE_PORT)
    # The GM's commands run that morning too. On the wall clock the first of them created the game and queued
    # its welcomes at the real date: after 1 December 2026 they were not due yet at the month's pass.
    gm = ["--config", str(config), "--now", morning.isoformat(), "gm"]
    assert main([*gm, "pay", "ren1", "SFO", "25.5", "--note", "cheque 12"]) == 0
    assert main([*gm, "pay", "ren1", "XXX", "1"]) == 2
    assert main([*gm, "bulletin", "ren1", "Rome mourns; the conclave meets."]) == 0
    assert main([*gm, "amend", "ren1", str(tmp_path / "venice.toml")]) == 0
    assert "no player 'XXX'" in capsys.readouterr().err
    month_passes(app, datetime(2026, 12, 1, 12, 1, tzinfo=ROME))
    mails = sent(app, welcomes=True)
    newsletter = by_subject(mails, "newsletter").get_content()
    assert "Rome mourns; the conclave meets." in newsletter and "Venice" in newsletter
    sforza = by_subject(mails, "printout for SFO").get_content()
    # 100 + 25.50 paid; no orders ran, so no family fee is charged this month.
    assert "125.50" in sforza
    with app.db.session() as s:
        export = game_export(s, app, get_game(s, "ren1"))
    assert "Venice" in export["state"]["locations"]
    # The amendment's new player joins: his row is made, and this month's printout reaches him.
    assert export["players"]["COR"]["families"] == ["CORNARO"]
    cornaro = by_subject(mails, "printout for COR").get_content()
    assert "FAMILY CORNARO" in cornaro and "Caterina Cornaro" in cornaro
    # He is welcomed too, in the transaction that added him: his headers and the code sheet. The players
    # already in the game, whose families the amendment left alone, are not welcomed a second time.
    welcome = text_of(by_subject(mails, "welcome, COR"))
    assert "/COR *CORNARO" in welcome and "*Venice .0401" in welcome and "ITEM CODES" in welcome
    assert sorted(m["To"] for m in mails if "welcome" in str(m["Subject"])) == [
        "bor@example.org", "cor@example.org", "med@example.org", "sfo@example.org"]


def test_late_orders_go_to_next_month_unless_cancelled_and_orders_ahead_wait(tmp_path: Path, db_url: str) -> None:
    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, db_url, morning)
    # Orders marked for March 1493 (turn 3) are kept for it, whenever they came.
    drop(app, mail("sfo@example.org", "/SFO *SFORZA\n!MAR1493\n*Milan .0201\nHC1000\n", 1, subject="march"),
         morning)
    run_pass(app, morning)
    ahead = by_subject(sent(app), "march").get_content()
    assert "for turn 3" in ahead
    # These come after January's deadline (1 December 12:00) but before January ran: they are February's.
    drop(app, mail("med@example.org", "/MED *MEDICI\n*Florence .0101\nHC1000\n", 2, subject="late"),
         datetime(2026, 12, 1, 12, 0, 30, tzinfo=ROME))
    month_passes(app, datetime(2026, 12, 1, 12, 1, tzinfo=ROME))  # January resolves
    assert "counts for turn 2" in by_subject(sent(app), "late").get_content()
    cancel_at = datetime(2026, 12, 5, 9, 0, tzinfo=ROME)  # within ten days of the results
    drop(app, mail("med@example.org", "CANCEL", 3, subject="oops"), cancel_at)
    run_pass(app, cancel_at)
    answer = by_subject(sent(app), "oops").get_content()
    assert "Cancel: cancelled the orders of 1 late mail(s)" in answer
    with app.db.session() as s:
        game = get_game(s, "ren1")
        from maild.orderbook import accepted_sets

        assert "MED" not in accepted_sets(s, game, 2)
        assert [o.kind for o in accepted_sets(s, game, 3)["SFO"][0].orders] == ["for_turn", "charity"]
        # The orders in force intake stored for him were emptied by the CANCEL (or rebuilt since): none stand.
        from sqlalchemy import select

        from maild.models import OrdersInForce, Player

        med = s.scalars(select(Player).where(Player.game_id == game.id, Player.name == "MED")).one()
        stored = s.scalars(select(OrdersInForce.sets).where(OrdersInForce.player_id == med.id,
                                                              OrdersInForce.turn == 2)).all()
        assert stored and all(sets in (None, []) for sets in stored)


def test_a_cancel_after_ten_days_leaves_late_orders_standing(tmp_path: Path, db_url: str) -> None:
    app = mail_game(tmp_path, db_url, datetime(2026, 11, 25, 10, 0, tzinfo=ROME))
    drop(app, mail("med@example.org", "/MED *MEDICI\n*Florence .0101\nHC1000\n", 2, subject="late"),
         datetime(2026, 12, 1, 12, 0, 30, tzinfo=ROME))
    month_passes(app, datetime(2026, 12, 1, 12, 1, tzinfo=ROME))
    # Orders for February sent after January's results are not late, and CANCEL does not touch them.
    drop(app, mail("sfo@example.org", "/SFO *SFORZA\n*Milan .0201\nHC1000\n", 4, subject="feb"),
         datetime(2026, 12, 2, 9, 0, tzinfo=ROME))
    drop(app, mail("sfo@example.org", "CANCEL", 5, subject="sfo cancel"), datetime(2026, 12, 2, 9, 5, tzinfo=ROME))
    run_pass(app, datetime(2026, 12, 2, 9, 10, tzinfo=ROME))
    assert "you have no late orders on file" in by_subject(sent(app), "sfo cancel").get_content()
    cancel_at = datetime(2026, 12, 11, 13, 0, tzinfo=ROME)  # results went out 1 December 12:01: 10 days passed
    drop(app, mail("med@example.org", "cancel", 3, subject="oops"), cancel_at)
    run_pass(app, cancel_at)
    assert "too late to cancel" in by_subject(sent(app), "oops").get_content()


def test_an_order_the_program_cannot_carry_out_is_reported_to_the_gm(tmp_path: Path, db_url: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from maild_rules.renaissance.context import Action, Phase
    from maild_rules.renaissance.registry import ACTIONS

    def boom(ctx: object, persona: object, args: object) -> object:
        raise RuntimeError("a bug in charity")

    monkeypatch.setitem(ACTIONS, "charity", Action("charity", Phase.OTHER, boom))
    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, db_url, morning)
    drop(app, mail("med@example.org", MEDICI, 1, subject="January orders"), morning)
    month_passes(app, datetime(2026, 12, 1, 12, 1, tzinfo=ROME))
    mails = sent(app)
    gm = by_subject(mails, "errors in turn 1").get_content()
    assert "a bug in charity" in gm and "HC1000" in gm
    printout = next(m for m in mails if m["To"] == "med@example.org" and "printout" in str(m["Subject"]))
    assert "HC1000                 FAILED could not be carried out" in printout.get_content()


def test_orders_check_against_a_game_takes_the_player_from_the_orders(tmp_path: Path, db_url: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from maild.cli import main

    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    mail_game(tmp_path, db_url, morning)
    config = tmp_path / "maild.toml"
    config.write_text(CONFIG_TOML.format(db=db_url, tmp=tmp_path))
    orders = tmp_path / "orders.txt"
    orders.write_text("/MED *MEDICI\n*Milan .0101\nBwool100\n*Florence .0109\nHP\n")
    assert main(["--config", str(config), "--now", morning.isoformat(), "orders", "check", "--ruleset",
                 "renaissance", "--game", "ren1", str(orders)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"{orders}:3: warning: 0101 is at Florence, not at Milan: next time write *Florence .0101 "
                      f"(his orders stand; they are carried out where he is)")
    assert out[1].startswith(f"{orders}:5: 0109 is not a persona of the MEDICI family")


def test_acks_and_printouts_say_what_became_of_a_familys_second_mail(tmp_path: Path, db_url: str) -> None:
    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, db_url, morning)
    # Medici: a purchase understood and a transfer without its quantity; then the transfer corrected.
    drop(app, mail("med@example.org", "/MED *MEDICI\n*Florence .0101\nBwool100 T0102grain\n", 1, subject="med 1"),
         morning)
    drop(app, mail("med@example.org", "/MED *MEDICI\n*Florence .0101\nT0102grain5\n", 2, subject="med 2"), morning)
    # Sforza: nothing understood (a sale without its quantity), then the sale corrected.
    drop(app, mail("sfo@example.org", "/SFO *SFORZA\n*Milan .0201\nS0fibwool\n", 3, subject="sfo 1"), morning)
    drop(app, mail("sfo@example.org", "/SFO *SFORZA\n*Milan .0201\nS0fibwool50\n", 4, subject="sfo 2"), morning)
    drop(app, mail("bor@example.org", "#ren1 BOR cantarella\n/BOR *BORGIA\n*Florence .0301\nBwool50\n", 5,
                   subject="bor"), morning)
    drop(app, mail("med@example.org", "STATUS", 6, subject="med status"), morning)
    run_pass(app, morning)
    acks = sent(app)

    def words(subject: str) -> str:  # the ack wraps its sentences to a mail's width
        return " ".join(by_subject(acks, subject).get_content().split())

    # The first orders for a family stand, so the ack does not promise that a corrected line will count.
    med1 = words("Re: med 1")
    assert "Not understood (1) - these lines were ignored: line 3: Bwool100 T0102grain" in med1
    assert "a later mail with orders for a family already on file is refused whole, so a line of that family " \
           "that was not understood cannot be corrected this month" in med1
    assert "send them again corrected" not in med1
    # And so it is: the correction is read but not accepted, under a heading that says so, with the reason.
    med2 = words("Re: med 2")
    assert "Read but NOT ACCEPTED (1): none of these orders is on file. Reason: orders for MEDICI are " \
           "already on file for this month" in med2
    assert "line 3: .0101 T0102grain5" in med2 and "Understood" not in med2
    # Nothing of Sforza's first mail was understood, so nothing was on file and his second mail is accepted.
    assert "A family with nothing on file may still send its orders" in words("Re: sfo 1")
    assert "Understood (1): line 3: .0201 S0fibwool50" in words("Re: sfo 2")
    # STATUS: the setup's balance of 100, and Piero's 10,000 ducats (Giovanni has none).
    status = by_subject(acks, "med status").get_content()
    assert "  Account balance: 100.00\n  MEDICI ducats: 10,000\n" in status

    run_pass(app, datetime(2026, 12, 1, 12, 1, tzinfo=ROME))
    printouts = {m["To"]: text_of(m) for m in sent(app) if "printout" in str(m["Subject"])}
    medici = printouts["med@example.org"].split("ORDERS NOT CARRIED OUT\n")[1]
    first, second = medici.split("  Your mail ")[1:]
    assert first.startswith('"med 1" of Wednesday 25 November 2026, 10:00 CET (Europe/Rome):\n')
    assert "Not understood:\n      line 3: Bwool100 T0102grain\n" in first
    assert "a transfer is T, the recipient's four-digit number" in first
    assert second.startswith('"med 2" of ')
    assert "NOT ACCEPTED: orders for MEDICI are already on file" in second
    assert "      line 3: T0102grain5\n" in second
    # Sforza's second mail, accepted, put right his first, none of which was understood: not repeated.
    assert "ORDERS NOT CARRIED OUT" not in printouts["sfo@example.org"]
    assert "ORDERS NOT CARRIED OUT" not in printouts["bor@example.org"]
