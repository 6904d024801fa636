"""The template's heuristic: play the highest card (it scores most now)."""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Game


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game

    def choose(self, view: dict[str, Any], legal: list[Action], seat: int) -> Action:
        return max(legal, key=lambda a: int(str(a.args[0])))


AGENTS: dict[str, Any] = {"heuristic": HeuristicAgent}
