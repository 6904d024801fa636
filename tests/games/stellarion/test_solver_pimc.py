"""The perfect-information Monte Carlo player: honest (views only), registered, within
its time budget, and it follows the solver where a sampled deal is won."""

from __future__ import annotations

import pytest

from skydeck import agents
from skydeck.games.stellarion.game import StellarionGame
from skydeck.games.stellarion.pimc import PimcAgent

from .helpers import pos


def test_registered_with_parameters() -> None:
    game = StellarionGame()
    agent = agents.make("pimc:samples=3:nodes=500:seconds=0.4", game, seed=2)
    assert isinstance(agent, PimcAgent)
    assert (agent.samples, agent.nodes, agent.seconds) == (3, 500, 0.4)
    assert "pimc" in agents.specs_for("stellarion")
    assert "pimc" not in agents.specs_for("stellium")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("pimc:hard", "not a level"),
        ("pimc:depth=3", "unknown parameter 'depth'"),
        ("pimc:samples=many", "samples must be a number"),
    ],
)
def test_bad_specs_are_named(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        agents.make(spec, StellarionGame())


def test_other_games_have_none() -> None:
    from skydeck.core.registry import load

    with pytest.raises(ValueError, match="no pimc agent"):
        agents.make("pimc", load("stellium"))


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="must be positive"):
        PimcAgent(StellarionGame(), samples=0)


def test_takes_the_winning_launch_by_vote() -> None:
    s = pos(
        stars=1,
        decks={
            "alpha": "*alpha.ship alpha.nebula",
            "ship": "*beta.ship",
            "nebula": "*alpha.nebula",
            "stars": "*alpha.stars",
            "planet": "*alpha.planet",
        },
        voyages=[["alpha1"], [], [], []],
    )
    agent = PimcAgent(s.game, seed=1, samples=3, seconds=5)
    action = agent.choose(s.view(0), s.legal_actions(0), 0)
    assert action.kind == "launch"
    assert sum(agent.last_votes.values()) == 3


def test_falls_back_to_the_heuristic_when_no_sample_wins() -> None:
    # a dead end (every line loses): no votes, and still a legal action
    s = pos(
        stars=0,
        decks={"alpha": "*alpha.ship alpha.nebula", "ship": "*beta.ship"},
        voyages=[["alpha1"], [], [], []],
    )
    agent = PimcAgent(s.game, seed=1, samples=2, seconds=5)
    legal = s.legal_actions(0)
    assert agent.choose(s.view(0), legal, 0) in legal
    assert agent.last_votes == {}


def test_the_time_budget_holds_on_an_exact_clock() -> None:
    ticks = iter(range(10**9))
    game = StellarionGame(expansions=["black_holes", "theories", "mirrors", "glaucous_sun"])
    s = game.new(0)
    agent = PimcAgent(game, samples=50, seconds=40, clock=lambda: float(next(ticks)))
    legal = s.legal_actions(0)
    assert agent.choose(s.view(0), legal, 0) in legal
    # one tick a clock reading: the 40 s budget plus at most a few readings a sample
    assert next(ticks) <= 40 + 4 * 50


def test_plays_a_base_deal_to_the_end() -> None:
    game = StellarionGame(shooting_stars=4)
    agent = agents.make("pimc:samples=2:nodes=400:seconds=0.5", game, seed=0)
    s = game.new(1)
    while not s.is_over:
        s.apply(agent.choose(s.view(0), s.legal_actions(0), 0), 0)
    assert s.is_over
