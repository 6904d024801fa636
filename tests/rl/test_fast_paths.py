"""The step's shortcuts give the same answers as the plain path: a game's own indexer
(Stellar Conflict's deployment spots) and the catalogue's identity look-up (engines'
memoised actions; Stellar Expedition's are the catalogue's own objects) against
``catalogue.encode`` of every legal action, for every seat (movers and waiters), in
random games of every player count, in the grid and continuous variants; the mask is
the indexes' scatter."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from skydeck.core import IllegalAction, Rng
from skydeck.games.stellarion.content import EXPANSIONS
from skydeck.rl.match import Match

CASES = [
    ("conflict", {"players": 2}),
    ("conflict", {"players": 3}),
    ("conflict", {"players": 4}),
    ("conflict", {"players": 2, "placement": "continuous"}),
    ("stellium", {"players": 2}),
    ("stellium", {"players": 4}),
    ("expedition", {"players": 2}),
    ("expedition", {"players": 3, "modules": ["player_powers", "artifacts"]}),
    ("stellarion", {}),
]


@pytest.mark.parametrize(("game", "options"), CASES)
def test_legal_indices_and_mask_match_the_plain_path(game: str, options: dict[str, Any]) -> None:
    match = Match(game, **options)
    catalogue = match.catalogue
    when = catalogue.encode(match.module.CONTINUOUS_WHEN) if match.continuous else None
    fast_hits = 0
    rng = Rng(3)
    for seed in range(3):
        state = match.new(seed)
        while not state.is_over:
            for seat in range(match.players):
                legal = state.legal_actions(seat)
                want = [catalogue.encode(a) for a in legal]
                if when is not None and when in want:
                    want.append(catalogue.n)
                assert match.legal_indices(seat) == want
                mask = match.mask(seat)
                assert mask.shape == (match.n_actions,) and mask.dtype == np.int8
                assert np.flatnonzero(mask).tolist() == sorted(set(want))
                if match._fast is not None and match._fast(state, seat) is not None:
                    fast_hits += 1
            seat = state.to_move[rng.below(len(state.to_move))]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat)
    if game == "conflict":
        assert fast_hits > 10, "the deployment shortcut was never taken: nothing was tested"


#: engines whose step skips re-validation: Stellium keeps its legal list per position,
#: Stellar Expedition counts its moves
PROVEN = [("stellium", {"players": 3}), ("expedition", {"players": 2})]


@pytest.mark.parametrize(("game", "options"), PROVEN)
def test_a_step_proven_by_the_legal_list_plays_as_the_engine_does(
    game: str, options: dict[str, Any]
) -> None:
    """The step skips the engine's re-validation of an index from the legal list it just
    handed out: the states stay those of plain ``state.apply``, and the shortcut is
    taken (the engine's validate is never called on it)."""
    match = Match(game, **options)
    assert match._prove
    plain = match.game.new(4)
    state = match.new(4)
    rng = Rng(9)
    validated = []
    original = type(state).validate

    def spy(self: Any, action: Any, seat: int) -> None:
        validated.append(action)
        original(self, action, seat)

    type(state).validate = spy  # type: ignore[method-assign]
    try:
        steps = 0
        while not state.is_over and steps < 400:
            seat = state.to_move[0]
            indices = match.legal_indices(seat)
            index = indices[rng.below(len(indices))]
            plain.apply(match.catalogue.decode(index), seat)
            match.play(seat, index)
            assert state.to_json() == plain.to_json()
            steps += 1
    finally:
        type(state).validate = original  # type: ignore[method-assign]
    assert steps > 100
    assert len(validated) == steps  # the plain applies only: the env never validated


@pytest.mark.parametrize(("game", "options"), PROVEN)
def test_a_stale_legal_list_proves_nothing(game: str, options: dict[str, Any]) -> None:
    """The state moved behind the match's back (as the Gymnasium face's opponents move
    it): an index of the old legal list that is no longer legal is refused, naming it,
    and the state is untouched."""
    match = Match(game, **options)
    state = match.new(1)
    seat = state.to_move[0]
    indices = match.legal_indices(seat)  # Stellium: the draw step; Expedition: a start
    state.apply(match.catalogue.decode(indices[0]), seat)  # now another step, or seat
    before = state.to_json()
    legal_now = state.legal_actions(seat)
    stale = next(i for i in indices if match.catalogue.decode(i) not in legal_now)
    with pytest.raises(IllegalAction, match=f"action {stale} .* is outside the action mask"):
        match.play(seat, stale)
    assert state.to_json() == before


@pytest.mark.parametrize(("game", "options"), PROVEN)
def test_an_index_added_to_the_list_handed_out_proves_nothing(
    game: str, options: dict[str, Any]
) -> None:
    """The match keeps its own copy of the indexes it handed out: an illegal index the
    caller adds to the list it got is refused, and the state is untouched."""
    match = Match(game, **options)
    state = match.new(2)
    seat = state.to_move[0]
    indices = match.legal_indices(seat)
    illegal = next(
        i for i in range(1, match.catalogue.n) if i not in indices and _refused(match, seat, i)
    )
    indices.append(illegal)
    before = state.to_json()
    with pytest.raises(IllegalAction, match=f"action {illegal} .* is outside the action mask"):
        match.play(seat, illegal)
    assert state.to_json() == before


def _refused(match: Match, seat: int, index: int) -> bool:
    """Does the engine refuse this index's action now (Stellium accepts ``timeout`` off
    the legal list)?"""
    try:
        match.live.clone().apply(match.catalogue.decode(index), seat)
    except IllegalAction:
        return True
    return False


#: engines whose memo builds the catalogue's own actions (shared by value)
SHARED = [
    ("expedition", {"players": 2}),
    ("stellarion", {}),
    ("stellarion", {"players": 2, "expansions": list(EXPANSIONS)}),
]


@pytest.mark.parametrize(("game", "options"), SHARED)
def test_legal_actions_are_the_catalogues_own(game: str, options: dict[str, Any]) -> None:
    """Stellar Expedition's and Stellarion's memos built the catalogue's actions, so
    their legal lists map by identity from the first step: the catalogue never has to
    learn an object, and a decoded index is the engine's own action."""
    match = Match(game, **options)
    catalogue = match.catalogue
    learned: list[Any] = []
    original = catalogue._learn

    def spy(action: Any) -> int:
        learned.append(action)
        return original(action)

    catalogue._learn = spy  # type: ignore[method-assign]
    rng = Rng(5)
    steps = 0
    try:
        for seed in range(3):
            state = match.new(seed)
            while not state.is_over:
                seat = state.to_move[rng.below(len(state.to_move))]
                legal = state.legal_actions(seat)
                indices = match.legal_indices(seat)
                assert all(catalogue.decode(i) is a for i, a in zip(indices, legal, strict=True))
                match.play(seat, indices[rng.below(len(indices))])
                steps += 1
    finally:
        del catalogue._learn  # the catalogue is shared: back to the class's method
    assert steps > 200
    assert learned == []
