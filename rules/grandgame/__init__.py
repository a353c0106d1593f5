"""The Grand Game: Politics, Development, and War (J. Andrew Sinclair), played by mail.

Only the board so far (`board.py`: the map file loaded and checked; `picture.py`: the board drawn as SVG and
PNG); the ruleset is not registered yet. The rules are /work/shared/rules/grand-game.md in the project's shared
material; the readings this package makes are in docs/grand-game.md.
"""
