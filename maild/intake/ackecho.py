"""What an ack echoes of the mail it answers, bounded: each list (orders understood, lines not understood,
warnings, orders on file, problems) shows its first `limits.ack_lines` items and says how many more there
were, and every echoed line is shortened to `limits.ack_line_chars` with its original length, at a word's end
(an order's summary, what the player is held to, to three times that).
A message (what was wrong with a line) is shortened by dropping whole examples and whole sentences from its
end, never what it says was wrong (`shorten`). The mail's
orders are all booked whatever the ack shows; only the echo is cut, so a 2 MB line or 100,000 orders cost
an ack of a few kilobytes, and an ack forwarded back to maild in a loop does not grow with each round."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import fields, is_dataclass, replace
from functools import cache
from typing import Any, TypeVar

from maild.config import ReplyLimits

T = TypeVar("T")

# Fields of orders and diagnostics that echo the player's text (or a message quoting it).
_ECHOED = ("text", "summary", "message")


def clip(text: str, width: int) -> str:
    """`text` if it fits in `width` characters, else its start, an ellipsis and its length. The start ends at a
    word's end where one is near enough (a word longer than a third of the width is cut: it is no word)."""
    if len(text) <= width:
        return text
    return f"{_words_within(text, max(width - 30, 10))}… ({len(text):,} characters)"


def _words_within(text: str, width: int) -> str:
    cut = text[:width + 1]
    blank = cut.rfind(" ")
    return (cut[:blank] if blank > width * 2 // 3 else text[:width]).rstrip()


# What a message says was wrong comes first; after it, examples (", e.g. A or B") and further sentences only
# help. A message longer than the width loses those from its end, whole; what was wrong is kept whole up to
# this many widths (beyond that it quotes a player's run-on text, and is cut as an echo is).
_MESSAGE_WIDTHS = 3
_EXAMPLES = ", e.g. "
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def shorten(message: str, width: int) -> str:
    """`message` within `width` characters by dropping whole examples, then whole sentences, from its end."""
    if len(message) <= width:
        return message
    head, sep, examples = message.partition(_EXAMPLES)
    if sep:
        parts = examples.split(" or ")
        while len(parts) > 1:
            parts.pop()
            if len(shorter := head + sep + " or ".join(parts)) <= width:
                return shorter
        message = head
    sentences = _SENTENCE_END.split(message)
    while len(sentences) > 1 and len(" ".join(sentences)) > width:
        sentences.pop()
    kept = " ".join(sentences).rstrip(",;:")
    return kept if len(kept) <= width * _MESSAGE_WIDTHS else clip(kept, width)


def _echo(name: str, text: str, width: int) -> str:
    if name == "message":
        return shorten(text, width)
    if name == "summary":
        # An order understood is what the player will be held to: a Captain's order of 60 words is shown whole
        # (The Law of the Jungle), within the widths a message may take; only a run-on beyond that is cut.
        return clip(text, width * _MESSAGE_WIDTHS)
    return clip(text, width)


def _clipped(item: T, width: int) -> T:
    if isinstance(item, str):
        return clip(item, width)  # type: ignore[return-value]
    if is_dataclass(item) and not isinstance(item, type):
        changes = {name: _echo(name, getattr(item, name), width)
                   for name in _echoed_fields(type(item))
                   if isinstance(getattr(item, name), str) and len(getattr(item, name)) > width}
        return replace(item, **changes) if changes else item  # type: ignore[type-var]
    return item


@cache
def _echoed_fields(kind: type) -> tuple[str, ...]:
    # Asked of every item of every list of every ack: `fields` works it out afresh each time.
    return tuple(f.name for f in fields(kind) if f.name in _ECHOED)


class Echo:
    """Bounded copies of the lists an ack shows; `more[name]` is how many items of list `name` were left
    out (0 when all are shown)."""

    def __init__(self, limits: ReplyLimits) -> None:
        self.limits = limits
        self.more: dict[str, int] = {}

    def __call__(self, name: str, items: Sequence[T]) -> list[T]:
        shown = items[:self.limits.ack_lines]
        self.more[name] = len(items) - len(shown)
        return [_clipped(item, self.limits.ack_line_chars) for item in shown]

    def message(self, text: str) -> str:
        return shorten(text, self.limits.ack_line_chars)

    def line(self, text: str | None) -> str | None:
        return clip(text, self.limits.ack_line_chars) if text is not None else None

    def context(self) -> dict[str, Any]:
        return {"more": dict(self.more)}
