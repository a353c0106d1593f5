"""Games: creating them from a setup file, their players, turns, deadlines and state snapshots."""

from __future__ import annotations

import hashlib
import secrets
import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.config import Config, GameConfig
from maild.deadlines import deadline_for, format_deadline, game_timezone
from maild.errors import GameError
from maild.models import Game, Player, Snapshot, Turn
from maild.passwords import stored
from maild.phases import check_schedule, is_phased, open_first_phase, refresh_phase_deadline
from maild.ruleset import PlayerSpec, Ruleset, SetupError, load_ruleset
from maild.welcome import queue_welcomes, setup_passwords

if TYPE_CHECKING:
    from maild.app import App


def turn_seed(game_seed: int, turn: int) -> int:
    """The RNG seed of a turn: fixed by the game's seed and the turn number, so a re-run draws the same."""
    digest = hashlib.sha256(f"{game_seed}:{turn}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # fits a signed 64-bit column


def load_setup(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise SetupError(f"{path}: no such setup file") from None
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"{path}: {exc}") from None


def ruleset_named(name: str) -> Ruleset:
    try:
        return load_ruleset(name)
    except KeyError:
        raise GameError(f"unknown ruleset {name!r}") from None


def create_game(session: Session, name: str, ruleset_name: str, setup_path: Path | dict[str, Any], now: datetime,
                gcfg: GameConfig | None = None, app: App | None = None) -> Game:
    """Create the game from a setup file (or its table already read, as maild.testing gives it); with `app`,
    the players' welcome mails go into the outbox in the same transaction."""
    if session.scalar(select(Game).where(Game.name == name)) is not None:
        raise GameError(f"a game named {name!r} exists already")
    ruleset = ruleset_named(ruleset_name)
    setup = setup_path if isinstance(setup_path, dict) else load_setup(setup_path)
    state = ruleset.new_game(setup)
    # The ruleset's own name (`grand-game` is stored as `grandgame`): its templates are found by it.
    game = Game(name=name, ruleset=ruleset.name, seed=secrets.randbits(62), turn=1, finished=False,
                created_at=now)
    session.add(game)
    session.flush()
    for spec in ruleset.players(state):
        session.add(new_player(game, spec))
    session.add(Snapshot(game_id=game.id, turn=1, state=state))
    deadline = None
    if gcfg is not None and gcfg.schedule is not None:
        deadline = deadline_for(gcfg.schedule, 1, now)
    first = Turn(game_id=game.id, number=1, deadline=deadline, seed=turn_seed(game.seed, 1), status="open")
    session.add(first)
    open_first_phase(session, ruleset, game, first, state, now, gcfg)
    session.flush()
    if app is not None:
        queue_welcomes(session, app, game, ruleset, state, players_of(session, game), 1,
                       format_deadline(first.deadline, game_timezone(app.config, name)), setup_passwords(setup))
    return game


def new_player(game: Game, spec: PlayerSpec) -> Player:
    """The row of a player the ruleset lists: his password hashed unless the state holds its hash already (a
    ruleset that keeps the text in its own state still gets no text into the database's players)."""
    return Player(game_id=game.id, name=spec.name, email=spec.email.lower(), password=stored(spec.password))


def sync_games(session: Session, config: Config, now: datetime, app: App | None = None) -> list[str]:
    """Create the config's games that do not exist yet and take the deadlines from the config, which the
    GM may have changed since. Returns the names of the games created. With `app`, their players are
    welcomed (see create_game)."""
    created = []
    for gcfg in config.games:
        check_schedule(gcfg, ruleset_named(gcfg.ruleset), str(config.path or "config"))
        game = session.scalar(select(Game).where(Game.name == gcfg.name))
        if game is None:
            create_game(session, gcfg.name, gcfg.ruleset, gcfg.setup, now, gcfg, app)
            created.append(gcfg.name)
        elif gcfg.schedule is not None and not game.finished:
            refresh_deadline(session, game, gcfg)
    return created


def refresh_deadline(session: Session, game: Game, gcfg: GameConfig) -> None:
    turn = open_turn(session, game)
    if turn is None or gcfg.schedule is None:
        return
    ruleset = ruleset_named(game.ruleset)
    if is_phased(ruleset):
        refresh_phase_deadline(session, gcfg, ruleset, game, turn)
        return
    previous = get_turn(session, game, turn.number - 1)
    after = previous.deadline if previous is not None and previous.deadline is not None else game.created_at
    turn.deadline = extended(deadline_for(gcfg.schedule, turn.number, after), turn)


def extended(deadline: datetime | None, turn: Turn) -> datetime | None:
    """A deadline from the schedule, moved on as far as a handover to a substitute moved the turn's."""
    seconds = turn.extended_seconds or 0
    return deadline + timedelta(seconds=seconds) if deadline is not None and seconds else deadline


def get_game(session: Session, name: str, lock: bool = False) -> Game:
    """The game named `name`; `lock` holds its row until the transaction ends (FOR UPDATE on PostgreSQL),
    so intake in another process waits rather than booking orders for a turn being resolved."""
    q = select(Game).where(Game.name == name)
    game = session.scalar(q.with_for_update() if lock else q)
    if game is None:
        raise GameError(f"no game named {name!r}")
    return game


def get_turn(session: Session, game: Game, number: int) -> Turn | None:
    return session.scalar(select(Turn).where(Turn.game_id == game.id, Turn.number == number))


def open_turn(session: Session, game: Game) -> Turn | None:
    """The turn now taking orders, None when the game is over."""
    if game.finished:
        return None
    return get_turn(session, game, game.turn)


def state_before(session: Session, game: Game, turn: int) -> dict[str, Any]:
    snap = session.scalar(select(Snapshot).where(Snapshot.game_id == game.id, Snapshot.turn == turn))
    if snap is None:
        raise GameError(f"{game.name}: no state saved before turn {turn}")
    return snap.state


def players_of(session: Session, game: Game) -> list[Player]:
    return list(session.scalars(select(Player).where(Player.game_id == game.id).order_by(Player.name)))
