"""The two-turn planner: registered with its parameters, honest (views only), within its
budget; it re-orders only the heuristic's best few, by what the next turn can make of
them, and that is what finds the win where the one-turn heuristic throws it away."""

from __future__ import annotations

import pytest

from skydeck import agents
from skydeck.core import Rng
from skydeck.games.stellarion.ai.heuristic import HeuristicAgent
from skydeck.games.stellarion.ai.lookahead import LookaheadAgent
from skydeck.games.stellarion.ai.solve import UNWINNABLE, WON, Solver
from skydeck.games.stellarion.game import StellarionGame
from skydeck.games.stellarion.state import StellarionState

from .helpers import pos

ALL4 = ["black_holes", "glaucous_sun", "mirrors", "theories"]


def test_registered_with_parameters() -> None:
    game = StellarionGame()
    agent = agents.make("lookahead:top=3:deals=2:seconds=0.5:samples=2", game, seed=2)
    assert isinstance(agent, LookaheadAgent)
    assert (agent.top, agent.deals, agent.seconds, agent.samples) == (3, 2, 0.5, 2)
    assert agent.name == "lookahead:top=3:deals=2:seconds=0.5:samples=2"
    assert "lookahead" in agents.specs_for("stellarion")
    assert "lookahead" not in agents.specs_for("stellium")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("lookahead:hard", "not a level"),
        ("lookahead:depth=3", "unknown parameter 'depth'"),
        ("lookahead:top=many", "top must be a number"),
        ("lookahead:deals=0", "at least 1"),
        ("lookahead:seconds=0", "above 0"),
    ],
)
def test_bad_specs_are_named(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        agents.make(spec, StellarionGame())


def test_other_games_have_none() -> None:
    from skydeck.registry import load

    with pytest.raises(ValueError, match="no lookahead agent"):
        agents.make("lookahead", load("stellium"))


def _planets_first() -> StellarionState:
    """One Voyage (alpha1) left, no Shooting Star. In sight: two alpha Planets, the
    alpha Ship, a beta Stars and two Nebulas (gamma, beta). Under the alpha Planet on
    the alpha deck lie the alpha Nebula and a third alpha Planet; the Stars deck holds
    the alpha Stars face down. The win: Coordinate the Planet pair first (forfeiting
    its effect) so the alpha Nebula comes up, then the Nebulas retrieve an alpha
    Planet, then Launch. Coordinating the Nebulas first leaves no way back."""
    return pos(
        stars=0,
        decks={
            "alpha": "*alpha.planet alpha.nebula alpha.planet",
            "planet": "*alpha.planet",
            "beta": "*beta.stars",
            "stars": "alpha.stars",
            "gamma": "*gamma.nebula",
            "ship": "*alpha.ship",
            "nebula": "*beta.nebula",
        },
        voyages=[["alpha1"], [], [], []],
    )


def test_the_next_turn_decides_where_one_turn_throws_the_win_away() -> None:
    s = _planets_first()
    legal = s.legal_actions(0)
    nebulas = next(a for a in legal if str(a) == "coordinate (gamma,nebula)")
    planets = next(a for a in legal if str(a) == "coordinate (alpha,planet)")
    # the clairvoyant solver: the Nebulas first is lost for certain, the Planets first wins
    after = {}
    for action in (nebulas, planets):
        child = s.clone()
        child.apply(action, 0)
        after[action] = Solver(child, seconds=None, max_nodes=20_000).solve().status
    assert after == {nebulas: UNWINNABLE, planets: WON}
    for seed in range(5):
        assert HeuristicAgent(s.game, seed=seed).choose(s.view(0), legal, 0) == nebulas
        assert LookaheadAgent(s.game, seed=seed, endgame=0).choose(s.view(0), legal, 0) == planets


def _a_main_decision(seed: int) -> StellarionState:
    game = StellarionGame(expansions=ALL4)
    s = game.new(seed)
    assert s.view(0)["phase"] == "main" and len(s.legal_actions(0)) > 5
    return s


def test_only_the_heuristics_best_few_are_reordered() -> None:
    s = _a_main_decision(3)
    legal = s.legal_actions(0)
    ranked = HeuristicAgent(s.game, seed=4).rank(s.view(0), legal)
    agent = LookaheadAgent(s.game, seed=4, top=4, deals=3)
    looked = agent.rank(s.view(0), legal)
    assert looked[4:] == ranked[4:]
    assert sorted(map(str, looked[:4])) == sorted(map(str, ranked[:4]))
    assert agent.last_deals == 3


def test_with_top_1_it_plays_as_the_heuristic() -> None:
    game = StellarionGame(expansions=ALL4)
    a, b = game.new(5), game.new(5)
    heuristic = HeuristicAgent(game, seed=7)
    plain = LookaheadAgent(game, seed=7, top=1)
    for _ in range(25):
        if a.is_over:
            break
        x = heuristic.choose(a.view(0), a.legal_actions(0), 0)
        y = plain.choose(b.view(0), b.legal_actions(0), 0)
        assert x == y
        assert plain.last_deals == 0  # no second look was taken
        a.apply(x, 0)
        b.apply(y, 0)


def test_sees_only_the_view() -> None:
    """Two states that differ only in hidden deck order get the same choice."""
    game = StellarionGame(expansions=ALL4)
    s = game.new(8)
    for _ in range(4):
        if s.is_over:
            break
        other = s.resample(0, Rng(99))
        assert other.view(0) == s.view(0) and other.to_json() != s.to_json()
        a1 = LookaheadAgent(game, seed=1, deals=2).choose(s.view(0), s.legal_actions(0), 0)
        a2 = LookaheadAgent(game, seed=1, deals=2).choose(other.view(0), other.legal_actions(0), 0)
        assert a1 == a2
        s.apply(a1, 0)


def test_the_cpu_budget_caps_the_deals_but_one_is_always_dealt() -> None:
    s = _a_main_decision(3)
    agent = LookaheadAgent(s.game, seed=1, deals=50, seconds=1e-9)
    assert agent.choose(s.view(0), s.legal_actions(0), 0) in s.legal_actions(0)
    assert agent.last_deals == 1


def test_no_deal_is_started_that_would_end_past_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A clock that advances 0.3 s at every reading, the heuristic's ranking included:
    with 1.5 s, the deals stop where one more as long as the longest would overrun,
    not once the budget is already spent."""
    import skydeck.games.stellarion.ai.lookahead as module

    now = [0.0]

    def tick() -> float:
        now[0] += 0.3
        return now[0]

    monkeypatch.setattr(module.time, "process_time", tick)
    s = _a_main_decision(3)
    agent = LookaheadAgent(s.game, seed=1, deals=50, seconds=1.5)
    agent.rank(s.view(0), s.legal_actions(0))
    # The decision starts at 0.3, the deals at 0.6; after each deal the clock reads 0.9,
    # 1.2, 1.5: 0.6, 0.9, 1.2 s spent, plus the longest deal (0.3) makes 0.9 and 1.2
    # (one more) and 1.5 (stop). Stopping only once 1.5 s were spent would deal a fourth.
    assert agent.last_deals == 3


@pytest.mark.parametrize("players", [1, 2])
def test_plays_a_deal_to_the_end(players: int) -> None:
    game = StellarionGame(players=players, shooting_stars=4)
    agent = agents.make("lookahead:deals=2", game, seed=0)
    s = game.new(1)
    while not s.is_over:
        seat = s.turn
        legal = s.legal_actions(seat)
        action = agent.choose(s.view(seat), legal, seat)
        assert action in legal
        s.apply(action, seat)
    assert s.is_over


def test_the_endgame_is_on_by_default_and_its_parameters_are_named() -> None:
    """3 Voyages by default (measured best, docs/journal/2026-12-03-stellarion-ai.md); 0 turns it
    off; the
    clairvoyant device and the solver's planner pass keep it off unless asked."""
    from skydeck.games.stellarion.ai.solve import ClairvoyantLookahead

    game = StellarionGame()
    assert LookaheadAgent(game).endgame == 3
    assert agents.make("lookahead:endgame=0", game).endgame == 0  # type: ignore[attr-defined]
    assert ClairvoyantLookahead(game).endgame == 0
    assert ClairvoyantLookahead(game, endgame=2).endgame == 2
    agent = agents.make("lookahead:endgame=3:endgame_seconds=0.25", game, seed=2)
    assert isinstance(agent, LookaheadAgent)
    assert (agent.endgame, agent.endgame_seconds) == (3, 0.25)
    with pytest.raises(ValueError, match="endgame must be 0 or more"):
        agents.make("lookahead:endgame=-1", game)
    with pytest.raises(ValueError, match="endgame_seconds above 0"):
        agents.make("lookahead:endgame_seconds=0", game)


def _misranked(agent: LookaheadAgent, s: StellarionState) -> tuple[object, object]:
    """Make ``agent`` rank the lost Nebula pair above the winning Planet pair of
    ``_planets_first`` (a ranking that reads no clock), so only its endgame can fix it."""
    legal = s.legal_actions(0)
    nebulas = next(a for a in legal if str(a) == "coordinate (gamma,nebula)")
    planets = next(a for a in legal if str(a) == "coordinate (alpha,planet)")
    rest = [a for a in legal if a not in (nebulas, planets)]
    agent.rank = lambda view, legal_actions: [nebulas, planets, *rest]  # type: ignore[method-assign]
    return nebulas, planets


def test_the_endgame_plays_the_lines_out_and_keeps_the_one_that_still_wins() -> None:
    """One Voyage left: played to the end on deals from the view, the Planet pair's
    lines win and the Nebula pair's (proved lost, above) cannot, so the endgame undoes
    a ranking that puts the Nebulas first; without it that ranking is played."""
    s = _planets_first()
    for endgame, expected in ((0, "nebulas"), (1, "planets")):
        agent = LookaheadAgent(s.game, seed=3, endgame=endgame, endgame_seconds=5.0)
        nebulas, planets = _misranked(agent, s)
        chosen = agent.choose(s.view(0), s.legal_actions(0), 0)
        assert chosen == {"nebulas": nebulas, "planets": planets}[expected]
        assert (agent.last_endgame_deals > 0) == bool(endgame)


def test_without_an_endgame_nothing_is_played_out_even_with_no_voyage_left() -> None:
    """All Voyages taken and a Theory still to prove: 0 Voyages left is not "at or below
    the endgame" when the endgame is off."""
    s = _planets_first()
    agent = LookaheadAgent(s.game, seed=3, endgame=0)
    nebulas, _ = _misranked(agent, s)
    view = s.view(0)
    view["voyages"]["columns"] = [[] for _ in view["voyages"]["columns"]]
    assert agent.choose(view, s.legal_actions(0), 0) == nebulas
    assert agent.last_endgame_deals == 0


@pytest.mark.parametrize(
    ("endgame_seconds", "seconds", "deals"),
    [(1.0, 1.8, 3), (5.0, 1.2, 2)],
)
def test_the_endgame_stops_at_its_budget_and_within_the_decisions(
    monkeypatch: pytest.MonkeyPatch, endgame_seconds: float, seconds: float, deals: int
) -> None:
    """A clock that advances 0.3 s at every reading: the decision starts at 0.3 and the
    play-outs at 0.6; a deal is begun while less than the budget, min(endgame_seconds,
    what is left of seconds), has gone since 0.6 (1.0 allows deals at 0.9, 1.2 and 1.5;
    with seconds 1.2 the budget is 0.9: deals at 0.9 and 1.2)."""
    import skydeck.games.stellarion.ai.lookahead as module

    now = [0.0]

    def tick() -> float:
        now[0] += 0.3
        return now[0]

    s = _planets_first()
    agent = LookaheadAgent(
        s.game, seed=3, seconds=seconds, endgame=1, endgame_seconds=endgame_seconds
    )
    _misranked(agent, s)
    monkeypatch.setattr(module.time, "process_time", tick)
    agent.choose(s.view(0), s.legal_actions(0), 0)
    assert agent.last_endgame_deals == deals
