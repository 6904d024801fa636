"""How good are `pimc`'s single decisions, judged by its own play-outs with many deals?

    python benchmarks/pimc_decisions.py oracle --first-seed 8000 --games 8 --deals 300 --out O
    python benchmarks/pimc_decisions.py regret O --reps 2 pimc pimc:seconds=1.9:samples=256
    python benchmarks/pimc_decisions.py compare O1 O2

Why: a full game of `pimc` costs about a CPU-minute, so telling two versions apart by
wins takes hundreds of games. A decision is cheaper to judge. ``oracle`` takes positions
from the heuristic's own base games at 1 Shooting Star (every ``--every``-th decision
with a choice) and scores the heuristic's best ``--candidates`` actions there as `pimc`
does (``pimc.play_out``: the candidate, then the solver's greedy line, in states dealt
from the view, every candidate on the same deals) but on ``--deals`` deals instead of
the few dozen one move's budget allows. ``regret`` lets each agent spec choose at every
position (``--reps`` times, other agent seeds) and prints the mean regret: the oracle's
best value less the value of the action chosen. It measures how much a decision loses
to the noise of few deals, not whether the play-out itself is a good judge: a version
that changes the play-out needs games. ``--turns N`` judges with ``pimc.turn_line``
instead (deals as the greedy oracle's, so two oracles' rows pair up): how often, and by
how much, the two judges disagree on the best candidate; ``--salt`` deals other states
(the same judge on other deals: how much two oracles disagree by noise alone).
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from skydeck.agents import make
from skydeck.core import Rng
from skydeck.games.stellarion.ai.heuristic import HeuristicAgent
from skydeck.games.stellarion.ai.pimc import play_out
from skydeck.games.stellarion.game import StellarionGame
from skydeck.games.stellarion.inverse import from_view
from skydeck.games.stellarion.state import StellarionState

GAME = StellarionGame(players=1, shooting_stars=1)


@functools.cache
def positions(seed: int, every: int) -> tuple[StellarionState, ...]:
    """Every ``every``-th decision with a choice (from the fourth) of the heuristic's
    game on deal ``seed`` (agent seed = the deal's seed)."""
    s = GAME.new(seed)
    agent = HeuristicAgent(GAME, seed=seed)
    out: list[StellarionState] = []
    i = 0
    while not s.is_over:
        seat = s.turn
        legal = s.legal_actions(seat)
        if len(legal) > 1:
            if i % every == 3:
                out.append(s.clone())
            i += 1
        s.apply(agent.choose(s.view(seat), legal, seat), seat)
    return tuple(out)


def _oracle(job: tuple[int, int, int, int, int, int, int]) -> dict[str, Any]:
    seed, every, idx, deals, candidates, turns, salt = job
    s = positions(seed, every)[idx]
    heuristic = HeuristicAgent(GAME, seed=0)
    view = s.view(s.turn)
    ranked = heuristic.rank(view, s.legal_actions(s.turn))[:candidates]
    rng = Rng(10_000 + seed * 100 + idx + salt * 1_000_003)
    totals = [0.0] * len(ranked)
    for _ in range(deals):
        for j, v in enumerate(
            play_out(from_view(GAME, view, rng), ranked, heuristic.weights, turns) or ()
        ):
            totals[j] += v
    return {
        "seed": seed,
        "every": every,
        "idx": idx,
        "deals": deals,
        "turns": turns,
        "salt": salt,
        "candidates": [str(a) for a in ranked],
        "values": [t / deals for t in totals],
    }


def _regret(job: tuple[str, dict[str, Any], int]) -> tuple[str, float | None]:
    spec, rec, rep = job
    s = positions(rec["seed"], rec["every"])[rec["idx"]]
    agent = make(spec, GAME, seed=1000 * rep + 37 * rec["seed"] + rec["idx"])
    chosen = str(agent.choose(s.view(s.turn), s.legal_actions(s.turn), s.turn))
    values = rec["values"]
    if chosen not in rec["candidates"]:
        return spec, None  # outside the oracle's candidates: not scored
    return spec, max(values) - values[rec["candidates"].index(chosen)]


def compare(first: str, second: str) -> None:
    """Two oracles on the same positions (another judge, or other deals): how often their
    best candidates agree, and the mean regret of each one's best under the other."""
    recs = []
    for path in (first, second):
        with open(path) as f:
            recs.append({(r["seed"], r["idx"]): r for r in map(json.loads, f)})
    keys = sorted(set(recs[0]) & set(recs[1]))
    same = 0
    regrets: tuple[list[float], list[float]] = ([], [])
    for k in keys:
        a, b = recs[0][k], recs[1][k]
        if a["candidates"] != b["candidates"]:
            raise SystemExit(f"position {k}: the two oracles scored other candidates")
        va, vb = a["values"], b["values"]
        best_a, best_b = va.index(max(va)), vb.index(max(vb))
        same += best_a == best_b
        regrets[0].append(max(vb) - vb[best_a])
        regrets[1].append(max(va) - va[best_b])
    print(f"{len(keys)} positions; the same best candidate at {same}")
    names = (Path(first).name, Path(second).name)
    for (name, other), regs in zip((names, names[::-1]), regrets):
        se = statistics.stdev(regs) / len(regs) ** 0.5
        print(
            f"{name}'s best, judged by {other}: mean regret {statistics.mean(regs):.4f} "
            f"(s.e. {se:.4f})"
        )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser(
        "oracle", help="score the candidates of heuristic-game positions on many deals"
    )
    o.add_argument("--first-seed", type=int, default=8000)
    o.add_argument("--games", type=int, default=8)
    o.add_argument("--every", type=int, default=6)
    o.add_argument("--deals", type=int, default=300)
    o.add_argument("--candidates", type=int, default=6)
    o.add_argument("--procs", type=int, default=2)
    o.add_argument("--turns", type=int, default=0, help="judge by pimc.turn_line (top N)")
    o.add_argument("--salt", type=int, default=0, help="other deals (0: the first oracle's)")
    o.add_argument("--out", required=True)
    r = sub.add_parser("regret", help="each agent spec's mean regret against the oracle")
    r.add_argument("oracle")
    r.add_argument("specs", nargs="+")
    r.add_argument("--reps", type=int, default=2)
    r.add_argument("--procs", type=int, default=2)
    c = sub.add_parser("compare", help="where two oracles' best candidates differ, and by how much")
    c.add_argument("first")
    c.add_argument("second")
    a = p.parse_args(argv)
    if a.cmd == "compare":
        compare(a.first, a.second)
        return
    if a.cmd == "oracle":
        seeds = range(a.first_seed, a.first_seed + a.games)
        jobs = [
            (sd, a.every, i, a.deals, a.candidates, a.turns, a.salt)
            for sd in seeds
            for i in range(len(positions(sd, a.every)))
        ]
        with Pool(a.procs) as pool, open(a.out, "w") as out:
            for rec in pool.imap_unordered(_oracle, jobs):
                out.write(json.dumps(rec) + "\n")
                out.flush()
        print(f"{len(jobs)} positions scored into {a.out}")
        return
    with open(a.oracle) as f:
        recs = [json.loads(line) for line in f]
    results: dict[str, list[float | None]] = {spec: [] for spec in a.specs}
    jobs2 = [(spec, rec, k) for k in range(a.reps) for rec in recs for spec in a.specs]
    with Pool(a.procs) as pool:
        for spec, reg in pool.imap_unordered(_regret, jobs2):
            results[spec].append(reg)
    first = [max(rec["values"]) - rec["values"][0] for rec in recs]
    print(
        f"{'the heuristic first candidate':40s} n={len(first)} "
        f"mean regret {statistics.mean(first):.4f}"
    )
    for spec, regs in results.items():
        got = [x for x in regs if x is not None]
        se = statistics.stdev(got) / len(got) ** 0.5 if len(got) > 1 else 0.0
        print(
            f"{spec:40s} n={len(got)} outside={regs.count(None)} mean regret "
            f"{statistics.mean(got):.4f} (se {se:.4f}), best chosen {sum(x < 1e-9 for x in got)}"
        )


if __name__ == "__main__":
    main()
