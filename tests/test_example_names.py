"""`example:NAME` names an example shipped with maild, never a path (issue 22, "Guessing and secrets")."""

from __future__ import annotations

from pathlib import Path

import pytest

from maild.cli import main
from maild.config import load_config
from maild.errors import ConfigError
from maild.paths import EXAMPLES_DIR, setup_path
from tests.conftest import write_gm_config

BAD_NAMES = ["../x", "../../etc/passwd", "/etc/passwd", "venice/../venice", "venice/", "a\\b", "", ".", "..",
             " venice", "venice\n"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_an_example_name_is_a_name_not_a_path(name: str) -> None:
    with pytest.raises(ValueError, match="an example is named by a plain name"):
        setup_path(f"example:{name}", Path("."))


def test_a_plain_example_name_is_the_shipped_setup() -> None:
    assert setup_path("example:venice", Path("/elsewhere")) == EXAMPLES_DIR / "venice" / "setup.toml"
    assert setup_path("setups/mine.toml", Path("/gm")) == Path("/gm/setups/mine.toml")  # a path stays a path


@pytest.mark.parametrize("name", ["../x", "/etc"])
def test_game_create_refuses_a_path_as_example_name(tmp_path: Path, name: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    gm = write_gm_config(tmp_path)
    assert main(["--config", str(gm), "--now", "2026-11-22T09:00+01:00", "game", "create", "g2", "--ruleset",
                 "venice", "--setup", f"example:{name}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"example:{name}: an example is named by a plain name" in err
    assert "venice" in err  # the names that would do


def test_a_config_naming_a_path_as_example_is_refused(tmp_path: Path) -> None:
    gm = write_gm_config(tmp_path)
    gm.write_text(gm.read_text().replace('setup = "setup.toml"', 'setup = "example:../venice"'))
    with pytest.raises(ConfigError, match=r"games 'venice1': setup: example:\.\./venice: an example is named by"):
        load_config(gm)
