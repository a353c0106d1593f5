"""The Law of the Jungle (Aztlan) as a maild ruleset: the contract's hooks, each handing over to the part of
the game that holds the rule (orders, engine, chart, setup, the GM's update)."""

from __future__ import annotations

import random
from typing import Any

from maild.policies import LaterReplacesSameKey
from maild.ruleset import (
    Diagnostic,
    Order,
    ParsedOrders,
    Phase,
    PhaseResult,
    PlacedOrder,
    PlayerSpec,
    Ruleset,
    SignUp,
    TurnResult,
)

from . import chart, engine, orders, sheet_examples, update
from .model import Character, House, World, key


def order_key(order: Order) -> tuple[str, ...]:
    """What a later mail's order replaces (LaterReplacesSameKey): the action on file for the same character in
    the same part (a phase's mails are its own order sets; an action labelled "Afternoon:" in a Morning mail
    is for the Afternoon); a JOIN replaces a JOIN; each pre-game purchase is its own (several stand before the
    kick-off, engine.PREGAME)."""
    if order.kind == engine.JOIN:
        return (engine.JOIN,)
    who = key(str(order.args.get("character") or ""))
    if order.kind in engine.PREGAME:
        thing = order.args.get("resource") or order.args.get("attribute") or order.args.get("name") or ""
        return (who, order.kind, key(str(thing)), str(order.line))
    label = order.args.get("part")  # "Afternoon:" in a Morning mail: a slot of its own (engine.with_kept)
    return (who, label) if label else (who,)


class Jungle(Ruleset):
    """The Law of the Jungle (Aztlan): you rule a house of Aztec characters. Each council session has a
    Morning and an Afternoon; each character acts once in each. Write each action as its keyword in bold
    (**Attack** NAME, duel), under a line with the character's name and a colon when your house has more
    than one. JOIN Name in City signs you up."""

    name = "jungle"
    reads_emphasis = True
    late_policy = "next_turn"
    resubmission = LaterReplacesSameKey(
        key=order_key,
        second_mail=("Send a later mail any time before this part's deadline: an action in it replaces the "
                     "action on file for the same character, and the other actions on file stand."))
    order_kinds = orders.ORDER_KINDS
    gm_orders = (update.UPDATE_ORDER,)
    sign_up_word = "JOIN"

    # -- orders --------------------------------------------------------------------------------------------------
    def parse(self, text: str) -> ParsedOrders:
        return orders.parse(text)

    def refine(self, state: dict[str, Any], turn: int, player: str, given: list[Order]) -> list[Order]:
        return orders.refine(self._world_to_read(state), player, given)

    def help_examples(self, state: dict[str, Any], player: str | None) -> dict[str, str]:
        return sheet_examples.help_examples(state, player)

    def check(self, state: dict[str, Any], turn: int, player: str, given: list[Order]) -> list[Diagnostic]:
        joins = [o for o in given if o.kind == engine.JOIN]
        world = World.load(state) if joins else self._world_to_read(state)
        if joins and not world.members(player):
            # The actions of a JOIN mail are his character's, who exists once the JOIN is carried out.
            args = joins[-1].args
            name = str(args.get("name") or player)
            world.houses.setdefault(player, House(player, ""))
            if world.character(name) is None:
                world.characters[name] = Character(name, player, city=args.get("city"), hex=args.get("hex"),
                                                   since=world.session + 1)
        return orders.check(world, world.session + 1, player, [o for o in given if o.kind != engine.JOIN])

    def _world_to_read(self, state: dict[str, Any]) -> World:
        """The world of `state`, for reading only. Intake hands every mail of a batch the same state dict, and
        loading 2,000 characters for each mail made the intake of a busy Morning quadratic; so the world
        loaded last is reused while it is that very dict (held here, so its identity cannot be reused by
        another). A later pass reads the state from the database again: a new dict, a new world."""
        last = self._last_read
        if last is None or last[0] is not state:
            last = self._last_read = (state, World.load(state))
        return last[1]

    _last_read: tuple[dict[str, Any], World] | None = None

    def check_gm(self, state: dict[str, Any], kind: str, fields: dict[str, Any],
                 pending: tuple[Order, ...] = (), turn: int | None = None) -> str | None:
        world = World.load(state)
        if pending:  # checked against the world as the updates already recorded for the turn will leave it
            from .council import Council

            council = Council(world, random.Random(0), "morning")  # a scratch copy: its draws are never kept
            for order in pending:
                if order.kind == kind and update.check_update(world, order.args.get("file", order.args)) is None:
                    update.apply_update(council, order.args.get("file", order.args))
        return update.check_update(world, fields.get("file", fields))

    # -- sign-up by mail ------------------------------------------------------------------------------------------
    def sign_up(self, state: dict[str, Any], turn: int, address: str, display_name: str | None,
                parsed: ParsedOrders) -> SignUp | str:
        """A stranger's JOIN: his house is named after his character (one word, as players are named in the
        header line); refused with the reason when the name or the place is not right."""
        joins = [o for o in parsed.orders if o.kind == engine.JOIN]
        if not joins:
            return "to join the game, write JOIN, your character's name and a city: JOIN Itzel in Tenochtitlan"
        world = World.load(state)
        args = joins[-1].args
        name = str(args.get("name") or "").strip()
        house = "_".join(name.split())
        if not house:
            return "JOIN needs your character's name: JOIN Itzel in Tenochtitlan"
        if house in world.houses or world.character(name) is not None:
            return f"the name {name} is taken: choose another"
        why = None
        check_join = engine.step("check_join")
        if check_join is not None:
            why = check_join(world, name, args.get("city"), args.get("hex"))
        if why:
            return why
        return SignUp(player=house, password=None)

    # -- the game --------------------------------------------------------------------------------------------------
    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        from .setup import new_world

        return new_world(setup).dump()

    def players(self, state: dict[str, Any]) -> list[PlayerSpec]:
        return [PlayerSpec(h["name"], h["email"], h.get("password")) for h in state.get("houses", {}).values()]

    def phases(self) -> tuple[Phase, ...]:
        return (Phase("morning"), Phase("afternoon"))

    def resolve(self, state: dict[str, Any], turn: int, placed: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        raise AssertionError("a council session is resolved a part at a time (resolve_phase)")

    def resolve_phase(self, state: dict[str, Any], turn: int, phase: str, placed: dict[str, list[PlacedOrder]],
                      rng: random.Random) -> TurnResult:
        world = World.load(state)
        session = world.session + 1
        if phase == "morning":
            part = engine.morning(world, placed, rng)
            reports, events, parts = part.council.reports, part.council.events, ("morning",)
            todo: list[dict[str, Any]] | None = None
            council_session = world.kicked_off
        else:
            council_session = world.kicked_off
            after, evening = engine.afternoon(world, placed, rng)
            reports = after.council.reports + evening.council.reports
            events = after.council.events + evening.council.events
            parts = ("afternoon", "evening")
            todo = evening.todo
        # Every house, and a sender who is no house (a refused JOIN) still reads why.
        houses = sorted(set(world.houses) | {p for p in placed if not p.startswith("#")})
        printouts = chart.printouts(world, houses, reports, session, parts)
        newsletter = chart.newsletter(world, reports, session, parts)
        report = None
        if todo is not None and council_session:
            report = self._gm_report(world, todo)
        elif todo is not None and world.kicked_off:  # the sign-up period ended this Evening: who was drawn
            report = {"session": session, "sections": [
                {"title": "The kick-off: the council of T0 is the next session",
                 "lines": [r.text for r in evening.council.reports if r.house is None]}]}
        return PhaseResult(world.dump(), printouts, newsletter, events, gm_report=report)

    @staticmethod
    def _gm_report(world: World, todo: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The GM's to-do mail after the Evening (todo.gm_report); the session's proposals and to-do entries
        go out in it and are cleared."""
        report = engine.step("gm_report")
        context = report(world, todo) if report is not None else None
        world.proposals = []
        world.todo = []
        return context

    # -- what players read besides the printouts --------------------------------------------------------------------
    def welcome(self, state: dict[str, Any], player: str, turn: int = 1) -> dict[str, Any] | None:
        world = World.load(state)
        if player not in world.houses:
            return None
        mine = world.members(player)
        lines = [f"You rule the house of {player}." if mine else f"Your house {player} has no character yet."]
        for c in mine:
            lines.append(f"{c.name}, a {c.role}, lives {chart.where(c)}: {chart.attributes(c)}.")
        house = world.houses[player]
        lines.append(f"Your house's food: {house.food}, gold: {house.gold}.")
        how = ["Each council session has a Morning and an Afternoon, each with its own deadline; every character "
               "acts once in each. Write each action as its keyword in bold: **Attack** Xolotl, duel (in plain "
               "text put two asterisks on each side). When your house has more than one character, start each "
               "character's actions with a line of his name and a colon: Itzel:",
               "The results of the Morning come before the Afternoon's deadline; the Evening follows the "
               "Afternoon: food is eaten and the session closes."]
        if not world.kicked_off:
            how.append("Before the kick-off your characters may only Purchase, Train and Recruit.")
        festival = [f"This session's festival is that of {world.festival}."] if world.festival else \
            ["The festival of the first council is drawn at the kick-off and announced in the newsletter."]
        cities = sorted({c.city for c in mine if c.city in world.cities})
        choose = chart.choices(world)[:2] + [f"Produce in {n} (cost): {chart.named(world.cities[n].builds)}"
                                             for n in cities]
        choose.append("Each part's newsletter lists every character, the cities, hexes and units.")
        return {"sections": chart.sections({"title": "Your house", "lines": lines},
                                           {"title": "How to act", "lines": how},
                                           {"title": "What your actions choose from", "lines": choose},
                                           {"title": "Festival", "lines": festival}),
                "welcome_for": ""}

    def status(self, state: dict[str, Any], turn: int, player: str) -> dict[str, Any]:
        world = World.load(state)
        house = world.houses.get(player)
        if house is None:
            return {}
        out: dict[str, Any] = {"Food": house.food, "Gold": house.gold}
        for c in world.members(player):
            out[c.name] = f"{c.role}, {chart.attributes(c)}, {chart.where(c)}"
        return out

    def export_players(self, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
        world = World.load(state)
        return {h.name: {"email": h.email, "food": h.food, "gold": h.gold,
                         "characters": {c.name: {"role": c.role, "xp": c.xp, "fame": c.fame, "wisdom": c.wisdom,
                                                 "craft": c.craft, "titles": [t.label() for t in c.titles]}
                                        for c in world.members(h.name)}}
                for h in world.houses.values()}

    def template_context(self, state: dict[str, Any], turn: int) -> dict[str, Any]:
        # Read from the dict: this runs for every mail, and loading a world of thousands of characters for
        # three figures would be most of an ack's time (bench/jungle_session.py --framework).
        return {"festival": state.get("festival"), "session": int(state.get("session", 0)) + 1,
                "kicked_off": bool(state.get("kicked_off"))}
