"""Stellar Expedition search support: the game's own view inversion, playouts played by
the game's heuristic, score-margin evaluation, and root candidates from the heuristic.

Random playouts run 200-400 steps and almost never complete an Expedition, so they
cannot tell a good move from a bad one (measured: the plain search lost 0/6 to the
heuristic, 2.5 points a game against 17.8). The search therefore weighs only the
heuristic's best-rated actions at the root, and its playouts let the heuristic play
every seat (about 0.1 ms a step) for 60 steps, judged by the score margin then
(Expeditions and Embassies score as they happen). The search thus asks "which of these
moves does best if both sides then play sensibly", which the one-step rating cannot see.
"""

from __future__ import annotations

import copy
from typing import Any

from skydeck.core import Action, Game, Rng, State
from skydeck.core.search import GameSupport
from skydeck.games.expedition.ai.heuristic import HeuristicAgent

ROOT_ACTIONS = 3
_RATERS: dict[int, tuple[Game, HeuristicAgent]] = {}


def _rater(game: Game) -> HeuristicAgent:
    cached = _RATERS.get(id(game))
    if cached is None or cached[0] is not game:
        cached = _RATERS[id(game)] = (game, HeuristicAgent(game, seed=0))
    return cached[1]


def candidates(game: Game, view: dict[str, Any], legal: list[Action], seat: int) -> list[Action]:
    if len(legal) <= ROOT_ACTIONS:
        return legal
    rater = _rater(game)
    ranked = sorted(legal, key=lambda a: -rater.score(view, a, seat))
    return ranked[:ROOT_ACTIONS]


_PLAYOUT: list[Any] = [None, None]  # [the state being played out, its heuristic player]


def rollout(state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
    """The heuristic's move. Each playout gets a fresh player (its memory of cancelled
    and replaced Expeditions belongs to that playout only) whose tie-breaking noise
    comes from the search's generator, so a search stays reproducible for a fixed seed."""
    if len(legal) == 1:
        return legal[0]
    if _PLAYOUT[0] is not state:
        player = copy.copy(_rater(state.game))  # shares the content lookups
        player.cancelled = set()
        player.replaced = set()
        _PLAYOUT[0], _PLAYOUT[1] = state, player
    player = _PLAYOUT[1]
    player.rng = rng
    return player.choose(state.view(seat), legal, seat)


SUPPORT = GameSupport(candidates=candidates, rollout=rollout, rollout_depth=60, score_scale=5.0)
