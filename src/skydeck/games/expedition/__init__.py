"""Stellar Expedition: explore a modular galaxy, build Embassies, recruit crew and
complete Expeditions over 8 rounds (2-4 players, or solo against the drone), with six
optional modules."""

from skydeck.games.expedition.game import ExpeditionGame

GAME = ExpeditionGame

__all__ = ["GAME", "ExpeditionGame"]
