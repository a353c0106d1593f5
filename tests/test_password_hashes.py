"""Players' passwords are stored as argon2 hashes, never as text (issue 22, "Guessing and secrets"): after
`game create` from every shipped example that gives passwords, after a sign-up that gives one, and after the
migration of a database that held them as text. On SQLite and PostgreSQL; each failed before the hashing (the
text was in players.password and in every snapshot)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

from maild import passwords
from maild.cli import game_export, main
from maild.db import Database, alembic_config, upgrade
from maild.games import get_game, load_setup
from maild.models import Base
from maild.passwords import hash_password, is_hash, stored, verify
from maild.paths import setup_path
from maild.ruleset import ParsedOrders, SignUp, register, unregister
from maild.testing import Table
from maild_rules.jungle.setup import new_world
from tests.conftest import write_gm_config
from tests.jungle_signup_fixtures import Roster

# Columns that hold mail as it was written or sent: a header line carries its password there, and so does the
# ack that tells a newcomer his; the database file's mode guards those (docs/daemon.md, "Guessing and secrets").
MAIL_BYTES = {("inbound_mails", "raw"), ("outbound_mails", "raw")}


def text_anywhere(url: str, secret: str) -> list[str]:
    """Where `secret` occurs in the database as text, outside the mail bytes: table.column of each."""
    engine = sa.create_engine(url)
    found = []
    with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            for row in conn.execute(sa.select(table)).mappings():
                found += [f"{table.name}.{column}" for column, value in row.items()
                          if (table.name, column) not in MAIL_BYTES and secret in str(value)]
    engine.dispose()
    return found


def table_on(tmp_path: Path, db_url: str) -> Table:
    return Table(tmp_path, db_url=db_url)


@pytest.mark.parametrize("example, player", [("venice", "alice"), ("renaissance", "MED"), ("galilei", "carol")])
def test_game_create_stores_no_password_as_text(tmp_path: Path, db_url: str, example: str, player: str) -> None:
    setup = load_setup(setup_path(f"example:{example}", Path(".")))
    players = setup["players"]
    for i, entry in enumerate(players):
        entry["password"] = f"s3cret-{i}"  # words no state holds otherwise
    secret = f"s3cret-{next(i for i, p in enumerate(players) if player in (p.get('name'), p.get('code')))}"
    with table_on(tmp_path, db_url) as table:
        table.create_game("g1", example, setup)
        for i in range(len(players)):
            assert text_anywhere(db_url, f"s3cret-{i}") == []
        with table.app.db.session() as s:
            export = game_export(s, table.app, get_game(s, "g1"))
        # `game show --json` keeps the state's key, and its value is the hash (docs/daemon.md, "JSON export").
        state_players = export["state"]["players"]
        entry = state_players[player] if isinstance(state_players, dict) else \
            next(p for p in state_players if p["name"] == player)
        assert is_hash(entry["password"]) and verify(entry["password"], secret)
        # The right password still gets the orders in; a wrong one does not.
        table.send("elsewhere@example.net", f"#g1 {player} {secret}\n")
        table.send("elsewhere2@example.net", f"#g1 {player} {secret.upper()}\n")
        table.intake()
        with table.app.db.session() as s:
            rows = s.execute(sa.text("SELECT status FROM inbound_mails ORDER BY id")).scalars().all()
        assert rows == ["empty", "bad_password"]


def test_maild_game_create_on_the_command_line(tmp_path: Path) -> None:
    gm = write_gm_config(tmp_path)
    assert main(["--config", str(gm), "--now", "2026-11-22T09:00+01:00", "game", "create", "v2", "--ruleset",
                 "venice", "--setup", "example:venice"]) == 0
    url = f"sqlite:///{tmp_path / 'maild.db'}"
    assert text_anywhere(url, '"gondola"') == [] and text_anywhere(url, "sesame") == []  # v2's, venice1's


def test_a_jungle_house_password_is_hashed_in_the_state() -> None:
    setup = load_setup(setup_path("example:jungle", Path(".")))
    setup["houses"][0]["password"] = "jaguar"
    house = next(iter(new_world(setup).houses.values()))
    assert house.password is not None and verify(house.password, "jaguar")


class LockedRoster(Roster):
    """Roster that gives each newcomer a password."""

    name = "roster_pw"

    def sign_up(self, state: dict[str, Any], turn: int, address: str, display_name: str | None,
                orders: ParsedOrders) -> SignUp | str:
        taken = super().sign_up(state, turn, address, display_name, orders)
        return SignUp(taken.player, "tiger-lily-42") if isinstance(taken, SignUp) else taken


@pytest.fixture
def roster_pw() -> Iterator[None]:
    register(LockedRoster())
    yield
    unregister(LockedRoster.name)


@pytest.mark.usefixtures("roster_pw")
def test_a_sign_up_password_is_told_once_and_stored_hashed(tmp_path: Path, db_url: str) -> None:
    with table_on(tmp_path, db_url) as table:
        table.create_game("g1", "roster_pw", {"players": [{"name": "ann", "email": "ann@example.org"}]})
        table.send("zoe@example.org", "join zoe")
        table.intake()
        assert '"#g1 zoe tiger-lily-42" (your password)' in table.ack("zoe@example.org")
        assert text_anywhere(db_url, "tiger-lily-42") == []
        table.send("zoe.work@example.net", "#g1 zoe tiger-lily-42\nsay hello")
        table.intake()
        assert "Understood (1)" in table.ack("zoe@example.org")  # the ack goes to her registered address


def test_migration_0009_hashes_the_passwords_of_an_older_database(tmp_path: Path, db_url: str) -> None:
    db = Database(db_url)
    command.upgrade(alembic_config(db.engine), "0008_unwatched")
    when = datetime(2026, 11, 22, 9, 0, tzinfo=UTC).replace(tzinfo=None)
    state = {"players": [{"name": "bob", "email": "bob@example.org", "password": "sesame"},
                         {"name": "carol", "email": "carol@example.org", "password": None}],
             "deep": [{"password": "sesame"}]}
    already = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$dGVzdHRlc3R0ZXN0dGVzdA"
    with db.engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO games (id, name, ruleset, seed, turn, finished, created_at) "
                             "VALUES (1, 'g1', 'venice', 7, 2, false, :t)"), {"t": when})
        conn.execute(sa.text("INSERT INTO players (id, game_id, name, email, password) VALUES "
                             "(1, 1, 'bob', 'bob@example.org', 'sesame'), (2, 1, 'carol', 'carol@example.org', NULL),"
                             " (3, 1, 'dan', 'dan@example.org', :h)"), {"h": already})
        for turn in (1, 2):
            conn.execute(sa.text("INSERT INTO snapshots (id, game_id, turn, state) VALUES (:i, 1, :n, :s)")
                         .bindparams(sa.bindparam("s", type_=sa.JSON)),
                         {"i": turn, "n": turn, "s": copy.deepcopy(state)})
    upgrade(db.engine)
    with db.engine.connect() as conn:
        passwords = dict(conn.execute(sa.text("SELECT name, password FROM players")).all())
        states = [s for (s,) in conn.execute(sa.select(sa.column("state", sa.JSON)).select_from(
            sa.table("snapshots")).order_by(sa.text("turn")))]
    db.close()
    assert verify(passwords["bob"], "sesame") and passwords["carol"] is None and passwords["dan"] == already
    assert text_anywhere(db_url, "sesame") == []
    # One hash for bob's text everywhere in the game: a re-run from snapshot 1 gives snapshot 2 unchanged.
    assert {states[0]["players"][0]["password"], states[1]["players"][0]["password"],
            states[1]["deep"][0]["password"]} == {passwords["bob"]}
    assert states[0]["players"][1]["password"] is None


def test_a_checker_checks_a_right_pair_once_and_a_wrong_one_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    hashed = hash_password("sesame")
    calls: list[str] = []

    def counting(h: str, given: str) -> bool:
        calls.append(given)
        return verify(h, given)

    monkeypatch.setattr(passwords, "verify", counting)
    checker = passwords.Checker()
    assert [checker.check(hashed, "sesame") for _ in range(3)] == [True] * 3
    assert [checker.check(hashed, "sesam") for _ in range(2)] == [False] * 2
    assert calls == ["sesame", "sesam", "sesam"]


def test_only_a_whole_argon2_hash_is_taken_for_one() -> None:
    assert stored(None) is None
    hashed = stored("$argon2id")  # a player's text that starts like a hash is still hashed
    assert hashed is not None and is_hash(hashed) and verify(hashed, "$argon2id")
    assert stored(hashed) == hashed
    assert not verify("sesame", "sesame")  # a text where a hash belongs matches nothing
