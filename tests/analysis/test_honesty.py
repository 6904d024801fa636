"""The analysis of a seat's decision never depends on what the seat could not see: two
true states with the same view of that seat (the hidden parts re-drawn) get the same
numbers and the same grade at a fixed seed."""

from __future__ import annotations

import pytest

from skydeck.agents.registry import make
from skydeck.analysis.analyse import decision
from skydeck.core import Rng
from skydeck.registry import load


def _midgame(game_id: str, players: int, steps: int):  # type: ignore[no-untyped-def]
    game = load(game_id, players=players)
    state = game.new(11)
    agents = [make("heuristic", game, seed=i) for i in range(players)]
    done = 0
    while done < steps or len(state.legal_actions(state.to_move[0])) < 2:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        state.apply(agents[seat].choose(state.view(seat), legal, seat), seat)
        done += 1
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    return state, seat, agents[seat].choose(state.view(seat), legal, seat)


@pytest.mark.parametrize(
    ("game_id", "players", "steps"),
    [("stellium", 2, 20), ("expedition", 2, 40), ("conflict", 2, 6), ("stellarion", 1, 6)],
)
def test_the_same_view_with_other_hidden_parts_gets_the_same_grades(
    game_id: str, players: int, steps: int
) -> None:
    state, seat, played = _midgame(game_id, players, steps)
    other = state.resample(seat, Rng(2024))
    other.rng = Rng(777, state.rng.draws)  # the generator is hidden too
    assert other.view(seat) == state.view(seat)
    assert other.to_json() != state.to_json(), "the hidden parts must differ for the test"
    a = decision(state, seat, played, playouts=6, width=2, seed=5)
    b = decision(other, seat, played, playouts=6, width=2, seed=5)
    assert a == b
    # and the seed matters: the numbers are playouts, not constants
    c = decision(state, seat, played, playouts=6, width=2, seed=6)
    assert (c["before"], c.get("after")) != (a["before"], a.get("after")) or a["forced"]
