"""The order header line and the one-word commands.

Header line syntax (decided here; Atlantis and GalaxyNG orders start the same way)::

    #GAME [PLAYER [PASSWORD]]
    #game GAME [PLAYER [PASSWORD]]      (the word "game" may be written out; so no game is named "game")

- ``#`` starts the line (leading blanks, bullets and bold markers, ``**`` or Gmail's plain-text ``*``, are
  ignored) and is followed at once by the game name: a letter, then letters, digits, ``_``, ``.`` or ``-``.
  ``# my bids`` (a blank after ``#``) is a comment, not a header, and so is ``#end``.
- PLAYER is a name (letters, digits, ``_.@+-``); PASSWORD is one word, or any text in double quotes:
  ``"my pass"``; phones' curly quotes (“my pass”, „my pass“, «my pass») count as quotes too.
- More than three words after ``#`` (without a quoted password) is not a header but a comment, so prose
  such as ``#1 priority is the silk tax`` is not mistaken for one.
- Game and player are returned as written; compare them case-insensitively. The password is exact.

``#end`` (any case) on a line of its own ends the orders; text after it is ignored.

Commands: a line that is just a command word (any case, bold or not, with an optional ``.``/``!``) is a
command; so is a subject that is just that word (after ``Re:``/``Fwd:`` prefixes and ``[tags]``) when the mail
has no order text. The words are the framework's ``HELP``, ``STATUS`` and ``CANCEL`` (answered only for a game
whose ruleset keeps late orders that can be cancelled) and the mail commands rulesets declare (Renaissance's
``CODESHEET``).

A mail's game is not known when its text is read (the header line or the subject may name it), so the words
recognised are those of every installed ruleset (`maild.ruleset.command_words`); once the mail is routed, a
word the game does not have is not answered and the ack says so (`maild.intake.pipeline`). A caller that knows
the game (`maild orders check --ruleset R`) passes that game's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from maild.intake.normalize import without_bullet
from maild.intake.quotes import plain
from maild.ruleset import ARG_COMMANDS, command_words

_GAME = re.compile(r"[A-Za-z][\w.-]{0,63}", re.ASCII)
_PLAYER = re.compile(r"[\w.@+-]{1,64}")
# "..." or curly/low/guillemet quotes around a password with blanks; otherwise a bare word.
_TOKEN = re.compile(r'"([^"]*)"|“([^”]*)”|„([^“”]*)[“”]|«\s?([^»]*?)\s?»|(\S+)')
_END = re.compile(r"#end\.?", re.IGNORECASE)
_COMMAND = re.compile(r"([A-Za-z]{2,30})[.!]?")
_ARG_COMMAND = re.compile(r"([A-Za-z]{2,30})[ \t]+([\w.@+-]{1,64}(?:[ \t]+[\w.@+-]{1,64}){0,2})[.!]?")
_SUBJECT_PREFIX = re.compile(r"^\s*(?:(?:re|fw|fwd|aw|wg|sv|vs|tr|rv|antw|r|i)\s*(?:\[\d+\])?\s*:|\[[^\]]*\])\s*",
                             re.IGNORECASE)


@dataclass(frozen=True)
class OrderHeader:
    game: str
    player: str | None
    password: str | None
    line_index: int  # 0-based index of the header line in the text it was found in

    @property
    def line(self) -> int:
        """1-based line number of the header line in that text."""
        return self.line_index + 1


def _unemphasized(line: str) -> str:
    """The line as `quotes.plain` sees it, without a bullet and without Gmail's plain-text bold either: one
    ``*`` (or ``_``) before it and, if there, the same after it (a bold block over several lines opens on its
    first line only)."""
    text = plain(without_bullet(line))
    mark = text[:1]
    if mark in ("*", "_") and len(text) > 2 and text[1] not in "*_ ":
        text = text[1:-1] if text.endswith(mark) else text[1:]
    return text


def parse_header_line(line: str, line_index: int = 0) -> OrderHeader | None:
    """The header a line carries, or None if it is not a header line."""
    text = _unemphasized(line)
    if len(text) < 2 or text[0] != "#" or not text[1].isalpha() or len(text) > 300:
        return None
    tokens: list[tuple[str, bool]] = []  # (value, was quoted)
    for m in _TOKEN.finditer(text[1:]):
        bare = m.group(5)
        if bare is not None:
            tokens.append((bare, False))
        else:
            tokens.append((next(g for g in m.groups()[:4] if g is not None), True))
    if len(tokens) >= 2 and tokens[0][0].lower() == "game" and not tokens[1][1]:
        tokens = tokens[1:]
    if not tokens or len(tokens) > 3:
        return None
    game, quoted = tokens[0]
    if quoted or not _GAME.fullmatch(game) or game.lower().rstrip(".") == "end":
        return None
    player = None
    if len(tokens) >= 2:
        player, quoted = tokens[1]
        if quoted or not _PLAYER.fullmatch(player):
            return None
    password = tokens[2][0] if len(tokens) == 3 else None
    return OrderHeader(game, player, password, line_index)


def is_end_line(line: str) -> bool:
    return bool(_END.fullmatch(_unemphasized(line)))


def line_command(line: str, words: frozenset[str] | None = None) -> str | None:
    """The command word, lower case ("help", "codesheet"), if the line is just one of `words` (upper case;
    default: every installed ruleset's, `command_words()`). A word of `ARG_COMMANDS` may have up to three
    words after it, kept after a blank ("history 12", "takeover venice1 alice")."""
    text = _unemphasized(line)
    m = _COMMAND.fullmatch(text)
    args = ""
    if m is None:
        m = _ARG_COMMAND.fullmatch(text)
        if m is None or m.group(1).upper() not in ARG_COMMANDS:
            return None
        args = " " + " ".join(m.group(2).split()).rstrip(".!")
    word = m.group(1).upper()
    return word.lower() + args if word in (command_words() if words is None else words) else None


def subject_command(subject: str, words: frozenset[str] | None = None) -> str | None:
    """The command word if the subject is just that word, once reply prefixes and tags are removed."""
    rest = subject
    while True:
        stripped = _SUBJECT_PREFIX.sub("", rest, count=1)
        if stripped == rest:
            break
        rest = stripped
    return line_command(rest, words)


def subject_tags(subject: str) -> list[str]:
    """The ``[tag]`` words in a subject, lowercased, in order (``[venice1] my bids`` -> ``["venice1"]``)."""
    return [t.lower() for t in re.findall(r"\[\s*([^\[\]\s]+)\s*\]", subject)]
