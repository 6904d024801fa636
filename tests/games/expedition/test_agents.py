"""The heuristic agent: registered, always legal, and far better than random."""

from __future__ import annotations

from skydeck.core import Rng
from skydeck.games.expedition.ai.heuristic import AGENTS, HeuristicAgent
from tests.games.expedition.helpers import game


def play(players: int, seed: int, heuristic: set[int], **opts: object) -> list[float]:
    g = game(players, **opts)
    st = g.new(seed)
    rng = Rng(seed)
    agents = {s: HeuristicAgent(g, seed=seed + s) for s in heuristic}
    steps = 0
    while not st.is_over:
        s = rng.choice(st.to_move)
        legal = st.legal_actions(s)
        a = agents[s].choose(st.view(s), legal, s) if s in agents else rng.choice(legal)
        assert a in legal
        st.apply(a, s)
        steps += 1
        assert steps < 20000
    return st.scores


def test_registry() -> None:
    assert set(AGENTS) == {"heuristic"} and AGENTS["heuristic"] is HeuristicAgent
    assert HeuristicAgent(game(2)).name == "heuristic"


def test_heuristic_beats_random() -> None:
    results = [play(2, seed, {0}) for seed in range(6)]
    assert all(r[0] > r[1] for r in results)
    assert sum(r[0] for r in results) / len(results) >= 8


def test_heuristic_self_play_four_players() -> None:
    scores = play(4, 9, {0, 1, 2, 3})
    assert sum(scores) >= 16


def test_heuristic_plays_every_module_and_the_solo_game() -> None:
    mods = ["player_powers", "objectives", "hazards", "legendary", "artifacts", "events"]
    scores = play(3, 4, {0, 1, 2}, modules=mods, nothing_bad_happens=True)
    assert sum(scores) >= 12
    solo = play(1, 5, {0}, solo_rank="admiral", modules=mods)
    assert solo[0] >= 5
