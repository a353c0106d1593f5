"""Which function carries out each order kind: one dispatch table, grouped by subject as the rule modules are.

A handler gets the turn context, the persona dict and the order's args, changes the state in place and returns
an `Outcome` (engine.py). The phase an order runs in is its kind's, in orderkinds.KINDS; when the phases run is
told by month.ORDER_PHASES. `execute_day` and `for_turn` have no handler: they only shape execution
(families.BOOKKEEPING).
"""

from __future__ import annotations

from . import (
    colonies,
    commerce,
    crafts,
    crew,
    engineering,
    guild,
    information,
    information_address,
    ingress,
    loyalty,
    magistracy,
    piety,
    taxes,
    training,
    travel,
    works,
)
from .engine import Action, Handler
from .orderkinds import BY_KIND
from .war import conflict, control, intrigue, naval, raising, siege, tower_siege

HANDLERS: dict[str, Handler] = {
    # COMMERCE: transfers, sales to the locals' demand, purchases from their supply.
    "transfer": commerce.transfer,
    "sell": commerce.sell,
    "buy": commerce.buy,
    # SKILLS: one persona trains another.
    "instruct": training.instruct,
    # Appendix A, MERCHANTRY: the merchants' guild.
    "guild": guild.guild_order,
    # REPUTATION FOR PIETY, and charity (POPULARITY).
    "pilgrimage": piety.pilgrimage,
    "venerate": piety.venerate,
    "alms": piety.alms,
    "charity": piety.charity,
    "indulgence": piety.indulgence,
    # Appendix A, ARCHITECTURE, ART, LETTERS, SERMONIZING, FORTIFICATION: works of skill.
    "work": works.work,
    "sermon": works.sermon,
    "fortify": works.fortify,
    # Appendix A, the making of things: CANNONMAKING ... ALCHEMY and the five kinds of shipbuilding.
    "fabricate": crafts.fabricate,
    # TRAVEL's roadbuilding, Appendix A ENGINEERING, and HARBORS.
    "build_road": engineering.build_road,
    "lengthen_road": engineering.lengthen_road,
    "deepen_harbor": engineering.deepen_harbor,
    # Taxes (SOVEREIGNS) and tithes (BISHOPS): collectors and collection.
    "appoint_tax_collector": taxes.appoint_tax_collector,
    "appoint_tithe_collector": taxes.appoint_tithe_collector,
    "collect_taxes": taxes.collect_taxes,
    "collect_tithe": taxes.collect_tithe,
    # MAGISTRATES: tariffs, appointment, resignation, the method of selection, votes.
    "tariff": magistracy.tariff,
    "appoint_magistrate": magistracy.appoint_magistrate,
    "resign_magistracy": magistracy.resign_magistracy,
    "magistrate_selection": magistracy.magistrate_selection,
    "vote": magistracy.vote,
    # LOYALTY (holding court).
    "hold_court": loyalty.hold_court,
    # INGRESS, EGRESS & EXTERNAL MARKETS: the de facto controller's lists (ingress.py, walls.py).
    "access": ingress.access,
    "external_market": ingress.external_market,
    # COLONIES.
    "colonize": colonies.colonize,
    # NAVIGATION (crew), and TRAVEL.
    "recruit_crew": crew.recruit_crew,
    "abandon": travel.abandon,
    "stay_outside": travel.stay_outside,
    "permit_boarding": travel.permit_boarding,
    "move": travel.move,
    # War (part 2): rules/renaissance/war/, docs/renaissance/war.md.
    "recruit_garrison": raising.recruit_garrison,
    "levy": raising.levy,
    "recruit_soldiers": raising.recruit_soldiers,
    "morale_bonus": raising.morale_bonus,
    "alcohol": raising.alcohol,
    "bonus_city": raising.bonus_city,
    "transfer_office": control.transfer_office,
    "transfer_control": control.transfer_control,
    "transfer_tower": control.transfer_tower,
    "loot": control.loot,
    "towers": control.towers,
    "intercept": conflict.intercept,
    "attack": conflict.attack,
    "garrison_attack": conflict.garrison_attack,
    "assault": conflict.assault,
    "siege": tower_siege.siege_order,
    "bombard": tower_siege.bombard_order,
    "naval_bombardment": naval.naval_bombardment,
    "crops": siege.crops,
    "raze": siege.raze,
    "alliance": conflict.alliance,
    "no_support": conflict.no_support,
    "assassinate": intrigue.assassinate,
    "duel": intrigue.duel,
    "dispose": conflict.dispose,
    "post": conflict.post,
    # INFORMATION ORDERS (family-level).
    "ask_address": information_address.ask_address,
    "ask_depth": information.ask_depth,
    "ask_coordinates": information.ask_coordinates,
}

# What execution looks up: each kind's handler with its phase. A test may swap one entry for a stand-in.
ACTIONS: dict[str, Action] = {kind: Action(kind, BY_KIND[kind].phase, fn) for kind, fn in HANDLERS.items()}
