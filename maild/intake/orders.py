"""A mail's order text through its game's ruleset: formatting taken out, manners set aside.

One place for every game: `normalize.clean_orders` takes out what mail programs add (emphasis, bullets,
smart punctuation), the ruleset parses what is left, and the lines it could not read that are greetings,
closings or signatures (`prose`) are listed as ignored instead of as mistakes. A line the ruleset reads as
an order is an order, whatever it looks like.

A ruleset that reads emphasis (`reads_emphasis = True`, e.g. a game whose actions are bold keywords) gets
the clean text with its bold runs marked ``**run**``; the others get it without markers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from maild.intake.normalize import CleanText, clean_orders, without_full_stops
from maild.intake.prose import prose_kind
from maild.ruleset import Diagnostic, ParsedOrders, Ruleset


@dataclass(frozen=True)
class ReadOrders:
    parsed: ParsedOrders
    ignored: list[Diagnostic] = field(default_factory=list)  # prose lines; `message` says which kind


def names_of(*names: str | None) -> frozenset[str]:
    """The lower-cased words (and whole names) a player may sign with: "Anna Rossi" -> anna, rossi, anna rossi."""
    out: set[str] = set()
    for name in names:
        if not name:
            continue
        words = [w.strip(",.'\"").casefold() for w in name.replace("_", " ").split()]
        out.update(w for w in words if w)
        out.add(" ".join(words))
    return frozenset(out)


def ruleset_text(ruleset: Ruleset, clean: CleanText) -> str:
    """The text this ruleset parses: with bold markers if it reads emphasis, else without."""
    clean = without_full_stops(clean)  # "number 4." is "number 4" in every game
    return clean.marked() if ruleset.reads_emphasis else clean.text


def read_orders(ruleset: Ruleset, written: str, names: Iterable[str] = (),
                line_map: Sequence[int] = ()) -> ReadOrders:
    """Parse `written` (a mail's order text, as `ordertext.extract` cut it) with `ruleset`.

    `names`: lower-cased words the sender may sign with (`names_of`). `line_map`: the mail's line of each line of
    `written` (`ReadMail.line_map`); given, the ruleset parses the text with its lines where they were in the
    mail (`as_in_mail`), so that "line N" is the player's line N, counted from the top of his mail, the password
    line included.
    """
    if not written.strip():
        return ReadOrders(ParsedOrders())
    return _read(ruleset, as_in_mail(written, line_map) if line_map else written, names)


def as_in_mail(written: str, line_map: Sequence[int]) -> str:
    """`written` with each line where it was in the mail: line N of the result is line N of the mail, blank where
    the mail's line is not part of the order text (the password line, quotes, a signature). So every number a
    ruleset gives a line (an Order's, a Diagnostic's, one inside its message: "after /MED (line 2)") is the
    player's. A text that does not fit the map is returned as it is."""
    lines = written.split("\n")
    if len(lines) != len(line_map) or any(b <= a for a, b in zip(line_map, line_map[1:], strict=False)):
        return written
    out = [""] * line_map[-1]
    for n, line in zip(line_map, lines, strict=True):
        out[n - 1] = line
    return "\n".join(out)


def mail_line(line_map: Sequence[int], n: int) -> int:
    """The mail's line of line `n` of the order text (`n` itself past the map)."""
    return line_map[n - 1] if 0 < n <= len(line_map) else n


def _read(ruleset: Ruleset, written: str, names: Iterable[str]) -> ReadOrders:
    clean = clean_orders(written)
    parsed = ruleset.parse(ruleset_text(ruleset, clean))
    unread = {d.line for d in parsed.diagnostics if not d.warning}
    if not unread:
        return ReadOrders(parsed)
    read = {o.line for o in parsed.orders}
    prose = _prose_lines(written.split("\n"), clean.text.split("\n"), unread, frozenset(names),
                         min(read, default=None), order_words(ruleset))
    if not prose:
        return ReadOrders(parsed)
    kept = ParsedOrders(orders=[o for o in parsed.orders if o.line not in prose],
                        diagnostics=[d for d in parsed.diagnostics if d.line not in prose])
    ignored = [Diagnostic(n, clean.text.split("\n")[n - 1], kind) for n, kind in sorted(prose.items())]
    return ReadOrders(kept, ignored)


def order_words(ruleset: Ruleset) -> frozenset[str]:
    """The words a game's orders are made of, lower case: each kind's first word and the small words of its form
    ("bid N for cards, M for capitals": bid, for, cards, capitals). A line of them is an order gone wrong, never
    a name signing the mail."""
    words: set[str] = set()
    for kind in getattr(ruleset, "order_kinds", ()):
        words.add(kind.word.casefold())
        words.update(w.casefold() for w in re.findall(r"[^\W\d_]+", kind.form) if not w.isupper())
    return frozenset(words)


def _prose_lines(written: list[str], clean: list[str], unread: set[int], names: frozenset[str],
                 first_order: int | None = None, words: frozenset[str] = frozenset()) -> dict[int, str]:
    """1-based line -> kind, for the lines the ruleset could not read that are prose. `first_order`: the first
    line read as an order, if any; a name below it signs the orders."""
    nonblank = [i for i, line in enumerate(clean) if line.strip()]
    last = nonblank[-1] if nonblank else -1
    out: dict[int, str] = {}
    previous: str | None = None  # the kind of the previous non-blank line, if prose
    for i in nonblank:
        kind = None
        if i + 1 in unread:
            for line in (clean[i], written[i]):
                kind = prose_kind(line, last=i == last, names=names, after_closing=previous == "closing",
                                  after_orders=first_order is not None and first_order <= i, order_words=words)
                if kind:
                    break
        if kind:
            out[i + 1] = kind
        previous = kind
    return out
