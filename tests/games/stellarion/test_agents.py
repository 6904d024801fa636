"""The heuristic agent: legal choices from the view alone, whole games in every
expansion mix, determinism, and sensible preferences in built positions."""

from __future__ import annotations

import pytest

import skydeck
from skydeck.games.stellarion.agents import AGENTS, HeuristicAgent, evaluate
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
