"""The board's picture for a mail: drawn once per phase and shared by every printout and the newsletter of it
(every player sees the whole board, as at the table), so a phase costs one rendering, not one per player."""

from __future__ import annotations

import json
from typing import Any

from maild.ruleset import Attachment

from .board import Board
from .picture import BoardView, board_png, board_svg
from .state import State, board

PNG_WIDTH = 1200  # pixels: wide enough to read a territory's label, small enough for a phone's mail program
_KEPT = 4  # pictures remembered: a phase's printouts and newsletter ask for the same one
_DRAWN: dict[tuple[str, str], tuple[bytes, bytes]] = {}


def attachments(state: State, spec: dict[str, Any]) -> list[Attachment]:
    key = (state.get("map_digest", ""), json.dumps(spec, sort_keys=True))
    if key not in _DRAWN:
        if len(_DRAWN) >= _KEPT:
            _DRAWN.pop(next(iter(_DRAWN)))
        _DRAWN[key] = draw(board(state), spec)
    png, svg = _DRAWN[key]
    return [Attachment("board.png", "image/png", png), Attachment("board.svg", "image/svg+xml", svg, inline=False)]


def view_of(spec: dict[str, Any]) -> BoardView:
    return BoardView(owners=spec["owners"], colours=spec["colours"], names=spec["names"], units=spec["units"],
                     supplies=spec["supplies"], railroads=frozenset(spec["railroads"]),
                     destroyed=frozenset(spec["destroyed"]),
                     attacks=tuple((a, b) for a, b in spec["attacks"]), caption=spec["caption"])


def draw(b: Board, spec: dict[str, Any]) -> tuple[bytes, bytes]:
    """The picture of `spec` (printout.picture_spec) on board `b`: PNG and SVG bytes."""
    view = view_of(spec)
    return board_png(b, view, PNG_WIDTH), board_svg(b, view).encode()
