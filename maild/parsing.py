"""Line-by-line order parsing with Lark, and diagnostics a player can act on.

Every game's orders are one per line, so a mistake on one line must not hide the orders on the others:
each line is parsed on its own. A Lark error names terminals and parser states; `describe_error` turns it
into "expected a number of units after 'for', found 'opera', e.g. bid 30$ for 2 of opera".

A game supplies three things:

- its grammar name (`grammar/<name>.lark`, LALR with the contextual lexer),
- a `build(tree, line_no, text) -> Order` function, which may raise `OrderError` for mistakes the grammar
  lets through on purpose (a zero, a fraction), so those read as well as syntax errors,
- a `SyntaxHelp`: terminal names in words, an example line per order keyword, and hints (malformed lines
  labelled with what was expected there) for places where a terminal's name alone is too vague.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

from lark import Lark, Tree
from lark import __version__ as LARK_VERSION
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from maild.paths import GRAMMAR_DIR
from maild.ruleset import Diagnostic, Order, ParsedOrders

# Lark's name for "the end of the input", which for us is the end of the line.
END_TERMINALS = frozenset({"$END", "<END-OF-FILE>"})


class OrderError(ValueError):
    """A line that parsed but makes no sense as an order; the message is for the player."""


@dataclass(frozen=True)
class SyntaxHelp:
    """What a game's grammar means, in a player's words."""

    # terminal name -> what it stands for: "a number", "'of'".
    words: Mapping[str, str] = field(default_factory=dict)
    # terminals left unmentioned when something else could also come there: nobody needs to hear
    # "expected '$' or 'for'" after "bid 30".
    optional: frozenset[str] = frozenset()
    # first word of a line, lower-case -> an example of that order; the message ends with it.
    examples: Mapping[str, str] = field(default_factory=dict)
    # (what was expected, malformed lines failing at the same parser state): overrides `words` there.
    hints: Sequence[tuple[str, Sequence[str]]] = ()


@cache
def load_parser(grammar: str, start: str = "start") -> Lark:
    """The LALR parser of grammar/<grammar>.lark, built once per process.

    Building it costs more than all the rest of a short command's start (`maild orders check`), so the built
    parser is also kept in the user's own cache folder (see `parser_cache`); Lark checks the grammar's and
    the options' hash before it uses a cached copy. Never Lark's `cache=True`: that unpickles a file from
    the shared temp directory, which anyone on the machine could have put there.
    """
    path = str(GRAMMAR_DIR / f"{grammar}.lark")
    cache_file = parser_cache(f"{grammar}-{start}")
    return Lark.open(path, parser="lalr", lexer="contextual", start=start, cache=cache_file or False)


def parser_cache(name: str) -> str | None:
    """A file for a built parser in `$XDG_CACHE_HOME/maild` (default ~/.cache/maild), or None where that
    folder cannot be trusted: it must belong to this user and be writable by nobody else, since what is
    in it is unpickled."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "maild")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.stat(folder)
    except OSError:
        return None
    if not hasattr(os, "getuid") or info.st_uid != os.getuid() or info.st_mode & 0o022:
        return None
    # Lark's version and Python's in the name: a pickle is only good for the code that wrote it.
    return os.path.join(folder, f"{name}-lark{LARK_VERSION}-py{sys.version_info[0]}{sys.version_info[1]}"
                                ".cache")


Builder = Callable[[Tree, int, str], Order]


# An order line (or, in a game that takes any number of orders on a line, one word of it) longer than this is
# refused whole before any grammar sees it: no order needs it, and it bounds what one order can cost (Python
# even refuses to read a number of more than 4,300 digits).
MAX_LINE_CHARS = 2000


def overlong(number: int, line: str, words: list[str] | None = None) -> Diagnostic | None:
    """The diagnostic of line `number` if it (or, given `words`, its longest word) is longer than any order
    may be, else None."""
    longest = max((len(w) for w in words), default=0) if words is not None else len(line)
    if longest <= MAX_LINE_CHARS:
        return None
    what = f"a word of {longest:,} characters" if words is not None else f"{longest:,} characters"
    return Diagnostic(number, line[:80] + "…", f"this line has {what}; an order has at most {MAX_LINE_CHARS:,}")


def parse_orders(parser: Lark | str, text: str, build: Builder, syntax: SyntaxHelp | None = None) -> ParsedOrders:
    """Parse `text` one line at a time: every non-blank line becomes an Order or a Diagnostic.

    Lines starting with '#' are the framework's (the `#GAME PLAYER PASSWORD` header and the like) and
    are skipped, as are blank lines. Line numbers are 1-based in `text` as given.
    """
    lark = load_parser(parser) if isinstance(parser, str) else parser
    syntax = syntax or SyntaxHelp()
    result = ParsedOrders()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if (too_long := overlong(number, line)) is not None:
            result.diagnostics.append(too_long)
            continue
        try:
            tree = _parsed(lark, line) if len(line) <= _KEPT_LINE_CHARS else lark.parse(line)
            result.orders.append(build(tree, number, line))
        except UnexpectedInput as exc:
            result.diagnostics.append(Diagnostic(number, line, describe_error(lark, line, exc, syntax)))
        except OrderError as exc:
            result.diagnostics.append(Diagnostic(number, line, with_example(str(exc), line, syntax)))
    return result


# Lines up to this long are kept (an order line is short; a long one is parsed each time, so that the cache
# stays small whatever is mailed).
_KEPT_LINE_CHARS = 200


@lru_cache(maxsize=8192)
def _parsed(lark: Lark, line: str) -> Tree:
    # A line's tree depends on the line alone, and players send the same lines again and again (a standing
    # bid, the same orders each turn): the parse was a sixth of intake's time a mail. The builders only read
    # a tree. A line that fails is not kept (its error is described from the parser's state each time).
    return lark.parse(line)


def format_diagnostic(d: Diagnostic) -> str:
    """The one-line form for acks and `orders check`: line 3: 'bid 30 for opera': expected ..."""
    return f"line {d.line}: '{d.text}': {d.message}"


def describe_error(lark: Lark, line: str, exc: UnexpectedInput, syntax: SyntaxHelp) -> str:
    """Say where in `line` the parse failed and what was expected there, in words."""
    at_end = isinstance(exc, UnexpectedToken) and exc.token.type in END_TERMINALS
    column = len(line) + 1 if at_end else max(exc.column, 1)
    before = line[: column - 1].split()
    where = f"after '{before[-1]}'" if before else "at the start of the line"
    if at_end:
        found = "but the line ends there"
    else:
        rest = line[column - 1 :].split()
        found = f"but found '{rest[0]}'" if rest else "but the line ends there"
    what = _hint(lark, exc, syntax) or _expected_in_words(_expected(exc), syntax)
    return with_example(f"expected {what} {where}, {found}", line, syntax)


def with_example(message: str, line: str, syntax: SyntaxHelp) -> str:
    """Append an example of the order the player was writing (or of every order, if we cannot tell)."""
    words = line.split()
    keyword = words[0].casefold() if words else ""
    if keyword in syntax.examples:
        return f"{message}, e.g. {syntax.examples[keyword]}"
    if syntax.examples:
        return f"{message}, e.g. " + " or ".join(dict.fromkeys(syntax.examples.values()))
    return message


def _expected(exc: UnexpectedInput) -> set[str]:
    if isinstance(exc, UnexpectedToken):
        return set(exc.expected)
    if isinstance(exc, UnexpectedCharacters):
        return set(exc.allowed or ())
    return set()


def _expected_in_words(expected: set[str], syntax: SyntaxHelp) -> str:
    # Sorted so that the message is the same from run to run.
    terminals = sorted(expected)
    mentioned = [t for t in terminals if t not in syntax.optional] or terminals
    words = list(dict.fromkeys(
        "the end of the line" if t in END_TERMINALS else syntax.words.get(t, t) for t in mentioned))
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


# A hint applies where the player's line failed the same way as one of its examples: same kind of error,
# same parser state, and (for an unexpected token) the same expected set. This is match_examples' test,
# but with the examples parsed once per process rather than on every error, and without letting an
# unexpected end of line match an example that failed on a stray character.
_Signature = tuple[str, int, object, frozenset[str]]


def _signature(exc: UnexpectedInput) -> _Signature | None:
    state = getattr(exc, "state", None)
    if state is None:
        return None
    kind = type(exc).__name__
    if isinstance(exc, UnexpectedToken) and exc.token.type in END_TERMINALS:
        kind = "end"
    return kind, len(state.state_stack), state.position, frozenset(_expected(exc))


@lru_cache(maxsize=64)
def _hint_table(lark: Lark, hints: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[_Signature, str]:
    table: dict[_Signature, str] = {}
    for what, examples in hints:
        for example in examples:
            try:
                lark.parse(example)
            except UnexpectedInput as exc:
                sig = _signature(exc)
                if sig is not None:
                    table.setdefault(sig, what)
            else:
                raise ValueError(f"hint example {example!r} parses: it cannot illustrate a mistake")
    return table


def _hint(lark: Lark, exc: UnexpectedInput, syntax: SyntaxHelp) -> str | None:
    if not syntax.hints:
        return None
    sig = _signature(exc)
    if sig is None:
        return None
    frozen = tuple((what, tuple(examples)) for what, examples in syntax.hints)
    return _hint_table(lark, frozen).get(sig)
