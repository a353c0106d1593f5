"""A game of two phases a turn, for the tests of maild/phases.py: each player picks a number in the morning
and guesses another player's number in the afternoon; players who picked the same number vote, in an extra
phase, on whether to keep their picks or draw new ones."""
