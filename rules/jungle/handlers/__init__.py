"""Every module of action handlers, imported so that their ``@handles`` register (maild_rules.jungle.council)."""

import maild_rules.jungle.attacks  # noqa: F401  Attack, Defend
import maild_rules.jungle.cities  # noqa: F401  Spend, Propose, Annex
import maild_rules.jungle.giving  # noqa: F401 - "give"
import maild_rules.jungle.gods  # noqa: F401  Offering, Sacrifice
import maild_rules.jungle.houses  # noqa: F401 - procreate, recruit, train, purchase, join/split houses, propose rule
import maild_rules.jungle.land  # noqa: F401 - move, travel, toil, evict
import maild_rules.jungle.policies  # noqa: F401  Support Policy
import maild_rules.jungle.research  # noqa: F401  Research, Produce
import maild_rules.jungle.units  # noqa: F401  Enlist, Order, Desert, Disband, Retire
