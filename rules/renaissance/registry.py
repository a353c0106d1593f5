"""The tables the month runs by, in one place: which function carries out each order kind (HANDLERS, ACTIONS),
and the order of a month (MONTH), every step from the GM's orders to the fees, top to bottom, with the phases a
persona's orders run in (ORDER_PHASES).

This is the one module that imports the rule modules' handlers and steps; engine.py imports it to run a month, and
no rule module imports it or the engine (docs/renaissance.md, "How the modules depend on each other").

A handler gets the turn context, the persona dict and the order's args, changes the state in place and returns
an `Outcome` (context.py). The phase an order runs in is its kind's, in orderkinds.KINDS; when the phases run is
told by ORDER_PHASES. `execute_day` and `for_turn` have no handler: they only shape execution
(families.BOOKKEEPING).

Rules section ORDERS: "Orders are not simultaneous. They are executed sequentially." engine.run_month walks MONTH
from its first row to its last; nothing else orders a step. The families' orders (one row) run family by family,
and each persona's orders in the phases of ORDER_PHASES, in that table's order. A step is a function of the
month's context: the rule modules' steps take the `Ctx` every rule sees, the month's own steps (families.py) the
`Month`, which is that context with the orders, the order table and the result. docs/renaissance.md shows both
month tables (`markdown()`); a test checks that the doc and this file agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from string import ascii_lowercase

from . import (
    apostasy,
    church_congress,
    church_offices,
    colonies,
    commerce,
    crafts,
    crew,
    elections,
    engineering,
    excommunication,
    families,
    guild,
    information,
    information_address,
    ingress,
    loyalty,
    magistracy,
    markets,
    military_orders,
    nobility,
    papal_election,
    pestilence,
    piety,
    succession,
    taxes,
    training,
    travel,
    upkeep,
    works,
)
from .context import Action, Handler, Phase, Step
from .families import Month
from .orderkinds import BY_KIND
from .war import conflict, control, intrigue, naval, raising, siege, tower_siege

# ---- the order table ----------------------------------------------------------------------------------------------

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
    # THE ISLAMIC HIERARCHY: who takes a Shia or Sunni's hereditary positions at his death.
    "name_successor": succession.name_successor,
    # APOSTASY: a family (with every family of its player) changes religion.
    "convert": apostasy.convert,
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
    # ELECTIVE STATES: the vote for a ruler (Florence and Ragusa each December; the others when announced).
    "vote_ruler": elections.vote_ruler,
    # MILITARY ORDERS: the grandmaster's election and acceptance, his free heavy cavalry, founding an order.
    "vote_grandmaster": military_orders.vote_grandmaster,
    "accept_grandmastership": military_orders.accept_grandmastership,
    "claim_cavalry": military_orders.claim_cavalry,
    "found_order": military_orders.found_order,
    "order_office": military_orders.order_office,
    # THE HIERARCHIES: feudal elevation each February; an emir, bey or khan declares himself.
    "elevate": nobility.elevate,
    # THE ECCLESIASTICAL OFFICES: investitures, hats, bishops, acceptance and resignation, the conclave, the
    # Orthodox and Monophysite congresses, excommunication.
    "invest_archbishop": church_offices.invest_archbishop,
    "grant_hat": church_offices.grant_hat,
    "appoint_bishop": church_offices.appoint_bishop,
    "accept_office": church_offices.accept_office,
    "resign_office": church_offices.resign_office,
    "papal_vote": papal_election.papal_vote,
    "congress_vote": church_congress.congress_vote,
    "excommunicate": excommunication.excommunicate,
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


# ---- the month ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MonthStep:
    name: str
    fn: Callable[[Month], None]
    rules: str  # what the step does and when, with the rules' words it rests on


@dataclass(frozen=True)
class OrderPhase:
    phase: Phase
    name: str
    rules: str


MONTH: tuple[MonthStep, ...] = (
    # ---- before any order
    MonthStep("GM's orders", families.gm_orders,
              "the GM's payments, amendments and bulletins, first: CREDIT, \"No orders will be executed for any "
              "player until he has paid his prior month's fees in full\", so a payment recorded for this month counts"),
    MonthStep("starting places", families.note_starting_places,
              "where each persona begins the turn, inside the walls or not: many rules ask for it (COMMERCE, "
              "\"at a persona's starting location for the turn\")"),
    MonthStep("ingress waiting list", ingress.admit_waiting,
              "INGRESS: the waiting list admits one family a turn, at the start of the turn (readings I4, I5 in "
              "renaissance/ingress.md)"),
    MonthStep("quota completions", markets.quota_completions,
              "QUOTA COMPLETIONS: \"At the beginning of March\" demand, \"At the beginning of September\" supply"),
    MonthStep("wealth growth", markets.wealth_growth,
              "WEALTH: \"Each March, after the markets have been reset, but before March actions are executed\""),
    MonthStep("maintenance", upkeep.maintenance,
              "MAINTENANCE: \"automatically maintained at the start of each turn (prior to the execution of any "
              "actions ordered for that turn)\""),
    MonthStep("naval maintenance", upkeep.naval_maintenance,
              "MAINTENANCE: \"Naval maintenance is required at the start of the April turn\""),
    MonthStep("pestilence", pestilence.pestilence,
              "PESTILENCE: \"Each turn in which Europeans ... are present at the same location\": judged where the "
              "last turn left them, after maintenance"),
    MonthStep("magistrate elections", magistracy.elections,
              "MAGISTRATES: October's votes counted as November begins, \"Terms of office for elective magistrates "
              "run from November 1\""),
    MonthStep("ruler elections", elections.count_elections,
              "ELECTIVE STATES: Florence's and Ragusa's December votes counted as January begins, \"one-year terms of "
              "office commencing January 1\"; a state electing for life counts its election month's votes"),
    MonthStep("lapsed church offers", church_offices.expire_offers,
              "THE ECCLESIASTICAL OFFICES: an archbishopric, a hat or the papal throne is accepted \"no later than the "
              "end of the subsequent turn\"; an offer older lapses as the next turn begins (RH-OQ-17)"),
    MonthStep("lapsed collectors", taxes.expire_collectors,
              "SOVEREIGNS, BISHOPS: a collector is appointed \"for the subsequent turn\"; older appointments lapse"),
    MonthStep("recruits available", raising.recruit_pools,
              "PROFESSIONAL SOLDIERS: \"a number of professional soldier recruits available that is equal to 10% of "
              "its population plus any recruits available during the prior turn but not hired\""),
    MonthStep("sieges take effect", siege.sieges_take_effect,
              "SIEGE: \"Siege orders take effect the turn after their issuance\"; \"Siege orders fail when issued by a "
              "persona with fewer troops and crew than the total number inside\" (tested each month, RW-OQ-31)"),
    MonthStep("tower sieges take effect", tower_siege.tower_sieges_take_effect,
              "SIEGE: \"(Tower garrisons are not included in this computation unless the besieged fortification is a "
              "tower.)\": a tower's siege, tested and taking effect as a location's (RW-S2)"),
    # ---- the orders
    MonthStep("families' orders", families.families_orders,
              "ORDERS: \"Each family's orders are executed in the sequence in which I receive them\" (a family that "
              "asked for a day of the turn, after the others); its personae as written, each in the phases below; "
              "then the family's own orders (information requests)"),
    # ---- after every order
    MonthStep("naval bombardment", naval.naval_bombardments,
              "NAVAL BOMBARDMENT: cannons ordered the month before fire at the ships \"anchored in, or passing "
              "through\" his water, \"he must abstain from movement during the turn of bombardment\""),
    MonthStep("office transfers", control.settle_office_transfers,
              "TENANTS, FEUDATORIES: transfers \"through the simultaneous order\" of the holders, settled once every "
              "family's orders have run"),
    MonthStep("assassinations", intrigue.settle_assassinations,
              "Appendix A, ASSASSINATION: \"When two, or more, personae attempt to assassinate the same victim in the "
              "same turn, their ratings are added together\" (RW-OQ-46)"),
    MonthStep("duels", intrigue.settle_duels,
              "Appendix A, DUELING: \"When two personae challenge each other in the same month, a duel ensues\""),
    MonthStep("siege attrition", siege.siege_attrition,
              "SIEGE: \"When a fortification is under siege for an entire turn and no personae enter that location "
              "... the location suffers siege attrition\", at the end of each turn of successful siege"),
    MonthStep("tower siege attrition", tower_siege.tower_siege_attrition,
              "TOWERS: \"towers are treated as regular fortifications subject to the same rules\": a besieged tower "
              "no one entered all month suffers siege attrition (RW-S2)"),
    MonthStep("colonists survive", colonies.colonists_survive,
              "COLONIES: \"Should more than 100 be planted in a given turn, only 100 survive the turn\""),
    MonthStep("guild ranks", guild.guild_ranks,
              "Appendix A, MERCHANTRY: the masters' approvals of the turn counted, and the ranks ratings earn"),
    MonthStep("veneration", piety.settle_veneration,
              "REPUTATION FOR PIETY: relics or icons \"in his possession at the end of his turn\" (April)"),
    MonthStep("passengers follow their ship", travel.passengers_follow_their_ship,
              "TRAVEL: aboard, \"his location becomes 'with' the owner of the ship\": passengers end where it is"),
    MonthStep("architecture", works.settle_architecture,
              "ARCHITECTURE: \"A persona who remains at one location during the entire August turn\": judged "
              "after every move, passengers' included"),
    MonthStep("church offices and faith", church_offices.faith_keeps_office,
              "THE ECCLESIASTICAL OFFICES: \"All members of the Catholic hierarchy must be Catholic. All members of "
              "the Orthodox hierarchy must be Orthodox\": one no longer of his see's faith loses its offices "
              "(RH-OQ-26)"),
    MonthStep("papal election", papal_election.count_papal_votes,
              "THE ECCLESIASTICAL OFFICES: \"The Pope is elected by a plurality of the Cardinals present in Rome at "
              "the start of the turn\", with the non-player-controlled votes; counted after every order "
              "(RH-OQ-15, 16)"),
    MonthStep("Orthodox and Monophysite congresses", church_congress.count_congress_votes,
              "THE ECCLESIASTICAL OFFICES: patriarchs and metropolitans \"are elected by open congresses of Orthodox "
              "prelates\"; counted after every order (RH-OQ-23)"),
    MonthStep("a dead Pope", church_offices.church_deaths,
              "THE PERSONAE FAMILIES: \"New personae, however, do not inherit their predecessor's offices\": a dead "
              "Pope's throne falls vacant and the conclave opens next turn; offers to the dead lapse"),
    MonthStep("military orders", military_orders.military_orders,
              "MILITARY ORDERS: a June founding settled with its seat's tenancy; elections counted, an election not "
              "accepted \"no later than the end of the subsequent turn\" held again; a dead grandmaster's office "
              "vacant, before succession"),
    MonthStep("rulers for life", elections.ruler_vacancies,
              "ELECTIVE STATES: a ruler \"elected for life\" who died this month is succeeded by an election next "
              "month, announced in the Newsletter"),
    MonthStep("succession", succession.succession,
              "THE PERSONAE FAMILIES: every persona who died this month replaced; TRAVEL, \"Should the owner of the "
              "ships die, his passengers all die with him\""),
    MonthStep("fees", families.charge_fees,
              "CREDIT, PREPAYMENT DISCOUNT: the month's fees, for the families whose orders ran"),
)

ORDER_PHASES: tuple[OrderPhase, ...] = (
    OrderPhase(Phase.TRANSFER, "transfers",
               "ORDERS: \"A persona's transfer orders must be executed before any other\" of his orders"),
    OrderPhase(Phase.SELL, "sales", "ORDERS: \"sell orders must be executed next\""),
    OrderPhase(Phase.BUY, "purchases", "ORDERS: \"buy orders must be executed next\""),
    OrderPhase(Phase.TRAIN, "training", "ORDERS: \"training orders must be executed next\""),
    OrderPhase(Phase.OTHER, "other orders",
               "ORDERS names no place for them: after training, before movement, as written"),
    OrderPhase(Phase.MOVE, "movement",
               "ORDERS: \"movement orders must be executed last. Conflict orders take the place of movement "
               "orders.\""),
)

PHASE_ORDER: tuple[Phase, ...] = tuple(row.phase for row in ORDER_PHASES)
ORDERS_STEP = families.families_orders


def markdown() -> str:
    """Both tables as docs/renaissance.md shows them: the month's rows numbered, the phases under the
    families' orders lettered."""
    lines = ["| # | step | function | when, and the rules' words |", "|---|---|---|---|"]
    for number, row in enumerate(MONTH, start=1):
        lines.append(f"| {number} | {row.name} | `{_qualified(row.fn)}` | {_cell(row.rules)} |")
        if row.fn is ORDERS_STEP:
            for letter, phase in zip(ascii_lowercase, ORDER_PHASES, strict=False):
                lines.append(f"| {number}{letter} | {phase.name} | phase `{phase.phase.name}` | {_cell(phase.rules)} |")
    return "\n".join(lines) + "\n"


def _qualified(fn: Callable[..., None]) -> str:
    return f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


# The registry this table replaced, as the tests written against it read it: STEPS["start"] and ["end"],
# (rank, function name, step) for each rule module's step before and after the families' orders, in this
# table's order. The ranks are the numbers that registry gave (0 for a step it never had); they order nothing.
_OLD_RANKS: dict[str, int] = {
    "admit_waiting": 10,
    "quota_completions": 20, "wealth_growth": 30, "maintenance": 40, "naval_maintenance": 50, "pestilence": 60,
    "elections": 70, "expire_collectors": 80, "colonists_survive": 10, "guild_ranks": 30, "settle_veneration": 45,
    "passengers_follow_their_ship": 75, "settle_architecture": 77, "succession": 80,
}


def _old_registry() -> dict[str, list[tuple[int, str, Step]]]:
    steps: dict[str, list[tuple[int, str, Step]]] = {"start": [], "end": []}
    when = "start"
    for row in MONTH:
        if row.fn is ORDERS_STEP:
            when = "end"
        elif row.fn.__module__ != families.__name__:
            rule_step: Step = row.fn  # type: ignore[assignment]  # the rule modules' steps take a Ctx
            steps[when].append((_OLD_RANKS.get(row.fn.__name__, 0), row.fn.__name__, rule_step))
    return steps


STEPS = _old_registry()
