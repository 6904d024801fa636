"""Stellar Conflict's AI: its own agents (``AGENTS``, by spec name) and what the generic
searches need to know of it (``SUPPORT``), found by ``skydeck.agents`` as the
game's ``ai`` module."""

from skydeck.games.conflict.ai.heuristic import AGENTS
from skydeck.games.conflict.ai.support import SUPPORT

__all__ = ["AGENTS", "SUPPORT"]
