"""Stellar Conflict's search support: the flat search, its greedy playout policy and
its root candidates (``skydeck/games/conflict/ai/support.py``)."""

from __future__ import annotations

import pytest

import skydeck
from skydeck import agents
from skydeck.core import Action, Rng
from skydeck.games.conflict.ai import heuristic
from skydeck.games.conflict.ai import support as policy
from skydeck.games.conflict.state import ConflictState

DONE = Action("done")


def deploying(seed: int = 2, placed: int = 2) -> ConflictState:
    """Both fleets bought by the heuristic, ``placed`` rounds of placements made."""
    game = skydeck.load("conflict", players=2)
    st = game.new(seed)
    bots = [heuristic.HeuristicAgent(game, seed=s) for s in (0, 1)]
    while st.phase == "preparation" or placed > 0:
        if st.phase != "preparation":
            placed -= 1
        for seat in st.to_move:
            if seat in st.to_move:
                st.apply(bots[seat].choose(st.view(seat), st.legal_actions(seat), seat), seat)
    assert st.phase == "deployment"
    return st  # type: ignore[return-value]


def test_hard_is_a_flat_search_without_the_trust_rule() -> None:
    game = skydeck.load("conflict", players=2)
    bot = agents.make("mcts:hard", game, seed=1)
    assert bot.flat and bot.search.flat and not bot.trust
    tree = agents.make("mcts:hard:flat=0:trust=1", game, seed=1)
    assert not tree.flat and tree.trust


def test_the_playout_places_at_the_best_rated_of_its_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    st = deploying()
    seat = 0
    legal = st.legal_actions(seat)
    places = [a for a in legal if a.kind == "place"]
    ctx = heuristic._Context(st.game, st, seat, st.hands[seat])

    def rating(a: Action) -> float:
        return ctx.quick(*(int(v) for v in a.args))  # type: ignore[arg-type]

    best = max(rating(a) for a in places)
    monkeypatch.setattr(policy, "PLAYOUT_SAMPLE", 20 * len(places))  # sees every spot
    assert rating(policy.rollout(st, seat, legal, Rng(5))) == best
    monkeypatch.setattr(policy, "PLAYOUT_SAMPLE", 1)  # one random spot: not always the best
    ratings = {rating(policy.rollout(st, seat, legal, Rng(k))) for k in range(30)}
    assert len(ratings) > 1 and min(ratings) < best


def test_done_is_a_candidate_only_when_it_is_the_only_choice() -> None:
    st = deploying()
    view, legal = st.view(0), st.legal_actions(0)
    assert DONE in legal
    assert DONE not in policy.candidates(st.game, view, legal, 0)
    # after a Light Speed stop on a real table, the card in hand is only taken back
    game = skydeck.load("conflict", players=2, deployment="light_speed", clock="real")
    st = game.new(1)
    for seat in (0, 1):
        st.apply(Action("ready"), seat)  # no ship bought: Cargo ship and Flagship
    spots = iter([(100, 100, 0), (400, 100, 0), (100, 400, 0), (400, 400, 0)])
    st.apply(Action("place", next(spots)), 0)
    st.apply(Action("place", next(spots)), 0)  # the Flagship, the last card: stop
    assert st.phase == "last_card"
    view, legal = st.view(1), st.legal_actions(1)
    assert policy.candidates(st.game, view, legal, 1) == [DONE]


def test_the_flat_search_picks_a_root_candidate_reproducibly() -> None:
    st = deploying()
    game = st.game
    bot = agents.make("mcts:hard:seconds=0:iterations=60:early=0", game, seed=4)
    view, legal = st.view(1), st.legal_actions(1)
    action = bot.choose(view, legal, 1)
    assert action in policy.candidates(game, view, legal, 1)
    assert bot.last is not None and bot.last.iterations == 60
    # every iteration credits a candidate, but for the rare one whose spot the rival's
    # earlier placement took (the table asks again: a random free spot, not counted)
    assert 50 <= sum(bot.last.visits.values()) <= 60
    # the same seed and view give the same choice
    again = agents.make("mcts:hard:seconds=0:iterations=60:early=0", game, seed=4)
    assert again.choose(view, legal, 1) == action
