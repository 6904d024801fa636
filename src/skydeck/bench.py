"""Random-play speed of a game's engine: the figure tree search and simulations live by.

Measures, on one core: random steps per second (legal_actions + choice + apply, the
same loop an MCTS rollout runs), whole games per second, and the cost of clone().
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from skydeck.core import Game, Rng
from skydeck.registry import load


@dataclass
class BenchResult:
    game: str
    options: dict[str, Any]
    games: int
    steps: int
    seconds: float
    steps_per_s: float
    games_per_s: float
    clone_us: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def bench(game_id: str, seconds: float = 3.0, seed: int = 0, **options: Any) -> BenchResult:
    return bench_game(load(game_id, **options), seconds, seed)


def bench_game(game: Game, seconds: float = 3.0, seed: int = 0) -> BenchResult:
    rng = Rng(seed)
    games = steps = 0
    clone_time = 0.0
    clones = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new(seed + games)
        while not state.is_over:
            seat = state.to_move[0] if len(state.to_move) == 1 else rng.choice(state.to_move)
            actions = state.legal_actions(seat)
            state.apply(actions[rng.below(len(actions))], seat)
            steps += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    # clone cost, measured separately on a mid-game state so it does not skew steps/s
    state = game.new(seed)
    for _ in range(10):
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 0.5:
        for _ in range(100):
            state.clone()
        clones += 100
    clone_time = time.perf_counter() - t0
    return BenchResult(
        game=game.id,
        options=dict(game.options),
        games=games,
        steps=steps,
        seconds=round(elapsed, 3),
        steps_per_s=round(steps / elapsed, 1),
        games_per_s=round(games / elapsed, 2),
        clone_us=round(clone_time / clones * 1e6, 2),
    )
