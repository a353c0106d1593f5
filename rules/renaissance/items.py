"""Items: the trade goods of Appendix B, troops, ships and ducats; their classes, codes and cargo weights.

An item's canonical name is singular ("salt fish", "heavy cavalry"); its order code is that name with the blanks
taken out, cut to its first eight letters ("saltfish", "heavycav"), as the code sheet asks. Arquebusiers are
`qqq`. State keeps assets under canonical names.
"""

from __future__ import annotations

# Appendix B, singular. An item may sit in several classes (sugar is food, a spice and a drug).
CLASSES: dict[str, tuple[str, ...]] = {
    "food": ("grain", "salt fish", "oil", "butter", "honey", "candy", "cheese", "nut", "fruit", "cattle", "sheep",
             "fish", "sugar", "horse"),
    "alcohol": ("wine", "beer", "ale", "spirits"),
    "clothing": ("kersey", "broadcloth", "fustian", "damask", "cloth of gold", "lace", "leather", "fur", "linen",
                 "woolen", "braid", "cap", "velvet", "brocade", "calico", "samite", "camlet", "silk cloth",
                 "taffeta"),
    "metals": ("copper", "tin", "lead", "mercury", "gold", "silver", "iron", "brass", "bronze", "steel", "zinc"),
    "construction materials": ("timber", "brick", "tile", "slave", "marble"),
    "weaponry": ("small arms", "armor", "bow", "cannon", "falconet", "arquebus", "saltpeter", "sulfur", "pike",
                 "horse"),
    "manufactures": ("glass", "hardware", "trinket", "pottery", "enamel", "majolica", "cauldron", "book",
                     "porcelain", "candle", "perfume", "soap"),
    "spices": ("sugar", "saffron", "malaguetta", "cayenne", "pepper", "cinnamon", "clove", "ginger", "mace",
               "capsicum", "vanilla", "pimento", "nutmeg", "cumin", "mastic"),
    "drugs": ("camphor", "rhubarb", "sugar", "tobacco", "sweet potato", "quinine", "cocoa", "aloe", "senna",
              "galipot", "kotus", "kola", "opium"),
    "art objects": ("carpet", "manuscript", "tapestry", "carving", "icon"),
    "precious objects": ("amber", "gold", "silver", "coral", "relic", "pearl", "diamond", "sapphire", "ruby",
                         "emerald", "onyx", "ivory"),
    "fibers": ("wool", "flax", "cotton", "hemp", "raw silk"),
    "dyestuffs": ("alkanet", "puccoon", "kermes", "brazilwood", "alum", "vermilion", "verdigris", "indigo", "ochre",
                  "woad", "madder", "orchil", "cochineal", "catechu", "sandalwood"),
    "naval materials": ("timber", "pitch", "sail", "cordage", "barque", "galliot", "galley", "caravel",
                        "roundship"),
    "raw materials": ("salt", "timber", "tallow", "wax", "barrel", "cork", "coal", "potash", "natron", "chalk",
                      "hide", "paper"),
}

# Class codes for sell orders: the first three letters of the class.
CLASS_CODES: dict[str, str] = {cls[:3]: cls for cls in CLASSES}
assert len(CLASS_CODES) == len(CLASSES)

TROOPS = ("heavy cavalry", "light cavalry", "pikeman", "archer", "arquebusier", "auxiliary")
MEN = (*TROOPS, "crew", "slave", "colonist")
SHIPS = ("roundship", "caravel", "barque", "galley", "galliot")
# TRAVEL: "all cargos other than horses, slaves, troops, cattle and sheep must be carried by horses or slaves".
WALKERS = frozenset({"horse", "slave", "cattle", "sheep", *TROOPS})
LIVESTOCK = ("horse", "cattle", "sheep")
DUCATS = "ducats"

# TRAVEL: horses two cargo, cannon forty, ducats none, all men and all other goods one apiece.
# NAVIGATION: empty ships carried overland.
_CARGO = {"horse": 2, "cannon": 40, DUCATS: 0, "barque": 201, "caravel": 403, "roundship": 1203, "galliot": 400,
          "galley": 4000}

ALL_ITEMS: tuple[str, ...] = tuple(sorted({i for items in CLASSES.values() for i in items}
                                          | set(MEN) | set(SHIPS) | {DUCATS, "relic", "icon"}))


def code_of(name: str) -> str:
    """The order code of an item: blanks out, first eight letters; arquebusiers are `qqq`."""
    if name == "arquebusier":
        return "qqq"
    return name.replace(" ", "").lower()[:8]


BY_CODE: dict[str, str] = {code_of(name): name for name in ALL_ITEMS}
assert len(BY_CODE) == len(ALL_ITEMS), "two items share a code"
BY_CODE["ducat"] = DUCATS  # "ducats" is written both ways


def item_by_code(code: str) -> str | None:
    """The item a code names: exact code, or (for players who write the whole word, plural or not) the full
    name cut to eight letters; None if nothing matches."""
    c = code.lower().replace(" ", "")
    for candidate in (c, c[:8], c.rstrip("s")[:8], c[:-2][:8] if c.endswith("es") else ""):
        if candidate and candidate in BY_CODE:
            return BY_CODE[candidate]
    return None


def classes_of(item: str) -> tuple[str, ...]:
    return tuple(cls for cls, items in CLASSES.items() if item in items)


def cargo_weight(item: str, overland: bool = True) -> int:
    """Cargo units one of `item` takes. Ships are cargo only on land; at sea they carry rather than weigh."""
    if item in SHIPS and not overland:
        return 0
    return _CARGO.get(item, 1)
