"""Jinja rendering of acks, printouts and newsletters (plain text mail)."""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2

from maild.paths import TEMPLATE_DIR


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        autoescape=False,  # plain-text mail, not HTML
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # The templates ship with maild and do not change while it runs: no stat() of the file at each
        # render (one an ack, hundreds of a second).
        auto_reload=False,
    )


def render(game_ruleset: str | None, template: str, **context: Any) -> str:
    """Render templates/<ruleset>/<template>, falling back to templates/<template> if the game has none."""
    env = environment()
    names = [f"{game_ruleset}/{template}", template] if game_ruleset else [template]
    return env.select_template(names).render(**context)
