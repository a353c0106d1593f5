"""Quoted replies and signatures: what to drop from a player's text before the grammar sees it.

Lines are looked at with bold markers (``**``) and surrounding blanks ignored, so the same rules hold for
plain-text mail and for HTML mail converted by `htmltext`. What the rules recognise:

- **Quoted lines** (starting with ``>``).
- **Attributions**, the line a mail program writes above what it quotes, in any of their shapes:
  "On <date>, <name> wrote:" and its translations ("Am ... schrieb ...:", "Le ... a écrit :",
  "El ... escribió:", "Op ... schreef ...:", "Den ... skrev ...:", "W dniu ... napisał:", "... пишет:",
  "... kirjoitti:", "... írta:", "...写道：" and more), ``wrote:`` glued to the address before it, the
  Gmail forms that start with the date and end with the address ("2026-10-17 11:28 GMT+03:00 GM
  <gm@example.org>:", "ср, 30 апр. 2026 г. в 15:19, GM <gm@example.org>:", "2026/4/7 GM
  <gm@example.org>") or the name ("2026-03-03 17:21 GMT+01:00 GM"), Android's and Zoho's "---- On ...
  wrote ----", and all of these wrapped over up to five lines (Gmail breaks the address off onto a line of
  its own; Polymail spreads a ``<mailto:…>`` over three). A wrapped one starts with an opener word ("On",
  "Am", "Le", ...), a date or a "Name <address>", and never takes in a line that starts one of its own.
- **Original-message markers**: Outlook's ``-----Original Message-----`` and its translations (also in
  Gmail's ``*bold*``), and its separator line of underscores.
- **Header blocks** of the original: two or more ``Field: value`` lines (From/Sent/Date/To/Subject/Cc in
  a dozen languages, ``*From:*`` as bold comes out of Gmail's plain part, French ``De :``, indented, with
  a wrapped line between), one of them a date (Sent:, Date:, Gesendet:, Envoyé :, ...) with a digit in
  it, or with a sender, a date and a recipient or subject; not necessarily starting with From:.
  A rule line (``-----``, ``=====``) just above a header block belongs to it.
- **Signatures**: the separator ``-- `` (or ``--``) and the phone or app signatures ("Sent from my iPhone",
  "Get Outlook for iOS<…>", "Envoyé de mon iPhone", "Von meinem iPhone gesendet", "Sendt fra min iPhone",
  "Отправлено с iPhone", …): a short line naming a device or an app, never a sentence ("Sent from my desk,
  not my phone, so…" is the player's prose).

What is done with them:

- Quoted lines are dropped one by one. Unquoted lines between or after them stay: players answer inline,
  interleave orders with a quoted report and bottom-post under it.
- **Indented quotes**: mailx and s-nail write "gm@example.org wrote:" and indent the quote with a tab (or,
  set so, with blanks; Lotus Notes and Zoho indent too). An attribution, marker or header block followed
  (past blank lines) by a line indented with a tab or two blanks takes the indented block under it: it is
  dropped up to the first non-blank line that starts in the first column, and reading goes on there. Only
  under such a mark is indentation a quote: a player's own indented lines elsewhere stay his.
- An attribution, marker or header block followed (past blank lines) by a quoted line or by nothing is
  dropped, and reading goes on below: that is an inline or bottom-posted reply.
- Followed by ordinary text, it is a **cut**: everything from it on is dropped, since Outlook, Yahoo and
  phone clients put the original there without ``>``. An attribution cuts only when it is definite (it
  names an address, a year or a time of day, or is framed by dashes); a vague one ("Bob wrote:", "On
  Monday I wrote:") is kept, as cutting there could lose orders.
- A signature is always a cut.
- An attribution glued to the end of the player's own line ("borrow 5$ On Wed, 3 Mar 2027 at 15:59, GM
  <gm@example.org> wrote:", also after ``---``) is split off first (`unglue`), so the player's words stay.

What was dropped is reported (`Kept.dropped`): runs of quoted lines (``>`` lines, attributions and the
quotes under them, an unquoted original below a cut) and of signature lines, each from its first to its
last non-blank line, runs of one kind with only blank lines between them counted as one; `ordertext`
turns them into the ack's "ignored 9 quoted lines below line 1". Forward headers are not reported.

A forwarded mail ("---------- Forwarded message ---------", "Begin forwarded message:") is not a cut:
the marker and the forwarded header block are dropped and the forwarded text kept, because a player who
sent orders from the wrong address forwards them from the right one.

Every pattern here runs on one line, or on at most five joined lines, of bounded length, and none has
nested repetition over the same characters; what a pass finds out about a line it keeps (`_Memo`), so a
line is looked at a bounded number of times: the time is linear in the size of the mail.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

# Longer lines are never attributions, markers or signatures: it bounds the work a line costs.
_MAX_MARK = 400
_MAX_JOINED = 600
_JOIN_LINES = 5

_VERBS = (r"(?:wrote|writes|sent|schrieb|a\s+écrit|escribió|escribio|ha\s+scritto|schreef|het\s+volgende\s+geschreven"
          r"|escreveu|skrev|kirjoitti|napisał(?:\(a\)|a)?|napsal(?:\(a\)|a)?|пишет|написал(?:\(а\)|а)?|đã\s+viết"
          r"|пише|написав|написала|írta|yazdı)")
# The verb ends the attribution ("... wrote:"), or, in German, Dutch and Norwegian, the name and address
# follow it ("Am ... schrieb GM <gm@example.org>:"), or the date does ("GM <gm@example.org> schrieb am Fr.,
# 28. Apr. 2027 um 11:53 Uhr:", and Lotus Notes' "GM <gm@example.org> wrote on 22/11/2026 09:00:").
# Something must stand before the verb: a bare "wrote:" is only ever the tail of a wrapped attribution.
_VERB_COLON = re.compile(
    rf"[\s>)\"'\]](?:{_VERBS}\s?|(?:schrieb|schreef|skrev)\s[^:：@]{{0,150}}@[^:：]{{1,150}}"
    r"|schrieb\sam\s.{1,60}\sUhr\s?|wrote\son\s\d[^:：]{0,40}(?:[:.]\d\d){0,2}\s?(?:[AP]M\s?)?)[:：]$",
    re.IGNORECASE,
)
_VERB_BARE = re.compile(rf"[\s>)\"'\]]{_VERBS}$", re.IGNORECASE)  # no colon: only with an opener or dashes
_CJK_VERB = re.compile(r"(?:写道|寫道|が書きました|님이\s?작성)[:：]$")
_QUOTING = re.compile(r"^(?:quoting|zitat\s+von|citando)\s[^:]{1,250}:$", re.IGNORECASE)
_OPENER = re.compile(r"^(?:on|am|le|el|il|in\s+data|op|em|den|på|w\s+dniu|dnia|dne|vào)\s", re.IGNORECASE)
# Gmail's date-first forms: a date or time, then "<address>:" at the very end.
_ADDRESS_COLON = re.compile(r"[<(\[]\s?[^\s<>()\[\]]{1,120}@[^\s<>()\[\]]{1,120}\s?[>)\]]\s?[:：]$")
_ADDRESS_END = re.compile(r"<[^\s<>]{1,120}@[^\s<>]{1,120}>$")
_DATE_START = re.compile(r"^\d{1,4}[-./]\d{1,2}[-./]\d{1,4}(?!\d)")
_GMAIL_OLD = re.compile(r"^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2} GMT[+-]\d{2}:\d{2}\s\S")  # "2026-03-03 17:21 GMT+01:00 GM"
_DATE_OR_TIME = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)|(?<!\d)\d{1,2}[:.h]\d{2}(?!\d)")
# A line that may begin an attribution wrapped over several lines: an opener word, a date-first start
# ("2026-10-17 11:28", "tir. 18. apr. 2026 kl. 13:09", "pe 20. lokakuuta 2026 klo 17.50") with a year or
# time, or a name and address followed by more ("GM <gm@example.org> schrieb am Fr., 28.").
_DATE_FIRST_START = re.compile(r"^(?:\d|\w{1,10}[.,]?\s\d)")
_NAME_ADDRESS_START = re.compile(r"^[^<>@]{1,80}<[^\s<>]{1,120}@[^\s<>]{1,120}>\s\S")
_SENTENCE_END = re.compile(r"[^\W\d_]{4,}[.!?;]$")  # "...my fleet." ends a sentence; "Fr., 28." or "nov." do not

_DEVICE = r"[\w'’.+&-]+(?: [\w'’.+&-]+){0,5}"  # one to six words: a device or app name, not a sentence
_LINK = r"(?:\s?[<(]\S{1,200}[>)])?"
_EXCUSE = r"(?:[,.;]\s?(?:please\s)?(?:excuse|forgive|pardon|sorry)\b.{0,60})?"  # "…, please excuse any typos."
_SIGNATURE_LINES = re.compile(
    r"^(?:--"  # "-- " once trailing blanks are gone
    r"|(?:"
    r"sent\s(?:from|with|via)\s(?:my\s)?"
    r"|(?:get|download)\soutlook\sfor\s|téléchargez\soutlook\spour\s"
    r"|envoyé\s(?:de|depuis|à\spartir\sde)\s(?:mon\s)?"
    r"|gesendet\s(?:von|mit|vom)\s(?:meinem\s)?"
    r"|inviato\sda\s(?:il\smio\s)?"
    r"|enviado\s(?:desde|do|de)\s(?:mi\s|meu\s|o\smeu\s)?"
    r"|verzonden\s(?:vanaf|met)\s(?:mijn\s)?"
    r"|skickat\sfrån\s(?:min\s)?"
    r"|sendt\sfra\s(?:min\s)?"
    r"|wysłano\sz\s(?:mojego\s)?"
    r"|odesláno\sz\s(?:mého\s)?"
    r"|отправлено\s(?:с|из)\s"
    rf"){_DEVICE}{_LINK}{_EXCUSE}"
    rf"|(?:diese\snachricht\swurde\s)?von\smeinem\s{_DEVICE}\sgesendet"
    rf"|(?:從我的|从我的|发自我的)\s?{_DEVICE}(?:\s?(?:傳送|发送))?"
    r"|\S{1,20}から送信"
    r")\.?$",
    re.IGNORECASE,
)
_ORIGINAL_MESSAGE = re.compile(
    r"^[-_=]{2,}\s{0,3}(?:original\s+message|reply\s+message|ursprüngliche\s+nachricht|antwort\s+nachricht"
    r"|originalnachricht|message\s+d['’]origine|message\s+original|mensaje\s+original|messaggio\s+originale"
    r"|oorspronkelijk\s+bericht|originalmeddelande|ursprungligt\s+meddelande|oprindelig\s+meddelelse"
    r"|oprindelig\s+besked|opprinnelig\s+melding|alkuperäinen\s+viesti|wiadomość\s+oryginalna"
    r"|oryginalna\s+wiadomość|původní\s+zpráva|исходное\s+сообщение|исходное\s+письмо|mensagem\s+original"
    r"|eredeti\s+üzenet|orijinal\s+mesaj|原始邮件|元のメッセージ)\s{0,3}[-_=]{2,}$",
    re.IGNORECASE,
)
_UNDERSCORES = re.compile(r"^_{20,}$")
_RULE = re.compile(r"^(?:-{4,}|_{4,}|={4,}|\*{4,})$")
_FORWARD = re.compile(
    r"^(?:-{2,}\s*(?:forwarded\s+message|weitergeleitete\s+nachricht|message\s+transféré|mensaje\s+reenviado"
    r"|messaggio\s+inoltrato)\s*-{2,}|begin\s+forwarded\s+message\s*:|début\s+du\s+message\s+réexpédié\s*:)$",
    re.IGNORECASE,
)
_ANY_FIELD = re.compile(r"^[\w-]{1,20}\s?:\s")

# The fields of an original's header block, by what they say: who sent it, when, or anything else.
_FIELD_NAMES = {
    "from": "from von de da van från fra od от lähettäjä kimden feladó 发件人 寄件者 差出人",
    "date": "sent date gesendet datum envoyé|envoyé\\sle enviado|enviado\\sel|enviada\\sem fecha inviato data "
            "verzonden skickat sendt sendet dato wysłano odesláno отправлено дата lähetetty päivämäärä "
            "gönderildi tarih elküldve dátum 发送时间 日付 送信日時 message\\sdu",
    "other": "to an à a para aan till til do komu кому vastaanottaja kime címzett 收件人 宛先 subject betreff "
             "objet sujet asunto assunto oggetto onderwerp ämne emne temat předmět тема aihe konu tárgy 主题 "
             "件名 cc kopie copie\\sà kopia копия reply-to antwort\\san",
}
_FIELD = re.compile(
    "^(?:" + "|".join(f"(?P<{kind}>{names.replace(' ', '|')})" for kind, names in _FIELD_NAMES.items())
    + r")\s?\*{0,2}\s?[:：]",
    re.IGNORECASE,
)
_HEADER_SCAN = 12  # lines a header block may take, wrapped lines included
_MAX_FIELD_LINE = 1000  # a To: or Cc: line may list many addresses

# Whatever may start a mark starts like this (or ends in ":", ">" or "-"): a line that does not is text.
_MARK_START = re.compile(
    r"(?:[-_=*]|\d|\w{1,10}[.,]?\s\d|[^<>@]{1,80}<[^\s<>]{1,120}@"
    r"|(?:on|am|le|el|il|in\s+data|op|em|den|på|w\s+dniu|dnia|dne|vào|quoting|zitat\s+von|citando)\s"
    r"|(?:sent|get|download|téléchargez|envoyé|gesendet|inviato|enviado|verzonden|skickat|sendt|wysłano|odesláno"
    r"|отправлено|von\s+meinem|diese\s+nachricht|begin|début)\s|\S{1,20}から送信|從我的|从我的|发自我的"
    r"|(?:" + "|".join(names.replace(" ", "|") for names in _FIELD_NAMES.values()) + r")\s?\*{0,2}\s?[:：])",
    re.IGNORECASE,
)


def plain(line: str) -> str:
    """The line as the rules look at it: no bold markers, no surrounding blanks."""
    if "**" in line:
        line = line.replace("**", "")
    return line.strip()


def is_quoted(line: str) -> bool:
    return line.lstrip()[:1] == ">"


# -- attributions ---------------------------------------------------------------------------------------

def _attribution_strength(text: str) -> str | None:
    """How much of an attribution this text is: "definite", "vague" or None."""
    if len(text) > _MAX_JOINED or not text:
        return None
    if text[:2] == "--" and text[-2:] == "--":
        # "---- GM wrote ----", "---- On ... wrote ----": the dashes are the client's, so it is definite.
        inner = text.strip("- ")
        if _VERB_BARE.search(inner) or _VERB_COLON.search(inner):
            return "definite"
        return None
    last = text[-1]
    if last in ":：":
        definite = "@" in text or _DATE_OR_TIME.search(text) is not None
        if _VERB_COLON.search(text) or _CJK_VERB.search(text) or _QUOTING.match(text):
            return "definite" if definite else "vague"
        found = _ADDRESS_COLON.search(text)
        if found and _DATE_OR_TIME.search(text, 0, found.start()):
            return "definite"
    elif last == ">":
        if _DATE_START.match(text) and _ADDRESS_END.search(text):
            return "definite"  # "2026/4/7 GM <gm@example.org>"
    elif last.isalpha() and _OPENER.match(text) and _VERB_BARE.search(text):
        if "@" in text or _DATE_OR_TIME.search(text):
            return "definite"  # "On Wed, 14 Nov 2026 08:14 GM <gm@example.org> wrote", no colon
    if _GMAIL_OLD.match(text):
        return "definite"
    return None


def _may_start_wrapped(line: str) -> bool:
    if _OPENER.match(line) or _NAME_ADDRESS_START.match(line):
        return True
    return bool(_DATE_FIRST_START.match(line)) and _DATE_OR_TIME.search(line) is not None


_Found = tuple[int, str] | None  # (lines taken, strength) of an attribution


@dataclass
class _Memo:
    """What one pass over the lines has found out about them, by line index: each is looked at once."""

    found: dict[int, _Found] = field(default_factory=dict)  # attributions from there, lines taken in unchecked
    fields: dict[int, str | None] = field(default_factory=dict)  # header-field kind ("" ends a header block)


def _attribution_at(lines: Sequence[str], i: int, stop: int, memo: _Memo) -> _Found:
    """(lines taken, strength) of an attribution starting at line `i`, alone or wrapped, or None.

    A wrapped one never takes in a line where an attribution of its own starts.
    """
    found = _found_at(lines, i, stop, memo)
    if found is None or found[0] == 1:
        return found
    for j in range(i + 1, i + found[0]):
        line = plain(lines[j])
        if line and _may_start_wrapped(line) and _found_at(lines, j, stop, memo):
            return None
    return found


def _found_at(lines: Sequence[str], i: int, stop: int, memo: _Memo) -> _Found:
    if i not in memo.found:
        memo.found[i] = _joined_attribution(lines, i, stop)
    return memo.found[i]


def _joined_attribution(lines: Sequence[str], i: int, stop: int) -> _Found:
    """(lines taken, strength) of the shortest attribution from line `i` on, alone or wrapped, or None."""
    first = plain(lines[i])
    if not first or len(first) > _MAX_MARK:
        return None
    strength = _attribution_strength(first)
    if strength:
        return 1, strength
    if not _may_start_wrapped(first) or _SENTENCE_END.search(first):
        return None
    text = first
    j = i + 1
    end = min(i + _JOIN_LINES, stop)
    while j < end:
        line = plain(lines[j])
        if not line:
            # Polymail leaves a blank line before "<" and the address; nothing else wraps over a blank.
            if j + 1 < stop and plain(lines[j + 1])[:1] == "<":
                j += 1
                continue
            return None
        if len(line) > _MAX_MARK:
            return None
        text = f"{text} {line}"
        j += 1
        # A wrapped attribution ends in a colon (or the ">" of an address): only then is it worth a look.
        strength = _attribution_strength(text) if line[-1] in ":：>" else None
        if strength:
            return j - i, strength
        if _SENTENCE_END.search(line):
            return None
    return None


_GLUED_OPENER = re.compile(r"(?<=[\s-])(?:On|Am|Le|El|Il|Op|Em|Den|På|W dniu|Dnia|Dne)\s")
_GLUED_TAIL = 300


def _glued(line: str) -> tuple[str, str] | None:
    """The player's text and the attribution glued to its end, or None."""
    text = line.rstrip()
    if text[-1:] not in (":", "：") or is_quoted(text):
        return None  # (intake's text has no trailing blanks; other callers may)
    tail = max(0, len(text) - _GLUED_TAIL)
    verb = _VERB_COLON.search(text, tail)
    if verb is None:
        return None
    # The attribution must name a date, a time or an address: the last of these bounds where it may start.
    last_definite = text.rfind("@", tail)
    for found in _DATE_OR_TIME.finditer(text, tail):
        last_definite = max(last_definite, found.start())
    for found in _GLUED_OPENER.finditer(text, tail, verb.start() + 1):
        if found.start() > last_definite:
            break
        head = text[:found.start()].rstrip(" -")
        if head.strip():
            return head, text[found.start():]
    return None


def unglue(lines: Sequence[str]) -> tuple[list[str], list[int]]:
    """The lines with each attribution glued to the end of the writer's own line put on a line of its own.

    Returns the new lines and, for each, the index of the line it came from.
    """
    out: list[str] = []
    origin: list[int] = []
    for i, line in enumerate(lines):
        parts = _glued(line) if line[-1:] in (":", "：") and len(line) > 20 else None
        for part in parts or (line,):
            out.append(part)
            origin.append(i)
    return out, origin


# -- original messages and their header blocks ----------------------------------------------------------

def _field_kind(line: str) -> str | None:
    """"from", "date" (with a digit), "undated" (without), "other"; "" if the line ends a block; None if text."""
    if not line or is_quoted(line) or len(line) > _MAX_FIELD_LINE:
        return ""
    found = _FIELD.match(line.lstrip("*").lstrip())
    if found is None:
        return None
    if found.lastgroup == "date" and not any(c.isdigit() for c in line):
        return "undated"
    return found.lastgroup


def _header_block(lines: Sequence[str], i: int, stop: int, memo: _Memo | None = None) -> int:
    """How many lines a header block of an original takes from `i`, or 0 if none starts there.

    Two fields or more, one of them a date with a digit in it, or a sender, a date and a recipient or
    subject: a player's letter heading ("From: Anna / To: the GM / Subject: orders") or an appointment
    ("Date: Monday / Time: ...") is not one.
    """
    kinds: set[str] = set()
    fields = wrapped = 0
    dated = False
    end = i
    known = memo.fields if memo is not None else {}
    for j in range(i, min(i + _HEADER_SCAN, stop)):
        if j not in known:
            known[j] = _field_kind(plain(lines[j]))
        kind = known[j]
        if kind == "":
            break
        if kind:
            fields += 1
            kinds.add("date" if kind == "undated" else kind)
            dated = dated or kind == "date"
            wrapped = 0
            end = j + 1
        elif j == i or wrapped == 2:
            break
        else:
            wrapped += 1  # a value wrapped onto the next line ("From: GM\n<gm@example.org>")
    return end - i if fields >= 2 and dated or len(kinds) == 3 else 0


def _skip_blanks(lines: Sequence[str], i: int, stop: int, most: int) -> int:
    while i < min(stop, i + most) and not lines[i].strip():
        i += 1
    return i


def _original_at(lines: Sequence[str], i: int, stop: int, line: str, memo: _Memo) -> int:
    """Lines taken by an original-message marker or rule and the header block under it, or 0."""
    if line[0] not in "-_=*":
        return _header_block(lines, i, stop, memo)
    # Gmail's plain part writes bold as *...*: "*-------- Original Message --------*".
    marker = len(line) <= _MAX_MARK and bool(_ORIGINAL_MESSAGE.match(line.strip("*")))
    if marker or _RULE.match(line):
        j = _skip_blanks(lines, i + 1, stop, 3)
        header = _header_block(lines, j, stop, memo) if j < stop else 0
        if header:
            return j - i + header
        if marker or _UNDERSCORES.match(line):
            return 1
        return 0
    return _header_block(lines, i, stop, memo)


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


# -- putting it together --------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Mark:
    kind: str  # "signature", "original message", "attribution" or "forward"
    length: int  # lines it takes
    cuts: bool  # whether, followed by ordinary text, it ends the player's text


def _mark_at(lines: Sequence[str], i: int, stop: int, memo: _Memo) -> _Mark | None:
    line = plain(lines[i]) if lines[i] else ""
    if not line or len(line) > _MAX_FIELD_LINE or line[0] == ">":
        return None
    if line[-1] not in ":：>-" and not _MARK_START.match(line):
        return None  # most lines: one pattern tells they start nothing
    if len(line) <= _MAX_MARK and _SIGNATURE_LINES.match(line):
        return _Mark("signature", 1, True)
    n = _original_at(lines, i, stop, line, memo)
    if n:
        return _Mark("original message", n, True)
    found = _attribution_at(lines, i, stop, memo)
    if found:
        return _Mark("attribution", found[0], found[1] == "definite")
    n = forward_length(lines, i, stop)
    if n:
        return _Mark("forward", n, False)
    return None


def is_indented(line: str) -> bool:
    """A line indented as mailx, s-nail and Lotus Notes quote: a tab, or two blanks or more, then text."""
    return line[:1] == "\t" or (line[:2] == "  " and bool(line.strip()))


def _followed_by_quote(lines: Sequence[str], i: int, stop: int) -> bool:
    """Whether the first non-blank line from `i` on is quoted (with ``>`` or indented), or there is none."""
    for j in range(i, stop):
        if lines[j].strip():
            return is_quoted(lines[j]) or is_indented(lines[j])
    return True


def _indented_block(lines: Sequence[str], i: int, stop: int) -> int:
    """Where the indented quote that starts at or after `i` (past blank lines) ends: the first non-blank line
    that starts in the first column, or `stop`. Inside the quote one blank is enough (a quoted line of the
    original that began with one, as Zoho's do); the first line needs a tab or two blanks."""
    j = i
    while j < stop and not lines[j].strip():
        j += 1
    if j == stop or not is_indented(lines[j]):
        return i
    while j < stop and (not lines[j].strip() or lines[j][:1] in " \t"):
        j += 1
    return j


def _drops(mark: _Mark, lines: Sequence[str], i: int, stop: int) -> bool:
    """Whether the mark's lines are dropped and reading goes on below them (rather than cut or kept)."""
    if mark.kind == "forward":
        return True
    return mark.kind != "signature" and _followed_by_quote(lines, i + mark.length, stop)


def cut_reason(lines: Sequence[str], i: int, stop: int, memo: _Memo | None = None) -> str | None:
    """Why everything from line `i` on is not the player's text, or None."""
    mark = _mark_at(lines, i, stop, _Memo() if memo is None else memo)
    if mark is None or not mark.cuts or _drops(mark, lines, i, stop):
        return None
    return mark.kind


def first_cut(lines: Sequence[str], start: int = 0, stop: int | None = None) -> int:
    """Index of the first cut outside quoted text in [start, stop), or `stop` if there is none."""
    stop = len(lines) if stop is None else stop
    memo = _Memo()
    for i in range(start, stop):
        if lines[i] and not is_quoted(lines[i]) and cut_reason(lines, i, stop, memo):
            return i
    return stop


@dataclass(frozen=True)
class Dropped:
    """A run of lines dropped as someone else's text: quoted (``>``, indented, an attribution or original above
    them, an unquoted original below a cut) or a signature. It starts and ends with a non-blank line."""

    kind: str  # "quoted" or "signature"
    first: int  # index of its first line
    last: int  # index of its last line

    @property
    def count(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class Kept:
    indices: list[int]  # indices into the lines, in order, of the lines that are the player's own
    removed: bool  # whether anything was dropped as quoted, attribution, forward header or signature
    dropped: tuple[Dropped, ...] = ()  # the quoted and signature runs, in order (forward headers are not)


class _Runs:
    """The dropped lines gathered into runs: lines of one kind separated only by blank lines are one run."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.runs: list[Dropped] = []

    def add(self, kind: str, first: int, end: int) -> None:
        filled = [j for j in range(first, end) if self.lines[j].strip()]
        if not filled:
            return
        last = self.runs[-1] if self.runs else None
        if last is not None and last.kind == kind and not any(self.lines[j].strip()
                                                              for j in range(last.last + 1, filled[0])):
            self.runs[-1] = Dropped(kind, last.first, filled[-1])
        else:
            self.runs.append(Dropped(kind, filled[0], filled[-1]))


def strip_quotes(lines: Sequence[str], start: int = 0, stop: int | None = None) -> Kept:
    """The player's own lines in [start, stop), by the rules in the module docstring."""
    stop = len(lines) if stop is None else stop
    kept: list[int] = []
    removed = False
    runs = _Runs(lines)
    memo = _Memo()
    i = start
    while i < stop:
        if is_quoted(lines[i]):
            removed = True
            runs.add("quoted", i, i + 1)
            i += 1
            continue
        mark = _mark_at(lines, i, stop, memo) if lines[i] else None
        if mark is not None:
            if _drops(mark, lines, i, stop):
                removed = True
                end = i + mark.length
                if mark.kind != "forward":
                    # mailx and s-nail indent the quote under the attribution instead of marking it with ">".
                    end = _indented_block(lines, end, stop)
                    runs.add("quoted", i, end)
                i = end
                continue
            if mark.cuts:
                removed = True
                runs.add("signature" if mark.kind == "signature" else "quoted", i, stop)
                break
        kept.append(i)
        i += 1
    return Kept(kept, removed, tuple(runs.runs))
