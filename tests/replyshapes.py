"""A player's reply to the GM's ack as the common mail programs write it (no tests here): the quoted ack, the
attribution above it, and the player's own lines where that program's users put them.

Each builder takes the lines quoted (the GM's mail) and the player's own lines, and gives the text body:

- `s_nail`: s-nail and mailx, ``quote`` set: "gm@example.org wrote:", the quote indented with a tab, the
  player's text below it (bottom-posting is the custom there);
- `mutt`: mutt's "On Sun, Nov 22, 2026 at 09:00:00AM +0100, GM wrote:", ``> `` quotes, text below;
- `gmail`: the player's text on top, "On Sun, Nov 22, 2026 at 9:00 AM GM <gm@example.org> wrote:", a blank
  line and ``> `` quotes;
- `apple_mail`: text on top, "> On 22 Nov 2026, at 09:00, GM <gm@example.org> wrote:" inside the quote;
- `outlook`: text on top, a rule of underscores, the original's header block and the original unquoted;
- `lotus_notes`: text on top, "GM <gm@example.org> wrote on 22/11/2026 09:00:", the original indented with
  blanks (Lotus Notes and Zoho indent instead of quoting).
"""

from __future__ import annotations

from collections.abc import Callable

Shape = Callable[[list[str], list[str]], str]


def s_nail(quoted: list[str], own: list[str]) -> str:
    return "\n".join(["gm@example.org wrote:", *(f"\t{q}" if q else "\t" for q in quoted), "", *own, ""])


def mutt(quoted: list[str], own: list[str]) -> str:
    return "\n".join(["On Sun, Nov 22, 2026 at 09:00:00AM +0100, GM wrote:", *(f"> {q}".rstrip() for q in quoted),
                      "", *own, ""])


def gmail(quoted: list[str], own: list[str]) -> str:
    return "\n".join([*own, "", "On Sun, Nov 22, 2026 at 9:00 AM GM <gm@example.org> wrote:", "",
                      *(f"> {q}".rstrip() for q in quoted), ""])


def apple_mail(quoted: list[str], own: list[str]) -> str:
    return "\n".join([*own, "", "> On 22 Nov 2026, at 09:00, GM <gm@example.org> wrote:", ">",
                      *(f"> {q}".rstrip() for q in quoted), ""])


def outlook(quoted: list[str], own: list[str]) -> str:
    return "\n".join([*own, "", "_" * 32, "From: GM <gm@example.org>", "Sent: Sunday, November 22, 2026 9:00 AM",
                      "To: Player <player@example.org>", "Subject: Re: orders", "", *quoted, ""])


def lotus_notes(quoted: list[str], own: list[str]) -> str:
    return "\n".join([*own, "", "GM <gm@example.org> wrote on 22/11/2026 09:00:", "",
                      *(f"    {q}" if q else "" for q in quoted), ""])


SHAPES: dict[str, Shape] = {"s-nail": s_nail, "mutt": mutt, "gmail": gmail, "apple-mail": apple_mail,
                            "outlook": outlook, "lotus-notes": lotus_notes}
