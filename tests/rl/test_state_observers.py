"""Observers that encode straight from the state (``Observer.observe`` overridden, for
the RL step's speed) give exactly the view's encoding: the same floats in the same
places, over random games of every option set the game lists, every seat, and on the
states ``resample`` and ``from_view`` make (whose hidden parts differ from the real
game's), so the fast path can neither read hidden information nor drift from the
documented pieces."""

from __future__ import annotations

import numpy as np
import pytest

from skydeck.core import Rng
from skydeck.core.observer import Observer
from skydeck.encoding import tables
from skydeck.games.expedition.modules_content import MODULES
from skydeck.registry import load

#: games whose observer has its own state path, with the option sets to cover
STATE_PATHS = {
    "stellarion": [
        {"players": 1},
        {"players": 2, "reveal": "one"},
        *({"players": 1, "expansions": [e]} for e in ("black_holes", "mirrors", "theories")),
        {"players": 2, "expansions": ["glaucous_sun"]},
        {"players": 2, "expansions": ["black_holes", "mirrors", "theories", "glaucous_sun"]},
    ],
    "stellium": [{"players": 2}, {"players": 3}, {"players": 4, "first_game": True}],
    "conflict": [
        {"players": 2},
        {"players": 2, "scale": "war"},
        {"players": 2, "scale": "dispute", "variants": ["meteor"], "meteors": 5},
        {"players": 3, "scale": "conflict", "deployment": "light_speed"},
        {"players": 4, "scale": "dispute", "variants": ["stolen_goods"]},
    ],
    "expedition": [
        {"players": 2},
        {"players": 3, "modules": ["player_powers", "legendary"]},
        {"players": 4, "modules": ["objectives", "artifacts"], "nothing_bad_happens": True},
        {"players": 2, "modules": ["hazards", "events"]},
        {"players": 4, "modules": list(MODULES), "nothing_bad_happens": True},
        {"players": 1, "solo_rank": "admiral", "modules": ["hazards", "artifacts"]},
    ],
}


def _cases() -> list[tuple[str, dict]]:
    return [(g, o) for g, sets in STATE_PATHS.items() for o in sets]


def _check(observer: Observer, state, seat: int, where: str) -> None:
    fast = observer.observe(state, seat)
    slow = observer.encode(state.view(seat), seat)
    assert fast.dtype == slow.dtype == np.float32 and fast.shape == slow.shape
    if not np.array_equal(fast, slow):
        bad = [
            name
            for name, piece in observer.unpack(fast).items()
            if not np.array_equal(piece, observer.unpack(slow)[name])
        ]
        raise AssertionError(f"{where}: the state path differs from the view in {bad}")


@pytest.mark.parametrize(("game_id", "options"), _cases(), ids=lambda x: str(x))
def test_the_state_path_equals_the_views_encoding(game_id: str, options: dict) -> None:
    game = load(game_id, **options)
    _, observer = tables(game)
    assert type(observer).observe is not Observer.observe, f"{game_id}: no state path"
    checked = 0
    for seed in range(6):
        state = game.new(seed)
        rng = Rng(100 + seed)
        step = 0
        while True:
            for seat in range(game.players):
                where = f"{game_id} {options} seed={seed} step={step} seat={seat}"
                _check(observer, state, seat, where)
                if step % 7 == 0:
                    other = state.resample(seat, Rng(step))
                    _check(observer, other, seat, where + " resampled")
                    if game.has_from_view:
                        back = game.from_view(state.view(seat), seat, Rng(step))
                        _check(observer, back, seat, where + " from_view")
                checked += 1
            if state.is_over or step >= 300:
                break
            seat = state.to_move[rng.below(len(state.to_move))]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat)
            step += 1
    assert checked > 50


def test_a_wrong_state_path_is_caught() -> None:
    """The comparison can fail: an observer whose state path drops one entry differs."""
    game = load("stellarion", players=1)
    _, observer = tables(game)
    state = game.new(0)
    broken = observer.observe(state, 0)
    broken[np.flatnonzero(broken)[0]] = 0.0
    assert not np.array_equal(broken, observer.encode(state.view(0), 0))


#: (game, options, what the memory compares, the observer's method that rewrites a
#: changed part of its vector, called after the part's old entries are cleared)
IN_PLACE = [
    ("stellium", {"players": 2}, lambda s: s.board, "_cells"),
    ("stellarion", {"players": 1}, lambda s: s.decks, "_part"),
]


@pytest.mark.parametrize(
    ("game_id", "options", "part_of", "method"), IN_PLACE, ids=[case[0] for case in IN_PLACE]
)
def test_a_memory_edited_in_place_is_never_served_stale(
    monkeypatch, game_id: str, options: dict, part_of, method: str
) -> None:
    """Stellium's and Stellarion's observers edit their memory's vector in place when
    a part changed: a failure half-way (here in the rewriting of a changed part, its
    old entries cleared) must leave no memory behind, so the position the memory last
    saw is encoded as the view again, not from a half-edited vector; and what they
    hand out is a copy, so a caller writing into it changes nothing."""
    game = load(game_id, **options)
    _, observer = tables(game)
    state = game.new(0)
    before = state.clone()
    got = observer.observe(before, 0)
    got[:] = 7.0  # the caller's own copy
    _check(observer, before, 0, "after the caller wrote into its observation")
    rng = Rng(3)
    while part_of(state) == part_of(before):  # moves until the part differs
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.below(len(legal))], seat)
    kind = type(observer)
    rewrite = getattr(kind, method)

    def failing(self, *args):
        rewrite(self, *args)
        raise RuntimeError("half-way")

    monkeypatch.setattr(kind, method, failing)
    with pytest.raises(RuntimeError):
        observer.observe(state, state.to_move[0])
    monkeypatch.setattr(kind, method, rewrite)
    for seat in range(game.players):
        _check(observer, before, seat, "after a failure half-way")
