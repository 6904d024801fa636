"""Every documented observation piece carries something: over random games each piece
is non-zero in some observation. A piece that is always zero (Stellium's ``spent`` was,
after issue 16 emptied the view field it read) only costs the learner inputs.

The games are seeded: random Stellium games seldom empty a Galaxy (about 1 in 100), so
seed 11, whose random game reaches a refill, lights the ``refill`` piece."""

from __future__ import annotations

from typing import Any

import pytest

from skydeck.core import Rng
from skydeck.rl.match import Match

CASES = [
    ("stellium", {"players": 2}, (0, 11)),
    ("conflict", {"players": 2}, (0, 1)),
]


def always_zero(game: str, options: dict[str, Any], seeds: tuple[int, ...]) -> list[str]:
    """The pieces that stay zero in every seat's observation over random games."""
    match = Match(game, **options)
    pieces = match.observer.pieces
    dark = set(pieces)
    for seed in seeds:
        state = match.new(seed)
        rng = Rng(seed)
        while not state.is_over and dark:
            movers = state.to_move
            seat = movers[0] if len(movers) == 1 else movers[rng.below(len(movers))]
            obs = match.observe(seat)
            dark -= {
                n for n in dark if obs[pieces[n].start : pieces[n].start + pieces[n].size].any()
            }
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat)
    return sorted(dark, key=list(pieces).index)


@pytest.mark.parametrize(("game", "options", "seeds"), CASES)
def test_no_piece_is_always_zero(
    game: str, options: dict[str, Any], seeds: tuple[int, ...]
) -> None:
    assert always_zero(game, options, seeds) == []
