"""Bold-keyword orders: free text cut into actions at each keyword written in bold.

For games whose orders are prose with the action named by a bold keyword (The Law of the Jungle: "Actions
should be signified by putting the appropriate action keyword in bold"). Intake hands such a ruleset the
order text with each bold run written ``**run**`` (`CleanText.marked()`, for a ruleset with
``reads_emphasis = True``); `extract` reads that text.

Semantics:

- Keywords are matched case-insensitively on whole words, blanks between words folded (``**Join  Houses**``
  is "join houses"). A keyword may have aliases (`Keywords.of({"join houses": ["join house"]})`); an action
  always carries the canonical name.
- A bold run starts an action when its first words are a keyword (the longest keyword wins: "join houses"
  before "join"). The rest of the run after the keyword is the start of the action's text, so
  ``**Research Bronze Working**`` is the action "research" with text "Bronze Working". Punctuation right
  after a keyword (``**Attack:**``, ``**Attack** - Bob``) is not part of the text.
- An action's text is everything after its keyword up to the next keyword in bold, over as many lines as
  it runs, lines joined by a newline, blank lines and outer blanks trimmed, bold markers taken out.
- A bold run that does not start with a keyword is reported in ``unknown_bold`` (so the ack can ask what it
  means) and its words stay in the text around it.
- A keyword not in bold is not an action: the rules ask for bold, and a keyword word may be plain prose
  ("then move to the river"). It is reported in ``plain_keywords`` where a reader would take it for a
  forgotten bold: as the first word of a line, or written in capitals (``ATTACK``). It stays in the text.
- Text before the first action is in ``preamble``, line by line, never in an action.
- ``**`` with no closing pair on its line is text, markers and all.

Linear in the length of the text: each line is read once, and each word is tried against keywords of at
most as many words as the longest keyword.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

_WORD = re.compile(r"[^\W_]+(?:['\u2019-][^\W_]+)*")
_LEAD = " \t:;,.-=>"
_BOLD = "**"


def _fold(text: str) -> tuple[str, ...]:
    return tuple(m.group().casefold() for m in _WORD.finditer(text))


@dataclass(frozen=True)
class Keywords:
    """The keywords of a game: folded word sequences -> canonical keyword."""

    names: Mapping[tuple[str, ...], str]
    longest: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "longest", max((len(k) for k in self.names), default=0))

    @classmethod
    def of(cls, keywords: Mapping[str, Iterable[str]] | Iterable[str]) -> Keywords:
        """From canonical keywords, or a mapping canonical keyword -> its aliases."""
        pairs = keywords.items() if isinstance(keywords, Mapping) else ((k, ()) for k in keywords)
        names: dict[tuple[str, ...], str] = {}
        for canonical, aliases in pairs:
            for spelling in (canonical, *aliases):
                key = _fold(spelling)
                if not key:
                    raise ValueError(f"a keyword needs a word: {spelling!r}")
                if names.setdefault(key, canonical) != canonical:
                    raise ValueError(f"{spelling!r} names both {names[key]!r} and {canonical!r}")
        return cls(names)

    def match(self, words: list[re.Match[str]], at: int) -> tuple[str, int] | None:
        """The canonical keyword made by the words from index `at` on (longest first), and how many words."""
        for n in range(min(self.longest, len(words) - at), 0, -1):
            key = tuple(m.group().casefold() for m in words[at:at + n])
            if key in self.names:
                return self.names[key], n
        return None


@dataclass(frozen=True)
class Action:
    keyword: str  # canonical
    written: str  # the keyword as the player wrote it
    text: str  # the free text after it, up to the next keyword in bold
    line: int  # 1-based line of the keyword
    last_line: int  # the last line with text of this action


@dataclass(frozen=True)
class Mark:
    """A word or a line to point out to the player."""

    line: int
    text: str
    keyword: str | None = None  # for a keyword not in bold: the keyword it is


@dataclass(frozen=True)
class Extracted:
    actions: tuple[Action, ...]
    unknown_bold: tuple[Mark, ...]  # bold runs that are not keywords
    plain_keywords: tuple[Mark, ...]  # keywords not in bold, where a reader would take them for actions
    preamble: tuple[Mark, ...]  # non-blank lines before the first action


def _segments(line: str) -> list[tuple[str, bool]]:
    """The line cut into (text, is_bold) pieces at paired ``**`` markers."""
    out: list[tuple[str, bool]] = []
    at = 0
    while True:
        open_ = line.find(_BOLD, at)
        close = line.find(_BOLD, open_ + 2) if open_ >= 0 else -1
        if close < 0:
            out.append((line[at:], False))
            return out
        out.append((line[at:open_], False))
        out.append((line[open_ + 2:close], True))
        at = close + 2


class _Reader:
    def __init__(self, keywords: Keywords) -> None:
        self.keywords = keywords
        self.actions: list[Action] = []
        self.unknown: list[Mark] = []
        self.plain: list[Mark] = []
        self.preamble: list[Mark] = []
        self.current: tuple[str, str, int] | None = None  # keyword, written, line
        self.pieces: list[tuple[int, str]] = []  # (line, text) of the current action or of the preamble

    def close(self) -> None:
        if self.current is None:
            self.preamble += [Mark(n, t.strip()) for n, t in self.pieces if t.strip()]
        else:
            keyword, written, line = self.current
            lines = [n for n, t in self.pieces if t.strip()] or [line]
            text = "\n".join(t for _, t in self.pieces).strip().lstrip(_LEAD).strip()
            self.actions.append(Action(keyword, written, text, line, max(lines)))
        self.pieces = []

    def line(self, number: int, line: str) -> None:
        texts: list[str] = []
        first_word = True
        for text, bold in _segments(line):
            words = list(_WORD.finditer(text))
            if bold and words and (found := self.keywords.match(words, 0)):
                self.pieces.append((number, "".join(texts)))
                texts = []
                self.close()
                keyword, n = found
                self.current = (keyword, text[words[0].start():words[n - 1].end()], number)
                texts.append(text[words[n - 1].end():].lstrip(_LEAD))
            else:
                if bold and text.strip():
                    self.unknown.append(Mark(number, text.strip()))
                elif not bold:
                    self._plain_keywords(number, words, first_word)
                texts.append(text)
            first_word = first_word and not words
        self.pieces.append((number, "".join(texts)))

    def _plain_keywords(self, number: int, words: list[re.Match[str]], line_start: bool) -> None:
        i = 0
        while i < len(words):
            word = words[i].group()
            found = None
            if (word.isupper() and len(word) > 1) or (line_start and i == 0):
                found = self.keywords.match(words, i)
            if found is None:
                i += 1
                continue
            keyword, n = found
            self.plain.append(Mark(number, " ".join(w.group() for w in words[i:i + n]), keyword))
            i += n


def extract(marked: str, keywords: Keywords) -> Extracted:
    """Cut `marked` (order text with bold runs as ``**run**``) into actions at its bold keywords."""
    reader = _Reader(keywords)
    for number, line in enumerate(marked.split("\n"), start=1):
        reader.line(number, line)
    reader.close()
    return Extracted(tuple(reader.actions), tuple(reader.unknown), tuple(reader.plain), tuple(reader.preamble))
