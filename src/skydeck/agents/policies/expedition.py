"""Stellar Expedition search support: the game's own view inversion (``belief.py``)
and score-margin evaluation of playouts.

Random playouts run 200-400 steps; they are cut at 60 steps and judged by the score
margin (Expeditions and Embassies score as they happen, so the margin is informative
long before the end).
"""

from __future__ import annotations

from skydeck.agents.support import GameSupport
from skydeck.games.expedition.belief import from_view

SUPPORT = GameSupport(from_view=from_view, rollout_depth=60, score_scale=5.0)
