"""The text after one bold keyword, read with grammar/jungle.lark into a flat list of phrases.

The grammar has a start rule per keyword; its tree is a sequence of vocabulary words (terminals) and names.
`read` flattens it into `Phrase`s, each with where it stands in the text, and joins a name the vocabulary
cut in two ("Itzel the Brave", "Jaguar Warriors of Texcoco": two names with only an article or "of" and no
punctuation between them are one name). orders.py interprets the phrases per keyword.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from maild.parsing import load_parser

GRAMMAR = "jungle"
#: canonical keyword -> its start rule in the grammar (the keywords read as free text have none).
START = {
    "sacrifice": "sacrifice", "offering": "offering", "move": "move", "travel": "travel", "enlist": "enlist",
    "desert": "desert", "retire": "retire", "disband": "disband", "evict": "evict", "procreate": "procreate",
    "recruit": "recruit", "attack": "attack", "research": "research", "produce": "produce", "give": "give",
    "train": "train", "purchase": "purchase", "join houses": "join_houses", "split houses": "split_houses",
    "annex": "annex", "support policy": "support_policy",
}
#: start rules that read parts of an action rather than a whole one.
PIECES = ("rule_offering", "order_head", "join")
NAME = "NAME"  # the type of a name phrase (a `name`, `place` or `number_place` of the grammar)


@dataclass(frozen=True)
class Phrase:
    type: str  # NAME, NUMBER, GOD, or a vocabulary terminal's name (ATYPE, GIFT, TO, SEP ...)
    text: str  # as written
    start: int  # offsets in the text read
    end: int


class PhraseError(ValueError):
    """The text does not read; the message says where, in a player's words."""


def parser(start: str) -> Lark:
    """The grammar's parser for one start rule, built once per process (maild.parsing.load_parser).

    One parser per start rule, not one with every start: LALR merges the states of a name in every context
    it appears in, so a word that is vocabulary after one keyword ("in" after **Move**) would stop a name
    after every keyword."""
    return load_parser(GRAMMAR, start)


def read(text: str, start: str) -> list[Phrase]:
    """The phrases of `text` by the grammar's start rule `start`; PhraseError if it does not read."""
    try:
        tree = parser(start).parse(text)
    except UnexpectedInput as exc:
        raise PhraseError(_unexpected(text, exc)) from None
    out: list[Phrase] = []
    for child in tree.children:
        if isinstance(child, Token):
            out.append(Phrase(child.type, str(child), child.start_pos or 0, child.end_pos or 0))
        elif isinstance(child, Tree):
            tokens = [t for t in child.scan_values(lambda v: isinstance(v, Token))]
            start_pos, end_pos = tokens[0].start_pos or 0, tokens[-1].end_pos or 0
            kind = NAME if child.data in ("name", "place", "number_place") else str(child.data).upper()
            out.append(Phrase(kind, text[start_pos:end_pos], start_pos, end_pos))
    return _join_names(out, text)


def _join_names(phrases: list[Phrase], text: str) -> list[Phrase]:
    out: list[Phrase] = []
    i = 0
    while i < len(phrases):
        p = phrases[i]
        if p.type == NAME:
            j = i
            while True:
                k = j + 1
                while k < len(phrases) and phrases[k].type in ("ARTICLE", "OF"):
                    k += 1
                if k > j + 1 and k < len(phrases) and phrases[k].type == NAME:
                    j = k
                else:
                    break
            if j > i:
                p = Phrase(NAME, text[p.start:phrases[j].end], p.start, phrases[j].end)
            out.append(p)
            i = j + 1
        else:
            out.append(p)
            i += 1
    return out


def _unexpected(text: str, exc: UnexpectedInput) -> str:
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        return "it ends too soon"
    if isinstance(exc, UnexpectedToken):
        return f"'{exc.token}' is not expected there"
    if isinstance(exc, UnexpectedCharacters):
        return f"'{text[exc.pos_in_stream]}' is not expected there"
    return "it does not read"
