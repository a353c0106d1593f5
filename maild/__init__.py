"""maild: a play-by-mail game master that runs on e-mail."""

__version__ = "0.1.0"
