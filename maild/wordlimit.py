"""Word counting the way a reader counts words on a page, and checking a text against a word limit.

For games that limit how long an order may be: The Law of the Jungle's Captains ("restricted to a word
limit equal to 5 * (the unit's current level)"; "a fixed order word limit of 15").

What is one word (docs/mechanics.md gives the reasons):

- A run of letters and digits, in any script: ``attack``, ``Tenochtitlan``, ``2nd``.
- Numbers are one word each, with their separators: ``15``, ``1,000``, ``3.5``, ``10:30`` (a comma, point or
  colon joins only between two digits, so ``hold,attack`` is two words).
- A single hyphen joins: ``north-east`` is one word; a double hyphen or a dash standing between blanks
  separates and is not a word (``north--east`` is two).
- An apostrophe joins: ``don't``, ``Captain's`` are one word each.
- Initials with points are one word: ``e.g.``, ``U.S.``.
- Every other mark separates and is never a word: ``and/or`` is two words, ``...``, ``-``, ``*``, quotes and
  brackets count nothing. The one exception is ``&`` standing alone, which a reader reads as "and": one word.
- Words inside quotes count like any others: ``"Great Wall"`` is two words, as a reader counting the page
  would see it. A game that wants a name to be one word passes its names (``names=["Great Wall"]``): each
  known name, quoted or not, in any case, counts as one word (the longest name wins where names overlap).

`count_words` lists the words with where they stand (1-based line, 0-based columns); `check_words` compares
the count with a limit and names the words beyond it. Linear in the length of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_ALNUM = r"[^\W_]+"
_JOIN = r"(?:['\u2019]|-(?!-)|(?<=\d)[.,:](?=\d))"
_WORD = re.compile(rf"(?:[^\W\d_]\.){{2,}}|{_ALNUM}(?:{_JOIN}{_ALNUM})*|(?<!\S)&(?!\S)")


@dataclass(frozen=True)
class Word:
    text: str  # as written (a known name: its words joined by one blank)
    line: int  # 1-based line of its first character
    start: int  # 0-based column of its first character on that line


@dataclass(frozen=True)
class WordCount:
    words: tuple[Word, ...]
    limit: int

    @property
    def count(self) -> int:
        return len(self.words)

    @property
    def within(self) -> bool:
        return self.count <= self.limit

    @property
    def over(self) -> tuple[Word, ...]:
        """The words beyond the limit, in the order written (empty when within it)."""
        return self.words[self.limit:]


def _raw_words(text: str) -> list[Word]:
    out: list[Word] = []
    for number, line in enumerate(text.split("\n"), start=1):
        out += [Word(m.group(), number, m.start()) for m in _WORD.finditer(line)]
    return out


def _name_index(names: Iterable[str]) -> dict[str, list[tuple[str, ...]]]:
    """Each name's words (case-folded), by its first word, longest first."""
    index: dict[str, list[tuple[str, ...]]] = {}
    for name in names:
        key = tuple(w.text.casefold() for w in _raw_words(name))
        if len(key) > 1:
            index.setdefault(key[0], []).append(key)
    for candidates in index.values():
        candidates.sort(key=len, reverse=True)
    return index


def count_words(text: str, names: Iterable[str] = ()) -> list[Word]:
    """The words of `text`, a known multi-word name counting as one (see the module docstring)."""
    words = _raw_words(text)
    index = _name_index(names)
    if not index:
        return words
    folded = [w.text.casefold() for w in words]
    out: list[Word] = []
    i = 0
    while i < len(words):
        for name in index.get(folded[i], ()):
            if tuple(folded[i:i + len(name)]) == name:
                first = words[i]
                out.append(Word(" ".join(w.text for w in words[i:i + len(name)]), first.line, first.start))
                i += len(name)
                break
        else:
            out.append(words[i])
            i += 1
    return out


def check_words(text: str, limit: int, names: Iterable[str] = ()) -> WordCount:
    """`text`'s words against `limit`: the count, whether it is within, and the words over."""
    if limit < 0:
        raise ValueError(f"a word limit must not be negative, got {limit}")
    return WordCount(tuple(count_words(text, names)), limit)
