"""A minimal complete game to copy when adding a new one (see ../CHECKLIST.md).

High Card: nine cards 1-9 are shuffled and each seat holds two face down. On a turn a
seat plays a card face up (scoring it) and draws a replacement; when every hand is
empty the highest total wins. Small, but it has what every real game has: hidden
cards, a random deck, a view per seat, a heuristic, an RL encoding.

The folder starts with ``_`` so that it is never offered as a game itself; a copy under
another name is discovered like any game. Its modules import one another relatively,
so a copy works under any package name.
"""

from .game import TemplateGame

GAME = TemplateGame
__all__ = ["GAME", "TemplateGame"]
