"""Stellar Conflict battle speed: War-scale tables (2 x 15 ships) resolved by the engine
and by a straightforward shapely reference (the figures of `skydeck bench conflict`),
and optionally the placement heuristic against random placement.

    .venv/bin/python benchmarks/bench_conflict_battle.py --seconds 5
    .venv/bin/python benchmarks/bench_conflict_battle.py --tables 50
    .venv/bin/python benchmarks/bench_conflict_battle.py --duel 500 --scale conflict

Needs shapely (a dev dependency) for the reference.
"""

from __future__ import annotations

import argparse
import json

from skydeck.games.conflict.bench import compare, duel, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget (approx.)")
    parser.add_argument("--tables", type=int, default=0, help="exact number of War tables")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--duel", type=int, default=0, help="games of heuristic vs random")
    parser.add_argument("--scale", default="conflict", help="scale of the duel games")
    parser.add_argument("--random-fleet", action="store_true", help="random seat buys randomly")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.duel:
        figures = duel(args.duel, args.scale, args.random_fleet)
        figures["win rate"] = f"{figures['wins'] / figures['games']:.1%}"
    elif args.tables:
        figures = compare(args.tables, args.seed)
    else:
        figures = report(args.seconds)
    if args.json:
        print(json.dumps(figures))
        return
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
