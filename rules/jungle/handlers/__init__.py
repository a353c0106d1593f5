"""Every module of action handlers, imported so that their ``@handles`` register (maild_rules.jungle.council)."""
from ..policies import support_policy  # noqa: F401
from ..research import produce, research  # noqa: F401
