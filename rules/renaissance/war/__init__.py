"""Renaissance at war: the rules sections THE SWORD GARRISONS to NAVAL BATTLES, MAINTENANCE's war side, CONFLICT
ORDERS, CREDIT, and Appendices A (the war skills), D, E and F.

Battles, sieges, assaults and naval battles are formulas, not dice: nothing in this package draws from the RNG.
The readings (RW-OQ-01 to RW-OQ-48 of the rules' open points) are in docs/renaissance/war.md.

The package, by what each module holds:

- arith.py      the one rounding convention of every war step (RW-OQ-01)
- ranks.py      the retreat point and who outranks whom in a duel, from the one rank table (../ranks.py)
- morale.py     morale: combining, the end-of-stage change, bonuses, alcohol, multipliers
- forces.py     what a battle is fought with (Contingent, Side) and what it gives back (BattleResult)
- field.py      FIELD BATLE and Appendix D: the stage loop, retreat, result; field_dispose.py (horses, divisions,
                dispositions), field_stages.py (each half-stage), field_fire.py (the schedules), field_army.py
                (the kinds of fighter, targets, losses)
- urban.py      URBAN BATTLE
- assault.py    assaults of walls and towers, Appendix E, the urban prelude of a tower assault
- naval.py      NAVAL BOMBARDMENT (the order and the month step); naval_battle.py NAVAL BATTLES and Appendix F;
                naval_fleet.py divisions, ramming and the cargo adjustment both share
- siege.py      SIEGE, SIEGE BOMBARDMENT, siege attrition, CROP DESTRUCTION, RAZING OF FORTIFICATIONS
- raising.py    garrisons, feudal levies, professional soldiers, mercenaries' morale
- control.py    tenancy, feudatory and sovereignty transfers, DE FACTO CONTROL, looting, TOWERS
- intrigue.py   ASSASSINATION and DUELING
- conflict.py   the conflict orders (KI, KF/KU/KN, KG, KA/KT, KL/KX, KO, Z, ZP) and the checks they share: no other
                order after a battle, none after a move, none after an assault, credit; which battle an attack makes
- interception.py  interception along a move for travel.py: who intercepts, the 20-to-1 rule, the siege line crossed,
                the ferry stopped; the month's record of moves and passages
- sides.py      who stands on each side: allies fought in turn, the garrison's morale and support, the home side, the
                Z orders of the month, the Battle and its Sides
- battle.py     a battle fought: the engine run, its result carried into the state (losses, the dead, captures and
                their receiver, morale, positions, de facto control, slaves), the stages and fee, the report
- presence.py   where a persona stands and what he brings: alive, troops, men, points at sea, towers
- limits.py     what a persona may still do this month once a war order bound him (pins, battles, stages)
- fees.py       CONFLICT ORDERS fees and CREDIT for conflict orders
- words.py      how the reports count men, guns, ships and goods ("100 pikemen, 8 wool")
- orders.py     the war codes: parsing, checking, the words the ack and printout use
- reports.py    battle reports for printouts and the newsletter
"""
