"""The view's remembered deck parts: equal to a view made afresh, and the caller's to
change (a change to one view never reaches the next)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skydeck.core import Rng
from skydeck.games.stellarion import view as V
from skydeck.registry import load


def _walk(seed: int, steps: int, expansions: list[str]):
    game = load("stellarion", expansions=expansions)
    state, rng = game.new(seed), Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.below(len(legal))], seat)
    return state


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    expansions=st.sampled_from([[], ["theories"], ["glaucous_sun"], ["mirrors"], ["black_holes"]]),
)
def test_a_remembered_view_equals_a_fresh_one(seed, steps, expansions):
    state = _walk(seed, steps, expansions)
    warm = V.make_view(state, 0)
    V._DECKS.clear()
    assert V.make_view(state, 0) == warm


def test_changing_a_view_changes_no_later_view():
    state = _walk(5, 30, [])
    first = V.make_view(state, 0)
    pristine = V.make_view(state, 0)
    for deck in first["decks"]:
        deck["known_top"].append("junk")
        deck["known_bottom"].append("junk")
        deck["discards"].append("junk")
        deck["contents"]["junk"] = 9
        deck["count"] = -1
    assert V.make_view(state, 0) == pristine
