"""Package data: examples (shipped inside the wheel as maild.examples, read with importlib.resources)."""
