"""A game's :class:`~skydeck.core.analysis.AnalysisSupport` and its playout policy.

Found as ``ANALYSIS`` in the game's ``analysis`` role module beside its Game class
(``registry.game_module``), so a game is complete when its own folder is; a game
without one gets the defaults (its heuristic plays the playouts, or random play).
"""

from __future__ import annotations

from typing import Any

from skydeck.agents.simple import heuristic_class
from skydeck.core import Action, Game, Rng, State
from skydeck.core.analysis import AnalysisSupport, Policy
from skydeck.registry import game_module

_DEFAULT = AnalysisSupport()


def analysis_for(game: Game | str) -> AnalysisSupport:
    """The game's declared analysis support, or the defaults."""
    module = game_module(game, "analysis")
    found = getattr(module, "ANALYSIS", None) if module is not None else None
    return found if isinstance(found, AnalysisSupport) else _DEFAULT


def heuristic_policy(game: Game) -> Policy:
    """The game's heuristic agent for every seat, one agent per seat per playout
    (seeded from the playout's generator), choosing on that seat's view; random play
    for a game without a heuristic."""
    cls = heuristic_class(game.id)
    agents: dict[int, Any] = {}

    def choose(state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        if cls is None:
            return legal[rng.below(len(legal))]
        agent = agents.get(seat)
        if agent is None:
            agent = agents[seat] = cls(game, seed=rng.next64() >> 33)
        return agent.choose(state.view(seat), legal, seat)

    return choose


def policy_for(game: Game, support: AnalysisSupport) -> Policy:
    """A fresh playout policy (call once per playout)."""
    return support.policy(game) if support.policy is not None else heuristic_policy(game)
