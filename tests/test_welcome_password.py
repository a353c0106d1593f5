"""A player whose game gives him a password learns from his welcome that his mail must carry it, with the
`#GAME PLAYER PASSWORD` line to copy above his orders (issue 23: "the first mail of every such player is
refused"); then that line, copied, gets his first mail in. In every game."""

from __future__ import annotations

from pathlib import Path

import pytest

from maild.games import load_setup
from maild.paths import setup_path
from maild.testing import Table
from tests.mailcheck import long_prose_lines

# game, ruleset, the setup's table of players, the player given a password, his address, a first order
GAMES = [
    ("venice1", "venice", "players", "alice", "alice@example.org", "bid 10$ for 1 of silk tax"),
    ("gal1", "galilei", "players", "alice", "alice@example.org", "bid 10 for cards, 10 for capitals"),
    ("ren1493", "renaissance", "players", "MED", "med@example.org", "/MED *MEDICI\n*Florence .0101\nHP"),
    ("lotj", "jungle", "houses", "alice", "alice@example.org", "**Toil**"),
]


def with_password(ruleset: str, table: str, player: str, tmp_path: Path) -> dict:
    setup = load_setup(setup_path(f"example:{ruleset}", tmp_path))
    for p in setup[table]:
        p.pop("password", None)
        if player in (p.get("name"), p.get("code")):
            p["password"] = "s3same"
    return setup


@pytest.mark.parametrize(("game", "ruleset", "table", "player", "address", "order"), GAMES)
def test_the_welcome_gives_the_password_line_and_the_line_gets_the_mail_in(
        tmp_path: Path, game: str, ruleset: str, table: str, player: str, address: str, order: str) -> None:
    with Table(tmp_path) as t:
        t.create_game(game, ruleset, with_password(ruleset, table, player, tmp_path))
        t.intake()
        welcome = t.welcome(game, player)
        line = f"#{game} {player} s3same"
        assert line in welcome.splitlines() or f"  {line}" in welcome.splitlines(), welcome[:2000]
        flat = " ".join(welcome.split())
        assert "password" in flat and "above your orders" in flat
        assert not long_prose_lines(welcome.split(line)[0].split("\n\n")[-1])
        # The others have none: their welcome says nothing of a password line.
        others = [m for m in t.mails() if "] welcome, " in str(m["Subject"]) and f"welcome, {player}:" not in
                  str(m["Subject"])]
        assert others and all(f"#{game} " not in m.get_content() for m in others)
        # Without it his mail is refused, and the warning shows the line again.
        t.send(address, order, to="gm@example.org")
        t.intake()
        warning = " ".join(t.ack(address).split())
        assert "it carried no password" in warning and f"'#{game} {player} PASSWORD'" in warning, warning
        # Copied as it stands above his orders, the line gets his first mail read.
        t.send(address, f"{line}\n{order}", to="gm@example.org")
        t.intake()
        ack = t.ack(address)
        assert "carried no password" not in ack and "refused" not in ack.split("\n\n")[1], ack
