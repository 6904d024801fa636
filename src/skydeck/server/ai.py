"""AI seats: an agent from ``skydeck.agents`` when it exists, a seeded random one until then.

Agents see a view and the legal actions, never the state (the Agent protocol).
"""

from __future__ import annotations

import importlib
from typing import Any

from skydeck.core import Action, Agent, Game, Rng


class RandomAgent:
    """Uniform among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        return self.rng.choice(legal_actions)


def available_specs(game_id: str) -> list[str]:
    """Agent specs the lobby offers for a game (``random`` always)."""
    try:
        agents: Any = importlib.import_module("skydeck.agents")
        infos = agents.agents()
        specs = [str(i.spec) for i in infos if game_id in i.games]
    except Exception:  # an agents package mid-construction must not break the lobby
        return ["random"]
    return specs if "random" in specs else ["random", *specs]


def make_agent(spec: str, game: Game, seed: int) -> Agent:
    """``skydeck.agents.make(spec, game, seed)`` if available; random otherwise."""
    try:
        agents: Any = importlib.import_module("skydeck.agents")
        make = agents.make
    except (ImportError, AttributeError):
        return RandomAgent(seed)
    try:
        agent: Agent = make(spec, game, seed=seed)
    except (ValueError, KeyError, TypeError):
        if spec != "random":
            raise
        return RandomAgent(seed)
    return agent
