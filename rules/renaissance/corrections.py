"""ERRORS and STANDARDS OF CONDUCT: the GM's corrections of a month, carried out when that month is run or re-run.

ERRORS: "Where he discovers errors in the processing of orders ... he will make retroactive adjustments and/or
equitable compensation". STANDARDS OF CONDUCT: "Such transfers are deemed "gifts in contemplation of resignation"
and may be reversed by the GM upon his discovery of the violation. Battles which appear to have been arranged ...
are deemed "staged battles" and their effect is negated when the GM discovers the violation."

A correction is a GM order (`maild gm reverse|negate|compensate GAME [--turn N] ...`, ruleset.py) recorded for the
month it corrects; the framework's re-run of that month and of every month since (`maild turn rerun GAME N`)
carries it out, so what followed from the voided orders follows no more (docs/renaissance/hierarchies.md, section H,
RH-OQ-55, RH-OQ-56). Reversal and negation void the named orders of that month: they are reported as not carried
out, with the reason, and the month runs on without them. A compensation puts ducats in a persona's hands at the
start of the month. Each correction is logged in `state["corrections"]` and announced among the GM's bulletins of
the month's newsletter.
"""

from __future__ import annotations

from typing import Any

from .context import Ctx, State

_VOIDS = "corrections.void"  # scratch: (persona id, code upper-cased) -> why the order is void

# The GM order's kind -> what the voided orders were, as the printout and the newsletter say it.
VOIDING = {
    "gm_reverse": "a gift in contemplation of resignation, reversed by the GM (rules, STANDARDS OF CONDUCT)",
    "gm_negate": "a staged battle, negated by the GM (rules, STANDARDS OF CONDUCT)",
}
_ANNOUNCED = {
    "gm_reverse": "reverses as gifts in contemplation of resignation (STANDARDS OF CONDUCT)",
    "gm_negate": "negates as a staged battle (STANDARDS OF CONDUCT)",
}


def named_orders(text: str) -> list[tuple[str, str]]:
    """The orders a reversal or negation names: `.0101:T0102ducat1000` items, a persona's number and the code as
    the printout shows it, separated by commas or blanks. ValueError when one is not so written."""
    items = [w for w in text.replace(",", " ").split() if w]
    if not items:
        raise ValueError("name the orders to void: PERSONA:CODE, as the printout shows them (.0101:T0102ducat1000)")
    out = []
    for item in items:
        pid, sep, code = item.lstrip(".").partition(":")
        if not sep or not pid.isdigit() or not code:
            raise ValueError(f"{item!r}: write an order as PERSONA:CODE, as the printout shows it "
                             f"(.0101:T0102ducat1000)")
        out.append((pid, code.upper()))
    return out


def check(state: State, kind: str, fields: dict[str, Any]) -> str | None:
    """Why the GM's correction cannot be recorded against the state before its month, or None."""
    if kind in VOIDING:
        try:
            named = named_orders(str(fields["orders"]))
        except ValueError as exc:
            return str(exc)
        missing = sorted({pid for pid, _ in named if pid not in state["personae"]})
        return f"no persona {', '.join(missing)} in that month" if missing else None
    if kind == "gm_compensate" and str(fields["persona"]).lstrip(".") not in state["personae"]:
        return f"no persona {fields['persona']} in that month"
    return None


def _log(ctx: Ctx, kind: str, what: str, note: str) -> None:
    ctx.state.setdefault("corrections", []).append({"turn": ctx.turn, "kind": kind, "what": what, "note": note})


def _persona_words(ctx: Ctx, pid: str) -> str:
    persona = ctx.persona(pid)
    return f"{persona['name']} ({persona['family']} .{pid})" if persona else f".{pid}"


def apply(ctx: Ctx, kind: str, args: dict[str, Any]) -> str:
    """Carry out one correction at the start of its month; returns the newsletter's bulletin."""
    note = str(args.get("note") or "")
    because = f" ({note})" if note else ""
    if kind in VOIDING:
        named = named_orders(str(args["orders"]))
        voids = ctx.scratch.setdefault(_VOIDS, {})
        for pid, code in named:
            voids[(pid, code)] = VOIDING[kind]
        what = "; ".join(f"{_persona_words(ctx, pid)} {code}" for pid, code in named)
        _log(ctx, kind, what, note)
        return f"The GM {_ANNOUNCED[kind]} these orders: {what}{because}."
    # gm_compensate: ERRORS' "equitable compensation", in ducats, at the start of the month.
    pid = str(args["persona"]).lstrip(".")
    amount = int(args["ducats"])
    persona = ctx.persona(pid)
    if persona is None:
        return f"The GM's compensation for .{pid} lapses: there is no such persona."
    assets = persona.setdefault("assets", {})
    assets["ducats"] = int(assets.get("ducats", 0)) + amount
    what = f"{amount:,} ducats to {_persona_words(ctx, pid)}"
    _log(ctx, kind, what, note)
    ctx.tell(persona["family"], f"{pid}: the GM's compensation for an error of processing (rules, ERRORS): "
                                f"{amount:,} ducats{because}.")
    return f"The GM corrects an error of processing (ERRORS): {what}{because}."


def voided(ctx: Ctx, pid: str, code: str) -> str | None:
    """Why this persona's order (its code as written) is void by a correction of the month, or None."""
    return ctx.scratch.get(_VOIDS, {}).get((pid, code.upper()))
