"""What an ack echoes of the mail it answers, bounded: each list (orders understood, lines not understood,
warnings, orders on file, problems) shows its first `limits.ack_lines` items and says how many more there
were, and every echoed line is shortened to `limits.ack_line_chars` with its original length. The mail's
orders are all booked whatever the ack shows; only the echo is cut, so a 2 MB line or 100,000 orders cost
an ack of a few kilobytes, and an ack forwarded back to maild in a loop does not grow with each round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar

from maild.config import ReplyLimits

T = TypeVar("T")

# Fields of orders and diagnostics that echo the player's text (or a message quoting it).
_ECHOED = ("text", "summary", "message")


def clip(text: str, width: int) -> str:
    """`text` if it fits in `width` characters, else its start, an ellipsis and its length."""
    if len(text) <= width:
        return text
    return f"{text[:max(width - 30, 10)].rstrip()}… ({len(text):,} characters)"


def _clipped(item: T, width: int) -> T:
    if isinstance(item, str):
        return clip(item, width)  # type: ignore[return-value]
    if is_dataclass(item) and not isinstance(item, type):
        changes = {f.name: clip(getattr(item, f.name), width) for f in fields(item)
                   if f.name in _ECHOED and isinstance(getattr(item, f.name), str)
                   and len(getattr(item, f.name)) > width}
        return replace(item, **changes) if changes else item  # type: ignore[type-var]
    return item


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

    def line(self, text: str | None) -> str | None:
        return clip(text, self.limits.ack_line_chars) if text is not None else None

    def context(self) -> dict[str, Any]:
        return {"more": dict(self.more)}
