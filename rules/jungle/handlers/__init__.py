"""Every module of action handlers, imported so that their ``@handles`` register (maild_rules.jungle.council)."""
