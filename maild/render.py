"""Jinja rendering of acks, printouts and newsletters (plain text mail)."""

from __future__ import annotations

import textwrap
from functools import cache, lru_cache
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


def wordwrap(environment: jinja2.Environment, s: str, width: int = 79, break_long_words: bool = True,
             wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    """Jinja's `wordwrap`, the same text, without textwrap's work on a line that fits: an ack's lines nearly all
    do, and wrapping them cost a fifth of rendering it. Jinja wraps each line of `s` alone; a line that fits and
    neither starts nor ends with whitespace (which textwrap would drop) comes back as it was, any other goes
    through Jinja's own filter. Registered with `pass_environment` by `environment()` (Jinja is imported there,
    at the first mail rendered)."""
    sep = environment.newline_sequence if wrapstring is None else wrapstring
    return sep.join(line if not line or (len(line) <= width and not line[0].isspace() and not line[-1].isspace())
                    else (_wrapped if len(line) <= _KEPT_LINE_CHARS else _wrapped.__wrapped__)(
                        environment, line, width, break_long_words, wrapstring, break_on_hyphens)
                    for line in s.splitlines())


# Lines up to this long are kept once wrapped (an ack's lines are clipped well below it): the cache stays small.
_KEPT_LINE_CHARS = 2000


@lru_cache(maxsize=4096)
def _wrapped(environment: jinja2.Environment, line: str, width: int, break_long_words: bool, wrapstring: str | None,
             break_on_hyphens: bool) -> str:
    # A line that does not fit, wrapped by Jinja's own filter, kept: most acks wrap the same lines (the game's
    # note on second mails, the same orders' summaries), and textwrap was the template's dearest part.
    import jinja2.filters

    return str(jinja2.filters.do_wordwrap(environment, line, width, break_long_words, wrapstring, break_on_hyphens))


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
    env.filters["wordwrap"] = jinja2.pass_environment(wordwrap)
    return env


def render(game_ruleset: str | None, template: str, **context: Any) -> str:
    """Render templates/<ruleset>/<template>, falling back to templates/<template> if the game has none."""
    return _template(game_ruleset, template).render(**context)


@lru_cache(maxsize=256)
def _template(game_ruleset: str | None, template: str) -> jinja2.Template:
    # Looked up once: Jinja's own cache still tried the ruleset's folder (missing, mostly) at every render, an
    # exception each ack.
    names = [f"{game_ruleset}/{template}", template] if game_ruleset else [template]
    return environment().select_template(names)
