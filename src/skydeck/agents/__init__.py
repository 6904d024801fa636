"""Game-agnostic agents: random, the games' heuristics, and ISMCTS with levels.

    from skydeck import agents, load
    game = load("stellium", players=2)
    bot = agents.make("mcts:hard", game, seed=1)
    action = bot.choose(state.view(seat), state.legal_actions(seat), seat)

Agents receive a seat's view and legal actions, never a state (see
:mod:`skydeck.agents.belief` for how the search rebuilds states it may play on).
"""

from skydeck.agents.belief import Belief, NoBelief
from skydeck.agents.ismcts import Budget, Ismcts, Node
from skydeck.agents.mcts import LEVELS, Level, MctsAgent
from skydeck.agents.registry import AgentInfo, agents, make, parse_spec, specs_for
from skydeck.agents.simple import RandomAgent
from skydeck.agents.support import GameSupport, register, support_for

__all__ = [
    "LEVELS",
    "AgentInfo",
    "Belief",
    "Budget",
    "GameSupport",
    "Ismcts",
    "Level",
    "MctsAgent",
    "NoBelief",
    "Node",
    "RandomAgent",
    "agents",
    "make",
    "parse_spec",
    "register",
    "specs_for",
    "support_for",
]
