"""Stellium search support: the game's own view inversion, and its position value
(points scored plus how close the Missions in hand are) to judge playouts cut short.

Random playouts of Stellium last ~120 steps; cutting them at 24 steps and judging with
the heuristic's value keeps iterations cheap while the value still sees Missions that
are nearly done, which random play would rarely finish.
"""

from __future__ import annotations

import math

from skydeck.agents.support import GameSupport
from skydeck.core import State
from skydeck.games.stellium.agents import from_view, value

SCALE = 6.0  # points: a difference worth about a Mission


def evaluate(state: State) -> list[float]:
    n = state.game.players
    if state.is_over:
        winners = state.winners
        scores = state.scores
        out = []
        for i in range(n):
            best_other = max(scores[j] for j in range(n) if j != i)
            margin = 0.5 + 0.5 * math.tanh((scores[i] - best_other) / SCALE)
            out.append((0.9 if i in winners else 0.0) + 0.1 * margin)
        return out
    return [0.5 + 0.5 * math.tanh(value(state, i) / SCALE) for i in range(n)]  # type: ignore[arg-type]


SUPPORT = GameSupport(from_view=from_view, evaluate=evaluate, rollout_depth=24, score_scale=SCALE)
