"""The League of Nations (section The League of Nations, GG-OQ-25): who attacks a Neutral Power, the Francs the
players chip in for each territory attacked, and the infantry and supplies they buy.

"During each combat phase, at the start of the order resolution in that phase, a player must announce if he had
ordered his units into a Neutral territory (before any other orders are revealed)." "At the conclusion of time,
each player submits an amount he is willing to "chip in" to fund the defense of the neutral country." "Every 12
Francs contributed instantaneously adds 1 infantry and 1 supply to the territory being invaded. Contributions are
rounded down."
"""

from __future__ import annotations

from .economy import LEAGUE_PRICE, league_reinforcements


def shares(francs: int, to: str | None, attacked: list[str]) -> dict[str, int]:
    """How one player's contribution goes to the territories attacked: all to the one he names; with none named,
    evenly over all of them in the newsletter's order, the Francs that do not divide to the first ones."""
    if to is not None:
        return {to: francs}
    if not attacked:
        return {}
    each, extra = divmod(francs, len(attacked))
    return {t: each + (i < extra) for i, t in enumerate(attacked)}


def refunds(pool: dict[str, int]) -> dict[str, int]:
    """What goes back to each contributor of one territory's pool: the Francs that buy nothing (the pool's
    remainder below 12: "Contributions are rounded down", so only what buys infantry is spent), shared in
    proportion to the contributions, rounded down, the Francs left over to the larger contributions first, then
    in the pool's order (receipt)."""
    total = sum(pool.values())
    left = total - league_reinforcements(pool) * LEAGUE_PRICE
    if left == 0 or total == 0:
        return dict.fromkeys(pool, 0)
    back = {p: left * n // total for p, n in pool.items()}
    rest = left - sum(back.values())
    for p in sorted(pool, key=lambda p: -pool[p]):
        if rest == 0:
            break
        back[p] += 1
        rest -= 1
    return back
