"""Quoted text, attributions and signatures in the shapes mail programs really write (maild.intake.quotes).

The shapes in the lists and the tests over them were missed before issue 8 ("Quoted text"): each case
fails on the rules before it. The tests whose names say "kept" or "still" guard what must not change.
Everything runs the daemon's way, `plaintext.normalize` then `ordertext.extract`. The last tests feed
hostile input: every pattern is linear.
"""

from __future__ import annotations

import time

import pytest

from maild.intake.ordertext import extract
from maild.intake.plaintext import normalize
from maild.intake.quotes import strip_quotes, unglue
from tests.quotes_corpus import normalized

ORDERS = "bid 30$ for 2 of silk tax\nborrow 5$"
REPORT = "Venice, turn 3\nbid 40$ for 2 of salt tax\nthe Doge sends his regards"


def own(text: str) -> str:
    return extract(normalize(text)).text


def quoted(text: str) -> str:
    return "\n".join("> " + line for line in text.split("\n"))


# -- attributions -----------------------------------------------------------------------------------------

DATE_FIRST = [  # Gmail and others put the date first and end with the address
    "2026-11-24 16:32 GMT+01:00 Venice GM <gm@example.org>:",
    "2026-10-17 11:28 GMT+03:00 Venice GM <\ngm@venice-game-with-a-long-name.example.org>:",
    "30.09.2026, 18.30, \"Venice - GM\" <gm@example.org>:",
    "11:00 AM, November 17, 2026, \"Venice - GM\" <gm@example.org>:",
    "Wednesday, 17 November 2026, 3:32 PM +0300 from gm@example.org <gm@example.org>:",
    "ср, 30 апр. 2026 г. в 15:19, Venice GM <gm@example.org>:",
    "tir. 18. apr. 2026 kl. 13:09 skrev Venice GM <gm@example.org\n>:",
    "2026.02.08. 7:31 keltezéssel, \"Venice GM\" írta:",
    "02.04.2027 14:20 пользователь \"gm@example.org\" <\ngm@example.org> написал:",
    "2026-03-03 17:21 GMT+01:00 Venice GM",
    "2026/4/7 Venice GM <gm@example.org>",
]
LOCALIZED = [
    "In data 11 ottobre 2026 21:11:31 \"Venice GM\" <gm@example.org> ha scritto:",
    "Op 17-feb.-2027, om 13:18 heeft Venice GM <gm@example.org> het volgende geschreven:",
    "På 14 september 2026 på 02:23:18, Venice GM (gm@example.org) skrev:",
    "pe 20. lokakuuta 2026 klo 17.50 Venice GM\n<gm@example.org> kirjoitti:",
    "Dnia 27 grudnia 2026 12:08 Venice GM <gm@example.org> napisał(a):",
    "Dne po 1. 3. 2027 17:15 Venice GM <gm@example.org> napsal(a):",
    "Vào 14:24 8 tháng 6, 2027, Venice GM <gm@example.org> đã viết:",
    "2027年3月1日(月) 17:15 Venice GM <gm@example.org>:",
    "Venice GM <gm@example.org> 于2027年3月1日周一 17:15写道：",
    "01.03.2027 17:15, Venice GM пишет:",
    "30 серп. 2026 р. 20:45 \"Venice GM\" <gm@example.org> пише:",
    "1 Mar 2027 Pzt, 17:15 tarihinde Venice GM <gm@example.org> şunu yazdı:",
    "Venice GM <gm@example.org> schrieb am Fr., 28.\nApr. 2027 um 11:53 Uhr:",
]
SPLIT = [  # wrapped over up to five lines
    "On Nov 30, 2026, at 12:47 PM, Venice GM <\n416ffd3258d4d2fa4c85cfa4c44e1721d66e3e8f4@venice.example.org>\nwrote:",
    "On Wed, Dec 9, Venice GM\n<gm@example.org>\nwrote:",
    "Am So., 1. März 2027 um 17:22 Uhr\nschrieb Venice GM <\ngm@example.org>:",
    "On Tue, Apr 11, 2027 at 10:07 PM Venice GM\n\n<\nmailto:Venice GM <gm@example.org>\n> wrote:",  # <mailto:>
]
ODD = [
    "On Tue, Apr 29, 2027 at 4:22 PM, Venice GM <gm@example.org>wrote:",  # wrote: without a space
    "On Tue, Sep 25, 2026 at 8:59 AM, Venice GM\n<gm@example.org>wrote:",
    "---- On Wed, 24 Feb 2027 14:02:50 +0530 gm@example.org wrote ----",
    "---- Venice GM wrote ----",
    "------On 12/29/2026 17:32 PM, Venice GM wrote-----",
    "On Wed, 14 Nov 2026 08:14:43 -0200 Venice GM <gm@example.org> wrote",
    "On 11-Apr-2027, at 6:54 PM, Venice GM <gm@example.org> sent:",
]


@pytest.mark.parametrize("attribution", DATE_FIRST + LOCALIZED + SPLIT + ODD)
def test_attribution_is_recognised(attribution: str) -> None:
    # Above a quote it is dropped; above an unquoted original (phones, Outlook, Yahoo) it cuts.
    assert own(f"{ORDERS}\n\n{attribution}\n\n{quoted(REPORT)}\n") == ORDERS
    assert own(f"{ORDERS}\n\n{attribution}\n\n{REPORT}\n") == ORDERS


def test_vague_attribution_still_kept() -> None:
    assert own("Bob wrote:\nborrow 5$") == "Bob wrote:\nborrow 5$"
    assert own("On Monday I wrote:\nborrow 5$") == "On Monday I wrote:\nborrow 5$"


@pytest.mark.parametrize("text", [
    "Am heutigen Tage\nAm So., 1. März 2027 um 17:22 Uhr\nschrieb Venice GM <\ngm@example.org>:\n\n> Befehle",
    "On this day\n\nI moved my fleet.\n\nOn 28 Jan 2027, at 19:04, Venice GM wrote:\n\n> Where is it?",
])
def test_line_above_a_wrapped_attribution_kept(text: str) -> None:
    assert own(text).split("\n")[0] in ("Am heutigen Tage", "On this day")
    assert "wrote" not in own(text) and "schrieb" not in own(text)


# -- original messages and header blocks ------------------------------------------------------------------

ORIGINAL = [
    "-----Reply Message-----",
    "-----Antwort Nachricht-----",
    "-----Oprindelig meddelelse-----",
    "-----Ursprungligt meddelande-----",
    "-------- Oprindelig besked --------\nFra: Venice GM <gm@example.org>\nDato: 04.07.2026  17.45\nTil: anna",
    "-----Исходное сообщение-----\nОт: Venice GM\nОтправлено: 1 марта 2027 г. 17:15\nКому: Anna",
    "*-------- Original Message --------*",
]
HEADERS = [
    "Od: Venice GM <gm@example.org>\nWysłano: środa, 1 marca 2027 12:00\nDo: Jan\nTemat: Re: Rozkazy",
    "De: Venice GM <gm@example.org>\nEnviada em: segunda-feira, 1 de março de 2027 17:15\nPara: Anna\nAssunto: x",
    "От: Venice GM <gm@example.org>\nОтправлено: 1 марта 2027 г. 17:15\nКому: Anna\nТема: Приказы",
    "Od: Venice GM <gm@example.org>\nOdesláno: pondělí 1. března 2027 17:15\nKomu: Anna\nPředmět: Rozkazy",
    "Lähettäjä: Venice GM\nLähetetty: maanantai 1. maaliskuuta 2027 17.15\nVastaanottaja: Anna\nAihe: Käskyt",
    "De : Venice GM<mailto:gm@example.org>\nEnvoyé le :jeudi 15 décembre 2026 09:35\nÀ : anna@example.org\n"
    "Objet :Vos ordres",
    "   De : Venice GM<mailto:gm@example.org>\n   Envoyé le :jeudi 15 décembre 2026 09:35\n   À : anna",
    "  *From:* gm@example.org [mailto:\n  gm@example.org]\n  *Sent:* Wednesday, June 27, 2026 3:05 PM\n"
    "  *To:* anna@example.org\n  *Subject:* Hello",
    "*Van:* Venice GM [mailto:gm@example.org]\n*Verzonden:* donderdag, 9 februari 2027 13:36\n*Aan:* anna",
    " ------------------------------\n\n*From:* Venice GM\n*Sent:* Thursday, February 09, 2027 1:36 PM\n*To:* a",
    "Date: Wed, 16 May 2026 00:15:02 -0600\nTo: anna@example.org",  # not starting with From:
    "      De : Venice GM <gm@example.org>\n À : Anna <anna@example.org>\n Envoyé le : Mercredi 30 novembre 2026",
    "====\n\nMessage du : 12/12/2026 13:20\nDe : \"Venice GM \" <gm@example.org>\nA : anna@example.fr",
]


@pytest.mark.parametrize("block", ORIGINAL + HEADERS)
def test_original_message_and_header_blocks_cut(block: str) -> None:
    assert own(f"{ORDERS}\n\n{block}\n\n{REPORT}\n") == ORDERS


@pytest.mark.parametrize("text", [
    "From: Anna Rossi\nTo: the GM\nSubject: my orders\n\nborrow 5$",  # a letter heading
    "Date: Monday 1 March\nTime: 17:15\nPlace: the Rialto\n\nborrow 5$",  # an appointment
])
def test_field_lines_of_the_players_own_are_kept(text: str) -> None:
    assert own(text) == text


# -- the player's own text where it was lost --------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("borrow 5$ On Wed, Mar 3, 2027 at 3:59 PM, gm@example.org wrote:\n> Orders please", "borrow 5$"),
    ("borrow 5$--- On Wed, Mar 3, 2027 at 3:59 PM, gm@example.org wrote:\n> Orders please", "borrow 5$"),
    ("borrow 5$\na well-known trick - really--- On Wed, Mar 3, 2027 at 3:59 PM, gm@example.org wrote:\n> x",
     "borrow 5$\na well-known trick - really"),
    ("borrow 5$ Am Mo., 1. März 2027 um 17:15 Uhr schrieb Venice GM <gm@example.org>:\n> Befehle", "borrow 5$"),
])
def test_own_text_on_the_attribution_line_is_kept(text: str, expected: str) -> None:
    assert own(text) == expected


def test_glued_attribution_keeps_line_numbers_of_the_mail() -> None:
    ot = extract("borrow 5$ On Wed, Mar 3, 2027 at 3:59 PM, gm@example.org wrote:\n> Orders please\nbid 1$")
    assert ot.text == "borrow 5$\nbid 1$" and ot.line_map == (1, 3)
    text = "Hi GM On Wed, Mar 3, 2027 at 3:59 PM, gm@example.org wrote:\n> report\n#venice1 alice\nborrow 5$"
    ot = extract(text)
    assert ot.header is not None and text.split("\n")[ot.header.line_index] == "#venice1 alice"
    assert ot.text == "borrow 5$" and ot.line_map == (4,)
    assert unglue(["a line without one:", "x"]) == (["a line without one:", "x"], [0, 1])


@pytest.mark.parametrize("above", [
    "From: Venice GM <gm@example.org>\nSent: Monday, March 1, 2027 5:15 PM\nTo: Anna\nSubject: questions",
    "-----Original Message-----\nFrom: Venice GM <gm@example.org>\nSent: Monday, March 1, 2027 5:15 PM",
])
def test_inline_answers_below_a_full_attribution_are_kept(above: str) -> None:
    text = f"{above}\n\n> Which goods do you bid on?\n\nbid 30$ for 2 of silk tax\n\n> A loan?\n\nborrow 5$"
    assert normalized(own(text)) == "bid 30$ for 2 of silk tax\n\nborrow 5$"


# -- signatures -------------------------------------------------------------------------------------------

def test_prose_about_sending_is_not_a_signature() -> None:
    prose = "Sent from my desk, not my phone, so the spelling should be fine."
    assert own(f"{ORDERS}\n\n{prose}\n") == f"{ORDERS}\n\n{prose}"


@pytest.mark.parametrize("prose", [
    "Sent from my phone while waiting for the gondola, so forgive the typos in the bids above.",
    "The letter was sent from my villa in Padua.",
])
def test_other_prose_about_sending_still_kept(prose: str) -> None:
    assert own(f"{ORDERS}\n\n{prose}\n") == f"{ORDERS}\n\n{prose}"


@pytest.mark.parametrize("signature", [
    "Sendt fra min iPhone", "Wysłano z iPhone'a", "Отправлено с iPhone",
    "Envoyé à partir de Outlook pour iOS<https://aka.ms/o0ukef>",
    "Diese Nachricht wurde von meinem Android-Mobiltelefon mit K-9 Mail gesendet.", "從我的 iPhone 傳送",
])
def test_phone_signatures_cut(signature: str) -> None:
    assert own(f"{ORDERS}\n\n{signature}\n\n{REPORT}\n") == ORDERS


@pytest.mark.parametrize("signature", [
    "Sent from my iPhone", "Sent from my Wiko RIDGE FAB 4G", "Sent with Airmail",
    "Sent from my cell, please excuse any typos.", "Sent from my Windows 8 PC <http://windows.example.com/preview>",
    "Gesendet von Outlook für Android<https://aka.ms/AAb9ysg>", "Von meinem Mobilgerät gesendet",
])
def test_phone_signatures_still_cut(signature: str) -> None:
    assert own(f"{ORDERS}\n\n{signature}\n\n{REPORT}\n") == ORDERS


# -- hostile input ----------------------------------------------------------------------------------------

def cpu_seconds(text: str) -> float:
    """Best of two runs, in CPU time: the machine is shared, wall time would measure the neighbours."""
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        extract(text)
        strip_quotes(text.split("\n"))
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("text", [
    " " * 200_000 + "wrote:",
    "wrote " * 100_000 + ":",
    "-" * 500_000 + "\n" + "-" * 500_000,
    "On " + "2026 12:00 " * 90_000 + "wrote:",
    "a " + "On 12:00 @ " * 90_000 + "wrote:",
    "<" * 1_000_000 + "@>:",
    "schrieb " + "a" * 1_000_000 + "@:",
    "Sent from my " + "x " * 500_000,
    "_" * 1_000_000,
    "*" * 1_000_000,
    "From: " + "x" * 1_000_000,
], ids=["spaces", "wrote-words", "dash-lines", "dates", "glued", "angles", "schrieb", "sent-from", "underscores",
        "stars", "long-field"])
def test_a_megabyte_line_is_quick(text: str) -> None:
    assert cpu_seconds(text) < 1.0


@pytest.mark.parametrize("unit", [
    "On 2026 12:00\nOn 2026 12:00\nOn 2026 12:00\nx\n",  # lines that may start a wrapped attribution
    "2026-01-01 12:00 x <\n",
    "====\n\n\n",  # rules looking for a header block below
    "From: x\nfoo\nbar\n",
    "x wrote " * 40 + ":\n",  # long lines ending in a verb
    "Bob wrote:\n" + "\n" * 50,
    "gm@example.org wrote:\n\tquoted\n\t\n  more\n\nbid 5\n",  # s-nail's indented quotes
    "GM <gm@example.org> wrote on 22/11/2026 09:00:\n" + "    x\n" * 20,
])
def test_many_lines_cost_linear_time(unit: str) -> None:
    small = unit * (20_000 // len(unit) + 1)
    large = small * 8
    # Linear: 8 times the text costs about 8 times as long; a quadratic step would cost 64 times.
    assert cpu_seconds(large) < 20 * cpu_seconds(small) + 0.05


def test_an_indented_quote_under_an_attribution_is_dropped_and_reading_goes_on_below() -> None:
    lines = ["#venice1 bob sesame", "gm@example.org wrote:", "\tHello bob,", "\t", "\t  line 2: borrow 50$",
             "", "borrow 100$", "  indented, but his own", "-- ", "Bob"]
    kept = strip_quotes(lines, 1)
    assert [lines[i] for i in kept.indices] == ["borrow 100$", "  indented, but his own"]
    assert [(d.kind, d.first, d.count) for d in kept.dropped] == [("quoted", 1, 4), ("signature", 8, 2)]


def test_indented_text_without_an_attribution_above_it_is_the_players() -> None:
    lines = ["borrow 100$", "\tbid 5$ for 1 of silk tax", "  bid 6$ for 1 of opera"]
    assert strip_quotes(lines).indices == [0, 1, 2]
