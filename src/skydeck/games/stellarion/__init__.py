"""Stellarion (inPatience, 2022): solo / two-player co-op deck management, with the four
expansions of the box. See RULINGS.md for every interpretation and VIEW.md for the
view and the action notation."""

from skydeck.games.stellarion.game import StellarionGame

GAME = StellarionGame

__all__ = ["GAME", "StellarionGame"]
