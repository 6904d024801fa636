"""The simplest agents: uniform random play, and an adapter for a game's heuristic."""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Game, Rng


class RandomAgent:
    """Picks uniformly among the legal actions; a baseline and a sanity check."""

    name = "random"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        if not legal_actions:
            raise ValueError(f"random agent: seat {seat} was given no legal action")
        return legal_actions[self.rng.below(len(legal_actions))]


def heuristic_class(game_id: str) -> type | None:
    """The game's ``agents.AGENTS["heuristic"]`` class, or None if it has none."""
    cls = game_agent(game_id, "heuristic")
    return cls if isinstance(cls, type) else None


def game_agent(game_id: str, name: str) -> Any:
    """A game's own agent factory ``ai.AGENTS[name]`` (e.g. Stellarion's "pimc"),
    called as ``factory(game, seed=..., **params)``; None if the game has none."""
    from skydeck.registry import game_module

    module = game_module(game_id, "ai")
    return None if module is None else getattr(module, "AGENTS", {}).get(name)
