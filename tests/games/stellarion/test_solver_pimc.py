"""The perfect-information Monte Carlo player: honest (views only), registered, within
its time budget; it scores the heuristic's candidates by the solver's line played to
the end in dealt states (``line.finish``), and plays the best."""

from __future__ import annotations

from typing import Any

import pytest

from skydeck import agents
from skydeck.games.stellarion.ai.heuristic import WIN, HeuristicAgent, evaluate, finish_turn
from skydeck.games.stellarion.ai.line import finish
from skydeck.games.stellarion.ai.pimc import PimcAgent, line_value, play_out, turn_line
from skydeck.games.stellarion.ai.solve import WON, Solver, position_key
from skydeck.games.stellarion.game import StellarionGame

from .helpers import pos


def test_registered_with_parameters() -> None:
    game = StellarionGame()
    agent = agents.make("pimc:samples=3:candidates=2:seconds=0.4", game, seed=2)
    assert isinstance(agent, PimcAgent)
    assert (agent.samples, agent.candidates, agent.seconds, agent.turns) == (3, 2, 0.4, 0)
    assert agents.make("pimc:turns=3", game).turns == 3
    assert "pimc" in agents.specs_for("stellarion")
    assert "pimc" not in agents.specs_for("stellium")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("pimc:hard", "not a level"),
        ("pimc:depth=3", "unknown parameter 'depth'"),
        ("pimc:nodes=500", "unknown parameter 'nodes'"),
        ("pimc:samples=many", "samples must be a number"),
    ],
)
def test_bad_specs_are_named(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        agents.make(spec, StellarionGame())


def test_other_games_have_none() -> None:
    from skydeck.registry import load

    with pytest.raises(ValueError, match="no pimc agent"):
        agents.make("pimc", load("stellium"))


def test_bad_budgets_are_refused() -> None:
    for bad in ({"samples": 0}, {"candidates": 0}, {"seconds": 0}):
        with pytest.raises(ValueError, match="must be positive"):
            PimcAgent(StellarionGame(), **bad)
    with pytest.raises(ValueError, match="turns must be 0 or more, got -1"):
        PimcAgent(StellarionGame(), turns=-1)


def _one_launch_from_the_win() -> Any:
    return pos(
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


def test_the_winning_launch_scores_one_in_every_deal() -> None:
    s = _one_launch_from_the_win()
    legal = s.legal_actions(0)
    agent = PimcAgent(s.game, seed=1, samples=6, candidates=len(legal), seconds=5)
    action = agent.choose(s.view(0), legal, 0)
    # the Launch that keeps the Shooting Star: it wins, and the heuristic ranks it first
    assert str(action) == "launch alpha1 (alpha,nebula,stars,planet)"
    assert agent.last_scores[str(action)] == 1.0
    # every legal action was scored on the same deals
    assert set(agent.last_scores) == {str(a) for a in legal}


def test_a_dead_end_still_gets_a_legal_action() -> None:
    # every line loses: nothing scores, and still a legal action comes back
    s = pos(
        stars=0,
        decks={"alpha": "*alpha.ship alpha.nebula", "ship": "*beta.ship"},
        voyages=[["alpha1"], [], [], []],
    )
    agent = PimcAgent(s.game, seed=1, samples=2, seconds=5)
    legal = s.legal_actions(0)
    assert agent.choose(s.view(0), legal, 0) in legal
    assert all(v == 0.0 for v in agent.last_scores.values())


def test_candidates_come_from_the_heuristics_ranking() -> None:
    game = StellarionGame(shooting_stars=1)
    s = game.new(4)
    legal = s.legal_actions(0)
    ranked = HeuristicAgent(game, seed=3).rank(s.view(0), legal)
    assert sorted(map(str, ranked)) == sorted(map(str, legal))
    assert HeuristicAgent(game, seed=3).choose(s.view(0), legal, 0) == ranked[0]
    agent = PimcAgent(game, seed=3, samples=4, candidates=3, seconds=5)
    choice = agent.choose(s.view(0), legal, 0)
    assert choice in ranked[:3]
    assert set(agent.last_scores) == {str(a) for a in ranked[:3]}


def test_a_line_is_worth_a_win_or_half_its_share_of_voyages() -> None:
    s = _one_launch_from_the_win()
    assert line_value(s) == 0.0  # no Voyage taken yet, one left
    half = pos(decks={"alpha": "*alpha.ship"}, voyages=[["alpha1"], [], [], []], piles=[["beta1"]])
    assert line_value(half) == 0.5 * 1 / 2  # one Voyage taken, one left
    won = s.clone()
    won.apply(next(a for a in s.legal_actions(0) if a.kind == "launch"), 0)
    assert won.winners and line_value(won) == 1.0


@pytest.mark.parametrize("seed", range(6))
def test_finish_is_the_discrepancy_0_line(seed: int) -> None:
    game = StellarionGame(shooting_stars=1)
    s = game.new(seed)
    end = finish(s.clone())
    lds0 = Solver(s, seconds=None, limits=(0,), beams={}).solve()
    assert end is not None and end.is_over
    assert (end.outcome > 0) == (lds0.status == WON), seed


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
    agent = agents.make("pimc:samples=2:candidates=2:seconds=0.5", game, seed=0)
    s = game.new(1)
    while not s.is_over:
        s.apply(agent.choose(s.view(0), s.legal_actions(0), 0), 0)
    assert s.is_over


def test_the_turn_line_takes_the_winning_launch() -> None:
    s = _one_launch_from_the_win()
    end = turn_line(s.clone(), HeuristicAgent(s.game).weights, top=1)
    assert end.winners and line_value(end) == 1.0


@pytest.mark.parametrize("seed", range(3))
def test_the_turn_line_plays_legal_steps_to_the_end(seed: int) -> None:
    # the same line, step by step through the public engine, ends the same way
    game = StellarionGame(shooting_stars=1)
    weights = HeuristicAgent(game).weights
    end = turn_line(game.new(seed), weights, top=3)
    s = game.new(seed)
    steps = 0
    while not s.is_over:
        here = s.clone()
        line = turn_line(here, weights, top=3, max_steps=1)  # one step of the line
        seat = s.turn
        match = [a for a in s.legal_actions(seat) if _after(s, a, seat) == _key(line)]
        assert match, f"seed {seed}: the turn line took an illegal step"
        s.apply(match[0], seat)
        steps += 1
    assert end.is_over and (end.outcome, end.piles) == (s.outcome, s.piles)
    assert steps > 10


def _plain_turn_line(s: Any, weights: Any, top: int) -> Any:
    """The turn line as first written: every step planned afresh, nothing kept from the
    last step's finished turns. The reference the traced ``turn_line`` must equal."""
    while not s.is_over:
        table = s._table()
        if len(table) == 1:
            a, k = next(iter(table.items()))
        else:
            a, k = _plain_best_turn(s, table, weights, top)
        s._do(k, a, s.turn)
    return s


def _plain_best_turn(s: Any, table: Any, weights: Any, top: int) -> Any:
    scored = []
    for i, (a, k) in enumerate(table.items()):
        if k[0] == "P":
            return a, k
        child = s.clone()
        child._do(k, a, child.turn)
        if child.outcome > 0:
            return a, k
        scored.append((-evaluate(child, weights), i, a, k, child))
    scored.sort(key=lambda x: (x[0], x[1]))
    best_value, pick = -3 * WIN, scored[0][2:4]
    for _, _, a, k, child in scored[:top]:
        if child.turns == s.turns:
            finish_turn(child, s.turns, weights)
        value = evaluate(child, weights)
        if value > best_value:
            best_value, pick = value, (a, k)
    return pick


@pytest.mark.parametrize(
    ("options", "seed", "top"),
    [
        ({"shooting_stars": 1}, 0, 3),
        ({"shooting_stars": 1}, 5, 1),
        ({"shooting_stars": 4}, 2, 2),
        ({"expansions": ["black_holes", "glaucous_sun", "mirrors", "theories"]}, 3, 3),
        ({"expansions": ["theories"]}, 1, 6),
        ({"players": 2}, 4, 3),
    ],
)
def test_the_traced_turn_line_is_the_plain_one(options: Any, seed: int, top: int) -> None:
    # keeping what the last step's finished turns saw changes the cost, not the line
    game = StellarionGame(**options)
    weights = HeuristicAgent(game).weights
    traced = turn_line(game.new(seed), weights, top)
    plain = _plain_turn_line(game.new(seed), weights, top)
    assert position_key(traced) == position_key(plain)
    assert (traced.outcome, traced.piles, traced.turns) == (plain.outcome, plain.piles, plain.turns)


def _after(s: Any, action: Any, seat: int) -> Any:
    t = s.clone()
    t.apply(action, seat)
    return _key(t)


def _key(s: Any) -> Any:
    return position_key(s)


def test_pimc_with_turn_lines_scores_on_the_same_deals() -> None:
    s = _one_launch_from_the_win()
    legal = s.legal_actions(0)
    agent = PimcAgent(s.game, seed=1, samples=4, candidates=len(legal), seconds=5, turns=2)
    action = agent.choose(s.view(0), legal, 0)
    assert str(action) == "launch alpha1 (alpha,nebula,stars,planet)"
    assert agent.last_scores[str(action)] == 1.0
    values = play_out(s.clone(), legal, agent.heuristic.weights, turns=2)
    assert values is not None and max(values) == 1.0 and len(values) == len(legal)
