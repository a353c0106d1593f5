"""The rule modules whose handlers and steps the engine loads, in no particular order (each registers itself)."""

RULE_MODULES: tuple[str, ...] = (
    "commerce",
    "markets",
    "guild",
    "offices",
    "taxes",
    "magistracy",
    "loyalty",
    "colonies",
    "information_address",
    "piety",
    "training",
    "upkeep",
    "pestilence",
    "succession",
    "travel",
    "information",
    "crew",
    "works",
    "crafts",
    "engineering",
)
