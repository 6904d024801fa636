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
