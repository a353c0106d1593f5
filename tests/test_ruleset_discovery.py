"""How the framework finds rulesets without naming a game: the packages of maild_rules, rulesets registered
in the process, and the `maild.rulesets` entry points of installed distributions."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from maild import ruleset as contract
from maild.ruleset import installed_names, load_ruleset, package_names
from tests import rps_game


def test_the_packages_of_maild_rules_are_found_not_listed() -> None:
    rules = Path(__file__).resolve().parents[1] / "rules"
    on_disk = {p.name for p in rules.iterdir() if (p / "__init__.py").is_file() and (p / "ruleset.py").is_file()}
    assert set(package_names()) == on_disk
    assert on_disk | {"rps"} <= set(installed_names())
    assert load_ruleset("rps") is rps_game.RULESET  # registered when tests/rps_game.py was imported
    with pytest.raises(KeyError):
        load_ruleset("chess")


def test_a_game_package_without_its_ruleset_module_is_not_offered(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A game still being built (issue 24: the Grand Game's board before its rules) ships in maild_rules but is
    no ruleset: maild and the contract tests must not try to load it."""
    import maild_rules

    half = tmp_path / "halfbuilt"
    half.mkdir()
    (half / "__init__.py").write_text('"""A board, no rules yet."""\n')
    (half / "board.py").write_text("BOARD = 1\n")
    monkeypatch.setattr(maild_rules, "__path__", [*maild_rules.__path__, str(tmp_path)])
    package_names.cache_clear()
    try:
        assert "halfbuilt" not in package_names() and "halfbuilt" not in installed_names()
        assert {"venice", "galilei"} <= package_names()
        (half / "ruleset.py").write_text("")
        package_names.cache_clear()
        assert "halfbuilt" in package_names()  # once it has its ruleset module, it is offered
    finally:
        package_names.cache_clear()


@pytest.fixture
def distribution(tmp_path: Path) -> Iterator[None]:
    """An installed distribution (its dist-info on sys.path) offering the tiny game as `rps_ep`."""
    info = tmp_path / "rps_ep-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rps-ep\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[maild.rulesets]\nrps_ep = tests.test_ruleset_discovery:RPS_EP\n")
    sys.path.insert(0, str(tmp_path))
    contract.entry_points.cache_clear()
    yield
    sys.path.remove(str(tmp_path))
    contract.entry_points.cache_clear()


class _EntryPointGame(rps_game.RockPaperScissors):
    name = "rps_ep"


RPS_EP = _EntryPointGame()


def test_an_installed_distribution_offers_a_ruleset_by_entry_point(distribution: None) -> None:
    assert "rps_ep" in installed_names()
    assert load_ruleset("rps_ep") is RPS_EP
