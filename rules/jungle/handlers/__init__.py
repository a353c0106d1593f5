"""Every module of action handlers, imported so that their ``@handles`` register (maild_rules.jungle.council)."""

import maild_rules.jungle.policies  # noqa: F401 - support policy
import maild_rules.jungle.research  # noqa: F401 - research, produce
