"""Skydeck: four space tabletop games, one engine contract.

import skydeck
skydeck.games()                       # registered game ids
game = skydeck.load("stellarion", players=1)
state = game.new(seed=7)
"""

from skydeck import games
from skydeck.core.action import Action
from skydeck.core.errors import IllegalAction
from skydeck.registry import load

__version__ = "0.1.0"
__all__ = ["Action", "IllegalAction", "__version__", "games", "load"]
