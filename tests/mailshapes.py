"""The same orders as the common mail programs send them: raw RFC 5322 bytes shaped like their real output.

Each builder takes the order lines as the player meant them (plain ASCII) and writes them the way that
program does, with the greeting and sign-off its users add:

- `plain_typed`: a plain-text mail with nothing but the orders (the reference);
- `gmail`: multipart/alternative, every order line made bold (Gmail's compose wraps each line's ``<div>``
  content in ``<b>``, and its plain part writes bold as ``*...*``); `gmail_block` bolds the whole block in
  one ``<b>`` over ``<br>``-separated lines, which Gmail's plain part writes as one ``*...*`` run;
- `outlook`: Outlook desktop, bulleted list: ``MsoListParagraph`` paragraphs with a Symbol-font middle dot
  and ``&nbsp;`` padding in the HTML, ``•`` and a tab in the plain part, Word's smart quotes and dashes;
- `apple_mail`: Apple Mail, ``<ul class="MailOutline">`` in the HTML and tab-bullet-tab in the plain part;
- `iphone`: iOS Mail, plain text only, smart quotes, ``--`` turned into an em dash, a non-breaking space,
  a soft hyphen and a zero-width space, "Sent from my iPhone".

`html_only` drops the plain alternative, so the HTML conversion is what is read. `TRICKY` is no program's
mail but one shaped to confuse an IMAP response parser.
"""

from __future__ import annotations

import html
import quopri
import re


def _qp(text: str) -> str:
    return quopri.encodestring(text.replace("\n", "\r\n").encode("utf-8")).decode("ascii")


def _headers(sender: str, name: str, n: int, subject: str, mailer: str, ctype: str) -> str:
    tag = mailer.split(":", 1)[-1].split()[0].lower() if mailer else "gmail"
    return (f"Return-Path: <{sender}>\r\n"
            f"From: {name} <{sender}>\r\n"
            "To: gm@example.org\r\n"
            f"Subject: {subject}\r\n"
            "Date: Sun, 22 Nov 2026 09:12:33 +0100\r\n"
            f"Message-ID: <{tag}-{n}@mail.example.org>\r\n"
            f"MIME-Version: 1.0\r\n{mailer}"
            f"Content-Type: {ctype}\r\n")


def _alternative(head: str, boundary: str, plain: str, html_part: str, plain_type: str) -> bytes:
    body = (f"{head}\r\n"
            f"--{boundary}\r\n"
            f"Content-Type: {plain_type}\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            f"{_qp(plain)}\r\n"
            f"--{boundary}\r\n"
            "Content-Type: text/html; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            f"{_qp(html_part)}\r\n"
            f"--{boundary}--\r\n")
    return body.encode("ascii")


def _smart(line: str) -> str:
    """What Word and iOS do to the quotes of a typed line: curly double quotes and apostrophes."""
    out = re.sub(r'"([^"]*)"', "\u201c\\1\u201d", line)
    out = re.sub(r"(\w)'(\w)", "\\1\u2019\\2", out)
    return out


def plain_typed(sender: str, name: str, lines: list[str], n: int) -> bytes:
    head = _headers(sender, name, n, "orders", "User-Agent: Mozilla Thunderbird\r\n",
                    'text/plain; charset=UTF-8; format=flowed')
    return (head + "Content-Transfer-Encoding: 7bit\r\n\r\n" + "\r\n".join(lines) + "\r\n").encode("ascii")


def _gmail_star(line: str) -> str:
    return f"*{line}*"


def gmail(sender: str, name: str, lines: list[str], n: int, signature: str) -> bytes:
    boundary = f"000000000000a1b2c3d4e5f6{n:04d}"
    head = _headers(sender, name, n, "orders", "", f'multipart/alternative; boundary="{boundary}"')
    plain = "Hi GM,\n\n" + "\n".join(_gmail_star(line) for line in lines) + f"\n\nThanks!\n{signature}\n"
    divs = "".join(f"<div><b>{html.escape(line, quote=False)}</b></div>" for line in lines)
    html_part = (f'<div dir="ltr"><div>Hi GM,</div><div><br></div>{divs}<div><br></div><div>Thanks!</div>'
                 f"<div>{signature}</div></div>\n")
    return _alternative(head, boundary, plain, html_part, 'text/plain; charset="UTF-8"')


def gmail_block(sender: str, name: str, lines: list[str], n: int, signature: str) -> bytes:
    boundary = f"000000000000f6e5d4c3b2a1{n:04d}"
    head = _headers(sender, name, n, "orders", "", f'multipart/alternative; boundary="{boundary}"')
    plain = "Hello,\n\n*" + "\n".join(lines) + f"*\n\nRegards,\n{signature}\n"
    inner = "<br>".join(html.escape(line, quote=False) for line in lines)
    html_part = (f'<div dir="ltr">Hello,<div><br></div><div><b>{inner}</b></div><div><br></div>'
                 f"<div>Regards,</div><div>{signature}</div></div>\n")
    return _alternative(head, boundary, plain, html_part, 'text/plain; charset="UTF-8"')


_OUTLOOK_ITEM = ("<p class=MsoListParagraphCxSpMiddle style='text-indent:-.25in;mso-list:l0 level1 lfo1'>"
                 "<![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>&middot;"
                 "<span style='font:7.0pt \"Times New Roman\"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; "
                 "</span></span></span><![endif]>{}<o:p></o:p></p>\r\n")


def outlook(sender: str, name: str, lines: list[str], n: int, signature: str) -> bytes:
    boundary = f"_000_DB7PR0401MB2345{n:04d}EURPRD04PRODOUTLOOKCOM_"
    head = _headers(sender, name, n, "orders", "X-Mailer: Microsoft Outlook 16.0\r\nThread-Index: AdjA1b2c3d4\r\n",
                    f'multipart/alternative; boundary="{boundary}"')
    word = [_smart(line).replace(" -- ", " \u2013 ") for line in lines]  # Word's AutoFormat
    plain = "Dear GM,\n\n" + "\n".join(f"\u2022\t{w}" for w in word) + f"\n\nKind regards,\n{signature}\n"
    items = "".join(_OUTLOOK_ITEM.format(html.escape(w, quote=False).replace(" ", "&nbsp;", 1)) for w in word)
    html_part = ('<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">'
                 "<head><meta http-equiv=Content-Type content=\"text/html; charset=utf-8\"><style><!--\r\n"
                 "p.MsoListParagraph {mso-style-priority:34; margin-left:.5in;}\r\n--></style></head>\r\n"
                 "<body lang=EN-US link=\"#0563C1\"><div class=WordSection1>\r\n"
                 "<p class=MsoNormal>Dear GM,<o:p></o:p></p>\r\n<p class=MsoNormal><o:p>&nbsp;</o:p></p>\r\n"
                 f"{items}<p class=MsoNormal><o:p>&nbsp;</o:p></p>\r\n"
                 f"<p class=MsoNormal>Kind regards,<o:p></o:p></p>\r\n<p class=MsoNormal>{signature}<o:p></o:p></p>\r\n"
                 "</div></body></html>\r\n")
    return _alternative(head, boundary, plain, html_part, 'text/plain; charset="utf-8"')


def apple_mail(sender: str, name: str, lines: list[str], n: int, signature: str) -> bytes:
    boundary = f"Apple-Mail=_6F1B2C3D-{n:04d}-4E5F-8A9B-0C1D2E3F4A5B"
    head = _headers(sender, name, n, "orders", "X-Mailer: Apple Mail (2.3774.200.91.1.1)\r\n",
                    f'multipart/alternative; boundary="{boundary}"')
    plain = "Hello Bob,\n\n" + "\n".join(f"\t\u2022\t{line}" for line in lines) + f"\n\nCheers,\n{signature}\n"
    items = "".join(f"<li>{html.escape(line, quote=False)}</li>" for line in lines)
    html_part = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
                 '<body style="overflow-wrap: break-word; -webkit-nbsp-mode: space;">Hello Bob,<div><br></div>'
                 f'<div><ul class="MailOutline">{items}</ul><div><br></div><div>Cheers,</div>'
                 f"<div>{signature}</div></div></body></html>")
    return _alternative(head, boundary, plain, html_part, "text/plain; charset=utf-8")


def iphone(sender: str, name: str, lines: list[str], n: int, signature: str) -> bytes:
    head = _headers(sender, name, n, "orders", "X-Mailer: iPhone Mail (21F90)\r\n", "text/plain; charset=utf-8")
    typed = []
    for line in lines:
        line = _smart(line).replace(" -- ", " \u2014 ")
        # The keyboard's autocapitalisation, and a non-breaking space, a soft hyphen and a zero-width space
        # from pasting.
        line = line[:1].upper() + line[1:]
        typed.append(line.replace(" of ", " of\u00a0", 1).replace("wool", "wo\u00adol", 1)
                     .replace("for", "f\u200bor", 1))
    body = "Hi all\n\n" + "\n".join(typed) + f"\n\n\u2014 {signature}\n\nSent from my iPhone\n"
    return (head + "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + _qp(body) + "\r\n").encode("ascii")


def html_only(raw: bytes) -> bytes:
    """The same mail with its text/plain alternative taken out (what an HTML-only client sends)."""
    text = raw.decode("ascii")
    start = text.index('Content-Type: text/plain; ', text.index("\r\n\r\n"))
    part_start = text.rindex("--", 0, start)
    part_end = text.index("\r\n--", start) + 2
    return (text[:part_start] + text[part_end:]).encode("ascii")


# A mail that tries hard to confuse a parser: 8-bit bytes in two charsets, CRLF line ends, and lines
# that look like IMAP responses, a literal announcement and a tagged OK.
TRICKY = (
    b"From: Doge <doge@example.org>\r\n"
    b"To: gm@example.org\r\n"
    b"Subject: =?utf-8?q?Ordini_della_Serenissima?=\r\n"
    b"Message-ID: <tricky@example.org>\r\n"
    b"Content-Type: text/plain; charset=latin-1\r\n"
    b"Content-Transfer-Encoding: 8bit\r\n"
    b"\r\n"
    b"#venice1 Doge pw\r\n"
    b"BID 100 ducati per il Palazzo \xe0 S. Marco\r\n"
    b"caf\xc3\xa9 \xff\xfe\r\n"
    b"* 1 FETCH (UID 99 BODY[] {5}\r\n"
    b"A0001 OK Fetch completed.\r\n"
    b")\r\n"
    b"+ idling\r\n"
    b"* BYE see you\r\n"
    b"* 3 EXISTS\r\n"
)
