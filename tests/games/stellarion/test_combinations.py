"""All 16 expansion combinations, solo and co-op: random games finish with every
invariant holding, and states round-trip through JSON."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from tests.games.stellarion.helpers import ALL, reveal_game
from tests.games.stellarion.test_properties import check_invariants, playout

COMBOS = [list(c) for n in range(5) for c in combinations(ALL, n)]


@pytest.mark.parametrize("reveal", ["one", "all"])
@pytest.mark.parametrize("players", [1, 2])
@pytest.mark.parametrize("exp", COMBOS, ids=lambda e: "+".join(e) or "base")
def test_every_combination_plays(players: int, exp: list[str], reveal: str) -> None:
    game = reveal_game(reveal, players=players, expansions=exp)
    for seed in range(3):
        for s, voyages in playout(players, exp, seed, reveal):
            check_invariants(s, voyages)
            if s.turns % 3 == 0:
                back = game.restore(json.loads(json.dumps(s.to_json())))
                assert back.to_json() == s.to_json()
        assert s.is_over


def test_sixteen_combinations() -> None:
    assert len(COMBOS) == 16
