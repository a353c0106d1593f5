"""Jinja rendering of acks, printouts and newsletters (plain text mail)."""

from __future__ import annotations

import textwrap
from functools import cache
from typing import TYPE_CHECKING, Any

from maild.paths import TEMPLATE_DIR


def hang(text: str, width: int = 78, first: int = 4, rest: int = 13) -> str:
    """`text` wrapped for a line that starts `first` columns in (the template writes those blanks) and goes on
    `rest` columns in, no line past `width`: a labelled line ("OFFICES  sovereign of Rome, ...") whose text
    continues under itself. Jinja's wordwrap + indent cannot: it wraps every line to one width, so the indented
    lines ran past the margin by the indent's difference."""
    lines = textwrap.wrap(text, width=width, initial_indent=" " * first, subsequent_indent=" " * rest,
                          break_long_words=False)
    return "\n".join(lines)[first:]


if TYPE_CHECKING:
    import jinja2


@cache
def environment() -> jinja2.Environment:
    import jinja2  # at the first mail rendered: commands that render none (`game list`) do without it

    env = jinja2.Environment(
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
    env.filters["hang"] = hang
    return env


def render(game_ruleset: str | None, template: str, **context: Any) -> str:
    """Render templates/<ruleset>/<template>, falling back to templates/<template> if the game has none."""
    env = environment()
    names = [f"{game_ruleset}/{template}", template] if game_ruleset else [template]
    return env.select_template(names).render(**context)
