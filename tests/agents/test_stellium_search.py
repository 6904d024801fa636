"""Stellium's search support (``policies/stellium.py``): root candidates ranked, the
heuristic's pick first, even in short lists; a flat search whose playouts let the
heuristic play a whole round; the margin over the best rival as the judgement."""

from __future__ import annotations

import skydeck
from skydeck.games.stellium.ai import support as policy
from skydeck.games.stellium.ai.heuristic import HeuristicAgent


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


def test_playout_lets_the_heuristic_play_until_the_turn_comes_back() -> None:
    """Judged at a turn boundary: the searching seat's turn and each rival's are played
    by the heuristic's own decision function, then the table is rated."""
    from skydeck.core import Rng
    from skydeck.games.stellium.ai.heuristic import decide
    from skydeck.games.stellium.tables import PHASES

    for players in (2, 3):
        game = skydeck.load("stellium", players=players)
        st = game.new(11)
        for _ in range(7):  # somewhere mid-turn
            seat = st.to_move[0]
            st.apply(st.legal_actions(seat)[0], seat)
        me, start = st.turn, st.turn_count
        judged = st.clone()
        rewards = policy.playout(judged, Rng(5))
        assert judged.turn_count == start + players
        assert judged.turn == me and PHASES[judged.phase] == "draw"
        assert rewards == policy.evaluate(judged)
        # the same moves as the heuristic's, one by one, from the same generator
        replay, rng = st.clone(), Rng(5)
        while replay.turn_count < start + players:
            seat = replay.to_move[0]
            replay.apply(decide(replay, replay.legal_actions(seat), seat, rng), seat)
        assert replay.to_json() == judged.to_json()


def test_evaluation_is_the_margin_over_the_best_rival() -> None:
    game = skydeck.load("stellium", players=2)
    st = game.new(2)
    even = policy.evaluate(st)
    assert even[0] == even[1] == 0.5
    st.points[1] += 6
    ahead = policy.evaluate(st)
    assert ahead[1] > 0.8 and ahead[0] < 0.2 and abs(ahead[0] + ahead[1] - 1) < 1e-9


def test_hard_searches_flat_with_the_turn_playout() -> None:
    from skydeck import agents

    game = skydeck.load("stellium", players=2)
    agent = agents.make("mcts:hard", game, seed=1)
    assert agent.flat and agent.search.game_playout is policy.playout
    assert not agent.trust  # the search decides: the playouts foresee the rivals' replies
    easy = agents.make("mcts:easy", game, seed=1)
    assert easy.search.game_playout is None  # random playouts: the game's policy is off


def test_playout_stops_at_the_end_of_the_game() -> None:
    from skydeck.core import Rng

    game = skydeck.load("stellium", players=2)
    st, rng = game.new(8), Rng(8)
    history = []
    while not st.is_over:
        history.append(st.clone())
        seat = st.to_move[0]
        st.apply(rng.choice(st.legal_actions(seat)), seat)
    near_end = history[-2].clone()  # the game ends inside this playout's round
    rewards = policy.playout(near_end, Rng(1))
    assert near_end.is_over
    assert rewards == policy.evaluate(near_end)
    assert max(rewards) >= 0.9 or not near_end.winners  # a win counts most


def test_registry_notes_say_stellium_plays_its_own_playout_flat() -> None:
    from skydeck.agents.registry import agents as agent_infos

    hard = next(info for info in agent_infos() if info.spec == "mcts:hard")
    assert hard.notes["stellium"] == (
        "belief from views; the game's own playout; flat search (root only)"
    )


def test_long_root_lists_follow_the_pick_with_the_best_one_move_values() -> None:
    from skydeck.core import Rng
    from skydeck.games.stellium.inverse import from_view
    from skydeck.games.stellium.progress import value

    game = skydeck.load("stellium", players=2)
    st, rng, checked = game.new(5), Rng(5), 0
    while not st.is_over and checked < 15:
        seat = st.to_move[0]
        view, legal = st.view(seat), st.legal_actions(seat)
        if len(legal) > policy.ROOT_ACTIONS:
            found = policy.candidates(game, view, legal, seat)
            base = from_view(game, view, seat, Rng(0))
            rated = []
            for a in legal:
                if a != found[0]:
                    s = base.clone()
                    s.apply(a, seat)
                    rated.append((-value(s, seat), str(a), a))
            assert found[1:] == [a for _, _, a in sorted(rated)[: policy.ROOT_ACTIONS - 1]]
            checked += 1
        st.apply(rng.choice(legal), seat)
    assert checked == 15
