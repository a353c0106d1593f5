"""The Grand Game: Politics, Development, and War (J. Andrew Sinclair), played by mail.

So far the board (`board.py`: the map file loaded and checked), its picture (`picture.py`: SVG and PNG) and the
arithmetic of combat, costs and chances (`combat.py`, `seasearch.py`, `air.py`, `economy.py`); the ruleset is
not registered yet. The rules are `rules/grand-game.md` of the project's shared material; the readings this
package makes are in docs/grand-game.md.
"""
