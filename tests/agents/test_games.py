"""Agents on every registered game: view inversion agrees with the real state, and every
agent finishes matches of every player count (short budgets keep this quick)."""

from __future__ import annotations

import pytest

import skydeck
from skydeck import agents
from skydeck.agents.belief import Belief, view_key
from skydeck.agents.simple import heuristic_class
from skydeck.core import Rng
from skydeck.registry import game_class
from skydeck.sim import play_match

GAMES = skydeck.games()
WITH_VIEW_HOOK = [g for g in GAMES if agents.support_for(g).from_view is not None]
CONFIGS = [
    pytest.param(gid, cfg, id=f"{gid}-" + "-".join(f"{k}={v}" for k, v in cfg.items()))
    for gid in GAMES
    for cfg in game_class(gid).conformance_configs()
]
PLAYER_COUNTS = [
    pytest.param(gid, n, id=f"{gid}-{n}p") for gid in GAMES for n in game_class(gid).player_counts
]


@pytest.mark.parametrize(("gid", "cfg"), [c for c in CONFIGS if c.values[0] in WITH_VIEW_HOOK])
def test_from_view_rebuilds_a_state_with_the_same_view(gid: str, cfg: dict) -> None:
    game = skydeck.load(gid, **cfg)
    support = agents.support_for(gid)
    rng = Rng(5)
    for seed in (1, 2):
        state = game.new(seed)
        steps = 0
        while not state.is_over and steps < 300:
            for seat in state.to_move:
                view = state.view(seat)
                legal = state.legal_actions(seat)
                belief = Belief(game, support, view, legal, seat, rng.spawn())  # checks inside
                sample = belief.sample()
                assert view_key(sample.view(seat)) == view_key(view)
                assert set(sample.legal_actions(seat)) == set(legal)
            seat = state.to_move[rng.below(len(state.to_move))]
            actions = state.legal_actions(seat)
            state.apply(actions[rng.below(len(actions))], seat)
            steps += 1


def specs(gid: str) -> list[str]:
    out = ["random", "mcts:iterations=8:seconds=0:depth=8"]
    if heuristic_class(gid) is not None:
        out.append("heuristic")
    return out


@pytest.mark.parametrize(("gid", "players"), PLAYER_COUNTS)
def test_every_agent_finishes_a_match(gid: str, players: int) -> None:
    game = skydeck.load(gid, players=players)
    names = specs(gid)
    seats = [names[k % len(names)] for k in range(players)]
    if players == 1:
        for spec in names:
            result = play_match(game, [agents.make(spec, game, seed=1)], seed=3)
            assert result.steps > 0 and len(result.scores) == 1
        return
    for shift in range(len(names)):
        seated = seats[shift:] + seats[:shift] if players > 1 else seats
        bots = [agents.make(s, game, seed=k) for k, s in enumerate(seated)]
        result = play_match(game, bots, seed=3 + shift)
        assert result.steps > 0 and len(result.scores) == players
        assert set(result.winners) <= set(range(players))


def test_server_lobby_specs() -> None:
    for gid in GAMES:
        offered = agents.specs_for(gid)
        assert offered[0] == "random" and "mcts:hard" in offered
        assert ("heuristic" in offered) == (heuristic_class(gid) is not None)
