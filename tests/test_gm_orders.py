"""`maild gm`: the orders the rulesets declare (Renaissance's pay, bulletin and amend), their help, and the
framework's list and withdraw for every game."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from maild.cli import main
from maild.games import get_game
from maild.gmcli import check_declarations, overview
from maild.ruleset import installed_rulesets
from maild.turn import run_turn
from tests.mailflow import ROME, sent
from tests.renaissance_fixtures import CONFIG_TOML, MAIL_SETUP, VENICE_PORT, mail_game, month_passes

NOW = "2026-11-25T10:00+01:00"


@pytest.fixture
def ren(tmp_path: Path, db_url: str) -> Path:
    """A GM's config for the Renaissance game ren1 (the three families of the flow test)."""
    (tmp_path / "renaissance.toml").write_text(MAIL_SETUP)
    (tmp_path / "venice.toml").write_text(VENICE_PORT)
    config = tmp_path / "maild.toml"
    config.write_text(CONFIG_TOML.format(db=db_url, tmp=tmp_path))
    assert main(["--config", str(config), "--now", NOW, "init"]) == 0
    return config


def gm(config: Path, *words: str) -> int:
    return main(["--config", str(config), "--now", NOW, "gm", *words])


def turn_one(config: Path) -> str:
    """Run ren1's month now; its status and message."""
    from maild.cli import build_parser, make_app

    app = make_app(build_parser().parse_args(["--config", str(config), "--now", "2026-12-01T12:01+01:00", "init"]))
    try:
        outcome = run_turn(app, "ren1", force=True)
        with app.db.session() as s:
            state_turn = get_game(s, "ren1").turn
    finally:
        app.db.close()
    return f"{outcome.status} {outcome.message} next {state_turn}"


def test_the_same_amendment_twice_is_recorded_once_and_the_month_runs(
        ren: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: each `gm amend` was checked against the month's starting state alone, so the second copy passed,
    # and at the turn the second amend found COR, CORNARO and Venice already there: the month stopped at its
    # start (SetupError inside resolve), and every later try stopped the same way.
    assert gm(ren, "amend", "ren1", str(ren.parent / "venice.toml")) == 0
    assert gm(ren, "amend", "ren1", str(ren.parent / "venice.toml")) == 0
    out = capsys.readouterr().out
    assert "recorded for turn 1 (GM order 1)" in out
    assert "the same amendment from" in out and "already recorded (GM order 1, turn 1); nothing recorded" in out
    assert gm(ren, "list", "ren1") == 0
    listed = capsys.readouterr().out.strip().splitlines()
    assert len([line for line in listed if not line.startswith(" ")]) == 1  # one order, with its words under it
    assert listed[1] == f"    given as: maild gm amend ren1 {ren.parent / 'venice.toml'}"
    assert listed[2:5] == ["    amendment as recorded:", "      locations:", "        -"]  # the file as it was read
    assert turn_one(ren).startswith("done")


def test_an_amendment_that_clashes_with_one_pending_is_refused(ren: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert gm(ren, "amend", "ren1", str(tmp_path / "venice.toml")) == 0
    # Another file that adds the same player code COR (with a location of its own): not the same amendment,
    # so not a no-op, and against the world the pending one leaves it cannot be taken.
    other = tmp_path / "other.toml"
    other.write_text('[[players]]\ncode = "COR"\nemail = "cor2@example.org"\n')
    assert gm(ren, "amend", "ren1", str(other)) == 2
    err = capsys.readouterr().err
    assert "COR is used twice" in err and "counting the amendments already recorded for this month" in err
    # Alone (the first withdrawn), the same file is good.
    assert gm(ren, "withdraw", "1") == 0
    assert gm(ren, "amend", "ren1", str(other)) == 0
    assert turn_one(ren).startswith("done")


def test_after_the_month_ran_the_same_amendment_is_a_no_op(ren: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert gm(ren, "amend", "ren1", str(tmp_path / "venice.toml")) == 0
    assert turn_one(ren).startswith("done")
    capsys.readouterr()
    assert gm(ren, "amend", "ren1", str(tmp_path / "venice.toml")) == 0
    assert "already recorded (GM order 1, turn 1); nothing recorded" in capsys.readouterr().out
    assert turn_one(ren).startswith("done")


def test_pay_takes_codes_and_families_in_any_case_and_refuses_nothing_or_less(
        ren: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert gm(ren, "pay", "ren1", "sfo", "10") == 0
    assert gm(ren, "pay", "ren1", "Sforza", "2.5", "--note", "cheque 12") == 0  # SFORZA is SFO's family
    out = capsys.readouterr().out
    assert "payment of 10.00 from SFO recorded for turn 1" in out
    assert "payment of 2.50 from SFO recorded" in out
    for amount in ("0", "-5", "0.00"):
        assert gm(ren, "pay", "ren1", "SFO", amount) == 2
        assert capsys.readouterr().err == f"maild: amount must be above zero, not {float(amount):g}\n"
    for amount in ("ten", "nan"):
        with pytest.raises(SystemExit) as exc:
            gm(ren, "pay", "ren1", "SFO", amount)
        assert exc.value.code == 2
    assert "'ten' is not a number" in capsys.readouterr().err
    assert gm(ren, "pay", "ren1", "XXX", "1") == 2
    assert "no player 'XXX' in this game (players: BOR, MED, SFO)" in capsys.readouterr().err
    # Two payments of the same amount are two cheques: pay is not idempotent.
    assert gm(ren, "pay", "ren1", "SFO", "10") == 0
    assert "recorded for turn 1 (GM order 3)" in capsys.readouterr().out


def test_list_and_withdraw(ren: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert gm(ren, "pay", "ren1", "MED", "7") == 0
    assert gm(ren, "bulletin", "ren1", "Rome mourns.") == 0
    assert gm(ren, "bulletin", "ren1", "Rome mourns.") == 0  # the same bulletin again: once
    assert gm(ren, "withdraw", "1") == 0
    capsys.readouterr()
    assert gm(ren, "list", "ren1") == 0
    rows = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"1  turn 1  gm_payment  payment of 7\.00 from MED  recorded 2026-11-25 09:00  "
                        r"withdrawn 2026-11-25 09:00", rows[0]), rows[0]
    assert rows[1] == "    given as: maild gm pay ren1 MED 7"
    assert re.fullmatch(r"2  turn 1  gm_bulletin  bulletin  recorded 2026-11-25 09:00  pending", rows[2]), rows[2]
    assert rows[3] == "    given as: maild gm bulletin ren1 Rome mourns."
    assert len(rows) == 4
    assert gm(ren, "withdraw", "1") == 2
    assert "withdrawn already" in capsys.readouterr().err
    assert gm(ren, "withdraw", "99") == 2
    assert turn_one(ren).startswith("done")
    capsys.readouterr()
    assert gm(ren, "withdraw", "2") == 2
    assert "counted in turn 1, which has run" in capsys.readouterr().err
    assert gm(ren, "list", "ren1") == 0
    assert capsys.readouterr().out == "ren1: no GM orders for turn 2\n"
    assert gm(ren, "list", "ren1", "--all") == 0
    assert capsys.readouterr().out.strip().splitlines()[2].endswith("carried out")


def test_a_correction_of_a_turn_that_has_run_is_recorded_for_it_and_shows_what_its_rerun_changes(
        ren: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert gm(ren, "pay", "ren1", "MED", "7", "--turn", "1") == 0  # turn 1 is open: an order of the open turn
    assert "recorded for turn 1 (GM order 1)\n" == capsys.readouterr().out[-len("recorded for turn 1 (GM order 1)\n"):]
    assert gm(ren, "bulletin", "ren1", "Rome mourns.") == 0
    assert turn_one(ren).startswith("done")
    capsys.readouterr()
    def later(*words: str) -> int:  # after the month ran (1 December, 12:01)
        return main(["--config", str(ren), "--now", "2026-12-02T09:00+01:00", "gm", *words])

    # A payment of a month that has run (ERRORS: the GM's own error): recorded for it; the re-run is shown, not
    # stored: MED's account in turn 1 changes.
    assert later("pay", "ren1", "MED", "3", "--turn", "1") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ren1: payment of 3.00 from MED recorded for turn 1 (GM order 3); turn 1 has run")
    assert out[1:] == ["a re-run from turn 1 would give:", "  turn 1: changed",
                       "to store it and mail the corrected results: maild turn rerun ren1 1 --yes --mail"]
    assert later("pay", "ren1", "MED", "3", "--turn", "5") == 2
    assert "turn 5 of ren1 has not run (the open turn is 2)" in capsys.readouterr().err
    assert later("list", "ren1", "--all") == 0
    assert capsys.readouterr().out.splitlines()[-2].endswith("a correction, recorded after turn 1 ran: it counts "
                                                              "from the turn's re-run")
    # A correction may be withdrawn after its turn ran (its re-run is then the GM's to do again); a bulletin of a
    # turn that has run may not.
    assert later("withdraw", "3") == 0
    assert "maild turn rerun ren1 1 --yes --mail" in capsys.readouterr().out
    assert later("withdraw", "2") == 2
    assert "which has run" in capsys.readouterr().err


def test_a_withdrawn_payment_does_not_reach_the_month(tmp_path: Path, db_url: str) -> None:
    app = mail_game(tmp_path, db_url, datetime(2026, 11, 25, 10, 0, tzinfo=ROME))
    config = tmp_path / "maild.toml"
    config.write_text(CONFIG_TOML.format(db=db_url, tmp=tmp_path))
    assert gm(config, "pay", "ren1", "SFO", "25.5") == 0
    assert gm(config, "pay", "ren1", "SFO", "1000") == 0
    assert gm(config, "withdraw", "2") == 0
    month_passes(app, datetime(2026, 12, 1, 12, 1, tzinfo=ROME))
    sforza = next(m for m in sent(app) if m["To"] == "sfo@example.org").get_content()
    # 100 + 25.50; the 1,000 withdrawn never posted.
    assert "125.50" in sforza and "1,000" not in sforza


def test_help_lists_the_installed_rulesets_orders(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gm", "--help"]) == 0
    text = capsys.readouterr().out
    assert "list GAME [--all]" in text and "withdraw ID" in text
    assert "renaissance:" in text and "pay [--turn N] [--note NOTE] GAME PLAYER AMOUNT" in text
    assert "bulletin GAME TEXT" in text and "amend GAME FILE" in text
    assert text == overview()
    assert main(["gm", "amend", "--help"]) == 0
    text = capsys.readouterr().out
    assert "usage: maild gm amend [-h] GAME FILE" in text and "example: maild gm amend ren1" in text
    assert main(["gm", "frob", "x"]) == 2
    assert "no GM order 'frob'" in capsys.readouterr().err


def test_every_installed_rulesets_declarations_are_sound() -> None:
    for ruleset in installed_rulesets():
        assert check_declarations(ruleset) == [], ruleset.name
        assert ruleset.gm_kinds == {spec.kind for spec in ruleset.gm_orders}


def test_two_amendments_setting_up_a_location_for_one_player_in_one_month(
        ren: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # LOCATION SETUPS: one new location a player a turn. Each file alone is good; the second, checked with the
    # first pending for the same month, is refused rather than stopping the month when both are applied.
    for n, (name, lat) in enumerate((("Mantua", 45.16), ("Ferrara", 44.84))):
        (tmp_path / f"setup{n}.toml").write_text(
            f'[[locations]]\nname = "{name}"\nlat = {lat}\nlon = 11.0\npopulation = 1000\nreligion = "catholic"\n'
            'requested_by = "SFO"\n')
    assert gm(ren, "amend", "ren1", str(tmp_path / "setup0.toml")) == 0
    assert gm(ren, "amend", "ren1", str(tmp_path / "setup1.toml")) == 2
    assert "SFO already has a location set up this turn" in capsys.readouterr().err
    assert turn_one(ren).startswith("done")
