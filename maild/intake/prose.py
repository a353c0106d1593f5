"""Greetings, closings and signatures: the lines of a mail that are manners, not orders.

A line is *prose* when it is one of these, written alone on its line (case and trailing punctuation do not
matter, emphasis and list markers are already gone):

- a greeting: "Dear GM,", "Hi all", "Hello Bob", "Hey", "Good morning everyone", "Greetings", and the
  same in Italian, French, German and Spanish ("Ciao a tutti", "Bonjour", "Hallo zusammen", "Hola");
- a closing: "Regards", "Best,", "Kind regards", "Thanks!", "Thank you", "Many thanks", "Cheers",
  "Yours", "Sincerely", "Cordially", "Ciao", "Saluti", "Grazie", "Cordialement", "Gruß", "Saludos",
  "Have a nice day", and "Here are my orders:"-like lead-ins;
- a signature: a name after a dash ("— Anna", "- Bob", "~Carol"), or a phone or app signature ("Sent
  from my iPhone", "Get Outlook for Android");
- a bare name on the last line: one or two capitalised words, nothing else ("Anna", "Bob R."), when it
  follows a closing or is the sender's own name (from the From header or the player's name), or when it
  signs orders above it ("Lorenzo" under a Renaissance mail's codes): then it must be written as a name
  (a capital and small letters, three at least: "HP" or "Ha" may be a code) and its words none of the
  game's order words ("Borrow" alone under Venice bids is a mistake to be told about, not a name).

Whether such a line is really prose is the ruleset's to say, not ours: `intake.orders.read_orders` only
takes a line for prose when the ruleset cannot read it as an order. So "Bid" is an order where a game
has that word, and the lists here can be generous. The patterns are anchored and have no nested
repetition, so they run in time linear in the line (and lines longer than 80 characters are never
prose).
"""

from __future__ import annotations

import re

_MAX = 80
_NAME = r"[^\W\d_][\w'.-]{0,30}"
_GREETING = re.compile(
    r"(?:dear|hi|hello|hey|hiya|howdy|greetings|good\s+(?:morning|afternoon|evening|day)|morning|evening"
    r"|ciao|salve|buongiorno|buonasera|bonjour|bonsoir|salut|hallo|moin|servus|guten\s+(?:tag|morgen|abend)"
    r"|liebe[rs]?|hola|buenos\s+d[ií]as|buenas(?:\s+tardes)?|hej|hoi)"
    r"(?:[\s,]+[\w'.-]{1,30}){0,4}[\s,.!:;]*",
    re.IGNORECASE)
_CLOSING = re.compile(
    r"(?:(?:best|kind|warm|warmest|many|all\s+the)\s+)?"
    r"(?:regards|best|wishes|best\s+wishes|thanks|thank\s+you|thx|ty|cheers|yours(?:\s+(?:truly|sincerely))?"
    r"|sincerely|cordially|respectfully|greetings|love|take\s+care|see\s+you(?:\s+(?:soon|later))?"
    r"|talk\s+soon|have\s+a\s+(?:nice|good|great)\s+(?:day|evening|weekend|one)|ciao|saluti|cordiali\s+saluti"
    r"|distinti\s+saluti|grazie(?:\s+mille)?|a\s+presto|cordialement|bien\s+(?:à|a)\s+(?:vous|toi)|merci"
    r"|amicalement|gr(?:u|ü|ue)(?:ß|ss)e?|viele\s+gr(?:ü|ue)(?:ß|ss)e|mit\s+freundlichen\s+gr(?:ü|ue)(?:ß|ss)en"
    r"|lg|mfg|saludos|un\s+saludo|gracias|atentamente|mvg|groeten|hälsningar|med\s+vänlig\s+hälsning)"
    r"(?:\s+(?:a\s+lot|so\s+much|again|in\s+advance|all|everyone|everybody|guys|folks|gm))?"
    r"(?:[\s,.!:;]*(?:[-\u2013\u2014~]{1,2}\s*)?" + _NAME + r")?[\s,.!:;)(-]*",
    re.IGNORECASE)
_LEAD_IN = re.compile(
    r"(?:(?:here|these|below|following)\s+(?:are|is)\s+)?(?:my|our|the)\s+(?:new\s+|revised\s+|updated\s+)?"
    r"(?:orders|bids|moves|codes)(?:\s+for\s+(?:this|next|the)\s+(?:turn|month|round))?(?:\s+(?:are|follow|below))?[\s:.!]*",
    re.IGNORECASE)
_DASHED_NAME = re.compile(r"(?:[-\u2013\u2014]{1,2}|~)\s*" + _NAME + r"(?:\s+" + _NAME + r")?\s*")
_PHONE = re.compile(r"(?:sent|envoyé|inviato|enviado|gesendet)\s+(?:from|with|via|de|da|desde|von)\s.{1,60}"
                    r"|get\s+outlook\s+for\s.{1,40}", re.IGNORECASE)
_BARE_NAME = re.compile(r"[^\W\d_][^\W\d_'-]*(?:['-][^\W\d_]+)?(?:\s+[^\W\d_]{1,20}\.?)?[\s,.!]*")


# "Lorenzo", "Anna", "McDonald", "O'Brien"; not "HP", "Ha", "BOB" nor Renaissance's "DEar": codes gone wrong.
_WRITTEN_AS_NAME = re.compile(r"[^\W\d_](?:[^\W\d_A-Z]|['’])(?:[^\W\d_]|['’-])+")


def prose_kind(line: str, *, last: bool = False, names: frozenset[str] = frozenset(),
               after_closing: bool = False, after_orders: bool = False,
               order_words: frozenset[str] = frozenset()) -> str | None:
    """"greeting", "closing" or "signature" if the line is one (see the module docstring), else None.

    A bare name is a signature only on the `last` non-blank line, and only if it is one of `names` (the
    sender's display name and player name, lower-cased words), follows a closing (`after_closing`), or
    signs orders (`after_orders`: orders were read above it) and is written as a name with none of the
    game's `order_words` (lower case) in it: "Borrow" alone on the last line is a player's mistake to be
    told about, not a signature.
    """
    text = line.strip().strip("*_").strip()
    if not text or len(text) > _MAX:
        return None
    if _GREETING.fullmatch(text):
        return "greeting"
    if _CLOSING.fullmatch(text) or _LEAD_IN.fullmatch(text):
        return "closing"
    if _DASHED_NAME.fullmatch(text) or _PHONE.fullmatch(text):
        return "signature"
    if last and _BARE_NAME.fullmatch(text) and text[:1].isupper():
        words = [w.strip(",.!").casefold() for w in text.split()]
        if after_closing or words[0] in names or " ".join(words) in names:
            return "signature"
        if after_orders and _WRITTEN_AS_NAME.fullmatch(text.split()[0].rstrip(",.!")) \
                and not order_words.intersection(words):
            return "signature"
    return None
