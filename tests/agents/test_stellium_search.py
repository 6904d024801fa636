"""Stellium's search support ranks even short root lists, the heuristic's pick first,
so the agent's trust rule guards every decision (``policies/stellium.py``)."""

from __future__ import annotations

import skydeck
from skydeck.agents.policies import stellium as policy
from skydeck.games.stellium.agents import HeuristicAgent


def test_short_root_lists_are_ranked_with_the_heuristics_pick_first() -> None:
    game = skydeck.load("stellium", players=2)
    st = game.new(3)
    seen_short = seen_long = 0
    for _ in range(40):
        if st.is_over:
            break
        seat = st.to_move[0]
        view, legal = st.view(seat), st.legal_actions(seat)
        pick = HeuristicAgent(game, seed=0).choose(view, legal, seat)
        if len(legal) > 1:
            found = policy.candidates(game, view, legal, seat)
            assert found[0] == pick
            assert found is not legal  # a ranking, so the trust rule applies
            assert len(set(found)) == len(found) and set(found) <= set(legal)
            if len(legal) <= policy.ROOT_ACTIONS:
                seen_short += 1
                assert set(found) == set(legal)
            else:
                seen_long += 1
                assert len(found) == policy.ROOT_ACTIONS
        st.apply(pick, seat)
    assert seen_short and seen_long
