"""Observations come from the seat's view only, so hidden information cannot leak:
two states that differ only in what a seat cannot see give that seat the same
observation. Also: the named pieces tile the vector, rendering works."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import skydeck
import skydeck.rl
from skydeck.core import Rng
from skydeck.rl.match import Match
from tests.rl.helpers import advance

HIDDEN = [
    ("stellarion", {"players": 1}, 12),  # deck orders
    ("stellium", {"players": 3}, 20),  # the Mission Reserve's order
    ("expedition", {"players": 3}, 40),  # hands, Secret Expeditions, deck orders
    ("conflict", {"players": 2}, 6),  # the other fleet, hand and deck order
]


@pytest.mark.parametrize(("game", "options", "steps"), HIDDEN)
def test_hidden_information_does_not_change_the_observation(
    game: str, options: dict[str, Any], steps: int
) -> None:
    match = Match(game, **options)
    differed = 0
    for seed in range(3):
        advance(match, steps, seed)
        state = match.live
        for seat in range(match.players):
            other = state.resample(seat, Rng(1000 + seed))
            assert other.view(seat) == state.view(seat)
            if other.to_json() != state.to_json():
                differed += 1
            twin = Match(game, **options)
            twin.state = other
            assert np.array_equal(match.observe(seat), twin.observe(seat))
            assert np.array_equal(match.mask(seat), twin.mask(seat))
    assert differed, "resample never changed a hidden part: the test would prove nothing"


def test_conflict_seat_sees_its_own_fleet_not_the_others() -> None:
    match = Match("conflict", players=2)
    state = match.new(5)
    buy = next(a for a in state.legal_actions(1) if a.kind == "buy")
    before = [match.observe(0), match.observe(1)]
    state.apply(buy, 1)
    assert np.array_equal(before[0], match.observe(0))  # seat 1's purchase is secret
    assert not np.array_equal(before[1], match.observe(1))


@pytest.mark.parametrize("game", sorted(skydeck.rl.ENV_IDS))
def test_pieces_tile_the_vector(game: str) -> None:
    match = Match(game)
    observer = match.observer
    end = 0
    for name, shape, start, doc in observer.describe():
        assert start == end, name
        assert doc
        end += int(np.prod(shape))
    assert end == observer.size
    match.new(0)
    pieces = observer.unpack(match.observe(0))
    assert pieces["seat"][0] == 1.0


@pytest.mark.parametrize("game", sorted(skydeck.rl.ENV_IDS))
def test_render_ansi(game: str) -> None:
    env = skydeck.rl.aec_env(game, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and len(text) > 50


@pytest.mark.parametrize("game", ["conflict", "stellarion"])
def test_render_rgb_array(game: str) -> None:
    """Conflict rasterises its own SVG table; Stellarion its terminal text as a page."""
    env = skydeck.rl.gym_env(game, render_mode="rgb_array", opponents="random")
    env.reset(seed=0)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[0] > 100 and picture.shape[1] > 100
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 2  # something was drawn
