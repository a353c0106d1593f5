"""From a mail's decoded text to the order text the ruleset parses.

The rules, in order:

1. **Where the player's text ends.** The first *cut* outside ``>``-quoted lines (a signature separator, a
   phone signature, or the start of an unquoted original in an Outlook-style top-posted reply; see
   `quotes`) ends the player's own text; what is below it is someone else's.
2. **The header line** (``#GAME PLAYER PASSWORD``, see `header`), never one inside ``>`` quotes:
   the first one above the cut is used. If there is none above the cut and the player wrote nothing
   there, the *last* one below it is used: that is a player who pasted orders at the bottom of an
   unquoted (Outlook) reply. Text above the header line is ignored (a note says so if it was more than
   quotes).
   Before that, an attribution glued to the end of the player's own line ("borrow 5$ On Wed, ... wrote:")
   is put on a line of its own (`quotes.unglue`); line numbers still count the mail's lines.
3. **The order text** runs from the line after the header (or from the top) to ``#end``, the next
   header line (one mail carries one player's orders; the rest is ignored and noted), or the end. In it,
   quoted lines, attributions, forward headers and what follows a cut are removed (`quotes.strip_quotes`);
   unquoted lines between quoted ones stay, so orders interleaved with a quoted report survive.
4. **Commands**: lines that are just a command word (``HELP``, ``STATUS``, a ruleset's; see `header`) are
   taken out of the order text and reported as `command` (the first one wins); with no order text left, a
   subject of just that word counts too.
5. Leading and trailing blank lines are dropped.

**Line numbers**: a player reads "line N" in his ack as line N of the mail he wrote, counted from its
first line, the ``#GAME PLAYER PASSWORD`` line included. `OrderText.text` is shorter (no header, no
quotes), so `line_map[N - 1]` is the 1-based line of the decoded mail text that its line N came from;
`intake.orders.read_orders` puts each line back at that place before the ruleset parses it, so orders and
diagnostics carry the mail's numbers into the ack, the printout's "not carried out" and `maild mail show`.
What was dropped as quoted or signature text is listed in `OrderText.dropped` ("ignored 9 quoted lines
below line 1"), numbered the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from maild.intake.header import (
    OrderHeader,
    is_end_line,
    line_command,
    parse_header_line,
    subject_command,
)
from maild.intake.quotes import Dropped, first_cut, is_quoted, strip_quotes, unglue


@dataclass(frozen=True)
class OrderText:
    text: str
    line_map: tuple[int, ...]  # 1-based line in the decoded text for each line of `text`
    header: OrderHeader | None = None
    command: str | None = None  # a command word, lower case: "help", "status", "codesheet"
    quoted_removed: bool = False  # quoted text, attributions or a signature were removed
    notes: list[str] = field(default_factory=list)  # for the ack's list of problems
    # What was dropped as quoted or signature text, in the player's words ("ignored 14 quoted lines below
    # line 3"), for the ack's list of problems: a player whose orders were dropped by mistake sees where.
    dropped: list[str] = field(default_factory=list)


def _headers(lines: Sequence[str]) -> list[OrderHeader]:
    found = []
    for i, line in enumerate(lines):
        if "#" in line[:16] and not is_quoted(line):  # a header may be bold or bulleted
            h = parse_header_line(line, i)
            if h is not None:
                found.append(h)
    return found


def _shown(header: OrderHeader) -> str:
    """A header line as notes quote it: never with the password, since notes go into mail."""
    shown = f"#{header.game}" + (f" {header.player}" if header.player else "")
    return shown + (" ..." if header.password is not None else "")


def find_header(lines: Sequence[str], cut: int | None = None) -> OrderHeader | None:
    """The header line that applies to these lines (rule 2 of the module docstring), or None.

    `cut` is `quotes.first_cut(lines)` if the caller has it already.
    """
    candidates = _headers(lines)
    if not candidates:
        return None
    cut = first_cut(lines) if cut is None else cut
    above = [h for h in candidates if h.line_index < cut]
    if above:
        return above[0]
    own = strip_quotes(lines, 0, cut)
    if any(lines[i].strip() for i in own.indices):
        return None
    return candidates[-1]


def _dropped_note(run: Dropped, lines: Sequence[str], origin: Sequence[int]) -> str:
    """"ignored 14 quoted lines below line 3": line 3 is the last non-blank line above the run, numbered as
    the player sees his mail (from its first line)."""
    what = f"{run.count} {run.kind} line" + ("" if run.count == 1 else "s")
    above = next((j for j in range(run.first - 1, -1, -1) if lines[j].strip()), None)
    where = "at the top of your mail" if above is None else f"below line {origin[above] + 1}"
    return f"ignored {what} {where}"


def extract(text: str, subject: str = "", commands: frozenset[str] | None = None) -> OrderText:
    """The order text of a decoded mail text (see the module docstring); never raises. `commands`: the
    command words to recognise (default: every installed ruleset's, see `header`)."""
    # An attribution glued to the end of the player's line is split off first, so that line stays his.
    lines, origin = unglue(text.split("\n"))
    notes: list[str] = []
    cut = first_cut(lines)
    header = find_header(lines, cut)
    start, stop = 0, len(lines)
    dropped_above: tuple[Dropped, ...] = ()
    if header is not None:
        start = header.line_index + 1
        above = strip_quotes(lines, 0, header.line_index)
        if any(lines[i].strip() for i in above.indices):
            notes.append(f"the text above the line '{_shown(header)}' was ignored")
        else:  # only quotes above it (a bottom-posted reply): say what they were, as below it
            dropped_above = above.dropped
    # Past the next cut is someone else's text: an #end or a header line there is not the player's.
    for i in range(start, cut if header is None or header.line_index < cut else first_cut(lines, start)):
        line = lines[i]
        if is_quoted(line):
            continue
        if is_end_line(line):
            stop = i
            break
        other = parse_header_line(line, i) if header is not None else None
        if other is not None:
            notes.append(f"only one header line is read per mail; the text from '{_shown(other)}' on "
                         "was ignored")
            stop = i
            break
    kept = strip_quotes(lines, start, stop)
    indices: list[int] = []
    command = None
    for i in kept.indices:
        word = line_command(lines[i], commands) if len(lines[i]) < 100 else None
        if word:
            command = command or word
        else:
            indices.append(i)
    nonblank = [k for k, i in enumerate(indices) if lines[i].strip()]
    indices = indices[nonblank[0]:nonblank[-1] + 1] if nonblank else []
    if not indices and command is None:
        command = subject_command(subject, commands)
    return OrderText(
        text="\n".join(lines[i] for i in indices),
        line_map=tuple(origin[i] + 1 for i in indices),
        header=header if header is None else replace(header, line_index=origin[header.line_index]),
        command=command,
        quoted_removed=kept.removed,
        notes=notes,
        dropped=[_dropped_note(run, lines, origin) for run in (*dropped_above, *kept.dropped)],
    )
