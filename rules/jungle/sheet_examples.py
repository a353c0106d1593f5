"""HELP's examples in this game's own names (`Jungle.help_examples`): the reader's own characters, his city and
its hexes, another city and its hexes, a character of another house, the units, the technologies that may be
researched, the buildings a city may produce and the policies; the order kinds' own examples
(orders.EXAMPLES) name the demo game's, which another setup lacks. Words for rules (gods, attributes, attack
types) and a newcomer's new name stay as orders.EXAMPLES has them."""

from __future__ import annotations

from typing import Any


def help_examples(state: dict[str, Any], player: str | None) -> dict[str, str]:
    characters = [c for c in (state.get("characters") or {}).values() if c.get("alive", True)]
    cities = state.get("cities") or {}
    if not characters or not cities:
        return {}
    own = [c for c in characters if c.get("house") == player] or characters[:1]
    me = own[0]
    city = cities.get(me.get("city")) or next(iter(cities.values()))
    # Another hex than his own, the city's centre last (its tile is the city's, not a farm).
    hexes = sorted((h for h in city.get("hexes", {}) if h != me.get("hex")), key=lambda h: h == city.get("centre")) \
        or list(city.get("hexes", {})) or [city["name"]]
    there = next((c for name, c in cities.items() if name != city["name"]), city)
    there_hex = next((h for h in there.get("hexes", {}) if h != there.get("centre")),
                     next(iter(there.get("hexes", {})), there["name"]))
    others = [c for c in characters if c.get("house") != me.get("house")] or characters
    near = next((c for c in others if c.get("city") == me.get("city")), others[0])["name"]
    # Splitting and offering are of his own house's characters: a second one where he has one.
    leaving = f"{me['name']} and {own[1]['name']} leave" if len(own) > 1 else f"{me['name']} leaves"
    offering = f"20 XP from {me['name']}, 5 Fame from {own[1]['name']}" if len(own) > 1 else \
        f"25 XP from {me['name']}"
    units = list(state.get("units") or {})
    empire = state.get("empire") or {}
    builds = list(city.get("builds") or {})
    out = {
        "Sacrifice": f"**Sacrifice** {me['name']} to Tlaloc",
        "Move": f"**Move** to hex {hexes[0]}",
        "Travel": f"**Travel** to {there['name']} hex {there_hex} (both actions)",
        "Desert": f"**Desert** to {there['name']} hex {there_hex}",
        "Retire": f"**Retire** to {there['name']} hex {there_hex}",
        "Evict": f"**Evict** {near} to hex {hexes[0]}",
        "Attack": f"**Attack** {near}, duel, desperate",
        "Propose": "**Propose** open borders with our neighbours for 30 gold",
        "Give": f"**Give** 5 gold to {near}",
        "Join Houses": f"**Join Houses** with {near}",
        "Split Houses": f"**Split Houses**: {leaving}",
        "Annex": f"**Annex** {city['name']}",
        "Propose Rule": f"**Propose Rule** slaves may toil twice. Offering: {offering}",
        "JOIN": f"JOIN Tizoc in {city['name']} hex {hexes[0]}",
    }
    if units:
        out |= {"Enlist": f"**Enlist** in {units[0]}", "Disband": f"**Disband** {units[0]}",
                "Order": f"**Order** {units[0]}: fortify on the hill, attack barbarians in reach"}
    if empire.get("technologies"):
        out["Research"] = f"**Research** {next(iter(empire['technologies']))}"
    if builds:
        out |= {"Produce": f"**Produce** {builds[-1]}",
                "Spend": f"**Spend** 50 gold on buying a {builds[-1]} in {city['name']}"}
    if empire.get("policies"):
        out["Support Policy"] = f"**Support Policy** {next(iter(empire['policies']))} with 5 Fame"
    return out
