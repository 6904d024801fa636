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

#: The parameters of the agents that take them (a spec's ``KEY=VALUE``), each with its
#: type, read by ``skydeck.agents``' spec parser.
PARAMS: dict[str, dict[str, type]] = {
    "pimc": {"samples": int, "candidates": int, "seconds": float, "turns": int},
    "lookahead": {
        "top": int,
        "deals": int,
        "seconds": float,
        "samples": int,
        "endgame": int,
        "endgame_seconds": float,
    },
}
#: What each of the game's own agents is, for ``skydeck agents`` and the lobby.
SUMMARIES = {
    "pimc": "perfect-information Monte Carlo: the heuristic's best moves, each played out "
    "by the game's solver on deals drawn from the view",
    "lookahead": "the heuristic, its best moves judged by the best next turn on deals drawn "
    "from the view, and with 3 Voyages or fewer left played to the end of the game",
}

__all__ = ["AGENTS", "PARAMS", "SUMMARIES", "SUPPORT"]
