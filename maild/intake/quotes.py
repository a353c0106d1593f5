"""Quoted replies and signatures: what to drop from a player's text before the grammar sees it.

Lines are looked at with bold markers (``**``) and surrounding blanks ignored, so the same rules hold for
plain-text mail and for HTML mail converted by `htmltext`.

Three kinds of removal:

- **Quoted lines** (starting with ``>``) are dropped one by one. Unquoted lines between or after them
  stay: players interleave orders with a quoted report and bottom-post under it.
- **An attribution** ("On <date>, <name> wrote:", "Am ... schrieb ...:", "Le ... a écrit :",
  "El ... escribió:", "Il giorno ... ha scritto:", and others; also wrapped over two lines as Gmail
  does) is dropped when the next non-blank line is quoted or nothing follows. Followed by ordinary text,
  a full attribution (opening with On/Am/Le/El/Il/... and naming a date or an address) is a cut, since
  Yahoo and some phone clients put the original there without ``>``; a vaguer one ("Bob wrote:",
  "On Monday I wrote:") is kept, as cutting there could lose orders.
- **Cuts**: everything from the line on is dropped. A cut is a signature separator (``-- `` or ``--``),
  a phone or app signature ("Sent from my iPhone", "Get Outlook for iOS", "Sent from Mail for
  Windows", and their French/German/Italian/Spanish forms), Outlook's ``-----Original Message-----``,
  its separator line of underscores, or its unquoted header block (``From:`` followed within a few lines
  by ``Sent:``/``Date:`` and ``To:``/``Subject:``, in several languages) that starts the original mail
  of a top-posted reply.

A forwarded mail ("---------- Forwarded message ---------", "Begin forwarded message:") is not a cut:
the marker and the forwarded header block are dropped and the forwarded text kept, because a player who
sent orders from the wrong address forwards them from the right one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_VERBS = r"(?:wrote|writes|schrieb|a\s+écrit|escribió|ha\s+scritto|schreef|escreveu|skrev|kirjoitti|napisał)"
# "On/Am/Le/El/Il giorno ... wrote:" and plain "X wrote:": searched for, not matched with a leading .*,
# which would backtrack badly on long lines.
_ATTRIBUTION_VERB = re.compile(rf"(?:^|\s){_VERBS}\b[^:]{{0,150}}\s?:$", re.IGNORECASE)
_ATTRIBUTION_QUOTING = re.compile(r"^(?:quoting|zitat\s+von|citando)\s.{1,250}:$", re.IGNORECASE)
_ATTRIBUTION_OPENER = re.compile(r"^(?:on|am|le|el|il|op|em|den|w)\s", re.IGNORECASE)

_SIGNATURE_LINES = re.compile(
    r"^(?:"
    r"--"  # "-- " once trailing blanks are gone
    r"|sent\s+(?:from|with|via)\s+(?:my\s+)?\S.{0,60}"
    r"|get\s+outlook\s+for\s+\S+.{0,60}"
    r"|(?:download|téléchargez)\s+outlook\s+.{0,60}"
    r"|envoyé\s+(?:de|depuis)\s+.{1,60}"
    r"|von\s+meinem\s+.{1,40}\s+gesendet"
    r"|gesendet\s+(?:von|mit|vom)\s+.{1,60}"
    r"|inviato\s+da\s+.{1,60}"
    r"|enviado\s+(?:desde|do|de)\s+.{1,60}"
    r"|verzonden\s+(?:vanaf|met)\s+.{1,60}"
    r"|skickat\s+från\s+.{1,60}"
    r")$",
    re.IGNORECASE,
)
_ORIGINAL_MESSAGE = re.compile(
    r"^-{2,}\s*(?:original\s+message|ursprüngliche\s+nachricht|message\s+d'origine|mensaje\s+original"
    r"|messaggio\s+originale|oorspronkelijk\s+bericht|originalmeddelande|mensagem\s+original)\s*-{2,}$",
    re.IGNORECASE,
)
_UNDERSCORES = re.compile(r"^_{20,}$")
_FORWARD = re.compile(
    r"^(?:-{2,}\s*(?:forwarded\s+message|weitergeleitete\s+nachricht|message\s+transféré|mensaje\s+reenviado"
    r"|messaggio\s+inoltrato)\s*-{2,}|begin\s+forwarded\s+message\s*:|début\s+du\s+message\s+réexpédié\s*:)$",
    re.IGNORECASE,
)
_FROM_FIELD = re.compile(r"^(?:from|von|de|da|van|från|fra)\s?:\s*\S", re.IGNORECASE)
_DATE_FIELD = re.compile(r"^(?:sent|date|gesendet|datum|envoyé|enviado|fecha|inviato|data|verzonden"
                         r"|skickat|sendt|sendet)\s?:", re.IGNORECASE)
_OTHER_FIELD = re.compile(r"^(?:to|an|à|a|para|aan|till|til|subject|betreff|objet|asunto|oggetto"
                          r"|onderwerp|ämne|emne|cc|kopie|reply-to)\s?:", re.IGNORECASE)
_ANY_FIELD = re.compile(r"^[\w-]{1,20}\s?:\s")


def plain(line: str) -> str:
    """The line as the rules look at it: no bold markers, no surrounding blanks."""
    if "**" in line:
        line = line.replace("**", "")
    return line.strip()


def is_quoted(line: str) -> bool:
    return line.lstrip()[:1] == ">"


def attribution_length(lines: Sequence[str], i: int, stop: int) -> int:
    """1 or 2 if an attribution line (or one wrapped over two lines) starts at `i`, else 0."""
    first = plain(lines[i])
    if not first or len(first) > 400 or first[-1:] not in ":" and not _ATTRIBUTION_OPENER.match(first):
        return 0
    if _is_attribution(first):
        return 1
    if i + 1 < stop and _ATTRIBUTION_OPENER.match(first):
        second = plain(lines[i + 1])
        if second and len(second) <= 120 and _is_attribution(f"{first} {second}"):
            return 2
    return 0


def _is_attribution(line: str) -> bool:
    return bool(_ATTRIBUTION_VERB.search(line) or _ATTRIBUTION_QUOTING.match(line))


def _full_attribution(lines: Sequence[str], i: int, n: int) -> bool:
    text = " ".join(plain(lines[j]) for j in range(i, i + n))
    return bool(_ATTRIBUTION_OPENER.match(text)) and ("@" in text or any(c.isdigit() for c in text))


def _followed_by_quote(lines: Sequence[str], i: int, stop: int) -> bool:
    for j in range(i, stop):
        if lines[j].strip():
            return is_quoted(lines[j])
    return True


def _is_outlook_header_block(lines: Sequence[str], i: int, stop: int) -> bool:
    if not _FROM_FIELD.match(plain(lines[i])):
        return False
    dated = other = False
    for j in range(i + 1, min(i + 7, stop)):
        line = plain(lines[j])
        dated = dated or bool(_DATE_FIELD.match(line))
        other = other or bool(_OTHER_FIELD.match(line))
    return dated and other


def cut_reason(lines: Sequence[str], i: int, stop: int) -> str | None:
    """Why everything from line `i` on is not the player's text, or None."""
    line = plain(lines[i])
    if not line:
        return None
    if _SIGNATURE_LINES.match(line):
        return "signature"
    if _ORIGINAL_MESSAGE.match(line) or _UNDERSCORES.match(line):
        return "original message"
    if _is_outlook_header_block(lines, i, stop):
        return "original message"
    n = attribution_length(lines, i, stop)
    if n and not _followed_by_quote(lines, i + n, stop) and _full_attribution(lines, i, n):
        return "original message"
    return None


def forward_length(lines: Sequence[str], i: int, stop: int) -> int:
    """How many lines a forward marker and its header block take from `i`, or 0 if none starts there."""
    if not _FORWARD.match(plain(lines[i])):
        return 0
    j = i + 1
    while j < stop and not lines[j].strip():
        j += 1  # Apple Mail leaves a blank line between the marker and the fields
    if not (j < stop and _ANY_FIELD.match(plain(lines[j]) + " ")):
        return 1
    while j < stop and _ANY_FIELD.match(plain(lines[j]) + " "):
        j += 1
    return j - i


def first_cut(lines: Sequence[str], start: int = 0, stop: int | None = None) -> int:
    """Index of the first cut outside quoted text in [start, stop), or `stop` if there is none."""
    stop = len(lines) if stop is None else stop
    for i in range(start, stop):
        if not is_quoted(lines[i]) and cut_reason(lines, i, stop):
            return i
    return stop


@dataclass(frozen=True)
class Kept:
    indices: list[int]  # indices into the lines, in order, of the lines that are the player's own
    removed: bool  # whether anything was dropped as quoted, attribution, forward header or signature


def strip_quotes(lines: Sequence[str], start: int = 0, stop: int | None = None) -> Kept:
    """The player's own lines in [start, stop), by the rules in the module docstring."""
    stop = len(lines) if stop is None else stop
    kept: list[int] = []
    removed = False
    i = start
    while i < stop:
        line = lines[i]
        if is_quoted(line):
            removed = True
            i += 1
            continue
        n = attribution_length(lines, i, stop) if line else 0
        if n and _followed_by_quote(lines, i + n, stop):
            removed = True
            i += n
            continue
        if line and cut_reason(lines, i, stop):
            removed = True
            break
        n = forward_length(lines, i, stop) if line else 0
        if n:
            removed = True
            i += n
            continue
        kept.append(i)
        i += 1
    return Kept(kept, removed)
