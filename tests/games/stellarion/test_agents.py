"""The heuristic agent: legal choices from the view alone, whole games in every
expansion mix, determinism, and sensible preferences in built positions."""

from __future__ import annotations

import pytest

import skydeck
from skydeck.games.stellarion.ai import AGENTS
from skydeck.games.stellarion.ai.heuristic import (
    BASE,
    EXPANSIONS,
    HeuristicAgent,
    Weights,
    evaluate,
    greedy_step,
    weights_for,
)
from skydeck.games.stellarion.state import StellarionState
from tests.games.stellarion.helpers import ALL, pos


@pytest.mark.parametrize(
    ("players", "exp"), [(1, []), (2, []), (1, ALL), (2, ALL), (1, ["black_holes", "glaucous_sun"])]
)
def test_plays_whole_games_legally(players: int, exp: list[str]) -> None:
    game = skydeck.load("stellarion", players=players, expansions=exp)
    for seed in range(2):
        agent = AGENTS["heuristic"](game, seed=seed)
        s = game.new(seed)
        while not s.is_over:
            legal = s.legal_actions(s.turn)
            a = agent.choose(s.view(s.turn), legal, s.turn)
            assert a in legal
            s.apply(a, s.turn)


def test_same_seed_same_game() -> None:
    game = skydeck.load("stellarion")

    def play() -> list[str]:
        agent, s, log = HeuristicAgent(game, seed=3), game.new(3), []
        while not s.is_over:
            a = agent.choose(s.view(0), s.legal_actions(0), 0)
            log.append(str(a))
            s.apply(a, 0)
        return log

    assert play() == play()


def test_prefers_the_launch() -> None:
    s = pos(
        decks={
            "alpha": "*alpha.ship alpha.nebula",
            "nebula": "*alpha.nebula",
            "stars": "*alpha.stars",
            "planet": "*alpha.planet",
            "gamma": "*gamma.ship gamma.stars",
            "delta": "*delta.ship delta.stars",
        },
        voyages=[["alpha2", "alpha1"], ["beta1"], [], []],
    )
    agent = HeuristicAgent(s.game)
    a = agent.choose(s.view(0), s.legal_actions(0), 0)
    assert a.kind == "launch"


def test_proves_theories_at_once() -> None:
    s = pos(
        expansions=["theories"],
        decks={
            "alpha": "*alpha.ship",
            "beta": "*beta.ship",
            "ship": "*gamma.ship",
            "delta": "*delta.stars",
            "stars": "*beta.stars",
        },
        voyages=[["alpha1"], [], [], []],
        theories=["theory_ship", "theory_stars"],
    )
    agent = HeuristicAgent(s.game)
    assert str(agent.choose(s.view(0), s.legal_actions(0), 0)) == "prove"


def test_evaluation_rewards_progress() -> None:
    near = pos(
        decks={
            "alpha": "*alpha.ship",
            "nebula": "*alpha.nebula",
            "stars": "*alpha.stars",
            "gamma": "*gamma.ship",
            "delta": "*delta.ship",
        },
        voyages=[["alpha1"], [], [], []],
    )
    far = pos(
        decks={"alpha": "*alpha.ship", "gamma": "*gamma.ship", "delta": "*delta.ship"},
        voyages=[["alpha1"], [], [], []],
    )
    assert evaluate(near) > evaluate(far)


def test_sees_only_the_view() -> None:
    """Two states that differ only in hidden deck order get the same choice."""
    from skydeck.core import Rng

    game = skydeck.load("stellarion", expansions=["theories"])
    s = game.new(8)
    for _ in range(6):
        if s.is_over:
            break
        other = s.resample(0, Rng(99))
        assert other.view(0) == s.view(0)
        a1 = HeuristicAgent(game, seed=1).choose(s.view(0), s.legal_actions(0), 0)
        a2 = HeuristicAgent(game, seed=1).choose(other.view(0), other.legal_actions(0), 0)
        assert a1 == a2
        s.apply(a1, 0)


def _holes_in_sight(fourth: str) -> StellarionState:
    return pos(
        expansions=["black_holes"],
        decks={
            "alpha": "*blackhole alpha.ship",
            "beta": "*blackhole beta.ship",
            "gamma": "*blackhole gamma.ship",
            "delta": fourth,
            "ship": "*beta.ship",  # a Coordinate with the lone Ship: no position is lost
        },
        voyages=[["alpha1"], ["beta1"], ["gamma1"], ["delta1"]],
    )


def test_the_expansions_weights_pay_for_a_traverse_in_sight() -> None:
    """Four Black Holes in the Observatory are three Voyages next turn: the expansions'
    weights rate them above three and a lone Ship, where the base game's weights (which
    never see a Black Hole) rate them below."""
    four = _holes_in_sight("*blackhole delta.ship")
    three = _holes_in_sight("*delta.ship blackhole")
    assert weights_for(four.game) is EXPANSIONS
    assert evaluate(four) > evaluate(three)
    assert evaluate(four, BASE) < evaluate(three, BASE)


def test_the_base_game_keeps_the_base_weights() -> None:
    assert weights_for(skydeck.load("stellarion").new(0).game) is BASE
    for exp in ALL:
        assert weights_for(skydeck.load("stellarion", expansions=[exp])) is EXPANSIONS


@pytest.mark.slow
def test_the_expansions_weights_take_more_voyages_with_all_four() -> None:
    """On the same all-four deals the expansions' weights take clearly more Voyages than
    the base game's (13.8 against 11.7 a game over 120 deals when they were tuned)."""
    game = skydeck.load("stellarion", expansions=ALL)

    def voyages(w: Weights, seed: int) -> int:
        agent, s = HeuristicAgent(game, seed=seed, weights=w), game.new(seed)
        while not s.is_over:
            s.apply(agent.choose(s.view(0), s.legal_actions(0), 0), 0)
        return sum(len(p) for p in s.piles)

    deals = range(300, 312)
    tuned = sum(voyages(EXPANSIONS, d) for d in deals)
    base = sum(voyages(BASE, d) for d in deals)
    assert tuned - base >= len(deals), (tuned, base)


@pytest.mark.parametrize("exp", [[], ALL])
def test_a_greedy_step_is_the_best_rated_action_played_once(exp: list[str]) -> None:
    """``greedy_step`` keeps the child it rated instead of playing the step again: the
    state it leaves is the one the engine reaches by playing that action (same cards,
    same Rng), and the action is the first of the best ``evaluate`` values."""
    game = skydeck.load("stellarion", expansions=exp)
    s = game.new(3)
    for _ in range(40):
        if s.is_over:
            break
        table = dict(s._table())
        w = weights_for(game)
        values = []
        for a, k in table.items():
            child = s.clone()
            child._do(k, a, child.turn)
            values.append((evaluate(child, w), a))
        best = max(v for v, _ in values)
        expected = next(a for v, a in values if v == best)
        played = s.clone()
        played._do(table[expected], expected, played.turn)
        assert greedy_step(s, table, w) == expected
        assert s.to_json() == played.to_json()
        assert s.legal_actions(s.turn) == played.legal_actions(played.turn)


def test_the_playout_evaluation_describes_the_reveal_the_game_plays() -> None:
    """Issue 54, item 7: the search support's evaluation said the Observatory "grows by
    one reveal a turn", the old narrow reading; the default turns up every face-down top
    (RULINGS 6), and the docstring must say so."""
    from skydeck.games.stellarion.ai import support

    doc = " ".join((support.evaluate.__doc__ or "").split())
    assert "one reveal a turn" not in doc
    assert "every face-down top, RULINGS 6" in doc
    assert skydeck.load("stellarion", players=1).reveal_all  # the default it describes
