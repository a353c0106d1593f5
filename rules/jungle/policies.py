"""Social policies: the support of a policy with Fame, and the Evening's draw when a policy is due
(GAME DECISIONS: DETERMINING SOCIAL POLICIES; MINISTER OF POLICY X (N)).

The Fame a character spends in support is gone when the action resolves, and the support stands from
session to session in `World.policy_support` until a policy is adopted (LJ-OQ-25). When the GM's update says
a policy is due (`Empire.policy_due`), the Evening draws one support weighted by the Fame spent: its policy
is adopted and its supporter becomes Minister of Policy X (N = the policy's era); every support is then used
up. No support (or none for a policy still adoptable): the adoption is deferred to a later session.
"""

from __future__ import annotations

from typing import Any

from maild.draws import weighted_choice

from .awards import award
from .council import Action, Council, Void, handles
from .model import Character, find_name


@handles("support policy")
def support_policy(council: Council, actor: Character, action: Action) -> None:
    """"any character may choose to spend some of their Fame in support of adopting a social policy"."""
    world = council.world
    wanted = str(action.args.get("policy") or "")
    policy = find_name(world.empire.policies, wanted)
    if policy is None:
        adoptable = ", ".join(world.empire.policies) or "none"
        raise Void(f"{wanted} is not a policy the empire can adopt now (adoptable: {adoptable})")
    fame = action.args.get("fame")
    if not isinstance(fame, int) or fame < 1:
        raise Void("say how much Fame to spend in support of the policy (1 or more)")
    if fame > actor.fame:
        # LJ-OQ-10: an action paid with what one does not have is void.
        raise Void(f"{actor.name} has {actor.fame} Fame, not the {fame} he would spend")
    actor.fame -= fame
    world.policy_support.append({"character": actor.name, "policy": policy, "fame": fame,
                                 "session": council.session})
    council.tell(action.house, f"{actor.name} spends {fame} Fame in support of {policy} (Fame now {actor.fame}); "
                               "the support stands until a policy is adopted.")
    council.announce(f"{actor.name} supports the adoption of {policy}.")


def draw_policy(council: Council) -> dict[str, Any] | None:
    """The Evening's policy draw, when the GM said a policy is due; None when none is due. Returns the GM's
    to-do entry ``{"kind": "policy", "policy": str | None, "character": str | None, "house": str | None,
    "era": int | None, "deferred": bool}``."""
    world = council.world
    if not world.empire.policy_due:
        return None
    supports = [s for s in world.policy_support
                if s["policy"] in world.empire.policies and s["character"] in world.characters
                and world.characters[s["character"]].alive]
    if not supports:
        council.announce("It is time to adopt a social policy, but no one supports one: "
                         "the adoption is deferred to a future council session.")
        return {"kind": "policy", "policy": None, "character": None, "house": None, "era": None, "deferred": True}
    chosen = weighted_choice(supports, [s["fame"] for s in supports], council.rng)
    minister = world.characters[chosen["character"]]
    policy = chosen["policy"]
    era = world.empire.policies[policy]
    title = award(minister, "Minister", policy, era)
    world.policy_support = []
    world.empire.policy_due = False
    council.tell(minister.house, f"{minister.name}'s support carried the day: the empire adopts {policy}, "
                                 f"and {minister.name} is {title.label()}.")
    council.announce(f"The empire adopts {policy}; {minister.name} of the house of {minister.house} is "
                     f"{title.label()}.")
    council.event("policy", policy=policy, character=minister.name, era=era)
    return {"kind": "policy", "policy": policy, "character": minister.name, "house": minister.house, "era": era,
            "deferred": False}
