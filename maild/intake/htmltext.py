"""HTML mail to plain text, keeping what the orders need.

- Bold (``<b>``, ``<strong>``, or a style ``font-weight`` of bold/bolder/600-900) comes out as
  ``**word**``; a later ``font-weight: normal`` (or 100-500) inside turns it off. Bold never spans a line
  break: each line's bold runs are closed and reopened, so the grammar sees one line at a time.
- ``<br>`` ends a line; ``<p>``, ``<div>``, ``<li>``, ``<tr>``, headings and other blocks start and end
  one (no blank line between paragraphs: Outlook writes every line as a ``<p class=MsoNormal>``).
- ``<blockquote>`` content is prefixed with ``> `` per level, so quoted replies (Gmail's ``gmail_quote``,
  Apple Mail's ``type=cite``) are recognised like plain-text quoting.
- ``<hr>`` becomes the Outlook separator line of underscores, which quote removal treats as the start
  of a quoted original (Outlook on the web puts one before "From: ... Sent: ...").
- ``<style>``, ``<script>``, ``<head>``, ``<title>`` and elements hidden with ``display:none`` are dropped;
  entities are decoded; whitespace collapses as a browser would, except inside ``<pre>``.

The standard library's tolerant HTMLParser does the tokenizing; if it ever fails, a crude tag-stripping
fallback keeps the text.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                   "source", "track", "wbr", "o:p"})
_SKIP = frozenset({"style", "script", "head", "title", "template", "xml", "noscript"})
_BLOCK = frozenset({"p", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "table", "tbody", "thead",
                    "tfoot", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "address", "article", "aside",
                    "center", "footer", "header", "section", "blockquote", "form", "fieldset", "caption",
                    "figure", "figcaption", "main", "nav", "body", "html"})
_BOLD_TAGS = frozenset({"b", "strong"})
_WEIGHT = re.compile(r"font-weight\s*:\s*([a-z0-9]+)", re.IGNORECASE)
_HIDDEN = re.compile(r"display\s*:\s*none", re.IGNORECASE)
_WS = re.compile(r"[ \t\n\r\f]+")
OUTLOOK_SEPARATOR = "_" * 32


def _style_bold(style: str) -> bool | None:
    """True/False if the style sets the weight, None if it leaves it to the parent."""
    found = _WEIGHT.findall(style)
    if not found:
        return None
    value = found[-1].lower()
    if value in ("bold", "bolder"):
        return True
    if value.isdigit():
        return int(value) >= 600
    return False  # normal, lighter, inherit-ish values


class _Frame:
    __slots__ = ("tag", "bold", "skip", "quote", "pre")

    def __init__(self, tag: str, bold: bool | None, skip: bool, quote: bool, pre: bool) -> None:
        self.tag, self.bold, self.skip, self.quote, self.pre = tag, bold, skip, quote, pre


class _Converter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[_Frame] = []
        self.lines: list[str] = []
        self.pieces: list[tuple[str, bool]] = []  # the current line: (text, bold) runs
        self.line_depth = 0
        self.skipping = 0
        self.quote_depth = 0
        self.pre_depth = 0

    # -- state ------------------------------------------------------------------------------------------

    def _bold(self) -> bool:
        for frame in reversed(self.stack):
            if frame.bold is not None:
                return frame.bold
        return False

    def _push(self, frame: _Frame) -> None:
        self.stack.append(frame)
        self.skipping += frame.skip
        self.quote_depth += frame.quote
        self.pre_depth += frame.pre

    def _pop_to(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                break
        else:
            return  # a stray end tag: ignore, as browsers do
        while len(self.stack) > i:
            frame = self.stack.pop()
            self.skipping -= frame.skip
            if frame.quote:
                self._break()  # a quote ends its last line before the depth drops
            self.quote_depth -= frame.quote
            self.pre_depth -= frame.pre

    # -- output -----------------------------------------------------------------------------------------

    def _text(self, text: str) -> None:
        if not text:
            return
        if not self.pieces:
            self.line_depth = self.quote_depth
        self.pieces.append((text, self._bold()))

    def _newline(self) -> None:
        """End the current line, even if empty (what ``<br>`` does)."""
        depth = self.line_depth if self.pieces else self.quote_depth
        self.lines.append("> " * depth + _render(self.pieces))
        self.pieces = []

    def _break(self) -> None:
        """End the current line if it has content (what a block boundary does)."""
        if any(t.strip() for t, _ in self.pieces):
            self._newline()
        else:
            self.pieces = []

    # -- parser callbacks -------------------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "wbr") and not self.skipping:
            if tag == "br":
                self._newline()
            return
        if tag == "hr" and not self.skipping:
            self._break()
            self.lines.append("> " * self.quote_depth + OUTLOOK_SEPARATOR)
            return
        if tag in _VOID:
            return
        if tag in ("p", "li") and self.stack and self.stack[-1].tag == tag:
            self._pop_to(tag)  # an unclosed <p> or <li> ends at the next one
        style = ""
        for name, value in attrs:
            if name == "style" and value:
                style = value
        bold = True if tag in _BOLD_TAGS else None
        if style:
            sb = _style_bold(style)
            if sb is not None:
                bold = sb
        skip = tag in _SKIP or bool(style and _HIDDEN.search(style))
        if tag in _BLOCK and not self.skipping:
            self._break()
        self._push(_Frame(tag, bold, skip, tag == "blockquote", tag == "pre"))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <div/> and friends: open and close at once (void tags only do their start).
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and tag not in ("br", "wbr", "hr"):
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            if tag == "br" and not self.skipping:
                self._newline()  # </br> is read as <br> by browsers
            return
        if tag in _BLOCK and not self.skipping:
            self._break()
        self._pop_to(tag)
        if tag in ("td", "th") and not self.skipping:
            self._text(" ")

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.pre_depth:
            first = True
            for part in data.split("\n"):
                if not first:
                    self._newline()
                self._text(part)
                first = False
            return
        data = _WS.sub(" ", data)
        if data == " " and not self.pieces:
            return
        self._text(data)

    def finish(self) -> str:
        self.close()
        self._break()
        return "\n".join(self.lines)


def _render(pieces: list[tuple[str, bool]]) -> str:
    """One line: merge runs, collapse spaces, and wrap bold runs in ** without enclosing blanks."""
    merged: list[list[object]] = []
    for text, bold in pieces:
        if merged and merged[-1][1] == bold:
            merged[-1][0] = str(merged[-1][0]) + text
        else:
            merged.append([text, bold])
    out: list[str] = []
    for text_obj, bold in merged:
        text = str(text_obj)
        if bold and text.strip():
            core = text.strip()
            lead = " " if text[:1].isspace() else ""
            trail = " " if text[-1:].isspace() else ""
            out.append(f"{lead}**{core}**{trail}")
        else:
            out.append(text)
    return re.sub(" {2,}", " ", "".join(out)).strip()


def html_to_text(source: str) -> str:
    """The text of an HTML document as described in the module docstring; never raises."""
    try:
        conv = _Converter()
        conv.feed(source)
        return conv.finish()
    except Exception:  # noqa: BLE001 - a parser bug must not lose the mail: strip tags crudely instead
        text = re.sub(r"(?is)<(style|script|head)\b.*?</\1\s*>", "", source)
        text = re.sub(r"(?i)<br\s*/?>|</(p|div|li|tr|h\d)\s*>", "\n", text)
        text = re.sub(r"<[^>]*>", "", text)
        return "\n".join(_WS.sub(" ", line).strip() for line in html.unescape(text).split("\n"))
