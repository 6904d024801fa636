"""Reproducible figures for Stellarion: random-play speed and the heuristic's win rate.

    python -m skydeck.games.stellarion.measure speed [--seconds 5]
    python -m skydeck.games.stellarion.measure winrate --games 1000 [--reveal one|all]
        [--expansions a,b] [--stars N] [--samples K] [--jobs J]

Win rates come with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from skydeck.core import Rng
from skydeck.games.stellarion.game import StellarionGame


def make_game(reveal: str = "all", **options: Any) -> StellarionGame:
    return StellarionGame(reveal=reveal, **options)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def speed(seconds: float = 5.0, reveal: str = "all", **options: Any) -> dict[str, float]:
    """Random play on one core: legal_actions + uniform choice + apply."""
    game = make_game(reveal, **options)
    rng = Rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = game.new(games)
        while not s.is_over:
            seat = s.turn
            acts = s.legal_actions(seat)
            s.apply(acts[rng.below(len(acts))], seat)
            steps += 1
        games += 1
    el = time.perf_counter() - start
    return {"steps_per_s": steps / el, "games_per_s": games / el, "steps_per_game": steps / games}


def _play(args: tuple[int, int, str, dict[str, Any], int]) -> tuple[int, int]:
    from skydeck.games.stellarion.ai.heuristic import HeuristicAgent

    first, count, reveal, options, samples = args
    game = make_game(reveal, **options)
    wins = voyages = 0
    for seed in range(first, first + count):
        agent = HeuristicAgent(game, seed=seed, samples=samples)
        s = game.new(seed)
        while not s.is_over:
            seat = s.turn
            s.apply(agent.choose(s.view(seat), s.legal_actions(seat), seat), seat)
        wins += bool(s.winners)
        voyages += sum(len(p) for p in s.piles)
    return wins, voyages


def winrate(
    games: int, reveal: str = "all", samples: int = 4, jobs: int = 1, **options: Any
) -> dict[str, Any]:
    chunk = max(1, games // (jobs * 4))
    tasks = [(i, min(chunk, games - i), reveal, options, samples) for i in range(0, games, chunk)]
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_play, tasks))
    else:
        results = [_play(t) for t in tasks]
    wins = sum(w for w, _ in results)
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "rate": wins / games,
        "ci95": (round(lo, 4), round(hi, 4)),
        "voyages_per_game": sum(v for _, v in results) / games,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m skydeck.games.stellarion.measure")
    ap.add_argument("what", choices=["speed", "winrate"])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--reveal", choices=["all", "one"], default="all")
    ap.add_argument("--expansions", default="")
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--stars", type=int, default=None)
    ap.add_argument("--samples", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    options: dict[str, Any] = {
        "players": a.players,
        "expansions": [e for e in a.expansions.split(",") if e],
    }
    if a.stars is not None:
        options["shooting_stars"] = a.stars
    if a.what == "speed":
        print({"options": options, "reveal": a.reveal, **speed(a.seconds, a.reveal, **options)})
    else:
        result = winrate(a.games, a.reveal, a.samples, a.jobs, **options)
        print({"options": options, "reveal": a.reveal, "samples": a.samples, **result})


if __name__ == "__main__":
    main()
