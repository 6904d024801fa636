"""Search speed: ``mcts:hard``'s iterations per CPU second in every game, for two source
trees side by side, with the anchor timed in the same rounds (issue 52: faster engines
are for stronger play at the same CPU; this is the figure between the two).

    python benchmarks/bench_mcts.py BEFORE_SRC AFTER_SRC [--rounds 3] [--seconds 1]
        [--anchor ../shared/anchors/engine/speed_ratio.py]

Each round runs, per tree, one process (``--one GAME``) that reaches a few fixed
positions by seeded heuristic play and lets ``mcts:hard`` (its exploration, its playout
policy, its tree) search each for ``--seconds`` of CPU with no early stop, counting
iterations. The figure is iterations per CPU second over those positions; the trees
alternate so a busy machine slows both alike, and with ``--anchor`` each round also
times OpenSpiel's pure-Python tic-tac-toe, so figures from different runs compare as
multiples of it (see engine_ab.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

#: seeded heuristic matches walked for positions, and the positions kept from each (the
#: first, middle and late decisions that ``mcts:hard`` would search: more than one
#: candidate move)
MATCHES = 4
PER_MATCH = 3
GAMES = "conflict,expedition,stellarion,stellium"


def positions(game_id: str, seed: int = 5200) -> list[tuple[Any, int]]:
    """(state, seat) pairs where the search runs, spread over seeded heuristic matches."""
    from skydeck.agents import make, support_for
    from skydeck.registry import load

    game = load(game_id)
    support = support_for(game)
    out = []
    for k in range(MATCHES):
        state = game.new(seed + k)
        agents = [make("heuristic", game, seed=seed + k + s) for s in range(game.players)]
        found = []
        while not state.is_over:
            seat = state.to_move[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            ranked = (
                legal if support.candidates is None else support.candidates(game, view, legal, seat)
            )
            if len(legal) > 1 and len(ranked) > 1:
                found.append((state.clone(), seat))
            state.apply(agents[seat].choose(view, legal, seat), seat)
        picks = {0, len(found) // 2, (3 * len(found)) // 4} if found else set()
        out += [found[i] for i in sorted(picks)][:PER_MATCH]
    return out


def iterations_per_cpu_s(game_id: str, seconds: float) -> dict[str, float]:
    """mcts:hard's iterations per CPU second over the fixed positions of one game."""
    from skydeck.agents.mcts import LEVELS, MctsAgent
    from skydeck.registry import load

    game = load(game_id)
    level = replace(LEVELS["hard"], iterations=None, seconds=seconds, clock="cpu", stop_early=False)
    iterations = spent = 0.0
    for i, (state, seat) in enumerate(positions(game_id)):
        agent = MctsAgent(game, seed=i, level=level)
        agent.choose(state.view(seat), state.legal_actions(seat), seat)
        if agent.last is None:  # answered without a search (one candidate)
            continue
        iterations += agent.last.iterations
        spent += agent.last.seconds
    if not spent:
        raise SystemExit(f"{game_id}: no position needed a search")
    return {"iterations": iterations, "seconds": spent, "per_s": iterations / spent}


def run_one(src: str, game: str, seconds: float) -> float:
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, __file__, "--one", game, "--seconds", str(seconds)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return float(json.loads(out.splitlines()[-1])["per_s"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", help="src folders (before, after, ...)")
    parser.add_argument("--one", metavar="GAME", help="time one game in this process (JSON)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds a position")
    parser.add_argument("--games", default=GAMES)
    parser.add_argument("--anchor", help="the anchor's speed_ratio.py, timed every round")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(iterations_per_cpu_s(args.one, args.seconds)))
        return
    if not args.trees:
        parser.error("name one or more src folders, or --one GAME")
    sys.path.insert(0, str(Path(__file__).parent))
    from engine_ab import anchor_steps_per_s

    names = [str(Path(t).resolve().parent.name) or t for t in args.trees]
    print(f"mcts:hard iterations per CPU second (median of {args.rounds} rounds)")
    for game in args.games.split(","):
        per: dict[str, list[float]] = {t: [] for t in args.trees}
        anchors: list[float] = []
        for _ in range(args.rounds):
            if args.anchor:
                anchors.append(anchor_steps_per_s(args.anchor))
            for t in args.trees:
                per[t].append(run_one(t, game, args.seconds))
        cells = []
        for t, name in zip(args.trees, names):
            m = statistics.median(per[t])
            cell = f"{name} {m:,.0f}"
            if args.anchor:
                cell += f" ({m / statistics.median(anchors) * 1000:.2f} per 1000 anchor steps)"
            cells.append(cell)
        first = statistics.median(per[args.trees[0]])
        last = statistics.median(per[args.trees[-1]])
        print(f"{game:<11} " + "; ".join(cells) + f"; last/first {last / first:.3f}", flush=True)


if __name__ == "__main__":
    main()
