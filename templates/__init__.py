"""Package data: templates (shipped inside the wheel as maild.templates, read with importlib.resources)."""
