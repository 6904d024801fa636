"""Stellar Expedition search support: the game's own view inversion (``belief.py``),
score-margin evaluation of playouts, and root candidates from the game's heuristic.

Random playouts run 200-400 steps and almost never complete an Expedition, so on their
own they cannot tell a good move from a bad one (measured: the plain search lost 0/6 to
the heuristic, 2.5 points a game against 17.8). The search therefore only weighs the
heuristic's three best-rated actions at the root; playouts are cut at 60 steps and
judged by the score margin (Expeditions and Embassies score as they happen).
"""

from __future__ import annotations

from typing import Any

from skydeck.agents.support import GameSupport
from skydeck.core import Action, Game
from skydeck.games.expedition.agents import HeuristicAgent
from skydeck.games.expedition.belief import from_view

ROOT_ACTIONS = 3
_RATERS: dict[int, tuple[Game, HeuristicAgent]] = {}


def candidates(game: Game, view: dict[str, Any], legal: list[Action], seat: int) -> list[Action]:
    if len(legal) <= ROOT_ACTIONS:
        return legal
    cached = _RATERS.get(id(game))
    if cached is None or cached[0] is not game:
        cached = _RATERS[id(game)] = (game, HeuristicAgent(game, seed=0))
    rater = cached[1]
    ranked = sorted(legal, key=lambda a: -rater.score(view, a, seat))
    return ranked[:ROOT_ACTIONS]


SUPPORT = GameSupport(from_view=from_view, candidates=candidates, rollout_depth=60, score_scale=5.0)
