"""from_view: a full state rebuilt from a seat's view shows that seat the same view and
offers it the same actions; it plays on to the end."""

from __future__ import annotations

import pytest

from skydeck.core import Rng
from skydeck.games.expedition.belief import from_view
from tests.games.expedition.helpers import game
from tests.games.expedition.test_properties import check_invariants


@pytest.mark.parametrize("players", [2, 3, 4])
def test_from_view_is_consistent_along_a_game(players: int) -> None:
    g = game(players)
    st = g.new(players * 11)
    rng = Rng(players)
    step = 0
    while not st.is_over:
        if step % 5 == 0:
            for seat in [None, *range(players)]:
                view = st.view(seat)
                rebuilt = from_view(g, view, seat, rng.spawn())
                assert rebuilt.view(seat) == view, (step, seat)
                assert rebuilt.to_move == st.to_move
                check_invariants(rebuilt)
                if seat is not None and seat in st.to_move:
                    assert rebuilt.legal_actions(seat) == st.legal_actions(seat)
        s = rng.choice(st.to_move)
        st.apply(rng.choice(st.legal_actions(s)), s)
        step += 1


def test_rebuilt_states_play_to_the_end() -> None:
    g = game(3)
    st = g.new(5)
    rng = Rng(5)
    for _ in range(120):
        s = rng.choice(st.to_move)
        st.apply(rng.choice(st.legal_actions(s)), s)
    rebuilt = from_view(g, st.view(1), 1, Rng(9))
    while not rebuilt.is_over:
        s = rng.choice(rebuilt.to_move)
        rebuilt.apply(rng.choice(rebuilt.legal_actions(s)), s)
    assert len(rebuilt.scores) == 3


MODULE_CONFIGS = [
    {"players": 3, "modules": ["player_powers", "objectives", "events", "artifacts"]},
    {"players": 2, "modules": ["hazards", "legendary"], "nothing_bad_happens": True},
    {"players": 1, "solo_rank": "admiral", "modules": ["objectives", "artifacts"]},
]


@pytest.mark.parametrize("cfg", MODULE_CONFIGS)
def test_from_view_with_modules_and_the_drone(cfg: dict) -> None:
    from tests.games.expedition.test_module_properties import check_invariants as mod_inv

    g = game(**cfg)
    st = g.new(7)
    rng = Rng(7)
    step = 0
    while not st.is_over:
        if step % 4 == 0:
            for seat in [None, *range(g.players)]:
                view = st.view(seat)
                rebuilt = from_view(g, view, seat, rng.spawn())
                assert rebuilt.view(seat) == view, (step, seat)
                mod_inv(rebuilt)
                if seat is not None and seat in st.to_move:
                    assert rebuilt.legal_actions(seat) == st.legal_actions(seat)
        s = rng.choice(st.to_move)
        st.apply(rng.choice(st.legal_actions(s)), s)
        step += 1


@pytest.mark.parametrize("cfg", MODULE_CONFIGS)
def test_rebuilt_module_states_play_to_the_end(cfg: dict) -> None:
    g = game(**cfg)
    for cut in (1, 60):  # while Starting tiles are placed (packs dealt), and mid-game
        st = g.new(3)
        rng = Rng(3)
        for _ in range(cut):
            s = rng.choice(st.to_move)
            st.apply(rng.choice(st.legal_actions(s)), s)
        rebuilt = from_view(g, st.view(0), 0, Rng(9))
        while rebuilt.phase in ("start", "powers", "draft"):
            s = rng.choice(rebuilt.to_move)
            rebuilt.apply(rng.choice(rebuilt.legal_actions(s)), s)
        if cut == 1:  # the hidden packs were rebuilt: everybody drafted three
            assert [len(e) for e in rebuilt.exps] == [3] * g.players
        while not rebuilt.is_over:
            s = rng.choice(rebuilt.to_move)
            rebuilt.apply(rng.choice(rebuilt.legal_actions(s)), s)
        assert rebuilt.round == 8
