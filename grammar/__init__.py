"""Package data: grammar (shipped inside the wheel as maild.grammar, read with importlib.resources)."""
