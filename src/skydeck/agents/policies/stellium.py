"""Stellium search support: the game's own view inversion, and its position value
(points scored plus how close the Missions in hand are) to judge playouts cut short.

Random playouts of Stellium last ~120 steps of mostly pointless moves; judging a leaf
by the heuristic's value right away (no playout) turns the search into a look-ahead
over that value, which sees Missions that are nearly done and what the rival can do
next, where random play would rarely finish a Mission at all.
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


SUPPORT = GameSupport(from_view=from_view, evaluate=evaluate, rollout_depth=0, score_scale=SCALE)
