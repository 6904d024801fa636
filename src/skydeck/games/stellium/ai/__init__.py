"""Stellium's AI: its own agents (``AGENTS``, by spec name) and what the generic
searches need to know of it (``SUPPORT``), found by ``skydeck.agents`` as the
game's ``ai`` module."""

from skydeck.games.stellium.ai.heuristic import AGENTS
from skydeck.games.stellium.ai.support import SUPPORT

#: The game's own agents beside ``heuristic`` (``greedy`` takes no parameters).
PARAMS: dict[str, dict[str, type]] = {"greedy": {}}
#: What each of them is, for ``skydeck agents`` and the lobby.
SUMMARIES = {
    "greedy": "the heuristic's one-step value alone (each action by the table it leaves): "
    "weaker and faster, the search's playout policy",
}

__all__ = ["AGENTS", "PARAMS", "SUMMARIES", "SUPPORT"]
