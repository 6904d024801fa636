"""Stellarion's AI: its own agents (``AGENTS``, by spec name) and what the generic
searches need to know of it (``SUPPORT``), found by ``skydeck.agents`` as the
game's ``ai`` module. The agents are gathered here, above the modules that define
them: ``pimc`` and ``lookahead`` build on the heuristic."""

from typing import Any

from skydeck.games.stellarion.ai.heuristic import HeuristicAgent
from skydeck.games.stellarion.ai.lookahead import LookaheadAgent
from skydeck.games.stellarion.ai.pimc import PimcAgent
from skydeck.games.stellarion.ai.support import SUPPORT

AGENTS: dict[str, Any] = {
    "heuristic": HeuristicAgent,
    "pimc": PimcAgent,
    "lookahead": LookaheadAgent,
}

__all__ = ["AGENTS", "SUPPORT"]
