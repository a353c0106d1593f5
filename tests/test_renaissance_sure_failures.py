"""Orders the state already says will fail, and orders a rule refuses, as the player reads them in his ack.

ORDERS: once a family's orders are received "no changes, or additional orders may be made for that family for
that turn", so a note in the ack is the player's only chance to learn that an order of his cannot succeed.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from maild_rules.renaissance.codes import parse
from maild_rules.renaissance.names import find_family
from maild_rules.renaissance.registry import HANDLERS
from maild_rules.renaissance.ruleset import RULESET
from tests.mailcheck import section
from tests.mailflow import ROME, by_subject, drop, mail, run_pass, sent
from tests.renaissance_fixtures import flat, mail_game, month_ctx, small_state


def test_the_ack_warns_of_alms_outside_april_small_charity_and_a_court_where_he_is_not_sovereign(
        tmp_path: Path, db_url: str) -> None:
    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, db_url, morning)
    # January 1493; Giovanni is at Florence, whose sovereign he is not (the setup names none).
    orders = "/MED *MEDICI\n*Florence .0102\nHA1000\nHC500\nOC\nHC2000\n"
    drop(app, mail("med@example.org", orders, 1, subject="January orders"), morning)
    run_pass(app, morning)
    ack = by_subject(sent(app), "January orders").get_content()
    notes = flat(section(ack, "Please note"))  # the ack wraps its messages within 78 columns
    assert "Please note (3) - these orders were accepted all the same:" in ack
    assert "line 3: HA1000" in notes and "alms are given only in April" in notes
    assert "these orders are for January 1493" in notes and "it will fail" in notes
    assert "line 4: HC500" in notes and "per 1,000 ducats (POPULARITY); 500 earn none" in notes
    assert "line 5: OC" in notes and "0102 is not the sovereign of Florence" in notes
    assert "line 6" not in notes  # 2,000 ducats of charity is fine
    # They stand: the rules allow no correction this month, and the month runs them (and says they failed).
    assert "Understood (4)" in ack


def test_alms_in_april_by_a_muslim_pass_and_court_by_the_sovereign_passes() -> None:
    state = small_state()
    state["personae"]["0101"]["religion"] = "sunni"
    # Orders marked for April: the alms are not noted. Piero is Florence's sovereign: his court is not either.
    text = "/LMD *MEDICI\n!APR1493\n*Florence .0101\nHA1000\nOC\n"
    parsed = parse(text)
    assert parsed.diagnostics == []
    assert RULESET.check(state, 1, "LMD", parsed.orders) == []


def test_an_order_a_rule_refuses_names_the_rule(tmp_path: Path, db_url: str) -> None:
    # Understood, and refused by the rules on its face (the parser) or by the state (the check): the diagnostic
    # names the rules' section; a line not understood names none.
    parsed = parse("/LMD *MEDICI\n*Florence .0101\nKIA/B/C/D/E/F/G/H\nUAgrain10\nZ1cannon2\nKFbogus\n")
    rules = {d.line: d.rule for d in parsed.diagnostics}
    assert rules == {3: "CONFLICT ORDERS", 4: "MORALE", 5: "FIELD BATLE", 6: None}
    state = small_state()
    checked = RULESET.check(state, 1, "LMD", parse("/LMD *MEDICI\n*Florence .0101\nKC100\nEL\n").orders)
    assert [(d.line, d.rule, d.warning) for d in checked] == [(3, "CROP DESTRUCTION", False),
                                                               (4, "FEUDATORIES", False)]
    assert "grain crops are destroyed in the August turn" in checked[0].message

    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, db_url, morning)
    drop(app, mail("med@example.org", "/MED *MEDICI\n*Florence .0101\nKC100\nBwool10\n", 1, subject="crops"),
         morning)
    run_pass(app, morning)
    ack = by_subject(sent(app), "crops").get_content()
    assert "grain crops are destroyed in the August turn (CROP DESTRUCTION)" in ack
    assert "line 4: .0101 Bwool10: buy 10 wool" in ack


@pytest.mark.parametrize(("words", "code"), [
    ("stay out of the tower", "MTO"), ("stay out of all the towers", "MTO"), ("stay in the tower", "MTI"),
    ("destroy the crops with 500 troop", "KC500"), ("recruit 100 garrison troop", "EG100"),
    ("recruit 10 crews", "N10"), ("attack .0203 in the fields", "KF0203"),
])
def test_a_plural_or_a_singular_that_means_the_same_is_understood(words: str, code: str) -> None:
    parsed = parse(f"/LMD *MEDICI\n*Florence .0101\n{words}\n")
    assert parsed.diagnostics == [] and parsed.orders[0].summary.endswith(f"(code {code})")


def test_a_family_named_in_the_plural_is_that_family() -> None:
    # "intercept the Dorias", "ally with the Dorias": the DORIA family, at intake and when the order runs.
    state = small_state()
    orders = parse("/LMD *MEDICI\n*Florence .0101\nintercept the Dorias\n*Florence .0102\nally with the Dorias\n")
    assert orders.diagnostics == []
    assert RULESET.check(state, 1, "LMD", orders.orders) == []
    assert find_family(state, "Dorias") == "DORIA" and find_family(state, "Borgias") is None
    month = month_ctx([state["personae"]["0101"] | {"inside": True}, state["personae"]["0102"] | {"inside": True}],
                      [state["locations"]["Florence"]], families=state["families"], players=state["players"])
    piero, giovanni = month.state["personae"]["0101"], month.state["personae"]["0102"]
    assert HANDLERS["intercept"](month, piero, orders.orders[0].args).ok
    assert piero["intercept"]["targets"] == ["DORIA"]
    assert HANDLERS["alliance"](month, giovanni, orders.orders[1].args).ok and giovanni["allies"] == ["DORIA"]
