"""Formatting that carries no meaning, taken out of the order text before a ruleset's grammar reads it.

`plaintext.normalize` has already made spaces plain and removed invisible characters from the whole mail.
What is left is typography and emphasis, which mail programs add on their own and players never mean as
part of an order:

- **Punctuation**: smart quotes become ASCII quotes; the ellipsis becomes ``...``. Dashes are read by
  their place: an en or em dash standing alone between blanks is ``--`` (Word's ` -- `, iOS's ``--``: a
  Renaissance comment), before a digit ``-`` (a minus: ``RI–2``, ``—5$``); otherwise an en dash, the minus
  sign and the Unicode hyphens are ``-`` and an em dash ``--``.
- **Sentence punctuation** ending a line (``.``, ``!``, ``;``, any run of them) is not part of an order:
  `without_full_stops` takes it off the text a ruleset parses (``number 4.`` is ``number 4``). A dot inside
  a line (``spend 0.1667``) stays, and so does a question mark.
- **List markers** at the start of a line are removed (before the punctuation is read): bullets (``•``,
  ``◦``, ``▪``, ``‣``, ``●``, ``·`` and friends), Outlook's ``o`` and ``§`` sub-bullets (with a tab or two
  blanks after them), ``-`` followed by a blank (never ``--``, a comment in Renaissance), ``1.``, ``1)`` and
  ``a)``. ``*``, ``+``, ``–`` and ``—`` followed by a blank count only in a list (the line before or after
  starts the same way), because ``* Florence .0101`` alone may be a Renaissance header and ``— Anna`` a
  signature.
- **Emphasis** that wraps whole words or lines is unwrapped: ``**x**`` (our HTML conversion and Markdown),
  ``*x*`` (Gmail's plain part), ``_x_`` and ``__x__``, on one line or over several. A marker opens an
  emphasis only at the start of a word and closes it only at the end of one, so ``*FAMILY`` and
  ``*Florence .0101`` (Renaissance syntax: a star in front of a letter, never behind a word) stay as they
  are, and ``**Florence .0101*`` (Gmail's bold of that header) gives ``*Florence .0101`` back.
  Which opening marker a closing one belongs to, in order of preference: one on the same line that cannot
  be syntax (two markers, or one before a non-letter: ``*/MED``), the word's own, the nearest on the same
  line, then the nearest one above that cannot be syntax, then the nearest one above. Known limit: a bold
  run over several lines that starts with a single ``*`` before a letter and has a Renaissance persona
  header inside pairs with that header; Gmail writes each bold line of a block on its own, which is read
  right.

The information is not thrown away: `CleanText.bold` keeps where the emphasis was (a ruleset that reads
bold keywords asks for `CleanText.marked()`, the text with each bold run as ``**run**``). Lines are never
added or removed, so line N of the clean text is line N of the text the player sent. Everything here is
linear in the length of the text (no backtracking patterns).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass

_PUNCTUATION = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "--", "\u2015": "--", "\u2212": "-",
    "\ufe63": "-", "\uff0d": "-",
    "\u2026": "...",
})
# A bullet alone says "list item"; `o` and `§` (Outlook's second and third level in Courier and Wingdings)
# only with the wide gap Outlook puts after them.
_BULLET = re.compile(r"[ \t]*(?:[\u2022\u25e6\u25aa\u25ab\u2023\u2043\u2219\u00b7\u25cf\u25cb\u25a0\u25a1"
                     r"\u25b8\u25ba\u27a2\u2794\u2192][ \t]*"
                     r"|[o\u00a7](?:\t|  )[ \t]*"
                     r"|-(?=[ \t])[ \t]+"
                     r"|\d{1,2}[.)][ \t]+"
                     r"|[a-zA-Z]\)[ \t]+)")
_LIST_ONLY = re.compile(r"[ \t]*[*+\u2013\u2014][ \t]+(?=\S)")
# A dash standing alone between blanks is what Word and phones make of a typed "--" (a comment in
# Renaissance) or " - "; glued to a number it is a minus; inside a word an en dash is a hyphen.
_LONE_DASH = re.compile(r"(?<!\S)[\u2013\u2014](?!\S)")
_MINUS = re.compile(r"[\u2013\u2014](?=\d)")
_TOKEN = re.compile(r"\S+")
_MARKERS = "*_"
_CLOSER_PUNCTUATION = ".,;:!?)"
_CLOSER_ENDS = frozenset(_MARKERS + _CLOSER_PUNCTUATION)


@dataclass(frozen=True)
class CleanText:
    text: str  # what the grammar of a ruleset that does not read emphasis gets
    bold: tuple[tuple[int, int, int], ...] = ()  # (1-based line, start, end) of each bold run in `text`

    def marked(self) -> str:
        """The text with each bold run written ``**run**``, for a ruleset that reads bold keywords."""
        if not self.bold:
            return self.text
        lines = self.text.split("\n")
        by_line: dict[int, list[tuple[int, int]]] = {}
        for number, start, end in self.bold:
            by_line.setdefault(number, []).append((start, end))
        for number, spans in by_line.items():
            line = lines[number - 1]
            for start, end in sorted(spans, reverse=True):
                line = f"{line[:start]}**{line[start:end]}**{line[end:]}"
            lines[number - 1] = line
        return "\n".join(lines)

    def bold_words(self, line: int) -> list[str]:
        """The bold runs of a 1-based line of `text`."""
        text = self.text.split("\n")[line - 1]
        return [text[s:e] for n, s, e in self.bold if n == line]


def clean_orders(text: str) -> CleanText:
    """The order text without meaningless formatting (see the module docstring), and where its bold was."""
    lines = _remove_list_markers(text.split("\n"))
    return _unwrap_emphasis([line if line.isascii() else _punctuation(line) for line in lines])


# Sentence punctuation a player ends an order with as he ends a sentence: never part of the order. A dot inside
# (``spend 0.1667``, ``*Florence .0101``) stays; a question mark stays too (a question is not an order, and the
# ack should show it as written).
_FULL_STOP = ".!;"


def without_full_stops(clean: CleanText) -> CleanText:
    """The clean text without the sentence punctuation ending its lines: what a ruleset parses (the ack still
    echoes greetings and closings as written, "Thanks!")."""
    lines = clean.text.split("\n")
    cut = [line.rstrip(_FULL_STOP).rstrip() if line[-1:] in _FULL_STOP else line for line in lines]
    if cut == lines:
        return clean
    bold = tuple((n, s, min(e, len(cut[n - 1]))) for n, s, e in clean.bold if s < len(cut[n - 1]))
    return CleanText("\n".join(cut), bold)


def _punctuation(line: str) -> str:
    if "\u2013" in line or "\u2014" in line:
        line = _MINUS.sub("-", _LONE_DASH.sub("--", line))
    return line.translate(_PUNCTUATION)


def without_bullet(line: str) -> str:
    """The line without a list marker that needs no list around it to be one (a bullet, ``1.``, ``- ``)."""
    m = _BULLET.match(line)
    return line[m.end():] if m is not None and m.end() < len(line) else line


def _remove_list_markers(lines: list[str]) -> list[str]:
    out = []
    for i, line in enumerate(lines):
        bare = without_bullet(line)
        if bare is line and (m := _LIST_ONLY.match(line)) is not None and m.end() < len(line):
            mark = m.group().strip()
            if any(_LIST_ONLY.match(lines[j]) and lines[j].lstrip()[:1] == mark
                   for j in (i - 1, i + 1) if 0 <= j < len(lines)):
                bare = line[m.end():]
        out.append(bare)
    return out


def _unwrap_emphasis(lines: list[str]) -> CleanText:
    delete: dict[int, set[int]] = defaultdict(set)  # line -> positions of the markers to remove there
    runs: list[tuple[int, int, int, int]] = []  # (line, start, line, end) in original positions
    for marker in _MARKERS:
        if any(marker in line for line in lines):
            _Pairing(marker, delete, runs).run(lines)
    if not runs:
        return CleanText("\n".join(line.strip() for line in lines))
    return _rebuild(lines, delete, runs)


class _Pairing:
    """Closing markers paired with opening ones, for one marker character, in one pass over the text.

    An opener is an index into parallel lists (its line, where its markers start, how many there are,
    whether it cannot be syntax: two or more markers, or one before something not a letter), so that a
    line of a hundred thousand markers makes no objects for the garbage collector to walk.
    """

    def __init__(self, marker: str, delete: dict[int, set[int]], runs: list[tuple[int, int, int, int]]) -> None:
        self.marker, self.delete, self.runs = marker, delete, runs
        self.line: list[int] = []
        self.pos: list[int] = []
        self.count: list[int] = []
        self.matched = bytearray()
        self.certain: list[int] = []  # stacks of openers, the nearest last
        self.every: list[int] = []
        # A closer at the end of a line with no opener anywhere above closes a run that began before the
        # order text: Gmail's bold block that starts on the #GAME header line. Once.
        self.before_text = True

    def run(self, lines: list[str]) -> None:
        for n, line in enumerate(lines):
            if self.marker in line:
                end = len(line.rstrip())
                for tok in _TOKEN.finditer(line):
                    word = tok.group()
                    if word[0] == self.marker or word[-1] in _CLOSER_ENDS:  # else it neither opens nor closes
                        self.token(n, word, tok.start(), tok.end() == end)

    def token(self, n: int, word: str, at: int, line_end: bool) -> None:
        marker = self.marker
        lead = len(word) - len(word.lstrip(marker))
        body = word.rstrip(_CLOSER_PUNCTUATION) if lead < len(word) else ""
        trail = len(body) - len(body.rstrip(marker))
        if lead >= len(body):
            return  # markers (and punctuation) only: a bullet or a divider, not emphasis
        own = None
        if lead:
            own = len(self.line)
            self.line.append(n)
            self.pos.append(at)
            self.count.append(min(lead, 3))
            self.matched.append(0)
            self.every.append(own)
            if lead >= 2 or marker == "_" or not word[lead].isalpha():
                self.certain.append(own)
        if not trail or len(body) - trail <= lead:
            return
        close = at + len(body) - trail
        opener = self.pick(n, own)
        if opener is None:
            if self.before_text and line_end:
                self.before_text = False
                self.delete[n].update(range(close, close + trail))
                self.runs.append((0, 0, n, close))
            return
        self.matched[opener] = 1
        line, count = self.line[opener], self.count[opener]
        k = min(count, trail)
        # The opener's innermost k markers go (the others may be syntax: **Florence -> *Florence); the
        # closer's first k.
        first = self.pos[opener] + count - k
        self.delete[line].update(range(first, first + k))
        self.delete[n].update(range(close, close + k))
        self.runs.append((line, first + k, n, close))

    def pick(self, n: int, own: int | None) -> int | None:
        certain, every = self.certain, self.every
        for stack in (certain, every):
            while stack and self.matched[stack[-1]]:
                stack.pop()
        if certain and self.line[certain[-1]] == n:
            return certain[-1]
        if own is not None:
            return own
        if every and self.line[every[-1]] == n:
            return every[-1]
        if certain:
            return certain[-1]
        return every[-1] if every else None


def _rebuild(lines: list[str], delete: dict[int, set[int]], runs: list[tuple[int, int, int, int]]) -> CleanText:
    out: list[str] = []
    gone_sorted: dict[int, list[int]] = {}
    leads: list[int] = []
    for n, line in enumerate(lines):
        if n in delete:
            order = gone_sorted[n] = sorted(delete[n])
            bounds = [-1, *order, len(line)]
            line = "".join(line[a + 1:b] for a, b in zip(bounds, bounds[1:], strict=False))
        out.append(line.strip())
        leads.append(len(line) - len(line.lstrip()))

    def moved(n: int, position: int) -> int:
        """Where a position of the written line is in the clean line: fewer the markers before it."""
        before = bisect_left(gone_sorted[n], position) if n in gone_sorted else 0
        return min(max(position - before - leads[n], 0), len(out[n]))

    bold: list[tuple[int, int, int]] = []
    for first_line, start, last_line, end in runs:
        for n in range(first_line, last_line + 1):
            text = out[n]
            s = moved(n, start) if n == first_line else 0
            e = moved(n, end) if n == last_line else len(text)
            while s < e and text[s] == " ":
                s += 1
            while e > s and text[e - 1] == " ":
                e -= 1
            if s < e:
                bold.append((n + 1, s, e))
    return CleanText("\n".join(out), tuple(sorted(set(bold))))
