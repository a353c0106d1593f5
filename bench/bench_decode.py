"""How many mails a second `decode_mail` takes: the corpus, and a typical plain-text order mail.

    .venv/bin/python bench/bench_decode.py [SECONDS]

The daemon must ingest 500 mails/s including the database; decoding should stay well above 2000/s for
ordinary plain-text mail.
"""

from __future__ import annotations

import gzip
import sys
import time
import tomllib
from pathlib import Path

from maild.intake.decode import decode_mail

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"

PLAIN = (
    b"Return-Path: <alice@example.org>\r\nDelivered-To: gm@example.org\r\n"
    b"Received: from mail.example.org (mail.example.org [192.0.2.1])\r\n\tby mx.example.org (Postfix) with ESMTPS"
    b" id 4Yx2Kq0Zr7z9sWb\r\n\tfor <gm@example.org>; Sun, 22 Nov 2026 18:40:12 +0100 (CET)\r\n"
    b"From: Alice Liddell <alice@example.org>\r\nTo: gm@example.org\r\nSubject: Re: [venice1] orders\r\n"
    b"Date: Sun, 22 Nov 2026 18:40:10 +0100\r\nMessage-ID: <3f2a1b6c-8d4e@example.org>\r\n"
    b"In-Reply-To: <ack-1@example.org>\r\nReferences: <ack-1@example.org>\r\nMIME-Version: 1.0\r\n"
    b"Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n\r\n"
    b"#venice1 alice\r\nbid 30$ for 2 of silk tax\r\nBID $45 FOR 1 OF \"exile competitor\"\r\nborrow 200$\r\n"
    b"\r\nOn 22/11/2026 17:15, gm@example.org wrote:\r\n> Orders received\r\n> line 1\r\n\r\n-- \r\nAlice\r\n"
)


def rate(mails: list[bytes], seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for raw in mails:
            decode_mail(raw, max_size=2_000_000)
        done += len(mails)
    return done / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    manifest = tomllib.loads((CORPUS / "MANIFEST.toml").read_text(encoding="utf-8"))["files"]
    corpus = []
    for name, spec in sorted(manifest.items()):
        raw = (CORPUS / name).read_bytes()
        corpus.append(gzip.decompress(raw) if spec.get("gzip") else raw)
    plain_corpus = [raw for raw, (_, spec) in zip(corpus, sorted(manifest.items()), strict=True)
                    if spec.get("text_source") == "plain"]
    print(f"typical plain order mail: {rate([PLAIN], seconds):8.0f} mails/s")
    print(f"corpus, plain-text mails: {rate(plain_corpus, seconds):8.0f} mails/s ({len(plain_corpus)} mails)")
    print(f"corpus, all ({len(corpus)} mails):   {rate(corpus, seconds):8.0f} mails/s")


if __name__ == "__main__":
    main()
