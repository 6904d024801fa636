"""Stellar Conflict: secret fleets, real-time deployment, exact laser battles (2-4 players)."""

from skydeck.games.conflict.game import ConflictGame

GAME = ConflictGame

__all__ = ["GAME", "ConflictGame"]
