"""`maild gm`: the GM's own orders for a game's open turn, and the corrections of a turn that has run.

The orders are the rulesets' (`Ruleset.gm_orders`, a `GmOrderSpec` each), found among the installed rulesets
(`maild.ruleset.installed_names`), plus two of the framework's for every game: `list` and `withdraw`. The
command line is read in two steps: the order's word and the game's name first, then the rest with a parser
built from the game's own declaration, so two games may give the same word different arguments.

An order the ruleset declares `retroactive` may name a turn that has run (`--turn N`): it is recorded for that
turn, and the framework's re-run (`maild turn rerun GAME N`, which hands every turn's GM orders to `resolve`
again) carries it out there, the turns since following from the new state. `maild gm` then shows what the re-run
would change, storing nothing; the GM stores it with `maild turn rerun GAME N --yes --mail`.
`maild gm --help` and `maild gm ORDER --help` need no database.
"""

from __future__ import annotations

import argparse
import re
import tomllib
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any

from maild.errors import GameError
from maild.ruleset import GM_RESERVED, GmArg, GmOrderSpec, Order, Ruleset, installed_rulesets

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from maild.app import App
    from maild.models import Game, GmOrder

HELP_WORDS = ("-h", "--help")

FRAMEWORK_ORDERS = {
    "list": ("list GAME [--all]", "the GM orders recorded for the open turn, withdrawn ones marked, each with "
                                  "its words (--all: every turn's)"),
    "withdraw": ("withdraw ID", "withdraw a GM order whose turn has not run, or a correction of a turn that has "
                                "run (it stays listed as withdrawn)"),
}


class GmUsageError(GameError):
    """Bad usage or input of `maild gm`: exit status 2 with this one line, as every GameError."""


def declared(word: str) -> dict[str, GmOrderSpec]:
    """The installed rulesets that declare the GM order `word`, by ruleset name."""
    return {r.name: spec for r in installed_rulesets() if (spec := r.gm_order(word)) is not None}


_NEGATIVE_FIGURE = re.compile(r"^-\d[\d./]*$|^-\.\d+$")


def spec_parser(ruleset: str, spec: GmOrderSpec) -> argparse.ArgumentParser:
    """The command line of one ruleset's GM order: `maild gm WORD GAME ARGS...`."""
    p = argparse.ArgumentParser(prog=f"maild gm {spec.word}", description=f"{spec.help} ({ruleset})",
                                epilog=spec.description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", metavar="GAME", help=f"the game's name (a {ruleset} game)")
    if hasattr(p, "_negative_number_matcher"):
        # A GM's figure may be a negative fraction ("-7/72" of luck): argparse takes only -7 and -0.5 for
        # numbers and anything else after a dash for an option, so he would have to know to write "--" first.
        p._negative_number_matcher = _NEGATIVE_FIGURE
    if spec.retroactive:
        p.add_argument("--turn", dest=RETRO_TURN, type=int, metavar="N", default=None,
                       help="a turn that has run, which this corrects (default: the open turn); the re-run of "
                            "turn N carries it out: `maild turn rerun GAME N --yes --mail`")
    for arg in spec.args:
        kwargs: dict[str, Any] = {"help": arg.help, "type": _converter(arg), "metavar": arg.metavar or arg.name.upper()}
        if arg.optional:
            p.add_argument(f"--{arg.name}", dest=arg.name, default=arg.default, **kwargs)
        else:
            p.add_argument(arg.name, **kwargs)
    return p


RETRO_TURN = "turn"  # the option of a retroactive order; no argument of a GM order may be so named


def _converter(arg: GmArg) -> Callable[[str], Any]:
    """What argparse applies to the word: numbers read here; a file and a player need the game, later."""
    if arg.type not in ("int", "decimal"):
        return str

    def number(text: str) -> int | float:
        try:
            value: int | Decimal = int(text) if arg.type == "int" else Decimal(text)
        except (ValueError, InvalidOperation):
            raise argparse.ArgumentTypeError(f"{text!r} is not a{' whole' if arg.type == 'int' else ''} "
                                             "number") from None
        if isinstance(value, Decimal) and not value.is_finite():
            raise argparse.ArgumentTypeError(f"{text!r} is not a number")
        return value if isinstance(value, int) else float(value)

    return number


def overview() -> str:
    lines = ["usage: maild gm ORDER GAME [ARGS...]", "",
             "The GM's own orders for a game's open turn: each ruleset declares those it takes, and they count",
             "when the turn runs. `maild gm ORDER --help` shows one order's arguments and an example. An order",
             "with --turn N corrects turn N, which has run: the re-run of turn N and the turns since carries it",
             "out (`maild turn rerun GAME N --yes --mail`).", "",
             "every game:"]
    lines += [f"  {usage:<40} {text}" for usage, text in FRAMEWORK_ORDERS.values()]
    for ruleset in installed_rulesets():
        if ruleset.gm_orders:
            lines += ["", f"{ruleset.name}:"]
            for spec in ruleset.gm_orders:
                usage = spec_parser(ruleset.name, spec).format_usage().removeprefix("usage: maild gm ")
                usage = " ".join(usage.replace("[-h] ", "").split())
                fits = len(usage) <= 40
                lines += [f"  {usage:<40} {spec.help}"] if fits else [f"  {usage}", f"  {'':<40} {spec.help}"]
    lines += ["", "examples:", "  maild gm list ren1", "  maild gm pay ren1 SFO 25.50 --note \"cheque 12\"",
              "  maild gm withdraw 7"]
    return "\n".join(lines) + "\n"


def cmd_gm(words: list[str], make_app: Callable[[], App]) -> int:
    """Run `maild gm WORDS...`; `make_app` opens the database when the order needs it."""
    if not words or words[0] in HELP_WORDS:
        print(overview(), end="")
        return 0 if words else 2
    word = words[0]
    if word in FRAMEWORK_ORDERS:
        return _framework_order(word, words[1:], make_app)
    specs = declared(word)
    if not specs:
        known = sorted({*FRAMEWORK_ORDERS, *(s.word for r in installed_rulesets() for s in r.gm_orders)})
        raise GmUsageError(f"no GM order {word!r} (orders: {', '.join(known)}; see maild gm --help)")
    if any(w in HELP_WORDS for w in words[1:]):
        print("\n\n".join(spec_parser(name, spec).format_help() for name, spec in specs.items()), end="")
        return 0
    if len(words) < 2 or words[1].startswith("-"):
        raise GmUsageError(f"gm {word}: give the game's name first: maild gm {word} GAME ...")
    app = make_app()
    try:
        with app.db.session() as s:
            said, past = recorded(s, app, words[1], word, words[1:])
        print(said)
        if past is not None:
            print(rerun_preview(app, words[1], past))
    finally:
        app.db.close()
    return 0


def rerun_preview(app: App, name: str, turn: int) -> str:
    """What re-running the game from `turn` would change now, stored nothing; and the command that stores it."""
    from maild.turn import rerun_turn

    outcomes = rerun_turn(app, name, turn, store=False)
    lines = [f"  turn {o.turn}: {'changed' if o.status == 'changed' else 'the same'}" for o in outcomes]
    return "\n".join([f"a re-run from turn {turn} would give:", *lines,
                      f"to store it and mail the corrected results: maild turn rerun {name} {turn} --yes --mail"])


def record(s: Session, app: App, name: str, word: str, argv: list[str]) -> str:
    """Take the GM order `word` for game `name` (its command line `argv`, the game's name first); returns what
    was done, in a line."""
    return recorded(s, app, name, word, argv)[0]


def recorded(s: Session, app: App, name: str, word: str, argv: list[str]) -> tuple[str, int | None]:
    """`record`, and the turn that has run it was recorded for (a retroactive order's `--turn`), else None."""
    from maild.games import get_game, ruleset_named

    game = get_game(s, name)
    ruleset = ruleset_named(game.ruleset)
    spec = ruleset.gm_order(word)
    if spec is None:
        raise GmUsageError(f"game {game.name} ({game.ruleset}) takes no {word} from the GM")
    if game.finished:
        raise GmUsageError(f"game {game.name} is over: it takes no more GM orders")
    given = vars(spec_parser(ruleset.name, spec).parse_args(argv))
    past = given.get(RETRO_TURN) if spec.retroactive else None
    if past is not None and past != game.turn:
        turn, state, note = _past_turn(s, game, past)
    else:
        past = None
        turn, state, note = _gm_turn(s, game)
    fields = {arg.name: _value(arg, given[arg.name], ruleset, state) for arg in spec.args}
    shown = {arg.name: given[arg.name] if arg.type == "file" else fields[arg.name] for arg in spec.args}
    words = spec.summary.format(**shown) if spec.summary else spec.word
    if spec.idempotent and (same := _same_order(s, game, spec.kind, fields)) is not None:
        return (f"{game.name}: the same {words} is already recorded (GM order {same.id}, turn {same.turn}); "
                "nothing recorded"), None
    pending = tuple(Order.from_json(r.order) for r in gm_rows(s, game, turn) if r.withdrawn_at is None)
    problem = ruleset.check_gm(state, spec.kind, fields, pending, turn=turn)
    if problem:
        raise GmUsageError(problem)
    from maild.models import GmOrder

    row = GmOrder(game_id=game.id, turn=turn, created_at=app.now(),
                  order=Order(0, " ".join([word, *argv[1:]]), spec.kind, fields, words).to_json())
    s.add(row)
    s.flush()
    return f"{game.name}: {words} recorded for turn {turn} (GM order {row.id}){note}", past


def _past_turn(s: Session, game: Game, number: int) -> tuple[int, dict[str, Any], str]:
    """A retroactive order's turn (one that has run), the state before it, which the order is checked against,
    and the note that says how it takes effect."""
    from maild.games import get_turn, state_before

    row = get_turn(s, game, number)
    if row is None or row.status != "done" or number > game.turn:
        raise GmUsageError(f"turn {number} of {game.name} has not run (the open turn is {game.turn}): a "
                           "correction names a turn that has run, or none for the open turn")
    return number, state_before(s, game, number), (f"; turn {number} has run: the re-run of turn {number} and "
                                                   "of every turn since carries it out")


def _gm_turn(s: Session, game: Game) -> tuple[int, dict[str, Any], str]:
    """The turn a GM order given now is for, the state it is checked against, and a note for the GM. A turn of
    phases hands the GM's orders to its first phase (docs/phases.md): once that phase has run, an order
    given is for the next turn, checked against the state the phases so far left, never dropped unseen."""
    from maild.games import state_before
    from maild.phases import rows_of, state_after_phases

    done = [r for r in rows_of(s, game.id, game.turn) if r.status == "done"]
    if not done:
        return game.turn, state_before(s, game, game.turn), ""
    state = state_after_phases(s, game.id, game.turn) or state_before(s, game, game.turn)
    return game.turn + 1, state, (f"; the {done[0].name} of turn {game.turn} has run, so it comes with turn "
                                  f"{game.turn + 1}")


def _value(arg: GmArg, given: Any, ruleset: Ruleset, state: dict[str, Any]) -> Any:
    if arg.type == "file":
        path = Path(given)
        try:
            return tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise GmUsageError(f"{path}: {exc.strerror}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise GmUsageError(f"{path}: {exc}") from None
    if arg.positive and given <= 0:  # input, not usage: one line, as every refusal
        raise GmUsageError(f"{arg.name} must be above zero, not {given:g}")
    if arg.type == "player":
        player = ruleset.find_player(state, given)
        if player is None:
            names = ", ".join(sorted(p.name for p in ruleset.players(state)))
            raise GmUsageError(f"no player {given!r} in this game (players: {names})")
        return player
    return given


def gm_rows(s: Session, game: Game, turn: int | None = None) -> list[GmOrder]:
    """The game's GM orders (of one turn, or all), withdrawn ones included, in the order given."""
    from sqlalchemy import select

    from maild.models import GmOrder

    q = select(GmOrder).where(GmOrder.game_id == game.id)
    if turn is not None:
        q = q.where(GmOrder.turn == turn)
    return list(s.scalars(q.order_by(GmOrder.id)))


def _same_order(s: Session, game: Game, kind: str, fields: dict[str, Any]) -> GmOrder | None:
    """A GM order of the game, pending or carried out, not withdrawn, with the same kind and fields."""
    import json

    wanted = json.dumps(fields, sort_keys=True)
    for row in gm_rows(s, game):
        order = row.order
        if row.withdrawn_at is None and order["kind"] == kind and json.dumps(order["args"], sort_keys=True) == wanted:
            return row
    return None


def _framework_order(word: str, argv: list[str], make_app: Callable[[], App]) -> int:
    usage, text = FRAMEWORK_ORDERS[word]
    examples = {"list": "examples:\n  maild gm list ren1\n  maild gm list ren1 --all",
                "withdraw": "example:\n  maild gm withdraw 7      # the number `maild gm list` shows"}
    p = argparse.ArgumentParser(prog=f"maild gm {word}", description=text, epilog=examples[word],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    if word == "list":
        p.add_argument("game", metavar="GAME")
        p.add_argument("--all", action="store_true", help="every turn's GM orders, not only the open turn's")
    else:
        p.add_argument("id", metavar="ID", type=int, help="the GM order's number, as `maild gm list` shows it")
    args = p.parse_args(argv)
    app = make_app()
    try:
        with app.db.session() as s:
            lines = list_orders(s, args.game, args.all) if word == "list" else [withdraw(s, app, args.id)]
    finally:
        app.db.close()
    for line in lines:
        print(line)
    return 0


def list_orders(s: Session, name: str, every_turn: bool = False) -> list[str]:
    from maild.games import get_game

    game = get_game(s, name)
    lines = []
    # Pending ones include those for the next turn (given after a turn's first phase ran: `_gm_turn`).
    for row in (r for r in gm_rows(s, game) if every_turn or r.turn >= game.turn):
        order = Order.from_json(row.order)
        if row.withdrawn_at is not None:
            state = f"withdrawn {row.withdrawn_at:%Y-%m-%d %H:%M}"
        else:
            state = "pending" if row.turn >= game.turn and not game.finished else _carried(s, game, row)
        lines.append(f"{row.id}  turn {row.turn}  {order.kind}  {order.summary}  "
                     f"recorded {row.created_at:%Y-%m-%d %H:%M}  {state}")
        lines += given_as(game.name, order)
    return lines or [f"{game.name}: no GM orders for turn {game.turn}" if not every_turn
                     else f"{game.name}: no GM orders"]


def _carried(s: Session, game: Game, row: GmOrder) -> str:
    """How a GM order of a turn that has run counted: with the turn, or (a correction recorded after it ran) with
    the turn's re-run."""
    from maild.games import get_turn

    turn = get_turn(s, game, row.turn)
    if turn is not None and turn.processed_at is not None and row.created_at > turn.processed_at:
        return f"a correction, recorded after turn {row.turn} ran: it counts from the turn's re-run"
    return "carried out"


# Lines of a file's table shown under a GM order (`amend FILE`): the rest is in the file he gave.
TABLE_LINES = 30


def given_as(game: str, order: Order) -> list[str]:
    """A GM order's own words, indented under its line in `gm list`: the command as he gave it (the words are
    stored without the game's name and without quotes) and, for an order that read a file, the file's table as
    it was recorded (the file may have changed since)."""
    from maild.gamesummary import value_lines

    word, _, rest = order.text.partition(" ")
    lines = [f"    given as: maild gm {word} {game}" + (f" {rest}" if rest else "")]
    for name, value in order.args.items():
        if isinstance(value, dict):
            table = value_lines(value, 3)
            lines += [f"    {name} as recorded:", *table[:TABLE_LINES]]
            if len(table) > TABLE_LINES:
                more = len(table) - TABLE_LINES
                lines.append(f"      ... and {more} more line{'s' if more != 1 else ''}")
    return lines


def withdraw(s: Session, app: App, order_id: int) -> str:
    from maild.models import Game, GmOrder

    row = s.get(GmOrder, order_id)
    if row is None:
        raise GmUsageError(f"no GM order {order_id}")
    game = s.get(Game, row.game_id)
    assert game is not None
    summary = Order.from_json(row.order).summary
    if row.withdrawn_at is not None:
        raise GmUsageError(f"GM order {order_id} ({summary}) was withdrawn already, "
                           f"{row.withdrawn_at:%Y-%m-%d %H:%M}")
    if (game.finished or row.turn < game.turn) and _retroactive(game, row.order["kind"]):
        row.withdrawn_at = app.now()
        return (f"{game.name}: GM order {order_id} ({summary}) withdrawn; `maild turn rerun {game.name} {row.turn} "
                "--yes --mail` recomputes the turns since without it")
    if game.finished or row.turn < game.turn:
        raise GmUsageError(f"GM order {order_id} ({summary}) counted in turn {row.turn}, which has run; "
                           "it can no longer be withdrawn")
    row.withdrawn_at = app.now()
    return f"{game.name}: GM order {order_id} ({summary}) withdrawn; turn {row.turn} will run without it"


def _retroactive(game: Game, kind: str) -> bool:
    from maild.games import ruleset_named

    return any(spec.kind == kind and spec.retroactive for spec in ruleset_named(game.ruleset).gm_orders)


def check_declarations(ruleset: Ruleset) -> list[str]:
    """What is wrong with a ruleset's GM order declarations (the contract test asks)."""
    problems = []
    words = [spec.word for spec in ruleset.gm_orders]
    problems += [f"GM order {w!r} is declared twice" for w in sorted({w for w in words if words.count(w) > 1})]
    problems += [f"GM order {w!r} is a word `maild gm` keeps for itself" for w in words if w in GM_RESERVED]
    for spec in ruleset.gm_orders:
        names = [a.name for a in spec.args]
        if len(set(names)) != len(names) or "game" in names or (spec.retroactive and RETRO_TURN in names):
            problems.append(f"GM order {spec.word!r}: argument names must differ and not be 'game' (nor "
                            f"'{RETRO_TURN}' for a retroactive one)")
        try:
            spec.summary.format(**{a.name: 1 if a.type in ("int", "decimal") else "x" for a in spec.args})
        except (KeyError, IndexError, ValueError) as exc:
            problems.append(f"GM order {spec.word!r}: its summary names no argument {exc}")
    return problems
