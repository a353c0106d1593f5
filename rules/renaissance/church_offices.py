"""THE ECCLESIASTICAL OFFICES: the offices of the Catholic, Orthodox and Monophysite hierarchies, how they are
offered, accepted, appointed, resigned and lost. The papal election is papal_election.py's, the Orthodox and
Monophysite congresses church_congress.py's, excommunication excommunication.py's; tithes (taxes.py), indulgences
(piety.py) and sermons (works.py) were built before. Readings: docs/renaissance/hierarchies.md, section C (RH-OQ-15
to RH-OQ-29).

Where each office lives in the state:
- a bishop is `offices.bishop` of a location (his see), an archbishop (an Orthodox or Monophysite patriarch or
  metropolitan: "function as archbishops") `offices.archbishop` of the location that other locations name as their
  `see`; the archbishopric carries the bishopric of its own city;
- a cardinal has the title "Cardinal" among his `titles` (as the setup world writes it);
- the Pope is `state["pope"]`, with the title "Pope", the rank of the feudal table's top row, and the see of Rome;
- an offer awaiting acceptance (an investiture, a hat, an election) is an entry of `state["church_offers"]`.
"""

from __future__ import annotations

import re
from typing import Any

from .context import Ctx, Outcome, Persona, State, done, fail
from .grandmaster_vacancy import vacate as vacate_grandmastership
from .grandmasters import orders
from .offices import holder, set_office
from .ratings import spend_popularity
from .setup import find_location
from .war.control import office_towers_to_family

HIERARCHIES = ("catholic", "orthodox", "monophysite")
PAPAL_SEE = "Rome"
OFFERS = "church_offers"
CHURCH_OFFICES = ("bishop", "archbishop")

# "An archbishop's popularity is reduced by 20 points when he appoints a bishop whose combined ratings for piety and
# sermonizing come to fewer than 600 points" (800 for an archbishop, 1,000 for a cardinal).
UNSUITABLE = 20
SUITABLE = {"bishop": 600, "archbishop": 800, "hat": 1000}
HAT_MONTHS = (3, 9)  # "Each March and September ... the Pope may grant a cardinal's hat"

# The Pope's one act a turn: "Each turn the Pope may invest one bishop with a vacant archbishopric"; the hat is
# granted "instead of elevating a bishop to the rank of archbishop", and "Each June, in lieu of appointing an
# archbishop, the Pope may create a new military order" (military_orders.found_order asks pope_may_act and records
# its founding with pope_acts, so the three share one act a month).
POPE_ACT = "church.pope_act"
_BISHOP_MADE = "church.bishop_made"  # "one bishop per turn", per archbishop
_HAT_ACCEPTED = "church.hat_accepted"  # cardinals made this month were no cardinals at its start

_CARDINAL = re.compile(r"\bcardinal\b", re.I)
_POPE = re.compile(r"\bpope\b", re.I)


# ---- who holds what ------------------------------------------------------------------------------------------------

def _name(p: Persona) -> str:
    return f"{p.get('name', p['id'])} ({p['id']})"


def faith(p: Persona | None) -> str:
    return str((p or {}).get("religion") or "").lower()


def hierarchy(location: dict[str, Any] | None) -> str | None:
    """The hierarchy a see belongs to: its location's religion, when it is one of the three the rules give."""
    religion = str((location or {}).get("religion") or "").lower()
    return religion if religion in HIERARCHIES else None


def archbishoprics(state: State) -> list[str]:
    """The locations some location names as its `see`, in state order."""
    named = {loc.get("see") for loc in state["locations"].values()}
    return [name for name in state["locations"] if name in named]


def sees_held(state: State, pid: str, office: str) -> list[str]:
    """The locations whose `office` ("bishop" or "archbishop") pid holds himself, in state order."""
    return [name for name, loc in state["locations"].items() if holder(loc, office) == pid]


def is_cardinal(p: Persona | None) -> bool:
    return any(_CARDINAL.search(str(t)) for t in (p or {}).get("titles", []))


def is_pope(state: State, pid: str) -> bool:
    return bool(pid) and state.get("pope") == pid


def positions(state: State, pid: str) -> list[str]:
    """Every ecclesiastical position pid holds, as the printout words it."""
    held = [f"bishop of {s}" for s in sees_held(state, pid, "bishop")]
    held += [f"archbishop of {s}" for s in sees_held(state, pid, "archbishop")]
    if is_cardinal(state["personae"].get(pid)):
        held.append("cardinal")
    if is_pope(state, pid):
        held.append("Pope")
    return held


def merit(p: Persona) -> int:
    """"combined ratings for piety and sermonizing" (sermonizing is a skill: RH-OQ-21)."""
    return int(p.get("piety", 0)) + int((p.get("skills") or {}).get("sermonizing", 0))


def unfit(p: Persona | None, church: str | None) -> str | None:
    """Why p may not hold an office of this hierarchy, or None. "All members of the Catholic hierarchy must be
    Catholic. All members of the Orthodox hierarchy must be Orthodox"; "Female personae may not hold ecclesiastic
    positions"."""
    if p is None or not p.get("alive", True):
        return "there is no such living persona"
    if p.get("female"):
        return f"{_name(p)} is female: female personae may not hold ecclesiastic positions"
    if church is None or faith(p) != church:
        return f"{_name(p)} is not {church or 'of a Christian hierarchy'}: the {church} hierarchy is {church}"
    return None


# ---- offers --------------------------------------------------------------------------------------------------------

def offers(state: State) -> list[dict[str, Any]]:
    return state.setdefault(OFFERS, [])


def make_offer(ctx: Ctx, office: str, to: str, location: str | None, by: str | None) -> dict[str, Any]:
    """An offer of `office` ("archbishop", "hat", "pope") made this turn; it may be accepted until the end of the
    next turn."""
    entry = {"office": office, "location": location, "to": to, "by": by, "turn": ctx.turn}
    offers(ctx.state).append(entry)
    return entry


def pending(state: State, office: str, location: str | None = None, to: str | None = None) -> dict[str, Any] | None:
    for entry in state.get(OFFERS) or []:
        if entry["office"] == office and (location is None or entry["location"] == location) and (
                to is None or entry["to"] == to):
            return entry
    return None


def offer_words(entry: dict[str, Any]) -> str:
    if entry["office"] == "archbishop":
        return f"the archbishopric of {entry['location']}"
    return "a cardinal's hat" if entry["office"] == "hat" else "the papal throne"


def expire_offers(ctx: Ctx) -> None:
    """RH-OQ-17: an offer not accepted "no later than the end of the subsequent turn" lapses as the turn after it
    begins; the see stays vacant (a new investiture or congress may fill it), a lapsed papal election reopens the
    conclave."""
    kept = []
    for entry in ctx.state.get(OFFERS) or []:
        if entry["turn"] >= ctx.turn - 1:
            kept.append(entry)
            continue
        who = ctx.state["personae"].get(entry["to"])
        name = _name(who) if who else entry["to"]
        ctx.publish(f"{name} did not accept {offer_words(entry)} in time: the offer has lapsed.")
        if entry["office"] == "pope":
            conclave = ctx.state.get("conclave")
            if conclave is not None:
                conclave["elect"] = None
    if OFFERS in ctx.state:
        ctx.state[OFFERS] = kept


# ---- the Pope's and the archbishops' appointments ------------------------------------------------------------------

def _see(ctx: Ctx, written: Any) -> tuple[str, dict[str, Any]] | str:
    where = find_location(ctx.state, written)
    if where is None:
        return f"there is no location {written!r}"
    return where, ctx.state["locations"][where]


def _charge(persona: Persona, appointee: Persona, office: str) -> tuple[bool, str]:
    """RH-OQ-20: the 20 points fall when the appointment is made, on the ratings of that moment; one who has fewer
    than 20 cannot make it (POPULARITY: "Any attempt to do so would fail")."""
    floor = SUITABLE[office]
    if merit(appointee) >= floor:
        return True, ""
    if not spend_popularity(persona, UNSUITABLE):
        return False, (f"{_name(appointee)}'s piety and sermonizing come to {merit(appointee)}, fewer than {floor}: "
                       f"the appointment would cost {UNSUITABLE} popularity, more than he has")
    return True, f" (an unsuitable appointment: piety and sermonizing {merit(appointee)}, popularity -{UNSUITABLE})"


def pope_may_act(ctx: Ctx, persona: Persona) -> str | None:
    """Why persona may not make the Pope's act of this month (an investiture, a hat, a military order), or None."""
    if not is_pope(ctx.state, persona["id"]):
        return "only the Pope invests archbishops, grants cardinals' hats and creates military orders"
    acted = ctx.scratch.get(POPE_ACT, {}).get(persona["id"])
    if acted:
        return f"the Pope has already {acted} this month (one a turn)"
    return None


def pope_acts(ctx: Ctx, persona: Persona, what: str) -> None:
    """The Pope has made this month's act (`what`, as the refusal of a second one words it)."""
    ctx.scratch.setdefault(POPE_ACT, {})[persona["id"]] = what


def invest_archbishop(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OInnnnllll: "Each turn the Pope may invest one bishop with a vacant archbishopric"."""
    if why := pope_may_act(ctx, persona):
        return fail(why)
    found = _see(ctx, args.get("location"))
    if isinstance(found, str):
        return fail(found)
    where, loc = found
    if where not in archbishoprics(ctx.state):
        return fail(f"{where} is no archbishopric")
    if hierarchy(loc) != "catholic":
        return fail(f"the archbishopric of {where} is not of the Catholic hierarchy")
    if holder(loc, "archbishop"):
        return fail(f"the archbishopric of {where} is not vacant")
    if pending(ctx.state, "archbishop", where):
        return fail(f"the archbishopric of {where} has been offered already and awaits an acceptance")
    appointee = ctx.persona(str(args.get("appointee", "")))
    if appointee is None or (why := unfit(appointee, "catholic")):
        return fail(why if appointee else f"there is no persona {args.get('appointee')!r}")
    if appointee["id"] == persona["id"]:
        return fail("the Pope does not invest himself")
    if not sees_held(ctx.state, appointee["id"], "bishop"):
        return fail(f"{_name(appointee)} is no bishop: the Pope invests a bishop with an archbishopric")
    ok, charged = _charge(persona, appointee, "archbishop")
    if not ok:
        return fail(charged)
    pope_acts(ctx, persona, "invested an archbishop")
    make_offer(ctx, "archbishop", appointee["id"], where, persona["id"])
    ctx.tell(appointee["family"], f"{_name(appointee)} is invested by the Pope with the archbishopric of {where}: "
                                  f"accept it by the end of next month (OA{where.replace(' ', '')}).")
    ctx.publish(f"The Pope has invested {_name(appointee)} with the archbishopric of {where}.")
    return done(f"invested {_name(appointee)} with the archbishopric of {where}{charged}")


def grant_hat(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OKnnnn: "Each March and September, instead of elevating a bishop to the rank of archbishop, the Pope may grant
    a cardinal's hat to one archbishop"."""
    if ctx.month not in HAT_MONTHS:
        return fail("the Pope grants cardinals' hats in March and September only")
    if why := pope_may_act(ctx, persona):
        return fail(why)
    appointee = ctx.persona(str(args.get("appointee", "")))
    if appointee is None or (why := unfit(appointee, "catholic")):
        return fail(why if appointee else f"there is no persona {args.get('appointee')!r}")
    catholic_sees = [s for s in sees_held(ctx.state, appointee["id"], "archbishop")
                     if hierarchy(ctx.state["locations"][s]) == "catholic"]
    if not catholic_sees:
        return fail(f"{_name(appointee)} is no Catholic archbishop: the hat is granted to an archbishop")
    if is_cardinal(appointee) or pending(ctx.state, "hat", to=appointee["id"]):
        return fail(f"{_name(appointee)} is a cardinal already, or has a hat to accept")
    ok, charged = _charge(persona, appointee, "hat")
    if not ok:
        return fail(charged)
    pope_acts(ctx, persona, "granted a cardinal's hat")
    make_offer(ctx, "hat", appointee["id"], None, persona["id"])
    ctx.tell(appointee["family"], f"{_name(appointee)} is granted a cardinal's hat by the Pope: accept it by the end "
                                  "of next month (OAhat).")
    ctx.publish(f"The Pope has granted a cardinal's hat to {_name(appointee)}.")
    return done(f"granted a cardinal's hat to {_name(appointee)}{charged}")


def appoint_bishop(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OPnnnnllll: "An archbishop may appoint one bishop per turn to a vacant see within his archbishopric." No
    acceptance: the see is his at once (RH-OQ-19)."""
    pid = persona["id"]
    found = _see(ctx, args.get("location"))
    if isinstance(found, str):
        return fail(found)
    where, loc = found
    see = loc.get("see")
    if not see or holder(ctx.state["locations"].get(see) or {}, "archbishop") != pid:
        return fail(f"{where} is not within his archbishopric")
    church = hierarchy(ctx.state["locations"][see])
    if church is None:
        return fail(f"the archbishopric of {see} is of no Christian hierarchy")
    if holder(loc, "bishop"):
        return fail(f"the see of {where} is not vacant")
    if ctx.scratch.get(_BISHOP_MADE, {}).get(pid):
        return fail("he has appointed a bishop this month already (one per turn)")
    appointee = ctx.persona(str(args.get("appointee", "")))
    if appointee is None or (why := unfit(appointee, church)):
        return fail(why if appointee else f"there is no persona {args.get('appointee')!r}")
    if appointee["id"] == pid:
        return fail("an archbishop does not appoint himself to a see")
    ok, charged = _charge(persona, appointee, "bishop")
    if not ok:
        return fail(charged)
    ctx.scratch.setdefault(_BISHOP_MADE, {})[pid] = True
    set_office(loc, "bishop", appointee["id"])
    if appointee["family"] != persona["family"]:
        ctx.tell(appointee["family"], f"{_name(appointee)} was appointed bishop of {where} by {_name(persona)}.")
    ctx.publish(f"{_name(persona)} has appointed {_name(appointee)} bishop of {where}.")
    return done(f"appointed {_name(appointee)} bishop of {where}{charged}")


# ---- acceptance and resignation ------------------------------------------------------------------------------------

def _vacate(ctx: Ctx, where: str, office: str, lost: bool) -> str:
    """Vacate an office; `lost`: by means other than resignation or death (TOWERS, RH-OQ-26), so the office's tower
    becomes the losing family's."""
    loc = ctx.state["locations"][where]
    old = holder(loc, office)
    set_office(loc, office, None)
    said = office_towers_to_family(ctx, where, office, old, "") if lost else []
    return f"{office} of {where}" + (f" ({'; '.join(said)})" if said else "")


def _drop_title(p: Persona, pattern: re.Pattern[str]) -> None:
    p["titles"] = [t for t in p.get("titles", []) if not pattern.search(str(t))]


def leave_papacy(ctx: Ctx, pid: str) -> None:
    """The throne falls vacant (death or resignation): the see of Rome with it, and the conclave opens with the next
    turn (RH-OQ-16)."""
    from_turn = ctx.turn + 1
    ctx.state["pope"] = None
    persona = ctx.state["personae"].get(pid)
    if persona is not None and persona.get("alive", True):
        _drop_title(persona, _POPE)
        persona["rank"] = persona.pop("rank_before_papacy", "none")
        rome = ctx.state["locations"].get(PAPAL_SEE)
        for office in CHURCH_OFFICES:
            if rome is not None and holder(rome, office) == pid:
                set_office(rome, office, None)
    ctx.state["conclave"] = {"opened": from_turn, "elect": None}
    ctx.publish(f"The papal throne is vacant: the cardinals present in Rome elect the Pope from the turn {from_turn} "
                "on.")


def resign_others(ctx: Ctx, pid: str, keep: str | None = None, keep_hat: bool = False,
                  keep_order: str | None = None) -> list[str]:
    """RH-OQ-18: the acceptance of a church office itself ends every other ecclesiastical position, as a resignation
    (RH-OQ-26: the towers stay with the offices): the papal throne, bishoprics, archbishoprics, the hat, and a
    grandmastership, which is an ecclesiastical position (RH-OQ-29). The one place this rule lives: the church's
    acceptances and a grandmaster's (military_orders.install) call it. `keep`: the archbishopric kept (a
    cardinal's), with its city's bishopric; `keep_order`: the order whose grandmastership he is accepting."""
    ended = []
    if is_pope(ctx.state, pid):
        leave_papacy(ctx, pid)
        ended.append("the papal throne")
    for where in sees_held(ctx.state, pid, "archbishop"):
        if where != keep:
            ended.append(_vacate(ctx, where, "archbishop", lost=False))
    for where in sees_held(ctx.state, pid, "bishop"):
        if where != keep:
            ended.append(_vacate(ctx, where, "bishop", lost=False))
    persona = ctx.state["personae"][pid]
    if is_cardinal(persona) and not keep_hat:
        _drop_title(persona, _CARDINAL)
        ended.append("cardinal's hat")
    ended += _end_grandmasterships(ctx, pid, keep_order)
    return ended


def _end_grandmasterships(ctx: Ctx, pid: str, keep_order: str | None = None) -> list[str]:
    held = [k for k, o in orders(ctx.state).items() if o.get("grandmaster") == pid and k != keep_order]
    return [vacate_grandmastership(ctx, key) for key in held]


def _take_see(ctx: Ctx, pid: str, where: str) -> None:
    """The archbishop (and the Pope in Rome) holds the see's own bishopric too, when no one else does."""
    loc = ctx.state["locations"][where]
    set_office(loc, "archbishop", pid)
    if not holder(loc, "bishop"):
        set_office(loc, "bishop", pid)


def _accepted(ctx: Ctx, persona: Persona, entry: dict[str, Any]) -> str:
    pid = persona["id"]
    if entry["office"] == "archbishop":
        ended = resign_others(ctx, pid)
        _take_see(ctx, pid, entry["location"])
    elif entry["office"] == "hat":
        archbishoprics_held = sees_held(ctx.state, pid, "archbishop")
        ended = resign_others(ctx, pid, keep=archbishoprics_held[0] if archbishoprics_held else None, keep_hat=True)
        persona.setdefault("titles", []).insert(0, "Cardinal")
        ctx.scratch.setdefault(_HAT_ACCEPTED, set()).add(pid)
    else:
        ended = resign_others(ctx, pid)
        ctx.state["pope"] = pid
        ctx.state["conclave"] = None
        persona["rank_before_papacy"] = persona.get("rank", "none")
        persona["rank"] = "pope"
        persona.setdefault("titles", []).insert(0, "Pope")
        if PAPAL_SEE in ctx.state["locations"]:
            for office in CHURCH_OFFICES:
                set_office(ctx.state["locations"][PAPAL_SEE], office, pid)
    return f"; resigned: {', '.join(ended)}" if ended else ""


def accepted_hat_this_turn(ctx: Ctx, pid: str) -> bool:
    return pid in ctx.scratch.get(_HAT_ACCEPTED, set())


def _offer_named(state: State, written: str) -> tuple[str, str | None] | str:
    word = written.strip().lower()
    if word in ("hat", "cardinal", "cardinalate"):
        return "hat", None
    if word in ("pope", "papacy", "throne"):
        return "pope", None
    where = find_location(state, written)
    if where is None:
        return f"there is no location {written!r} (write the archbishopric's location, hat or pope)"
    return "archbishop", where


def accept_office(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OAllll, OAhat, OApope: accept an archbishopric, a cardinal's hat or the papal throne offered to him, "no later
    than the end of the subsequent turn", and "then resign all other ecclesiastical positions"."""
    named = _offer_named(ctx.state, str(args.get("office", "")))
    if isinstance(named, str):
        return fail(named)
    office, where = named
    entry = pending(ctx.state, office, where, persona["id"])
    if entry is None:
        what = offer_words({"office": office, "location": where})
        return fail(f"{what} has not been offered to him (an acceptance follows the offer: RH-OQ-50)")
    church = hierarchy(ctx.state["locations"][where]) if where else "catholic"
    if why := unfit(persona, church):
        return fail(why)
    if office == "archbishop" and holder(ctx.state["locations"][where], "archbishop"):
        return fail(f"the archbishopric of {where} is no longer vacant")
    if office == "pope" and ctx.state.get("pope"):
        return fail("the papal throne is no longer vacant")
    offers(ctx.state).remove(entry)
    ended = _accepted(ctx, persona, entry)
    ctx.publish(f"{_name(persona)} has accepted {offer_words(entry)}.")
    return done(f"accepted {offer_words(entry)}{ended}")


def resign_office(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OQllll, OQhat, OQpope: resign his bishopric and archbishopric at llll, his hat, or the papacy. A resignation:
    the offices' towers stay with the offices (TOWERS)."""
    pid = persona["id"]
    named = _offer_named(ctx.state, str(args.get("office", "")))
    if isinstance(named, str):
        return fail(named)
    office, where = named
    if office == "hat":
        if not is_cardinal(persona):
            return fail("he is no cardinal")
        _drop_title(persona, _CARDINAL)
        ctx.publish(f"{_name(persona)} has resigned his cardinal's hat.")
        return done("resigned his cardinal's hat")
    if office == "pope":
        if not is_pope(ctx.state, pid):
            return fail("he is not the Pope")
        leave_papacy(ctx, pid)
        return done("resigned the papal throne")
    assert where is not None
    held = [o for o in CHURCH_OFFICES if holder(ctx.state["locations"][where], o) == pid]
    if not held:
        return fail(f"he holds no ecclesiastical office at {where}")
    if is_pope(ctx.state, pid) and where == PAPAL_SEE:
        return fail("the see of Rome is the Pope's: he resigns it with the papacy (OQpope)")
    ended = [_vacate(ctx, where, o, lost=False) for o in held]
    ctx.publish(f"{_name(persona)} has resigned: {', '.join(ended)}.")
    return done(f"resigned: {', '.join(ended)}")


# ---- the month's steps ---------------------------------------------------------------------------------------------

# Titles of a hierarchy's dignities besides the cardinal's (the Orthodox and Monophysite archbishops "function as
# archbishops" under these names; a setup may write them as titles).
_EASTERN_TITLES = re.compile(r"^\s*(patriarch|metropolitan)\b", re.I)
_EASTERN = ("orthodox", "monophysite")


def faith_lost(ctx: Ctx, pid: str) -> list[str]:
    """"All members of the Catholic hierarchy must be Catholic. All members of the Orthodox hierarchy must be
    Orthodox" (and the Monophysite): what persona pid, no longer of a church's faith, loses at once. His sees of
    another faith fall vacant, a loss by means other than resignation or death, so the office's tower becomes his
    family's (TOWERS, RH-OQ-26); the hat, the papal throne and a grandmastership (RH-OQ-29) need a Catholic; a
    patriarch's or metropolitan's title goes with the Eastern faith. The one place this rule lives: the month's step
    (faith_keeps_office) and a conversion (apostasy.convert_family, RH-OQ-43) both call it. Returns what he lost,
    as the printout words it."""
    state = ctx.state
    p = state["personae"][pid]
    religion = faith(p)
    lost: list[str] = []
    for where in [*sees_held(state, pid, "archbishop"), *sees_held(state, pid, "bishop")]:
        loc = state["locations"][where]
        church = hierarchy(state["locations"].get(loc.get("see") or "") or loc)
        if church is None or church == religion:
            continue  # a see of no Christian hierarchy: the rules bind no faith to it
        for office in CHURCH_OFFICES:
            if holder(loc, office) == pid:
                said = _vacate(ctx, where, office, lost=True)
                ctx.publish(f"{_name(p)} is no longer {church}; vacant: {said}.")
                lost.append(said)
    if religion != "catholic":
        if is_pope(state, pid):
            leave_papacy(ctx, pid)
            ctx.publish(f"{_name(p)}, no longer Catholic, has lost the papal throne.")
            lost.append("the papal throne")
        hats = [str(t) for t in p.get("titles", []) if _CARDINAL.search(str(t))]
        if hats:
            _drop_title(p, _CARDINAL)
            ctx.publish(f"{_name(p)}, no longer Catholic, has lost his cardinal's hat.")
            lost += hats
        for title in _end_grandmasterships(ctx, pid):
            ctx.publish(f"{_name(p)}, no longer Catholic, is no longer {title}.")
            lost.append(title)
    if religion not in _EASTERN:
        eastern = [str(t) for t in p.get("titles", []) if _EASTERN_TITLES.search(str(t))]
        if eastern:
            _drop_title(p, _EASTERN_TITLES)
            lost += eastern
    return lost


def faith_keeps_office(ctx: Ctx) -> None:
    """The month's step: whoever is no longer of his office's faith (a change of religion, however ordered) loses it
    at the end of the month (faith_lost). One pass over the sees finds them, so that faith_lost's own look-ups run
    only for the few who lose something (the 1,000-family world: issue 25's benchmark)."""
    state = ctx.state
    people = state["personae"]
    losing: set[str] = set()
    for loc in state["locations"].values():
        church = hierarchy(state["locations"].get(loc.get("see") or "") or loc)
        if church is None:
            continue
        for office in CHURCH_OFFICES:
            pid = holder(loc, office)
            p = people.get(pid or "")
            if p is not None and faith(p) != church:
                losing.add(str(pid))
    catholic_dignities = {state.get("pope")} | {o.get("grandmaster") for o in orders(state).values()}
    for pid, p in people.items():
        if faith(p) != "catholic" and (pid in catholic_dignities or is_cardinal(p)):
            losing.add(pid)
        elif faith(p) not in _EASTERN and any(_EASTERN_TITLES.search(str(t)) for t in p.get("titles", ())):
            losing.add(pid)
    for pid in sorted(losing):
        if people[pid].get("alive", True):
            faith_lost(ctx, pid)


def church_deaths(ctx: Ctx) -> None:
    """Before succession: a dead Pope's throne falls vacant and the conclave opens (his heir inherits no office:
    THE PERSONAE FAMILIES); offers to the dead lapse, a dead pope-elect's election with them. Sees fall vacant in
    succession.py."""
    state = ctx.state
    pope = state["personae"].get(state.get("pope") or "")
    if pope is not None and not pope.get("alive", True):
        leave_papacy(ctx, pope["id"])
    if state.get(OFFERS):
        state[OFFERS] = [e for e in state[OFFERS]
                         if (state["personae"].get(e["to"]) or {}).get("alive", True)]
    conclave = state.get("conclave")
    if conclave and not (state["personae"].get(conclave.get("elect") or "") or {}).get("alive", True):
        conclave["elect"] = None  # a dead pope-elect: the cardinals vote again next month
