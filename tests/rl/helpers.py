"""Shared pieces of the RL tests."""

from __future__ import annotations

from skydeck.core import Rng
from skydeck.rl.match import Match


def advance(match: Match, steps: int, seed: int) -> None:
    """A new episode of ``match`` on ``seed``, then ``steps`` seeded random legal moves
    (fewer if it ends): the same positions on every run."""
    state = match.new(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_move[rng.below(len(state.to_move))]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.below(len(legal))], seat)
