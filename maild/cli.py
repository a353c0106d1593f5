"""The `maild` command line (docs/design.md's table). Exit 0 on success, 2 on bad usage or input."""

from __future__ import annotations

import argparse
import sys
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from maild import __version__
from maild.errors import ConfigError, GameError
from maild.logs import setup_logging
from maild.paths import EXAMPLE_PREFIX
from maild.playerargs import add_player_parser
from maild.ruleset import SetupError

if TYPE_CHECKING:
    from maild.app import App
    from maild.models import Game

# Only the standard library and maild's light modules are imported above: `maild --help`, `--version` and
# `orders check` must start fast. SQLAlchemy, Alembic, Jinja, the mail transports and APScheduler are
# imported inside the commands that use them (tests/test_cli_start.py holds this).


class UsageError(Exception):
    """Bad usage or bad input: exit status 2 with a one-line reason."""


class DatabaseAway(Exception):
    """The database failed for a passing reason and went on failing: exit status 75 with a one-line reason."""


EXIT_TEMPFAIL = 75  # EX_TEMPFAIL, as for a stalled intake (maild/intake/stall.py): try again later
# A command the database failed for a passing reason (a dropped connection, a lock, a full disk) is done again
# after each of these pauses, as long as it has written nothing (else it might do its work twice).
COMMAND_RETRY_PAUSES_S = (0.25, 0.5, 1.0, 2.0)


def example(*lines: str) -> dict[str, Any]:
    """argparse keywords that end a command's --help with examples (kept as written, not re-wrapped)."""
    text = "example" + ("s" if len(lines) > 1 else "") + ":\n" + "\n".join(f"  {line}" for line in lines)
    return {"epilog": text, "formatter_class": argparse.RawDescriptionHelpFormatter}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="maild", description="A play-by-mail game master that runs on e-mail.",
                                **example("maild init && maild run            # the embedded default: SQLite and "
                                          "Maildirs under ./var",
                                          "maild --config gm.toml game list"))
    p.add_argument("--config", type=Path, default=None,
                   help="config file (default ./maild.toml; without one, the embedded default)")
    p.add_argument("--now", default=None, help="ISO-8601 date and time to use as the clock (GMs, tests)")
    p.add_argument("-v", "--verbose", action="store_true", help="log debug details")
    p.add_argument("--version", action="version", version=f"maild {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    sub.add_parser("init", help="create or upgrade the database", **example("maild --config gm.toml init"))

    game = sub.add_parser("game", help="games", **example("maild game list", "maild game show venice1")
                          ).add_subparsers(dest="game_cmd", required=True)
    create = game.add_parser("create", help="start a game from a setup file (TOML)", **example(
        "maild game create venice1 --ruleset venice --setup venice-setup.toml",
        "maild game create demo --ruleset renaissance            # the ruleset's own example setup"))
    create.add_argument("name")
    create.add_argument("--ruleset", required=True)
    create.add_argument("--setup", default=None,
                        help=f"setup file (TOML), or {EXAMPLE_PREFIX}NAME for an example shipped with maild "
                             "(default: the ruleset's own example)")
    game.add_parser("list", help="games, turn, next deadline, who has not sent orders",
                    **example("maild game list"))
    pause = game.add_parser("pause", help="pause a game: no turn runs and no reminder goes; every player told",
                            **example("maild game pause venice1", "maild game resume venice1   # the time that was "
                                      "left is given back"))
    pause.add_argument("name")
    resume = game.add_parser("resume", help="resume a paused game: the open turn's deadline moves on by as long as "
                             "the pause lasted; every player told", **example("maild game resume venice1"))
    resume.add_argument("name")
    extend = game.add_parser("extend", help="give the open turn (or phase) more time; every player told",
                             **example("maild game extend venice1 2d", "maild game extend venice1 12h"))
    extend.add_argument("name")
    extend.add_argument("duration", help="how much longer: 30m, 12h, 2d")
    show = game.add_parser("show", help="the game's current state", **example(
        "maild game show venice1", "maild game show venice1 --json > venice1.json"))
    show.add_argument("name")
    show.add_argument("--json", action="store_true", help="the machine-readable export")

    daemons = sub.add_parser("daemons", help="which daemon holds what, and since when (PostgreSQL: several daemons "
                             "share the games and the inbox)", **example("maild daemons", "maild daemons --json"))
    daemons.add_argument("--json", action="store_true", help="machine-readable: a list of objects, one a run")
    run = sub.add_parser("run", help="the daemon", **example(
        "maild --config gm.toml run", "maild run --once --now 2027-03-01T17:16   # one pass, as if it were then"))
    run.add_argument("--once", action="store_true", help="one full pass, then exit")
    run.add_argument("--now", dest="now_sub", default=None)

    turn = sub.add_parser("turn", help="turns", **example("maild turn run venice1 --turn 3",
                                                         "maild turn rerun venice1 3")
                          ).add_subparsers(dest="turn_cmd", required=True)
    trun = turn.add_parser("run", help="run the game's open turn now (GM override), the one you name", **example(
        "maild turn run venice1 --turn 3          # runs turn 3 if it is the open turn, else refuses",
        "maild turn run gal1 --turn 2 --phase shortage",
        "maild turn run venice1                   # says which turn it would run and asks"))
    trun.add_argument("name")
    trun.add_argument("--turn", type=int, default=None, metavar="N",
                      help="the turn you mean to run; refused unless it is the open one (a second run after a "
                           "crash never runs the next turn)")
    trun.add_argument("--phase", default=None, metavar="NAME",
                      help="in a game of phases, the phase you mean to run; refused unless it is the open one")
    trun.add_argument("--yes", action="store_true",
                      help="without --turn: run whatever turn is open, without asking")
    trun.add_argument("--now", dest="now_sub", default=None)
    rerun = turn.add_parser("rerun", help="recompute turn N from the snapshot before it", **example(
        "maild turn rerun venice1 3              # says what would change, stores nothing",
        "maild turn rerun venice1 3 --yes --mail # stores it and mails corrected printouts"))
    rerun.add_argument("name")
    rerun.add_argument("number", type=int)
    rerun.add_argument("--mail", action="store_true",
                       help="mail the corrected printouts to the players whose printout changed (the changed lines "
                            "first), and the newsletter if it changed; the output names who was mailed and why")
    rerun.add_argument("--yes", action="store_true",
                       help="store the results (without it, the rerun only says what it would change)")
    preview = turn.add_parser(
        "preview", help="before the deadline: who has nothing on file, the defaults and ladder steps that would "
                        "apply, what the safety gate would do, and the turn's result as a dry run (nothing stored, "
                        "nothing sent)", **example(
                            "maild turn preview venice1",
                            "maild turn preview venice1 --printout alice   # her printout of the dry run in full",
                            "maild turn preview venice1 --json > preview.json"))
    preview.add_argument("name")
    preview.add_argument("--printout", metavar="PLAYER", default=None,
                         help="show this player's printout of the dry run in full")
    preview.add_argument("--no-dry-run", dest="dry_run", action="store_false",
                         help="leave the dry run out (a big game's turn can take a while to resolve)")
    preview.add_argument("--json", action="store_true", help="the machine-readable preview")
    release = turn.add_parser("release", help="run a turn the safety gate held",
                              **example("maild turn release venice1"))
    release.add_argument("name")

    mail = sub.add_parser("mail", help="inbound mail", **example("maild mail list", "maild mail ingest orders.eml")
                          ).add_subparsers(dest="mail_cmd", required=True)
    ingest = mail.add_parser("ingest", help="take raw .eml files as if they had arrived, in the order given",
                             **example("maild mail ingest alice-orders.eml bob-orders.eml"))
    ingest.add_argument("files", nargs="+", type=Path)
    mlist = mail.add_parser("list", help="inbound mail that needs the GM (or all with --all)",
                            **example("maild mail list", "maild mail list --all"))
    mlist.add_argument("--all", action="store_true")
    mshow = mail.add_parser("show", help="a stored mail: headers, the text as read, status, orders booked, answers",
                            **example("maild mail show 17"))
    mshow.add_argument("id", type=int, metavar="ID")
    reprocess = mail.add_parser("reprocess", help="run intake again on stored mail (status reset, receipt "
                                                  "sequence kept); refused for mail already booked or answered",
                                **example("maild mail reprocess 17 18", "maild mail reprocess --errors",
                                          "maild mail reprocess 17 --turn 3   # answered empty: book it into turn 3"))
    reprocess.add_argument("ids", nargs="*", type=int, metavar="ID")
    reprocess.add_argument("--errors", action="store_true", help="every mail that ended in error")
    reprocess.add_argument("--turn", type=int, default=None, metavar="N",
                           help="book one mail's orders into turn N, the turn it arrived for, even though it was "
                                "answered (empty, or read wrong): a new ack, a line in the GM's log")

    outbox = sub.add_parser("outbox", help="outbound mail", **example("maild outbox list", "maild outbox retry --all")
                            ).add_subparsers(dest="outbox_cmd", required=True)
    outbox.add_parser("list", help="queued and failed outbound mail, and sent mail partly refused or bounced",
                      **example("maild outbox list"))
    retry = outbox.add_parser("retry", help="make queued mail due now and failed mail queued again", **example(
        "maild outbox retry 12 15", "maild outbox retry --all   # every queued and failed mail"))
    retry.add_argument("ids", nargs="*", type=int, metavar="ID")
    retry.add_argument("--all", action="store_true", help="every queued and failed mail")

    replies = sub.add_parser("replies", help="answers to mail (acks, HELP, refusals) and the reply limits",
                             **example("maild replies list")).add_subparsers(dest="replies_cmd", required=True)
    rlist = replies.add_parser("list", help="answers the reply limits held back (or all with --all: each queued "
                                            "one as sent, failed or bounced once its mail went)",
                               **example("maild replies list", "maild replies list --all"))
    rlist.add_argument("--all", action="store_true")

    site = sub.add_parser("site", help="the game's public record as a static site", **example(
        "maild site build venice1 public/venice1")).add_subparsers(dest="site_cmd", required=True)
    sbuild = site.add_parser(
        "build", help="write the game's public record (each turn's newsletter as mailed, its pictures, the "
                      "public ledger) as static HTML pages into DIR; never a printout, never an address",
        **example("maild site build venice1 public/venice1",
                  "maild site build venice1 public/venice1 --force   # again, over the pages it wrote before"))
    sbuild.add_argument("name", metavar="GAME")
    sbuild.add_argument("dir", type=Path, metavar="DIR")
    sbuild.add_argument("--force", action="store_true",
                        help="write into DIR though it is not empty: maild's files are replaced, no other file is "
                             "touched or deleted")

    # The GM's orders are the installed rulesets' (maild/gmcli.py): read there, so that `maild --help` imports
    # no game. Its words, --help and --note included, go there as they are ("+" is a prefix nobody types).
    gm = sub.add_parser("gm", add_help=False, prefix_chars="+", help="the GM's own orders for a game's open "
                        "turn (maild gm --help lists them)")
    gm.add_argument("words", nargs=argparse.REMAINDER)

    add_player_parser(sub)

    orders = sub.add_parser("orders", help="orders", **example("maild orders check --ruleset venice bids.txt")
                            ).add_subparsers(dest="orders_cmd", required=True)
    check = orders.add_parser("check", help="check a file of orders as the daemon would", **example(
        "maild orders check --ruleset venice my-bids.txt",
        "maild orders check --ruleset renaissance --game ren1 medici-orders.txt"))
    check.add_argument("--ruleset", required=True)
    check.add_argument("--game", default=None)
    check.add_argument("file", type=Path)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    setup_logging(args.verbose)
    # `orders check` without --game touches no database or Maildir (and reading the config would cost it
    # APScheduler's import for a cron schedule).
    uses_state = not (args.command == "orders" and not args.game)
    fresh = _paths_not_yet_there(args.config) if uses_state else []
    try:
        return dispatch_retrying(args) if uses_state else dispatch(args)
    except (UsageError, ConfigError, GameError, SetupError) as exc:
        print(f"maild: {exc}", file=sys.stderr)
        _remove_created(fresh)
        return 2
    except DatabaseAway as exc:
        print(f"maild: {exc}", file=sys.stderr)
        _remove_created(fresh)
        return EXIT_TEMPFAIL
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `maild game show --json | head`: the reader has had enough
        sys.stderr.close()
        return 0


def dispatch_retrying(args: argparse.Namespace) -> int:
    """`dispatch`, done again while the database fails for a passing reason and the command has written
    nothing. What an attempt printed is kept back until it ends, so that a retry prints nothing twice (the
    daemon, which runs on, prints as it goes)."""
    import contextlib
    import io
    import time

    from maild.db import committed_writes, is_transient

    for pause in (*COMMAND_RETRY_PAUSES_S, None):
        written = committed_writes()
        out = io.StringIO()
        again = False
        try:
            with contextlib.redirect_stdout(out) if args.command != "run" else contextlib.nullcontext():
                return dispatch(args)
        except Exception as exc:
            if not is_transient(exc):
                raise
            half_done = committed_writes() != written
            if pause is None or half_done:
                raise DatabaseAway(_away_reason(exc, half_done)) from exc
            again = True
        finally:
            if not again:  # what it printed, also before it failed for good, as if nothing were kept back
                sys.stdout.write(out.getvalue())
        time.sleep(pause)
    raise AssertionError("unreachable: the last attempt returns or raises")


def _away_reason(exc: Exception, half_done: bool) -> str:
    from maild.trouble import reason_of

    what = reason_of(exc)
    if half_done:
        return f"the database failed midway ({what}); part of the work may be done: check before running it again"
    return f"the database is unavailable ({what}); nothing was changed: try again later"


def _paths_not_yet_there(config_path: Path | None) -> list[Path]:
    """The outermost folders and files the config would create (SQLite file, Maildirs) that do not exist
    yet, so that a command that fails leaves nothing behind (no stray ./var)."""
    from maild.config import load_config

    try:
        config = load_config(config_path)
    except ConfigError:
        return []
    wanted = [config.inbound.path, config.outbound.path]
    if config.database_url.startswith("sqlite:///"):
        wanted.append(Path(config.database_url.removeprefix("sqlite:///")))
    fresh = []
    for path in wanted:
        if path is None:
            continue
        path = path.absolute()
        top = None
        while not path.exists() and path != path.parent:
            top, path = path, path.parent
        if top is not None:
            fresh.append(top)
    return fresh


def _remove_created(paths: list[Path]) -> None:
    import shutil

    for path in paths:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        elif path.exists():
            path.unlink(missing_ok=True)
        for sidecar in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            sidecar.unlink(missing_ok=True)


def make_app(args: argparse.Namespace, frozen: bool = True) -> App:
    from maild.app import App
    from maild.clock import Clock, parse_now
    from maild.config import load_config
    from maild.db import Database, upgrade
    from maild.games import sync_games

    config = load_config(args.config)
    now_text = getattr(args, "now_sub", None) or args.now
    try:
        start = parse_now(now_text) if now_text else None
    except ValueError:
        raise UsageError(f"--now: {now_text!r} is not an ISO-8601 date and time") from None
    db = Database(config.database_url)
    upgrade(db.engine)
    app = App(config=config, db=db, clock=Clock(start, frozen=frozen))
    # Every command sees the config's games, even before the first `init` or `run`.
    with db.session() as s:
        app.created = sync_games(s, config, app.now(), app)
    return app


def dispatch(args: argparse.Namespace) -> int:
    if args.command == "orders":
        return cmd_orders_check(args)
    if args.command == "gm":
        from maild.gmcli import cmd_gm

        return cmd_gm(args.words, lambda: make_app(args))
    app = make_app(args, frozen=not (args.command == "run" and not args.once))
    try:
        handler = {
            "init": cmd_init, "game": cmd_game, "run": cmd_run, "turn": cmd_turn, "mail": cmd_mail,
            "outbox": cmd_outbox, "replies": cmd_replies, "player": cmd_player, "site": cmd_site,
            "daemons": cmd_daemons,
        }[args.command]
        return handler(app, args)
    finally:
        app.db.close()


def cmd_daemons(app: App, args: argparse.Namespace) -> int:
    import json

    from maild.daemonsview import daemon_runs

    with app.db.session() as s:
        runs = daemon_runs(s)
    if args.json:
        print(json.dumps([r.export() for r in runs], indent=2, sort_keys=True))
    elif not runs:
        print("no daemon holds a lease on this database (on SQLite one daemon runs at a time, under a lock file)")
    for run in [] if args.json else runs:
        print(run.line())
    return 0


def cmd_player(app: App, args: argparse.Namespace) -> int:
    from maild.playercli import run_player_command

    return run_player_command(app, args)


def cmd_site(app: App, args: argparse.Namespace) -> int:
    from maild.site import build_site, summary

    folder: Path = args.dir
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not args.force:
        raise UsageError(f"{folder} is not empty; --force writes the site into it (maild's own files replaced, "
                         "no other touched)")
    try:
        record = build_site(app, args.name, folder)
    except OSError as exc:
        raise UsageError(f"{folder}: {exc.strerror}") from None
    print(summary(record, folder))
    return 0


def cmd_init(app: App, args: argparse.Namespace) -> int:
    print(f"database ready at {app.db.engine.url.render_as_string(hide_password=True)}")
    for name in app.created:
        print(f"created game {name}")
    return 0


def cmd_game(app: App, args: argparse.Namespace) -> int:
    import json

    from sqlalchemy import select

    from maild.games import create_game, get_game, players_of
    from maild.models import Game
    from maild.paths import setup_path, shipped_examples

    if args.game_cmd == "create":
        try:
            setup = setup_path(args.setup or f"{EXAMPLE_PREFIX}{args.ruleset}", Path("."))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if not setup.exists():
            if args.setup is None or args.setup.startswith(EXAMPLE_PREFIX):
                raise UsageError(f"no example {setup.parent.name!r} ships with maild (there are: "
                                 f"{', '.join(shipped_examples())}); give a setup file with --setup")
            raise UsageError(f"{args.setup}: no such setup file")
        with app.db.session() as s:
            game = create_game(s, args.name, args.ruleset, setup, app.now(), app.config.game(args.name), app)
            print(f"created game {game.name} ({game.ruleset}), {len(players_of(s, game))} players")
        return 0
    if args.game_cmd in ("pause", "resume", "extend"):
        return _change_deadline(app, args)
    if args.game_cmd == "list":
        from maild.daemonsview import game_holders
        from maild.deadlines import game_timezone

        with app.db.session() as s:
            holders = game_holders(s)  # several daemons on PostgreSQL: which runs the game
            for game in s.scalars(select(Game).order_by(Game.name)):
                print(game_line(s, game, game_timezone(app.config, game.name))
                      + "".join(f"  {line}" for line in season_lines(s, app, game) if not game.finished)
                      + (f"  daemon {holders[game.name]}" if game.name in holders else ""))
        return 0
    from maild.deadlines import format_deadline, game_timezone
    from maild.games import get_turn, ruleset_named
    from maild.gamesummary import summary

    with app.db.session() as s:
        game = get_game(s, args.name)
        export = game_export(s, app, game)
        turn = get_turn(s, game, game.turn)
        deadline = format_deadline(turn.deadline, game_timezone(app.config, game.name)) \
            if turn is not None and turn.deadline is not None else None
        total = ruleset_named(game.ruleset).total_turns(export["state"])
        season = [] if game.finished else season_lines(s, app, game)
    if args.json:
        print(json.dumps(export, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print(summary(export, deadline, total))
        if season:
            print("\n" + "\n".join(season))
    return 0


def season_lines(s: Any, app: App, game: Game) -> list[str]:
    """The missed-orders ladder (who is at which step, who climbs next), the grace and the absences of a game
    (maild/ladder.py, maild/grace.py, maild/absences.py)."""
    from maild.absences import absence_lines
    from maild.grace import grace_lines
    from maild.ladder import ladder_lines
    from maild.orderbook import players_without_orders

    silent = [p.name for p in players_without_orders(s, game, game.turn)]
    return [*grace_lines(s, game), *ladder_lines(s, app, game, silent),
            *absence_lines(s, app, game)]


def _change_deadline(app: App, args: argparse.Namespace) -> int:
    """`maild game pause|resume|extend`: one transaction, every player told (maild.deadline_changes)."""
    from maild.config import parse_duration
    from maild.deadline_changes import extend, pause, resume

    if args.game_cmd == "extend":
        try:
            by = parse_duration(args.duration)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        said = app.db.transaction(lambda s: extend(s, app, args.name, by), f"extending {args.name}")
    else:
        change = pause if args.game_cmd == "pause" else resume
        said = app.db.transaction(lambda s: change(s, app, args.name), f"{args.game_cmd} of {args.name}")
    print(said)
    return 0


def game_line(s: Any, game: Game, tz: ZoneInfo | None = None) -> str:
    """One line of `maild game list`; the deadline in the game's time zone `tz` (its schedule's), ISO 8601 with
    its offset and the zone's name."""
    from maild.bounces import unreachable, unreachable_line
    from maild.games import get_turn
    from maild.orderbook import players_without_orders

    if game.finished:
        return f"{game.name}  {game.ruleset}  finished after turn {game.turn - 1}"
    turn = get_turn(s, game, game.turn)
    deadline = "no deadline"
    if turn and turn.deadline:
        zone = tz or ZoneInfo("UTC")
        deadline = f"{turn.deadline.astimezone(zone).isoformat(timespec='minutes')} {zone.key}"
    held = f"  HELD: {turn.note}" if turn and turn.status == "held" else ""
    if game.paused_at is not None:
        held += f"  PAUSED since {game.paused_at:%Y-%m-%d %H:%M} UTC"
    if turn is not None and turn.extended_by:
        from maild.extensions import span

        held += f"  extended by {span(timedelta(seconds=turn.extended_by))}"
    missing = [p.name for p in players_without_orders(s, game, game.turn)]
    waiting = ", ".join(missing) if missing else "nobody"
    lost = unreachable(s, game)
    return (f"{game.name}  {game.ruleset}  turn {game.turn}  deadline {deadline}  "
            f"no orders from: {waiting}{held}" + (f"  {unreachable_line(lost)}" if lost else ""))


def game_export(s: Any, app: App, game: Game) -> dict[str, Any]:
    from maild.bounces import unreachable
    from maild.games import get_turn, players_of, ruleset_named, state_before
    from maild.ladder import standings
    from maild.orderbook import players_without_orders

    ruleset = ruleset_named(game.ruleset)
    state = state_before(s, game, game.turn)
    turn = get_turn(s, game, game.turn)
    missing = {p.name for p in players_without_orders(s, game, game.turn)}
    figures = ruleset.export_players(state)
    players = {}
    for p in players_of(s, game):
        players[p.name] = {**figures.get(p.name, {}), "email": p.email,
                           "orders_on_file": not game.finished and p.name not in missing}
    return {
        "game": game.name,
        "ruleset": game.ruleset,
        "turn": game.turn,
        "finished": game.finished,
        "deadline": turn.deadline.isoformat() if turn and turn.deadline and not game.finished else None,
        "turn_status": turn.status if turn and not game.finished else None,
        "players": players,
        "state": state,
        # Beyond the contract: players whose latest mail bounced after the last mail they sent (maild/bounces.py).
        "unreachable": {u.player: {"reason": u.reason, "since": u.since.isoformat()} for u in unreachable(s, game)},
        # Beyond the contract: the missed-orders ladder's standings (maild/ladder.py), for scripts and tools.
        "ladder": {name: {"step": st.step, "missed": st.missed, "open_to_substitute": st.open_to_substitute}
                   for name, st in sorted(standings(s, game).items()) if st.step},
    }


def turn_mail_line(app: App, name: str, number: int) -> str:
    """Where a turn's printouts are now, and what sends them: a GM running a turn by hand wants to know
    whether the players have their mail yet."""
    from sqlalchemy import func, select

    from maild.models import OutboundMail

    with app.db.session() as s:
        printouts = s.scalar(select(func.count()).where(OutboundMail.key.like(f"printout:{name}:{number}:%"),
                                                        OutboundMail.status == "queued")) or 0
        newsletters = s.scalar(select(func.count()).where(OutboundMail.key.like(f"newsletter:{name}:{number}:%"),
                                                          OutboundMail.status == "queued")) or 0
    out = app.config.outbound
    how = f"into the Maildir {out.path}" if out.kind == "maildir" else \
        f"through SMTP at {out.options.get('host')}"
    papers = f"{printouts} printout{'s' if printouts != 1 else ''}"
    news = f" and the newsletter ({newsletters} mail{'s' if newsletters != 1 else ''})" if newsletters else ""
    return (f"{papers}{news} queued in the outbox; the running daemon sends them within its poll interval, "
            f"or `maild run --once` sends them now, {how} (`maild outbox list` shows what is waiting)")


def cmd_run(app: App, args: argparse.Namespace) -> int:
    import asyncio

    from maild.daemon import Daemon
    from maild.intake import stall
    from maild.lease import LeaseLost
    from maild.lock import EXIT_LEASE_LOST, AlreadyRunning, single_daemon, stop_this_process
    from maild.mail.factory import make_inbox, make_sender
    from maild.mail.leased import leased
    from maild.shares import sharing

    try:
        inbox, sender = make_inbox(app.config, once=args.once), make_sender(app.config)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    stall.guard.restart = not args.once  # the daemon outlives a mail that stalls it (maild/intake/stall.py)
    lease = None
    try:
        with single_daemon(app.db, app.config.lease, on_lost=stop_this_process) as lease, \
                sharing(app.db, lease, app.config) as shares:
            asyncio.run(Daemon(app, inbox, leased(sender, lease), shares=shares).run(once=args.once))
    except AlreadyRunning as exc:
        raise UsageError(str(exc)) from None
    except LeaseLost:
        pass  # said by stop_this_process; the status below says it again
    if lease is not None and lease.lost is not None:
        print(f"maild: stopped: the lease was lost ({lease.lost})", file=sys.stderr)
        return EXIT_LEASE_LOST
    return 0


def cmd_turn(app: App, args: argparse.Namespace) -> int:
    from maild.turn import release_turn, rerun_turn

    if args.turn_cmd == "run":
        from maild.turncmd import cmd_turn_run

        return cmd_turn_run(app, args)
    if args.turn_cmd == "release":
        return turn_outcome(app, release_turn(app, args.name))
    if args.turn_cmd == "preview":
        import json

        from maild.preview import preview, report

        p = preview(app, args.name, dry_run=args.dry_run)
        print(json.dumps(p.as_json(), indent=2, sort_keys=True) if args.json else report(p, args.printout),
              end="\n" if args.json else "")
        return 0
    try:
        outcomes = rerun_turn(app, args.name, args.number, mail=args.mail, store=args.yes)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    later = [o.turn for o in outcomes[1:]]
    if later:
        print(f"{args.name}: turn {args.number} and the turns processed after it "
              f"({', '.join(map(str, later))}) are recomputed, each from the state the one before leaves")
    for o in outcomes:
        print(f"{o.game} turn {o.turn}: {'same result as before' if o.status == 'same' else 'result changed'}")
        if o.mailed is not None:
            if not args.yes:
                print("  with --yes:")
            for line in o.mailed.lines():
                print(line)
    if not args.yes and any(o.status != "same" for o in outcomes):
        raise UsageError(f"nothing was stored; to store these results, run it again with --yes: "
                         f"maild turn rerun {args.name} {args.number} --yes" + (" --mail" if args.mail else ""))
    return 0


# What `turn run` and `turn release` exit with, by outcome: a turn or phase that ran and a game that is over
# are success; a turn that failed is no bad usage (1, the GM was mailed the reason); a turn that is not the
# one named, or a release of a turn not held, is bad input (2).
TURN_EXIT = {"done": 0, "phase_done": 0, "finished": 0, "failed": 1, "not_open": 2, "not_held": 2}


def turn_outcome(app: App, outcome: Any) -> int:
    """Print what became of a turn run (a `maild.turn.TurnOutcome`); its exit status."""
    if outcome.status in ("not_open", "not_held"):
        raise UsageError(outcome.message)
    if outcome.status == "finished":
        print(f"{outcome.game}: {outcome.message}; nothing to run")
        return 0
    print(f"{outcome.game} turn {outcome.turn}: {outcome.status} {outcome.message}".rstrip())
    if outcome.status == "failed":
        print(f"maild: the turn did not run; the GM address {app.config.gm_addr} was mailed the reason",
              file=sys.stderr)
    if outcome.status in ("done", "phase_done"):
        print(turn_mail_line(app, outcome.game, outcome.turn))
    return TURN_EXIT.get(outcome.status, 1)


def cmd_mail(app: App, args: argparse.Namespace) -> int:
    import hashlib

    from sqlalchemy import select

    from maild.intake.pipeline import NOT_ANSWERED, process_new
    from maild.intake.store import store_fetched
    from maild.mail.base import FetchedMail
    from maild.models import InboundMail

    if args.mail_cmd == "ingest":
        stored = []
        for path in args.files:
            try:
                raw = path.read_bytes()
            except OSError as exc:
                raise UsageError(f"{path}: {exc.strerror}") from None
            uid = hashlib.sha256(raw).hexdigest()
            mail_id = store_fetched(app, FetchedMail(source="ingest", uidvalidity=0, uid=uid, raw=raw,
                                                     arrived_at=None))
            stored.append((path, mail_id))
        process_new(app)
        with app.db.session() as s:
            for path, mail_id in stored:
                if mail_id is None:
                    print(f"{path}: already received")
                    continue
                row = s.get(InboundMail, mail_id)
                assert row is not None
                print(f"{path}: mail {mail_id}: {row.status}" + (f" ({row.note})" if row.note else ""))
        return 0
    if args.mail_cmd == "reprocess":
        return cmd_mail_reprocess(app, args)
    if args.mail_cmd == "show":
        from maild.mailshow import show

        with app.db.session() as s:
            for line in show(s, args.id):
                print(line)
        return 0
    with app.db.session() as s:
        q = select(InboundMail).order_by(InboundMail.id)
        if not args.all:
            # Also the mails whose answer the reply limits held back (pipeline.NOT_ANSWERED in the note).
            q = q.where(InboundMail.status.in_(("unknown_sender", "unroutable", "oversized", "garbage",
                                                "error", "bad_password", "unverified", "duplicate", "poison"))
                        | InboundMail.note.like(f"%{NOT_ANSWERED}%"))
        for row in s.scalars(q):
            print(f"{row.id}  {row.received_at:%Y-%m-%d %H:%M}  {row.status:<14}  {row.sender or '-'}  "
                  f"{(row.subject or '')[:50]!r}  {row.note or ''}")
    return 0


def cmd_mail_reprocess(app: App, args: argparse.Namespace) -> int:
    from maild.intake.reprocess import RefusedReprocess, reprocess, reprocess_into

    if bool(args.ids) == args.errors:
        raise UsageError("mail reprocess: give mail ids or --errors (one of them)")
    if args.turn is not None:
        if len(args.ids) != 1:
            raise UsageError("mail reprocess --turn: give one mail id")
        try:
            r = reprocess_into(app, args.ids[0], args.turn)
        except RefusedReprocess as exc:
            raise UsageError(str(exc)) from None
        print(f"mail {r.id}: {r.status}, booked for turn {r.turn} of {r.game}; the GM's log has it "
              f"(`maild mail show {r.id}`)")
        if r.turn_done:
            print(f"turn {r.turn} has run: `maild turn rerun {r.game} {r.turn}` shows what the mail changes, "
                  f"`maild turn rerun {r.game} {r.turn} --yes --mail` stores it and mails corrected printouts")
        return 0
    try:
        reread = reprocess(app, None if args.errors else args.ids)
    except RefusedReprocess as exc:
        raise UsageError(str(exc)) from None
    if not reread:
        print("no mail in error")
    for r in reread:
        print(f"mail {r.id}: {r.status}" + (f" ({r.note.splitlines()[-1]})" if r.note else ""))
    return 0


def cmd_outbox(app: App, args: argparse.Namespace) -> int:
    from maild.outboxview import EMPTY, NothingToRetry, line, listed, retry

    if args.outbox_cmd == "retry":
        if bool(args.ids) == args.all:
            raise UsageError("outbox retry: give mail ids or --all (one of them)")
        try:
            changed = retry(app, None if args.all else args.ids)
        except NothingToRetry as exc:
            raise UsageError(str(exc)) from None
        for text in changed:
            print(text)
        print("nothing to retry: no mail is queued or failed" if not changed else
              "the running daemon sends them within its poll interval, or `maild run --once` sends them now")
        return 0
    with app.db.session() as s:
        rows = listed(s)
        for row in rows:
            print(line(row))
    if not any(row.status in ("queued", "failed") for row in rows):
        print(EMPTY if not rows else "nothing queued or failed")
    return 0


def cmd_replies(app: App, args: argparse.Namespace) -> int:
    from maild.replylimits import reply_rows, shown_status

    with app.db.session() as s:
        rows = reply_rows(s, held_back_only=not args.all)
        status = shown_status(s, rows)
        for row in rows:
            print(f"{row.id}  {row.created_at:%Y-%m-%d %H:%M}  {status[row.id]:<10}  {row.kind:<8}  to {row.address}  "
                  f"mail {row.mail_id if row.mail_id is not None else '-'}" + (f"  {row.reason}" if row.reason else ""))
    return 0


def cmd_orders_check(args: argparse.Namespace) -> int:
    from maild.ruleset import load_ruleset

    try:
        ruleset = load_ruleset(args.ruleset)  # not games.ruleset_named: that module needs the database layer
    except KeyError:
        raise UsageError(f"unknown ruleset {args.ruleset!r}") from None
    try:
        text = args.file.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise UsageError(f"{args.file}: {exc.strerror}") from None
    from maild.intake.orders import names_of, read_orders
    from maild.intake.ordertext import extract

    # As the daemon reads a mail: a "#GAME PLAYER" line, quotes and signatures, formatting without meaning
    # (bullets, emphasis, smart punctuation) and greetings or sign-offs are handled the same way.
    from maild.ruleset import command_words

    order_text = extract(text.replace("\r\n", "\n"), commands=command_words(ruleset))
    header = order_text.header
    read = read_orders(ruleset, order_text.text, names_of(header.player if header else None))
    parsed = read.parsed
    problems = list(parsed.diagnostics)
    if args.game:
        from maild.games import get_game, state_before

        app = make_app(args)
        try:
            with app.db.session() as s:
                game = get_game(s, args.game)
                if game.ruleset != ruleset.name:
                    raise UsageError(f"game {game.name} plays {game.ruleset}, not {args.ruleset}")
                state = state_before(s, game, game.turn)
                player = header.player if header and header.player else ""
                refined = ruleset.refine(state, game.turn, player, parsed.orders)
                problems += ruleset.check(state, game.turn, player, refined)
        finally:
            app.db.close()
    def file_line(n: int) -> int:  # the line in the file, not in the order text cut from it
        return order_text.line_map[n - 1] if 0 < n <= len(order_text.line_map) else n

    for d in sorted(problems, key=lambda d: d.line):
        print(f"{args.file}:{file_line(d.line)}: {'warning: ' if d.warning else ''}{d.message}")
    return 1 if any(not d.warning for d in problems) else 0
