"""How often each quote stripper keeps exactly the writer's own text, on the corpus in tests/quotes_corpus.

    .venv-bench/bin/python bench/bench_quotes.py              # the table
    .venv-bench/bin/python bench/bench_quotes.py --markdown   # the tables for docs/quotes.md
    .venv-bench/bin/python bench/bench_quotes.py --misses maild [--diff]   # which cases one parser misses

The public parsers come from the ``bench`` extra (``pip install -e ".[bench]"``); a parser that does not
import is left out of the table with a note. maild is run the way the daemon runs it: `plaintext.normalize`,
then `ordertext.extract`. Texts are compared after `tests.quotes_corpus.normalized` (trailing blanks
stripped, blank-line runs collapsed, no blank lines around).
"""

from __future__ import annotations

import argparse
import difflib
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from maild.intake.ordertext import extract  # noqa: E402
from maild.intake.plaintext import normalize  # noqa: E402
from tests.quotes_corpus import Case, load_cases, normalized  # noqa: E402

Stripper = Callable[[str], str]


def maild_stripper() -> Stripper:
    return lambda body: extract(normalize(body)).text


def email_reply_parser() -> Stripper:
    from email_reply_parser import EmailReplyParser

    return EmailReplyParser.parse_reply


def mail_parser_reply() -> Stripper:
    from mailparser_reply import EmailReplyParser
    from mailparser_reply.constants import MAIL_LANGUAGES

    parser = EmailReplyParser(languages=list(MAIL_LANGUAGES))  # every language it knows: its best showing
    return lambda body: parser.parse_reply(body) or ""


def quotequail_unwrap() -> Stripper:
    import quotequail

    def strip(body: str) -> str:
        found = quotequail.unwrap(body)
        if found and found.get("type") == "reply":
            return "\n\n".join(found.get(k) or "" for k in ("text_top", "text_bottom"))
        return "\n".join(text for shown, text in quotequail.quote(body) if shown)

    return strip


def talon_quotations() -> Stripper:
    from talon import quotations

    return quotations.extract_from_plain


def talon_with_signature() -> Stripper:
    from talon import quotations
    from talon.signature.bruteforce import extract_signature

    return lambda body: extract_signature(quotations.extract_from_plain(body))[0]


PARSERS: dict[str, Callable[[], Stripper]] = {
    "maild": maild_stripper,
    "mail-parser-reply": mail_parser_reply,
    "email-reply-parser": email_reply_parser,
    "talon": talon_quotations,
    "talon+signature": talon_with_signature,
    "quotequail": quotequail_unwrap,
}


def library_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    dist = {"talon+signature": "talon", "maild": "maild"}.get(name, name)
    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


def run(strip: Stripper, cases: list[Case]) -> tuple[dict[str, bool], float]:
    """Which cases the stripper gets exactly right, and its mean time a case in milliseconds."""
    results: dict[str, bool] = {}
    start = time.perf_counter()
    for case in cases:
        try:
            got = strip(case.body)
        except Exception:  # noqa: BLE001 - a parser that crashes on a case has missed it
            got = None
        results[case.name] = got is not None and normalized(got) == normalized(case.own)
    return results, (time.perf_counter() - start) * 1000 / max(len(cases), 1)


def load_parsers(names: list[str]) -> tuple[dict[str, Stripper], list[str]]:
    loaded: dict[str, Stripper] = {}
    notes: list[str] = []
    for name in names:
        try:
            loaded[name] = PARSERS[name]()
        except ImportError as exc:
            notes.append(f"{name}: not installed ({exc.name}); pip install -e '.[bench]'")
    return loaded, notes


def _rate(results: dict[str, bool], cases: list[Case]) -> str:
    hits = sum(results[c.name] for c in cases)
    return f"{hits}/{len(cases)} = {100 * hits / max(len(cases), 1):.1f}%"


def table(cases: list[Case], scores: dict[str, tuple[dict[str, bool], float]], markdown: bool) -> str:
    kinds = sorted({c.kind for c in cases})
    dev = [c for c in cases if not c.held_out]
    held_out = [c for c in cases if c.held_out]
    rows = [["parser", "version", "all cases", "development set", "held-out set", "ms/mail"]]
    for name, (results, ms) in scores.items():
        rows.append([name, library_version(name), _rate(results, cases), _rate(results, dev),
                     _rate(results, held_out), f"{ms:.2f}"])
    per_kind = [["class", "cases", *scores]]
    for kind in kinds:
        names = [c.name for c in cases if c.kind == kind]
        per_kind.append([kind, str(len(names)), *(str(sum(r[n] for n in names)) for r, _ in scores.values())])
    return render(rows, markdown) + "\n\n" + render(per_kind, markdown)


def render(rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        head, *body = rows
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    ap.add_argument("--misses", metavar="PARSER", help="list the cases PARSER gets wrong")
    ap.add_argument("--diff", action="store_true", help="with --misses: show what it kept against the own text")
    ap.add_argument("--parsers", default=",".join(PARSERS), help="comma-separated, of: " + ", ".join(PARSERS))
    args = ap.parse_args()
    cases = load_cases()
    if args.misses:
        strip = PARSERS[args.misses]()
        for case in cases:
            got = normalized(strip(case.body) or "")
            if got != normalized(case.own):
                print(f"{case.name} [{case.kind}]")
                if args.diff:
                    diff = difflib.unified_diff(normalized(case.own).split("\n"), got.split("\n"), "own text",
                                                args.misses, lineterm="", n=1)
                    print("\n".join("    " + line for line in diff))
        return 0
    loaded, notes = load_parsers(args.parsers.split(","))
    scores = {name: run(strip, cases) for name, strip in loaded.items()}
    held_out = sum(c.held_out for c in cases)
    print(f"{len(cases)} cases in tests/quotes_corpus ({len(cases) - held_out} development, {held_out} held out)\n")
    print(table(cases, scores, args.markdown))
    for note in notes:
        print(note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
