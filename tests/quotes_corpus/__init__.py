"""The quoted-text corpus: reply mails and the text in each that is the writer's own.

Each case is a file ``NNN-name.txt`` in this folder::

    %% class: outlook
    %% set: held-out                (only on cases written after the rules were; see the README)
    %% source: mailgun/talon tests/text_quotations_test.py::test_german_from_block
    <the decoded body of the mail, as intake sees it>
    %% own text
    <what is left once quotes, attributions, original messages and signatures are gone>

The cases were written for maild; the README says which public fixture each one reproduces. The test
`tests/test_quotes_corpus.py` and the benchmark `bench/bench_quotes.py` read them through `load_cases`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
_OWN = "%% own text\n"


@dataclass(frozen=True)
class Case:
    name: str  # the file name without ".txt"
    kind: str  # the class of the case, for per-class figures
    source: str  # the public fixture whose facts it reproduces
    held_out: bool  # written after maild's rules, to measure them on cases they were not made for
    body: str
    own: str


def parse_case(name: str, text: str) -> Case:
    meta: dict[str, str] = {}
    rest = text
    while rest.startswith("%% ") and not rest.startswith(_OWN):
        line, rest = rest.split("\n", 1)
        key, _, value = line[3:].partition(":")
        meta[key.strip()] = value.strip()
    body, sep, own = rest.partition(_OWN)
    if not sep or "class" not in meta or "source" not in meta:
        raise ValueError(f"{name}: needs '%% class:', '%% source:' and a '%% own text' line")
    return Case(name, meta["class"], meta["source"], meta.get("set") == "held-out", body, own)


def load_cases() -> list[Case]:
    return [parse_case(p.stem, p.read_text(encoding="utf-8")) for p in sorted(FOLDER.glob("[0-9]*.txt"))]


def normalized(text: str) -> str:
    """Text as the comparison sees it: no trailing blanks, one blank line at most in a row, none around."""
    out: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line.rstrip()
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)
