"""The wheel is the product: built from this checkout, installed into a fresh venv outside it, run from an
empty directory. Everything maild reads at run time (grammars, templates, migrations, examples) must come
from the installed package, and the games install as `maild_rules`, never as a bare `rules`."""

from __future__ import annotations

import email
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.servers import without_faketime

pytestmark = pytest.mark.slow


def run(cmd: list[str], cwd: Path, real_time: bool = False, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    if real_time:
        env = without_faketime(env)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, **kw)  # type: ignore[call-overload]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ folder of a fresh venv with the wheel built from this checkout installed in it."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)], cwd=base,
                real_time=True)
    assert built.returncode == 0, built.stderr
    wheels = list(dist.glob("maild-*.whl"))
    assert len(wheels) == 1
    venv = base / "venv"
    assert run([sys.executable, "-m", "venv", str(venv)], cwd=base).returncode == 0
    inst = run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", str(wheels[0])], cwd=base,
               real_time=True)
    assert inst.returncode == 0, inst.stderr
    return venv / "bin"


def test_the_wheel_ships_its_data_under_maild_names(installed: Path) -> None:
    probe = run([str(installed / "python"), "-c",
                 "import importlib.util, maild, maild_rules, maild.paths as p\n"
                 "print(maild.__file__); print(maild_rules.__file__)\n"
                 "print(importlib.util.find_spec('rules'))\n"
                 "for d in (p.GRAMMAR_DIR, p.TEMPLATE_DIR, p.MIGRATIONS_DIR, p.EXAMPLES_DIR): print(d)\n"
                 "print(sorted(x.name for x in p.GRAMMAR_DIR.glob('*.lark')))\n"
                 "print(sorted(p.shipped_examples()))\n"
                 "import maild.ruleset as r; print(sorted(r.package_names()))\n"
                 "import pkgutil; print(sorted(m.name for m in pkgutil.iter_modules(maild_rules.__path__)))\n"
                 "print((p.EXAMPLES_DIR / 'grand-game' / 'map.toml').is_file())\n"
                 "import maild_rules.grandgame.picture as pic; print(sorted(x.name for x in pic.FONTS.iterdir()))"],
                cwd=installed)
    assert probe.returncode == 0, probe.stderr
    lines = probe.stdout.splitlines()
    venv = str(installed.parent)
    assert all(line.startswith(venv) for line in lines[:2] + lines[3:7]), lines
    assert lines[2] == "None"  # no top-level `rules` package installed
    assert lines[7] == "['galilei.lark', 'jungle.lark', 'renaissance.lark', 'venice.lark']"
    assert lines[8] == "['galilei', 'grand-game', 'jungle', 'renaissance', 'venice']"
    # Every game of the checkout is in the wheel (pyproject.toml lists its packages one by one).
    # A game is a package with its ruleset module; a game still being built ships without being offered.
    packages = sorted(d.name for d in (ROOT / "rules").iterdir() if (d / "__init__.py").exists())
    games = [name for name in packages if (ROOT / "rules" / name / "ruleset.py").exists()]
    assert lines[9] == str(games), (lines[9], games)
    assert lines[10] == str(packages), (lines[10], packages)
    assert lines[11] == "True"  # the Grand Game's starter map (examples/grand-game/map.toml)
    # The board picture's font, drawn with no font of the machine's.
    assert lines[12] == str(sorted(["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
                                    "DejaVuSans-BoldOblique.ttf", "LICENSE"])), lines[12]


def test_a_game_runs_from_an_empty_directory(installed: Path, tmp_path: Path) -> None:
    work = tmp_path / "empty"
    work.mkdir()
    maild = str(installed / "maild")
    version = run([maild, "--version"], cwd=work)
    assert version.returncode == 0 and version.stdout.startswith("maild ")

    # A failing command exits 2 with one line and leaves nothing behind.
    now = ["--now", "2026-11-22T09:00+01:00"]
    failed = run([maild, *now, "game", "show", "nothing-here"], cwd=work)
    assert failed.returncode == 2
    assert failed.stderr.strip().splitlines() == ["maild: no game named 'nothing-here'"]
    assert list(work.iterdir()) == []

    init = run([maild, *now, "init"], cwd=work)
    assert init.returncode == 0, init.stderr
    assert "created game venice-demo" in init.stdout
    created = run([maild, *now, "game", "create", "ren", "--ruleset", "renaissance", "--setup",
                   "example:renaissance"], cwd=work)
    assert created.returncode == 0, created.stderr
    assert "created game ren (renaissance), 13 players" in created.stdout
    jungle = run([maild, *now, "game", "create", "aztlan", "--ruleset", "jungle", "--setup", "example:jungle"],
                 cwd=work)
    assert jungle.returncode == 0, jungle.stderr
    assert "created game aztlan (jungle), 3 players" in jungle.stdout
    galilei = run([maild, *now, "game", "create", "gal", "--ruleset", "galilei"], cwd=work)
    assert galilei.returncode == 0, galilei.stderr
    assert "created game gal (galilei), 6 players" in galilei.stdout
    # The Grand Game from the wheel: its example setup (the map under [map]) and its board's fonts.
    grand = run([maild, *now, "game", "create", "gg", "--ruleset", "grand-game"], cwd=work)
    assert grand.returncode == 0, grand.stderr
    assert "created game gg (grandgame), 8 players" in grand.stdout

    order = work / "order.eml"
    order.write_text("From: bob@example.org\nTo: gm@localhost\nSubject: bids\nMessage-ID: <o1@example.org>\n\n"
                     "borrow 300$\nbid 30$ for 2 of silk tax\n")
    helpme = work / "help.eml"
    helpme.write_text("From: carol@example.org\nTo: gm@localhost\nSubject: help\n"
                      "Message-ID: <h1@example.org>\n\nHELP\n")
    ingest = run([maild, *now, "mail", "ingest", str(order), str(helpme)], cwd=work)
    assert ingest.returncode == 0, ingest.stderr
    once = run([maild, *now, "run", "--once"], cwd=work)
    assert once.returncode == 0, once.stderr
    turn = run([maild, *now, "turn", "run", "venice-demo", "--turn", "1"], cwd=work)
    assert turn.returncode == 0, turn.stderr
    once = run([maild, *now, "run", "--once"], cwd=work)
    assert once.returncode == 0, once.stderr

    sent = [email.message_from_bytes(p.read_bytes()) for p in (work / "var/mail/outbox/new").iterdir()]
    by_subject = {(m["To"] or "undisclosed", m["Subject"]): m for m in sent}
    ack = next(m for (to, subj), m in by_subject.items() if to == "bob@example.org" and subj.startswith("Re: bids"))
    body = ack.get_payload(decode=True).decode()
    assert "Understood (2):" in body and "line 2: bid 30$ each for up to 2 of silk tax" in body, body
    helped = [m for (to, subj), m in by_subject.items() if to == "carol@example.org" and subj.startswith("Re: help")]
    assert len(helped) == 1 and "bid" in helped[0].get_payload(decode=True).decode().lower()
    printouts = [m for (to, subj), m in by_subject.items() if to == "bob@example.org" and "turn 1" in subj.lower()]
    assert printouts, sorted(by_subject)
    assert "silk" in printouts[0].get_payload(decode=True).decode()
