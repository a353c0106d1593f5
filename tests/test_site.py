"""`maild site build GAME DIR` (maild/site.py; docs/season.md, "The game's public record (site build)"): the
newsletters as mailed, their pictures and the public ledger as static pages, read back in headless Chromium
(Debian's `chromium`), and never a player's address. A game of the tiny game (tests/rps_game.py), two rounds
played through the daemon (maild.testing.Table)."""

from __future__ import annotations

import argparse
import os
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sqlalchemy import update

from maild.cli import cmd_site, main
from maild.models import OutboundMail
from maild.outbox import insert_rows, outbound_row
from maild.ruleset import Attachment
from maild.site import WITHHELD, newsletter_key, public_record, safe_name
from maild.testing import Table
from tests.conftest import write_gm_config
from tests.rps_game import EXAMPLE_SETUP

CHROMIUM = "/usr/bin/chromium"
ADDRESSES = [p["email"] for p in EXAMPLE_SETUP["players"]]
# ann's line for the newsletter: markup that must stay text, and bob's address that must not show.
SAID = "say <script>alert(1)</script> & see you, bob@example.org"


def play_two_rounds(table: Table) -> None:
    table.create_game("rps1", "rps", EXAMPLE_SETUP, seed=7)
    table.intake()
    table.send("ann@example.org", f"throw rock\n{SAID}")
    table.send("bob@example.org", "#rps1 bob sesame\nthrow scissors")
    table.send("cat@example.org", "throw scissors")
    table.intake()
    table.run_turn("rps1")  # ann beats both (+4), bob and cat draw (+1 each): 4, 1, 1
    table.advance(days=1)
    table.send("ann@example.org", "throw paper")
    table.send("bob@example.org", "#rps1 bob sesame\nthrow scissors")
    table.send("cat@example.org", "throw rock")
    table.intake()
    # bob beats ann, ann beats cat, cat beats bob: +2 each, so 6, 3, 3
    table.run_turn("rps1")


def build(table: Table, folder: Path, force: bool = False) -> int:
    return cmd_site(table.app, argparse.Namespace(name="rps1", dir=folder, force=force))


class Page(HTMLParser):
    """A page's text, its links, its elements and the text of each element with an id, as a browser's DOM
    has them."""

    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"})

    def __init__(self, html: str) -> None:
        super().__init__()
        self.links: list[str] = []
        self.tags: list[str] = []
        self.ids: dict[str, str] = {}
        self.rows: list[list[str]] = []  # each table row's cells
        self._open: list[str | None] = []  # the id of each element open, None for one without
        self._cell = False
        self._texts: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th") and self.rows:
            self.rows[-1].append("")
            self._cell = True
        if tag in self.VOID:
            return
        self._open.append(found.get("id"))
        if found.get("id"):
            self.ids[str(found["id"])] = ""

    def handle_endtag(self, tag: str) -> None:
        self._cell = self._cell and tag not in ("td", "th", "tr")
        if tag not in self.VOID and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        self._texts.append(data)
        if self._cell:
            self.rows[-1][-1] += data
        for open_id in filter(None, self._open):
            self.ids[open_id] += data

    @property
    def text(self) -> str:
        return "".join(self._texts)


def browser_dom(page: Path, tmp: Path) -> Page:
    """The DOM headless Chromium built of `page` (a file:// URL, as a reader opens the site from disk)."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    profile = tmp / "chromium-profile"
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                           "--dump-dom", page.resolve().as_uri()],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "<html" in done.stdout, done.stderr[-2000:]
    return Page(done.stdout)


def no_address_in(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes().lower()
            for address in ADDRESSES:
                assert address.encode() not in data, f"{address} in {path}"


def test_the_browser_reads_the_game_its_turns_and_the_newsletter(tmp_path: Path) -> None:
    site = tmp_path / "site"
    with Table(tmp_path) as table:
        play_two_rounds(table)
        newsletter = table.newsletter("rps1", 1)
        assert build(table, site) == 0

    index = browser_dom(site / "index.html", tmp_path)
    assert index.ids["game"] == "rps1"
    assert index.ids["ruleset"] == "rps"
    assert "turn 3 is taking orders; 2 turns played" in index.text
    assert ["index.html", "turn-1.html", "turn-2.html", "ledger.html"] == index.links

    turn = browser_dom(site / "turn-1.html", tmp_path)
    assert "rps1: turn 1" in turn.text
    # The newsletter as mailed: the throws, the standings.
    for line in ("Round 1 of 3", "ann: rock", "bob: scissors", "cat: scissors", "1. ann: 4", "2. bob: 1"):
        assert line in newsletter and line in turn.text
    # ann's markup is text on the page, not an element; bob's address is withheld.
    assert f"ann: <script>alert(1)</script> & see you, {WITHHELD}" in turn.text
    assert "script" not in turn.tags
    assert "turn-2.html" in turn.links and "turn-0.html" not in turn.links
    assert "bob@example.org" in newsletter  # the mail carried it; the site does not

    ledger = browser_dom(site / "ledger.html", tmp_path)
    assert ledger.rows == [["player", "score"], ["ann", "6"], ["bob", "3"], ["cat", "3"]]
    no_address_in(site)


def test_the_record_is_the_newsletters_mailed_the_newest_correction_and_their_files(tmp_path: Path,
                                                                                     db_url: str) -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><text>cat@example.org</text></svg>'
    with Table(tmp_path, db_url=db_url) as table:
        play_two_rounds(table)
        with table.app.db.session() as s:
            # A rerun's correction of turn 1 (maild/corrections.py's key), with a board in two forms.
            row = outbound_row(table.app, key="newsletter:rps1:1:1:rerun:2027-01-06T09:00:00+00:00",
                               kind="newsletter", to=ADDRESSES, subject="[rps1] turn 1 newsletter (corrected)",
                               body="rps1: turn 1 newsletter\n\nRound 1 of 3, corrected\n", game_id=1,
                               undisclosed=True,
                               attachments=[Attachment("board.png", "image/png", b"\x89PNG\r\n\x1a\nfake"),
                                            Attachment("../board.svg", "image/svg+xml", svg, inline=False)])
            insert_rows(s, [{**row, "status": "sent"}])
            # A newsletter still in the outbox is not yet part of the record.
            s.execute(update(OutboundMail).where(OutboundMail.key == "newsletter:rps1:2:1").values(status="queued"))
        with table.app.db.session() as s:
            record = public_record(s, table.app, "rps1")
        assert [p.number for p in record.turns] == [1]
        (letter,) = record.turns[0].letters
        assert letter.corrected and "Round 1 of 3, corrected" in letter.text
        assert [(f.path, f.content_type, f.picture) for f in letter.files] == [
            ("turn-1/board.png", "image/png", True), ("turn-1/board.svg", "image/svg+xml", False)]
        assert letter.files[1].data == svg.replace(b"cat@example.org", WITHHELD.encode())
        assert record.ledger_labels == ["score"]
        assert dict((p, v) for p, v in record.ledger) == {"ann": ["6"], "bob": ["3"], "cat": ["3"]}

        site = tmp_path / "site"
        assert build(table, site) == 0
    assert sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()) == [
        "index.html", "ledger.html", "turn-1.html", "turn-1/board.png", "turn-1/board.svg"]
    page = (site / "turn-1.html").read_text(encoding="utf-8")
    # The board is shown once, as PNG; its SVG is a link beside it.
    assert '<img src="turn-1/board.png" alt="board.png">' in page and "<img" not in page.split("board.png")[-1]
    assert '<a href="turn-1/board.svg">board.svg</a>' in page and "Corrected" in page
    no_address_in(site)


def test_a_newsletter_key_says_turn_part_phase_and_correction() -> None:
    assert newsletter_key("newsletter:g1:3:1", "g1") == (3, 1, None, False)
    assert newsletter_key("newsletter:g1:3:2:spring", "g1") == (3, 2, "spring", False)
    assert newsletter_key("newsletter:g1:3:1:spring:rerun:2027-01-06T09:00:00+00:00", "g1") == (3, 1, "spring", True)
    assert newsletter_key("newsletter:g1:3:1:rerun:2027-01-06T09:00:00+00:00", "g1") == (3, 1, None, True)
    assert newsletter_key("newsletter:g10:3:1", "g1") is None
    assert safe_name("../board map.svg") == "board-map.svg" and safe_name("...") == "file"


def test_the_command_refuses_an_unknown_game_and_a_folder_not_its_own(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    gm = write_gm_config(tmp_path, outbox="out")
    site = tmp_path / "public"

    def maild(*args: str) -> int:
        return main(["--config", str(gm), "--now", "2026-11-22T09:00+01:00", "site", "build", *args])

    assert maild("nosuch", str(site)) == 2
    assert "no game named 'nosuch'" in capsys.readouterr().err and not site.exists()
    assert maild("venice1", str(site)) == 0
    assert "venice1: the site is in" in capsys.readouterr().out
    # Venice's export holds each player's money: it gives no public ledger, so the site has no ledger page.
    assert sorted(p.name for p in site.iterdir()) == ["index.html"]
    (site / "README").write_text("the GM's own")
    (site / "index.html").write_text("old")
    assert maild("venice1", str(site)) == 2
    assert "is not empty; --force" in capsys.readouterr().err
    assert maild("venice1", str(site), "--force") == 0
    assert (site / "README").read_text() == "the GM's own" and "venice1" in (site / "index.html").read_text()
    (tmp_path / "afile").write_text("x")
    assert maild("venice1", str(tmp_path / "afile")) == 2
    assert "is a file, not a folder" in capsys.readouterr().err

