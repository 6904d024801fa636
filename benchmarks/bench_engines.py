"""Random-play speed of every registered game (one core). Prints a table; `--json` for
machines. Same figures as `skydeck bench GAME`, for all games at once.

    .venv/bin/python benchmarks/bench_engines.py --seconds 5
"""

from __future__ import annotations

import argparse
import json

import skydeck
from skydeck.bench import bench
from skydeck.registry import game_class


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for gid in skydeck.games():
        for players in game_class(gid).player_counts:
            rows.append(bench(gid, seconds=args.seconds, players=players).to_json())
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'game':<12}{'players':>8}{'steps/s':>12}{'games/s':>10}{'clone µs':>10}")
    for r in rows:
        print(
            f"{r['game']:<12}{r['options']['players']:>8}{r['steps_per_s']:>12,.0f}"
            f"{r['games_per_s']:>10.1f}{r['clone_us']:>10.1f}"
        )


if __name__ == "__main__":
    main()
