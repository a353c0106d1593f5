"""What the ack to STATUS shows of a player's standing: his account with the GM and his families' ducats."""

from __future__ import annotations

from typing import Any

from .context import State


def status(state: State, player_code: str) -> dict[str, Any]:
    """Label -> value, as the month before the one being ordered left them. The state is only read (never
    `accounts.account`, which fills in a missing account)."""
    player = state["players"].get(player_code)
    if player is None:
        return {}
    balance = float(player.get("account", {}).get("balance", 0.0))
    out: dict[str, Any] = {"Account balance": f"{balance:,.2f}" + (" (owed: no orders run until it is paid)"
                                                                   if balance < -0.005 else "")}
    for name, family in state["families"].items():
        if family["player"] != player_code:
            continue
        personae = [state["personae"][pid] for pid in family["personae"] if pid in state["personae"]]
        ducats = sum(int(p.get("assets", {}).get("ducats", 0)) for p in personae if p.get("alive", True))
        out[f"{name} ducats"] = f"{ducats:,}"
    return out
