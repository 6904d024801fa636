"""Stellium (Rémi Saunier, 2017) for 2-4 players: draw bodies by touch, place them in a
Universe of turning Galaxies, and build the shapes on your Mission cards."""

from skydeck.games.stellium.game import StelliumGame
from skydeck.games.stellium.state import StelliumState

GAME = StelliumGame

__all__ = ["GAME", "StelliumGame", "StelliumState"]
