"""The words players use for the things of The Law of the Jungle, mapped to the game's canonical names.

The grammar (grammar/jungle.lark) recognises these words as terminals; this module says what each means: a
god in any of the rules' spellings, an attribute, a resource, a thing given, an attack type. It also holds
how free names are compared with the state's (`fold`) and the nearest spelling suggested for a wrong one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from .actions import ATTACK_TYPES
from .model import GODS, key

# The rules spell the God of War four ways (Hutzilopochtli, Huitzilopochtli, Hutizilopochtli,
# Hutzilopochltli: LJ-OQ-44); every spelling starting "hu" with "lopo" in it is he. The others by their
# first letters, as the grammar's GOD terminal reads them.
_GOD_PREFIXES = (("hu", "Huitzilopochtli"), ("quetz", "Quetzalcoatl"), ("tezca", "Tezcatlipoca"),
                 ("tlal", "Tlaloc"))
# What each god takes as an offering (AZTEC GODS: XP, Wisdom, Fame, Food).
GOD_TAKES = {"Huitzilopochtli": "xp", "Quetzalcoatl": "wisdom", "Tezcatlipoca": "fame", "Tlaloc": "food"}
assert set(GOD_TAKES) == set(GODS)


def god(word: str) -> str | None:
    """The canonical god (model.GODS) a word names, in any of the rules' spellings, or None."""
    w = word.casefold()
    for prefix, name in _GOD_PREFIXES:
        if w.startswith(prefix) and (prefix != "hu" or "lopo" in w):
            return name
    return None


def attribute(word: str) -> str | None:
    """xp, wisdom, craft or fame (actions.TRAINABLE) for an attribute word; food for "food"."""
    w = " ".join(word.casefold().split())
    if w in ("xp", "experience", "combat experience"):
        return "xp"
    if w in ("craft", "craftsmanship"):
        return "craft"
    if w in ("wisdom", "fame", "food"):
        return w
    return None


def resource(word: str) -> str | None:
    """beakers, hammers or food (actions.PURCHASABLE) for a resource word."""
    w = word.casefold()
    if w.startswith(("science", "beaker")):
        return "beakers"
    if w.startswith(("production", "hammer")):
        return "hammers"
    return "food" if w == "food" else None


# Words for the things a character may give (GIVE X), by actions.GIVABLE kind.
_KINDS = {"slave": "slave", "ownership": "slave", "owner": "slave", "captaincy": "captaincy",
          "captain": "captaincy", "command": "captaincy", "unit": "captaincy", "land": "land", "tile": "land",
          "hex": "land", "citizenship": "land", "rulership": "rulership", "throne": "rulership",
          "city": "rulership"}
# The item of a Challenge or Overthrow ("a city, piece of land, unit or ownership of a slave"; LJ-OQ-40).
_ITEMS = {"captaincy": "unit", "land": "land", "rulership": "city", "slave": "slave"}


def gift_kind(word: str) -> str | None:
    return _KINDS.get(word.casefold())


def item_kind(word: str) -> str | None:
    kind = _KINDS.get(word.casefold())
    return _ITEMS[kind] if kind else None


def attack_type(word: str) -> str | None:
    """One of actions.ATTACK_TYPES for an attack word in any inflection ("capturing", "assassination")."""
    w = word.casefold()
    if w in ("stole", "theft"):
        return "steal"
    for t in ATTACK_TYPES:
        stem = t[:5] if t != "duel" else "duel"
        if w.startswith(stem):
            return t
    return None


# ---- names -------------------------------------------------------------------------------------------------
_ARTICLES = ("the", "a", "an", "my", "his", "her", "our", "their")
_EDGE = re.compile(r"^[\s\"'\u2019.,:;()\[\]-]+|[\s\"'\u2019.,:;()\[\]-]+$")


def clean_name(text: str) -> str:
    """A name as written, without quotes, brackets and punctuation around it and blanks folded."""
    return " ".join(_EDGE.sub("", text).split())


def fold(name: str) -> str:
    """How a written name is compared with the state's: `model.key` (case, blanks), without a leading
    article ("the Jaguar Warriors" is "Jaguar Warriors") or a possessive ("Xolotl's" is "Xolotl")."""
    k = key(clean_name(name))
    words = k.split(" ")
    if len(words) > 1 and words[0] in _ARTICLES:
        k = " ".join(words[1:])
    for tail in ("'s", "\u2019s"):
        if k.endswith(tail):
            k = k[: -len(tail)]
    return k


def find(name: str, names: Iterable[str]) -> str | None:
    """The state's name that `name` means (compared with `fold`), or None."""
    wanted = fold(name)
    return next((n for n in names if fold(n) == wanted), None)


def nearest(name: str, names: Iterable[str]) -> str | None:
    """The state's name closest in spelling to `name`, to suggest in a diagnostic, or None if none is close."""
    by_fold = {fold(n): n for n in names}
    found = difflib.get_close_matches(fold(name), list(by_fold), n=1, cutoff=0.6)
    return by_fold[found[0]] if found else None


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """" (did you mean X?)" or ""."""
    near = nearest(name, names)
    return f" (did you mean {near}?)" if near else ""
