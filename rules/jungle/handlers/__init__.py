"""Every module of action handlers, imported so that their ``@handles`` register (maild_rules.jungle.council)."""
from .. import cities as cities  # noqa: F401  (Spend, Propose, Annex)
from .. import units as units  # noqa: F401  (Enlist, Order, Desert, Disband, Retire)
