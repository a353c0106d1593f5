"""Package data: migrations (shipped inside the wheel as maild.migrations, read with importlib.resources)."""
