"""Sign-up by mail: a stranger's mail with a line starting with the game's sign-up word (JOIN) makes him a
player, when the ruleset takes him (`Ruleset.sign_up`) and the bounds allow; his mail then goes on as any
player's. Bounds against hostile mail: `limits.signups_per_day` sign-ups a game in 24 hours, one sign-up an
address (once he is a player his mail is routed to him), none for robots (intake never reads theirs this far),
and a mail the game's `[games.auth]` check cannot verify signs nobody up. The GM gets a notice per sign-up
(at most `signups_per_day` a game a day), and a refused one is held like any stranger's mail, its note saying
why.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from maild.app import App
from maild.games import ruleset_named
from maild.intake.authres import sender_verified
from maild.intake.normalize import clean_orders
from maild.intake.orders import mail_line, names_of, read_orders
from maild.intake.read import ReadMail
from maild.intake.run import IntakeRun, MailRow
from maild.models import Game, Player
from maild.outbox import notify_gm
from maild.passwords import stored
from maild.phases import is_phased, keep_phase_orders, target_phase
from maild.ruleset import GM_ORDERS, ParsedOrders, Ruleset, SignUp

log = logging.getLogger("maild.intake")

# The players.name column's length.
LONGEST_NAME = 100
# The window limits.signups_per_day counts sign-ups in.
SIGNUP_WINDOW = timedelta(days=1)


@dataclass(frozen=True)
class Joined:
    """A sign-up taken: the new player, and the password the game gave him, which his ack tells him once (his
    row holds only its hash)."""

    player: Player
    password: str | None


@dataclass(frozen=True)
class SignUpRefused:
    reason: str  # for the answer to him, in a player's words
    note: str  # for the GM's `maild mail list` and held notice


def sign_up_lines(ruleset: Ruleset, mail: ReadMail) -> set[int]:
    """The 1-based lines of the mail's order text that start with the game's sign-up word (emphasis, bullets
    and quoting marks before it do not count); empty for a game that takes no sign-ups by mail."""
    word = ruleset.sign_up_word
    if not word or not mail.order_text.strip():
        return set()
    starts = re.compile(rf"[\W_]*{re.escape(word)}(?!\w)", re.IGNORECASE)
    lines = clean_orders(mail.order_text).text.split("\n")
    return {mail_line(mail.line_map, n) for n, line in enumerate(lines, start=1) if starts.match(line)}


def signups_since(s: Session, game: Game, mail: MailRow) -> int:
    """Sign-ups of `game` in the SIGNUP_WINDOW before this mail came (those of this transaction too)."""
    return s.scalar(select(func.count()).select_from(Player).where(
        Player.game_id == game.id, Player.joined_at > mail.received_at - SIGNUP_WINDOW)) or 0


def sign_up(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, mail: ReadMail
            ) -> Joined | SignUpRefused | None:
    """The player a stranger's mail signs up (his row added and flushed, the GM told), why it signs nobody
    up, or None when it is no sign-up at all (the game takes none, or no line starts with its word)."""
    ruleset = ruleset_named(game.ruleset)
    lines = sign_up_lines(ruleset, mail)
    if not lines:
        return None
    word = (ruleset.sign_up_word or "").upper()
    if game.finished:
        return SignUpRefused("the game is over", "sign-up refused: the game is over")
    assert mail.from_addr is not None
    address = mail.from_addr.lower()
    gcfg = app.config.game(game.name)
    if gcfg is not None and gcfg.auth is not None:
        verified, why = sender_verified(row.raw, address, gcfg.auth.authserv_id)
        if not verified:
            return SignUpRefused(f"your mail could not be verified as coming from {address} ({why})",
                                 f"sign-up refused: not verified ({why})")
    cap = app.config.limits.signups_per_day
    if signups_since(s, game, row) >= cap:
        return SignUpRefused(f"{game.name} takes no more sign-ups today; please send your {word} again tomorrow",
                             f"sign-up refused: {cap} sign-ups in 24 hours already (limits.signups_per_day)")
    refused = _too_late(s, ruleset, game, run, row)
    if refused is not None:
        return SignUpRefused(f"{refused}; please send your {word} again", f"sign-up refused: {refused}")
    read = read_orders(ruleset, mail.order_text, names_of(mail.from_display), mail.line_map)
    answer = ruleset.sign_up(run.state(s, game, game.turn), game.turn, address, mail.from_display, read.parsed)
    if not isinstance(answer, SignUp):
        return SignUpRefused(str(answer), f"sign-up refused by the game: {answer}")
    name = answer.player.strip()
    index = run.players(s, game)
    problem = _bad_name(name, index.by_name)
    if address in index.by_email:  # his mail named another player on a header line: never a second sign-up
        problem = f"{address} is already {index.by_email[address].name}'s address in {game.name}"
    if problem is None and is_phased(ruleset):
        problem = _join_not_taken(s, ruleset, game, run, row, read.parsed, lines)
    if problem is not None:
        return SignUpRefused(problem, f"sign-up refused: {problem}")
    player = Player(game_id=game.id, name=name, email=address, password=stored(answer.password),
                    joined_at=row.received_at)
    s.add(player)
    s.flush()
    index.by_name[name.lower()] = player
    index.by_email[address] = player
    log.info("%s: %s <%s> signed up by mail %d", game.name, name, address, row.id)
    notify_gm(s, app, f"signup:{game.name}:{player.id}", f"{game.name}: {name} signed up",
              f"{name} <{address}> signed up for {game.name} by mail {row.id} (turn {game.turn}).\n"
              f"His mail is taken as his orders for the open turn; `maild mail list` shows it.\n"
              f"{game.name} takes at most {cap} sign-ups in 24 hours (limits.signups_per_day).\n", game.id)
    return Joined(player, answer.password)


def _bad_name(name: str, taken: dict[str, Player]) -> str | None:
    """Why the framework cannot make a player of this name (the ruleset's own rules aside)."""
    if not name:
        return "no name could be read for you"
    if name.startswith(GM_ORDERS[0]):
        return f"a name may not start with {GM_ORDERS[0]}"
    if len(name) > LONGEST_NAME:
        return f"a name may have at most {LONGEST_NAME} characters"
    if name.lower() in taken:
        return f"the name {name} is taken"
    return None


def _too_late(s: Session, ruleset: Ruleset, game: Game, run: IntakeRun, row: MailRow) -> str | None:
    """Why this mail's orders could not be booked for any turn (the JOIN among them), if so: then signing him
    up would make a player without the order that brings him into the game."""
    from maild.intake.ordermail import target_turn  # which calls this module

    current = run.turn(s, game, game.turn)
    if is_phased(ruleset) and current is not None:
        return target_phase(s, ruleset, game, current, "", row.received_at, ruleset.late_policy).refused
    turn, note = target_turn(current, ruleset, game, row.received_at, run.turn(s, game, game.turn - 1))
    return note if turn is None else None


def _join_not_taken(s: Session, ruleset: Ruleset, game: Game, run: IntakeRun, row: MailRow,
                    parsed: ParsedOrders, lines: set[int]) -> str | None:
    """In a game of phases: why the phase this mail counts for would not take its sign-up order, if so."""
    current = run.turn(s, game, game.turn)
    if current is None:
        return None
    target = target_phase(s, ruleset, game, current, "", row.received_at, ruleset.late_policy)
    kept = keep_phase_orders(ruleset, target, parsed)
    if any(o.line in lines for o in kept.orders) or not any(o.line in lines for o in parsed.orders):
        return None
    return next(d.message for d in kept.diagnostics if d.line in lines)
