"""The contract between the framework and a game's rules.

A ruleset is plain code with no I/O: the framework hands it the game state (a JSON-serializable dict it
owns), the order sets on file and a seeded RNG; it returns the new state and what each player and the
public should be told, as template contexts. The framework stores, renders and mails.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import os
import random
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from maild.policies import ResubmissionPolicy


@dataclass(frozen=True)
class Diagnostic:
    """One problem with one line of a player's orders."""

    line: int  # 1-based line number in the order text the player sent
    text: str  # the line as the player wrote it
    message: str  # what was wrong and what was expected, in a player's words
    # A note, not an error: the line's orders stand (e.g. a persona's starting location written wrong).
    warning: bool = False
    # The order was understood but a rule of the game refuses it: where the rule is ("rule 3.7", "BORROWING").
    # The ack lists it with that rule, not among the lines it could not read.
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"line": self.line, "text": self.text, "message": self.message}
        if self.warning:
            d["warning"] = True
        if self.rule:
            d["rule"] = self.rule
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Diagnostic:
        return cls(d["line"], d["text"], d["message"], d.get("warning", False), d.get("rule"))


@dataclass(frozen=True)
class Order:
    """One order as understood."""

    line: int
    text: str
    kind: str  # the ruleset's own name for the order, e.g. "bid" or "borrow"
    args: dict[str, Any]  # JSON-serializable arguments
    summary: str  # the order as understood, in words, for the ack and STATUS

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, "kind": self.kind, "args": self.args,
                "summary": self.summary}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Order:
        return cls(d["line"], d["text"], d["kind"], d["args"], d["summary"])


@dataclass
class ParsedOrders:
    orders: list[Order] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str
    password: str | None = None


@dataclass(frozen=True)
class OrderSet:
    """The orders one mail carried for one player, with the mail's receipt sequence."""

    player: str
    seq: int  # receipt sequence of the mail: earlier mail has the smaller number
    orders: list[Order]


@dataclass(frozen=True)
class PlacedOrder:
    """An order in force at the deadline, with the receipt sequence of the mail that carried it."""

    order: Order
    seq: int


@dataclass
class TurnResult:
    state: dict[str, Any]  # the new state, JSON-serializable
    printouts: dict[str, dict[str, Any]]  # player name -> context for templates/<game>/printout.txt.j2
    newsletter: dict[str, Any]  # context for templates/<game>/newsletter.txt.j2
    events: list[dict[str, Any]] = field(default_factory=list)  # what happened, machine-readable
    finished: bool = False  # the game is over after this turn
    # Context for templates/<game>/gm_report.txt.j2 (else the framework's, which prints ``sections``): a mail
    # to the GM's address (config daemon.gm) with this result, e.g. what he must carry out in a game he
    # plays elsewhere. None (the default): no such mail.
    gm_report: dict[str, Any] | None = None


@dataclass(frozen=True)
class Attachment:
    """A file a printout or newsletter carries beside its text (`Ruleset.attachments`): a picture the game drew.
    The game computes the bytes; it never reads or writes a file."""

    filename: str  # what the player's mail program calls it: "map-turn-3.png"
    content_type: str  # its MIME type: "image/png", "image/svg+xml"
    data: bytes
    # Shown below the text (mail programs do so for image/png), else listed as a file to open; an SVG is a
    # file to open in any case (Gmail and Outlook do not show it inline), so give it inline=False.
    inline: bool = True


@dataclass(frozen=True)
class SignUp:
    """A stranger's sign-up by mail that the ruleset takes (`Ruleset.sign_up`): the player's name, and the
    password his later mails must carry, if the game gives one (the ack of the sign-up tells him)."""

    player: str
    password: str | None = None


@dataclass(frozen=True)
class Phase:
    """One phase of a turn, as a ruleset declares it (see `Ruleset.phases` and docs/phases.md)."""

    name: str  # a word players read: "morning", "spring"; [games.schedule.phases.<name>] in the config
    kinds: frozenset[str] | None = None  # the order kinds it takes; None: every kind
    closes_early: bool = False  # resolved as soon as everyone who must send has an order set on file
    extra: bool = False  # not in the turn's sequence: opened only by a phase's result (`OpenPhase`)
    duration: timedelta | None = None  # an extra phase stays open this long unless the config says


@dataclass(frozen=True)
class OpenPhase:
    """A phase's result asking the framework to open a declared extra phase (a vote among some players)
    next; when it closes, `resolve_phase` is called with its name and orders, and the turn goes on."""

    name: str
    must_send: tuple[str, ...]  # who answers; the phase closes once all of them have


@dataclass
class PhaseResult(TurnResult):
    """What one phase of a turn gives: the state after it, this phase's printouts and newsletter."""

    open_phase: OpenPhase | None = None


#: The key the framework adds to the args of each order read from a line starting with the sign-up word (in a
#: game that has one): the sender's registered address (for a sign-up, the one he signed up from), for the
#: ruleset's `players(state)`. A player cannot write it: it is set on every such order, whatever he wrote.
SIGN_UP_ADDRESS = "sign_up_address"

# The name of the one phase of a game that declares none: its turns run as they always did.
ONE_PHASE = "turn"

LatePolicy = Literal["next_turn", "refuse"]

#: How the framework reads a GM order's argument from the command line: "text" as given, "int" a whole number,
#: "decimal" a number with a fraction (stored as a float), "file" a TOML file it reads (the order gets the
#: table), "player" a player of the game, matched by `Ruleset.find_player` (any case; a game may add aliases).
GmArgType = Literal["text", "int", "decimal", "file", "player"]


@dataclass(frozen=True)
class GmArg:
    """One argument of a GM order. A required one is positional, after the game's name; an optional one is an
    option `--NAME VALUE` with `default`."""

    name: str  # the key in the order's fields, and the option's name when optional
    type: GmArgType
    help: str
    optional: bool = False
    default: Any = None
    positive: bool = False  # an int or decimal that must be above zero (an amount of money)
    metavar: str | None = None  # how --help shows it (default: the name in capitals)


@dataclass(frozen=True)
class GmOrderSpec:
    """A GM order a ruleset adds to `maild gm`: `maild gm WORD GAME ARGS...`. It is stored for the game's open
    turn (or, `retroactive`, for a turn that has run) and reaches `resolve` under GM_ORDERS as an Order of `kind`
    with the arguments as `args`."""

    word: str  # on the command line: "pay"
    kind: str  # the Order's kind in `resolve`: "gm_payment"
    help: str  # one line, for `maild gm --help`
    description: str  # for `maild gm WORD --help`: what it does, when it takes effect, an example
    args: tuple[GmArg, ...] = ()
    # How `maild gm list` and the confirmation name the order: str.format over the arguments (a file
    # argument is its path here, not its table), e.g. "payment of {amount:.2f} from {player}".
    summary: str = ""
    # The same order (same kind, same fields) given again is a no-op, said so: an amendment or a bulletin
    # sent twice by mistake. False where repeating is meaningful (two cheques of the same amount).
    idempotent: bool = False
    # A correction of a turn that has run (a GM's error, a gift to be reversed): `maild gm WORD GAME --turn N ...`
    # records it for turn N, where the re-run of turn N and the turns since (`maild turn rerun GAME N`) carries
    # it out; without --turn it is for the open turn, as any GM order.
    retroactive: bool = False


@dataclass(frozen=True)
class MailCommand:
    """A one-word mail command a ruleset adds (a line that is just the word, or a subject that is just the word
    on a mail without orders). It is answered in the ack (and to a stranger) with `template`
    (templates/<game>/<template>, else the framework's templates/<template>), rendered with the HELP context
    (see `Ruleset`); None for the framework's STATUS and CANCEL, which the ack itself answers."""

    word: str  # upper case: "CODESHEET"
    help: str  # what it sends, for HELP
    template: str | None  # e.g. "codesheet.txt.j2"
    # What may follow the word on its line, as HELP shows it ("[N]", "GAME PLAYER"); empty for a word alone.
    # Only the framework's commands take words after them (`ARG_COMMANDS`): a game's order could start so.
    args: str = ""


@dataclass(frozen=True)
class OrderKind:
    """One kind of order a player may send, for HELP and the code sheet of the framework's templates."""

    word: str  # how the order starts, as a player writes it: "throw"
    form: str  # its shape: "throw rock|paper|scissors"
    help: str  # what it does, in a line
    example: str = ""  # a line a player could send as it is


#: The framework's own mail commands for every game: HELP (the ruleset's order sheet) and STATUS (the orders on
#: file). CANCEL, the late-cancel service, is a game's only with `late_cancel_days`.
FRAMEWORK_COMMANDS = (
    MailCommand("HELP", "how to send orders to this game", "help.txt.j2"),
    MailCommand("STATUS", "your orders on file for this turn", None),
)
CANCEL = MailCommand("CANCEL", "withdraw orders that came after a deadline and were kept for the next turn",
                     None)
#: The player's own mail services of a season (docs/season.md): answered by maild/services.py.
SERVICE_COMMANDS = (
    MailCommand("RESEND", "your last printout and the newsletter again", None),
    MailCommand("HISTORY", "the game's turns; HISTORY 12 sends turn 12's newsletter again", None, "[N]"),
)
#: A volunteer's commands, for a game whose ruleset takes substitutes (`Ruleset.takes_substitutes`).
SUBSTITUTE_COMMANDS = (
    MailCommand("STANDBY", "offer to take over a position that falls vacant", None, "GAME"),
    MailCommand("TAKEOVER", "take over a position opened to the standby list", None,
                "GAME PLAYER"),
)
#: Command words that may have words after them on their line ("HISTORY 12").
ARG_COMMANDS = frozenset(c.word for c in (*SERVICE_COMMANDS, *SUBSTITUTE_COMMANDS) if c.args)
#: Words `maild gm` keeps for itself: a ruleset's GM order may not be named so.
GM_RESERVED = frozenset({"list", "withdraw"})

# The key in `resolve`'s orders under which the GM's own orders come (payments, bulletins, amendments), for a
# ruleset that declares them in `gm_orders`. No player can be named so: names never start with #.
GM_ORDERS = "#gm"


class Ruleset:
    """The contract a game implements: subclass this, set `name`, and override what the game needs.

    Every part the framework calls is named here. The five abstract ones (`parse`, `new_game`, `players`,
    `resolve`, and the class attribute `name`) have no sensible default; every other part has the default
    a simple game wants, so a ruleset overrides only what its rules make different. `docs/writing-a-ruleset.md`
    walks through a complete small game.

    A ruleset keeps no state of its own between calls: the framework hands it the game state (a JSON dict it
    owns) each time, because several daemons may share one database and any of them may run the next step.

    **Templates.** Each is looked up as templates/<name>/X, else the framework's templates/X, which works for
    any game from this contract alone. What each receives:

    - ``help.txt.j2`` (HELP), ``codesheet.txt.j2`` and any `MailCommand` template: ``game`` (the game's
      name), ``turn``, ``player`` (None for a stranger), ``command`` (the word, upper case), ``info``
      (`template_context`), ``rules`` (`rules_info`: name, summary, order kinds, mail commands, late policy,
      sign-up word), ``examples`` (`help_examples`: examples in the game's own names).
      The framework's ``command.txt.j2`` prints the lines ``info`` holds under the word in lower case.
    - ``printout.txt.j2``: ``game``, ``turn``, ``finished``, ``next_deadline`` (words), ``player``, and the
      player's context from `resolve`'s ``TurnResult.printouts``. The framework's template reads
      ``sections``: a list of ``{"title": str, "lines": [str, ...]}``.
    - ``newsletter.txt.j2``: ``game``, ``turn``, ``finished``, ``next_deadline`` and ``TurnResult.newsletter``;
      the framework's template reads ``sections`` too.
    - ``ack.txt.j2``: the framework's (orders understood, errors, STATUS); `template_context` is ``info``.
    - ``welcome.txt.j2``: ``game``, ``player``, ``turn``, ``deadline``, ``password_note`` (the header line a
      player with a password must put above his orders; empty for one without) and the context `welcome`
      returns (no mail when it returns None); the framework's template reads ``sections`` as the printout's
      does.
    - ``gm_report.txt.j2``: ``game``, ``turn``, ``phase`` (None in a one-phase game), ``finished``,
      ``next_deadline`` and ``TurnResult.gm_report``; the framework's template reads ``sections`` too.
    - Pictures: a printout, a newsletter and a welcome carry, beside their text, the `Attachment`s
      `attachments` returns for them (a map as PNG bytes the game drew; no files are read or written). None
      by default.

    **Sign-up by mail.** A game anyone may join at any time sets `sign_up_word` ("JOIN") and overrides
    `sign_up`. A mail from an address that is no player of the game, with a line starting with that word, is
    parsed and handed to `sign_up` with the state of the open turn; a `SignUp` makes him a player at once (his
    row, his address the sender's) and the mail is then taken as his orders for the open turn or phase, acked
    like any player's: the JOIN order reaches `resolve` / `resolve_phase` among his orders, its args holding
    his address under SIGN_UP_ADDRESS, and the ruleset creates his position from it under the name
    `SignUp.player` (so `players(state)` names him so from then on). Until then he is a player of the
    database who is not in `players(state)`: `check`, `status`, `welcome`, `export_players` and `resolve`
    may be asked about him and must cope (an empty status, no welcome, no figures, his JOIN to resolve). The
    framework bounds sign-ups (limits.signups_per_day a game; an address signs up once; robots never) and
    tells the GM of each; once his JOIN made him part of the state, a turn offers him `welcome`.
    """

    #: The ruleset's name: the package under `rules/` and the folder of its templates under `templates/`.
    name: str = ""
    #: Where orders that come after a deadline go: "next_turn" (kept for the next turn) or "refuse".
    late_policy: LatePolicy = "next_turn"
    #: A player may CANCEL orders that came late within this many days of the results of the turn they
    #: missed (Renaissance: ten); None when late orders cannot be cancelled.
    late_cancel_days: int | None = None
    #: `parse` gets the order text with bold runs marked **run** (a game whose actions are bold keywords);
    #: by default emphasis, like bullets and smart punctuation, is taken out first (maild/intake/normalize.py).
    reads_emphasis: bool = False
    #: What a second mail in a turn does: a policy of maild/policies.py (FirstSetStands, LaterReplacesSameKey,
    #: LastMailReplacesAll), which gives `accept`, `effective` and, as its `second_mail`, what the ack tells a
    #: player his next mail will do (under the lines not understood and at its foot, so it must match the
    #: policy). None: every mail's orders are added to the ones on file.
    resubmission: ResubmissionPolicy | None = None
    #: The GM orders the ruleset adds to `maild gm` (see GmOrderSpec); they reach `resolve` under GM_ORDERS.
    gm_orders: tuple[GmOrderSpec, ...] = ()
    #: The mail commands the ruleset adds to HELP and STATUS (and CANCEL, with `late_cancel_days`).
    mail_commands: tuple[MailCommand, ...] = ()
    # Whether a position can be handed to a substitute (`maild player replace`, a volunteer's TAKEOVER): a game
    # whose positions are a person's own (a sign-up game where the name is the player) may say no.
    takes_substitutes: bool = True
    #: The orders a player may send, for the framework's HELP and code sheet templates.
    order_kinds: tuple[OrderKind, ...] = ()
    #: A paragraph on the game for HELP; default: the class's docstring.
    summary: str = ""
    #: The word (any case) a line of a stranger's mail starts with to sign up for the game ("JOIN"); None
    #: (the default): strangers cannot sign up by mail, the GM brings players in.
    sign_up_word: str | None = None
    #: The missed-orders ladder's last step (maild/ladder.py, [games.missed] remove_after): whether the rules
    #: allow a silent player to be removed from the game. False (the default): he stays in civil disorder.
    removes_silent_players: bool = False

    def default_orders(self, state: dict[str, Any], turn: int, player: str,
                       last: list[PlacedOrder]) -> list[PlacedOrder]:
        """The orders a silent player's position plays on once the missed-orders ladder puts it on default
        orders (or civil disorder, or a declared absence with the "defaults" rule): `last` are his orders in
        force the last turn he had any (standing orders a ruleset may carry over where its rules allow). The
        default: none, which is what the rules already do with a player who sent nothing."""
        return []

    @property
    def gm_kinds(self) -> frozenset[str]:
        """The kinds of the declared GM orders (`gm_orders`)."""
        return frozenset(spec.kind for spec in self.gm_orders)

    def gm_order(self, word: str) -> GmOrderSpec | None:
        return next((spec for spec in self.gm_orders if spec.word == word), None)

    def commands(self) -> tuple[MailCommand, ...]:
        """Every mail command this game answers: the framework's, CANCEL where late orders can be cancelled,
        and the ruleset's own."""
        cancel = (CANCEL,) if self.late_cancel_days else ()
        substitutes = SUBSTITUTE_COMMANDS if self.takes_substitutes else ()
        return (*FRAMEWORK_COMMANDS, *cancel, *SERVICE_COMMANDS, *substitutes, *self.mail_commands)

    def command(self, word: str) -> MailCommand | None:
        return next((c for c in self.commands() if c.word == word.upper()), None)

    def rules_info(self) -> dict[str, Any]:
        """What the framework's HELP and code sheet templates show of the game (their ``rules``)."""
        return {
            "name": self.name,
            # The class's own docstring, never the base class's (inspect.getdoc would inherit this one's).
            "summary": inspect.cleandoc(self.summary or type(self).__doc__ or ""),
            "orders": list(self.order_kinds),
            "commands": list(self.commands()),
            "late_policy": self.late_policy,
            "late_cancel_days": self.late_cancel_days,
            "sign_up_word": self.sign_up_word.upper() if self.sign_up_word else None,
        }

    def parse(self, text: str) -> ParsedOrders:
        """Syntax only: every line is an order or a diagnostic (blank lines are neither)."""
        raise NotImplementedError

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        """The state before turn 1, from the setup file's TOML. Raise SetupError on a bad setup."""
        raise NotImplementedError

    def players(self, state: dict[str, Any]) -> list[PlayerSpec]:
        """Every player of the game with the address orders come from (and his password, if any)."""
        raise NotImplementedError

    def resolve(self, state: dict[str, Any], turn: int, orders: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        """Run turn `turn`. `orders` has every player (an empty list for those with nothing on file), and the
        GM's own orders under GM_ORDERS when he gave any. All chance comes from `rng`, seeded and recorded by
        the framework, so a re-run gives the same result."""
        raise NotImplementedError

    def phases(self) -> tuple[Phase, ...]:
        """The phases of a turn in order, and the extra phases a result may open. Default: one phase taking
        every kind of order, which runs `resolve` at the turn's deadline (a game of one deadline a turn)."""
        return (Phase(ONE_PHASE),)

    def must_send(self, state: dict[str, Any], turn: int, phase: str) -> list[str] | None:
        """Who must send orders in `phase` for it to close early (a phase declared `closes_early`), read
        from the state when the phase opens; None (the default) for every player."""
        return None

    def still_owed(self, state: dict[str, Any], turn: int, phase: str, orders: dict[str, list[PlacedOrder]]
                   ) -> list[str]:
        """Who still owes orders in `phase` although he has sent some, from the orders in force (`orders`,
        every player's, as `resolve_phase` gets them) and the state the phase opened on: a player who answers
        for two seats and has answered for one. A phase that closes early waits for them as for those who sent
        nothing (its deadline still closes it), and reminders name them. Default: nobody."""
        return []

    def resolve_phase(self, state: dict[str, Any], turn: int, phase: str, orders: dict[str, list[PlacedOrder]],
                      rng: random.Random) -> TurnResult:
        """Run phase `phase` of turn `turn`, as `resolve` runs a turn: `orders` are those sent for this
        phase (the GM's come with the turn's first phase); `state` is the state after the phase before. A
        `PhaseResult` may ask for an extra phase (`open_phase`). Default: `resolve`, for a one-phase game."""
        return self.resolve(state, turn, orders, rng)

    def skips_phase(self, state: dict[str, Any], turn: int, phase: str) -> bool:
        """Whether turn `turn` passes over the regular phase `phase`, asked with the state it would open on when
        the framework is about to open it (a phase only the first turn has: picking countries). True: the phase
        is not opened (no row, no mail, no deadline) and the next regular phase is asked instead, with the same
        state; a turn whose remaining phases are all passed over ends as after its last. A turn may not pass
        over every phase. A mail late for a phase that intake reads before that phase has run is placed by
        asking with the state the phase opened on: where it can, let the answer rest on what a phase cannot
        change (the turn, the setup). Each phase's config rule stays required; a phase passed over does not use
        its rule that turn. Default: never (see docs/phases.md)."""
        return False

    def attachments(self, state: dict[str, Any], turn: int, phase: str | None, player: str | None,
                    context: dict[str, Any]) -> list[Attachment]:
        """The files (pictures) a turn's mail carries beside its text: asked once for the newsletter (`player`
        None, `context` the result's ``newsletter``) and once per printout (`player` his name, `context` his
        entry of ``printouts``), with `state` the result's new state and `phase` the phase resolved (None in a
        game of one phase a turn). Every newsletter mail gets the newsletter's. A welcome is asked the same way,
        with `phase` None and `context` what `welcome` returned. Compute the bytes, never read or
        write a file; a picture the same for many players is best computed once (memoize on what it shows).
        One attachment over 5 MB is a bug (ValueError). Default: none, and then the framework never calls it."""
        return []

    def press_open(self, state: dict[str, Any], turn: int, phase: str | None) -> bool:
        """Whether players may send press (`PRESS TO ...`, relayed by the game's address) now: `state` is the open
        turn's, `phase` the phase taking orders (None in a game of one phase a turn). Whether a game has press
        at all is its config's (`press`); a ruleset closes it in some phases (Diplomacy's retreats, say).
        Default: open."""
        return True

    def total_turns(self, state: dict[str, Any]) -> int | None:
        """How many turns the game lasts, or None if open-ended (the default)."""
        return None

    def refine(self, state: dict[str, Any], turn: int, player: str, orders: list[Order]) -> list[Order]:
        """The orders of a player's mail as his own state reads them, before `check`: where what a line means
        depends on the state (a line naming a character of his is a heading, another line ending in a colon is
        text), the ruleset rewrites the orders parsed without it (args and summary). Default: as parsed."""
        return orders

    def check(self, state: dict[str, Any], turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
        """Checks against the game state at intake (e.g. a bid for more units than offered). Default: none."""
        return []

    def check_gm(self, state: dict[str, Any], kind: str, fields: dict[str, Any],
                 pending: tuple[Order, ...] = (), turn: int | None = None) -> str | None:
        """Why a GM order of `kind` for turn `turn` cannot be taken, or None to take it. `pending` are the GM's
        orders already recorded for that turn, in the order given: the order is checked against the state as
        they will leave it, so two amendments that clash are caught before the turn runs. Default: take it."""
        return None

    def find_player(self, state: dict[str, Any], word: str) -> str | None:
        """The player a GM order's "player" argument names, or None. Default: a player's name in any case."""
        return next((p.name for p in self.players(state) if p.name.lower() == word.lower()), None)

    def accept(self, on_file: list[OrderSet], new: OrderSet) -> str | None:
        """Resubmission policy: None to accept `new`, or the reason it is refused. Default: what the
        `resubmission` policy says; without one, every mail is accepted."""
        return self.resubmission.accept(on_file, new) if self.resubmission is not None else None

    def effective(self, order_sets: list[OrderSet]) -> list[PlacedOrder]:
        """One player's orders in force, from their accepted order sets in receipt order. Default: what the
        `resubmission` policy says; without one, every order of every mail, in receipt order."""
        if self.resubmission is not None:
            return self.resubmission.effective(order_sets)
        return [PlacedOrder(o, s.seq) for s in order_sets for o in s.orders]

    def in_force_sets(self, order_sets: list[OrderSet]) -> list[OrderSet]:
        """Order sets that stand for `order_sets` (one player's, in receipt order) in `accept` and `effective`
        with any later set: where the policy folds (`ResubmissionPolicy.folds`), the orders in force regrouped
        by the mail that brought them, so that what intake keeps of a book does not grow with every mail; else
        the sets themselves (a ruleset of its own `accept` or `effective` may read any of them)."""
        own = type(self).accept is not Ruleset.accept or type(self).effective is not Ruleset.effective
        if own or not order_sets or (self.resubmission is not None and not getattr(self.resubmission, "folds",
                                                                                 False)):
            return order_sets
        by_mail: dict[int, list[Order]] = {}
        for placed in self.effective(order_sets):
            by_mail.setdefault(placed.seq, []).append(placed.order)
        player = order_sets[0].player
        return [OrderSet(player=player, seq=seq, orders=orders) for seq, orders in sorted(by_mail.items())]

    def requested_turn(self, state: dict[str, Any], turn: int, orders: list[Order]) -> int | None:
        """The turn a mail's orders are marked for, when a player sends them ahead; None (the default) for
        the turn the mail arrived in."""
        return None

    def export_players(self, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """`players` of the JSON export: player name -> that player's public and private figures. Default:
        each player's address."""
        return {p.name: {"email": p.email} for p in self.players(state)}

    def public_ledger(self, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """The figures of each player that every player may see (scores, a ranking, what the newsletter prints
        anyway), as player name -> label -> value, for the ledger page of `maild site build`. Never an address
        nor anything private. Default: nothing, and the site has no ledger page."""
        return {}

    def status(self, state: dict[str, Any], turn: int, player: str) -> dict[str, Any]:
        """What the ack to STATUS shows of `player`'s standing in `state` (the state before `turn`), as
        label -> value lines in this order (e.g. his money and holdings). Default: nothing."""
        return {}

    def welcome(self, state: dict[str, Any], player: str, turn: int = 1) -> dict[str, Any] | None:
        """Context for templates/<game>/welcome.txt.j2, the mail a player gets when he joins (the game is
        created, or a GM's order brings him or a new family of his in), before his first orders for `turn`;
        None (the default) for no welcome mail. The key `welcome_for` (a short string, default "") says what
        this welcome is for: a player is welcomed once per distinct value (Renaissance: his families, so a
        family added later brings a new welcome and an unchanged player none)."""
        return None

    def template_context(self, state: dict[str, Any], turn: int) -> dict[str, Any]:
        """Extra context for the ack, HELP and STATUS templates (e.g. the items on offer this turn)."""
        return {}

    def help_examples(self, state: dict[str, Any], player: str | None) -> dict[str, str]:
        """HELP's examples in the game's own names (its places, players, items, read from `state`; empty for a
        game over), by the `OrderKind.word` each stands for: the framework's sheet shows them in place of the
        order kinds' own examples, which stand for the words left out; a game's own help template reads them
        as ``examples``. `player`: the reader, when he is a player (his own characters, places)."""
        return {}

    def sign_up(self, state: dict[str, Any], turn: int, address: str, display_name: str | None,
                orders: ParsedOrders) -> SignUp | str:
        """Whether the stranger at `address` (his From name `display_name`) may join with the mail whose
        orders parsed as `orders` (a line of it starts with `sign_up_word`), against `state`, the state of
        the open turn `turn`: a `SignUp` with the name he will play under, or why not, in a player's words
        ("the name Xolotl is taken", "no JOIN line could be read: write JOIN, your name and your city").
        The framework refuses on its own a name some player already has (any case), one starting with #,
        and one longer than 100 characters. Only called when `sign_up_word` is set; default: refused."""
        return "this game takes no sign-ups by mail"


class SetupError(ValueError):
    """A setup file the ruleset cannot start a game from; the message says what is wrong."""


# Rulesets registered in this process (`register`), by name: consulted before the installed packages.
_REGISTERED: dict[str, Ruleset] = {}
# Every installed ruleset's mail command words, once known (`command_words`); a `register` forgets them.
_WORDS: list[frozenset[str]] = []


def register(ruleset: Ruleset) -> Ruleset:
    """Make `ruleset` known by its name in this process, ahead of any package of that name: for a game that
    lives outside `maild_rules` (a test's game, a GM's script). A daemon started on its own finds only the
    installed packages; a game shipped as its own package lives in `maild_rules` (see docs/writing-a-ruleset.md).
    Returns the ruleset, so a module can write ``RULESET = register(MyGame())``."""
    if not ruleset.name.isidentifier():
        raise ValueError(f"a ruleset's name must be an identifier, not {ruleset.name!r}")
    _REGISTERED[ruleset.name] = ruleset
    _WORDS.clear()
    return ruleset


def unregister(name: str) -> None:
    _REGISTERED.pop(name, None)
    _WORDS.clear()


def load_ruleset(name: str) -> Ruleset:
    """The ruleset named `name`: one `register`ed in this process, else the RULESET object of package
    maild_rules.<name>, else the object an installed distribution names under the entry point group
    `maild.rulesets` (a game shipped as a package of its own). KeyError if there is none."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    if "-" in name:  # `grand-game`, as the rules and examples spell it, is the package `grandgame`
        name = name.replace("-", "")
    if not name.isidentifier():
        raise KeyError(name)
    try:
        module = importlib.import_module(f"maild_rules.{name}")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"maild_rules.{name}", "rules"):
            raise
        module = None
    if module is not None:
        return module.RULESET
    if name not in entry_points():
        raise KeyError(name)
    ruleset = entry_points()[name].load()
    if not isinstance(ruleset, Ruleset) or ruleset.name != name:
        raise TypeError(f"entry point {name!r} of group {ENTRY_POINTS!r} is not a Ruleset named {name!r}")
    return ruleset


#: The entry point group through which an installed distribution offers rulesets: name = "module:OBJECT".
ENTRY_POINTS = "maild.rulesets"


@cache
def entry_points() -> dict[str, Any]:
    """The `maild.rulesets` entry points of the installed distributions, by name (read once per process)."""
    from importlib.metadata import entry_points as installed

    return {ep.name: ep for ep in installed(group=ENTRY_POINTS)}


def installed_names() -> list[str]:
    """The names of every ruleset this process can load: the registered ones, the packages of `maild_rules`
    (found with pkgutil, so the framework names no game) and the `maild.rulesets` entry points, sorted."""
    return sorted(package_names() | set(_REGISTERED) | set(entry_points()))


@cache
def package_names() -> frozenset[str]:
    """The game packages of `maild_rules`, found with pkgutil: they do not change while maild runs. A package
    without a `ruleset` module is a game still being built (its board before its rules) and is not offered."""
    import pkgutil

    import maild_rules

    return frozenset(m.name for m in pkgutil.iter_modules(maild_rules.__path__) if m.ispkg and _has_ruleset(m))


def _has_ruleset(package: Any) -> bool:
    # Looked up on disk, not imported: discovery must not run a game's code, and a half-built game may not import.
    folder = getattr(package.module_finder, "path", None)
    if folder is None:
        return True  # a finder that cannot be listed: leave it to load_ruleset, as before
    import pkgutil

    return any(m.name == "ruleset" for m in pkgutil.iter_modules([os.path.join(folder, package.name)]))


def installed_rulesets() -> list[Ruleset]:
    return [load_ruleset(name) for name in installed_names()]


def command_words(ruleset: Ruleset | None = None) -> frozenset[str]:
    """The mail command words (upper case) of `ruleset`, or of every installed ruleset: what intake
    recognises in a mail before it knows the mail's game."""
    if ruleset is not None:
        return frozenset(c.word for c in ruleset.commands())
    if not _WORDS:
        words = {c.word for c in (*FRAMEWORK_COMMANDS, CANCEL, *SERVICE_COMMANDS, *SUBSTITUTE_COMMANDS)}
        for name in installed_names():
            try:
                words |= command_words(load_ruleset(name))
            except Exception:  # noqa: BLE001 - one broken game must not stop the mail of every other
                logging.getLogger("maild.ruleset").exception("ruleset %s could not be loaded", name)
        _WORDS.append(frozenset(words))
    return _WORDS[0]
