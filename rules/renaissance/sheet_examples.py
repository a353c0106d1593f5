"""HELP's examples in the reader's own names (`Renaissance.help_examples`): his family's header line, his first
persona's header and codes naming his family's personae; for a stranger, the first family's. The sheet's
forms (/XXX *FAMILY, *Location .nnnn) stay as they are."""

from __future__ import annotations

from typing import Any

from .codesheet import families_of


def help_examples(state: dict[str, Any], player: str | None) -> dict[str, str]:
    families = families_of(state, player)
    if not families:  # a stranger, or a player without a family now: the first family of the game
        owner = next((f["player"] for f in (state.get("families") or {}).values()), None)
        families = families_of(state, owner)
    family = next((f for f in families if f["personae"]), None)
    if family is None:
        return {}
    personae = family["personae"]
    other = personae[1]["id"] if len(personae) > 1 else "9999"  # 9999: the locals
    return {"family": family["header"], "persona": personae[0]["header"], "codes": f"T{other}grain500 Bwool100"}
