"""The search agent plays Stellar Conflict from views alone: the engine's
``ConflictGame.from_view`` replaces the match-record replay, so a server or terminal
match needs no record and the agent never falls back on the heuristic."""

from __future__ import annotations

import warnings
from dataclasses import replace

import pytest

import skydeck
from skydeck import agents
from skydeck.agents import support as support_module
from skydeck.agents.belief import Belief
from skydeck.agents.registry import agents as agent_infos
from skydeck.agents.support import game_from_view, support_for
from skydeck.core import Rng
from skydeck.games.stellarion import inverse as stellarion_inverse

SPEC = "mcts:easy:seconds=0:iterations=30"


def test_games_declaring_the_capability_get_the_engines_inversion() -> None:
    game = skydeck.load("conflict", players=2)
    assert game.has_from_view
    assert support_for(game).from_view is game_from_view
    assert support_for("conflict").from_view is game_from_view
    # a support that names its own inversion keeps it
    own = support_for("stellarion").from_view
    assert own is not None and own is not game_from_view
    assert own.__module__ == "skydeck.games.stellarion.ai.support"
    assert stellarion_inverse.from_view is not own


def test_registry_says_conflict_beliefs_come_from_views() -> None:
    mcts = next(info for info in agent_infos() if info.spec == "mcts:easy")
    assert mcts.notes["conflict"].startswith("belief from views")


def test_belief_from_a_view_without_a_record() -> None:
    game = skydeck.load("conflict", players=2, scale="dispute")
    state = game.new(4)
    support = support_for(game)
    for seat in (0, 1):
        view, legal = state.view(seat), state.legal_actions(seat)
        belief = Belief(game, support, view, legal, seat, Rng(seat), record=None)
        sample = belief.sample()
        assert sample.view(seat) == view
        assert set(sample.legal_actions(seat)) == set(legal)


def test_mcts_plays_a_whole_conflict_match_without_a_record_or_warning() -> None:
    game = skydeck.load("conflict", players=2, scale="dispute")
    bots = [agents.make(SPEC, game, seed=1), agents.make("random", game, seed=2)]
    assert bots[0].record is None
    state = game.new(11)
    searched = 0
    rng = Rng(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fall-back would warn: it must not happen
        steps = 0
        while not state.is_over:
            assert steps < 2_000
            seat = state.to_move[rng.below(len(state.to_move))]
            legal = state.legal_actions(seat)
            action = bots[seat].choose(state.view(seat), legal, seat)
            assert action in legal
            if seat == 0 and bots[0].last is not None:
                searched += 1
                bots[0].last = None
            state.apply(action, seat)
            steps += 1
    assert bots[0]._fallback is None
    assert searched > 0, "the search itself ran (not only forced single choices)"
    assert state.is_over and len(state.scores) == 2


def test_without_the_capability_the_agent_would_fall_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: hide the capability and the same agent, with no record, warns and
    plays the heuristic instead (what Conflict did before ``from_view``)."""
    game = skydeck.load("conflict", players=2, scale="dispute")
    monkeypatch.setattr(type(game), "has_from_view", False)
    monkeypatch.setitem(
        support_module._SUPPORT, "conflict", replace(support_for(game), from_view=None)
    )
    bot = agents.make(SPEC, game, seed=1)
    state = game.new(11)
    with pytest.warns(RuntimeWarning, match="no from_view support and no match record"):
        bot.choose(state.view(0), state.legal_actions(0), 0)
    assert bot._fallback is not None
