"""Speed of ``skydeck simulate``: its overhead over a bare play loop, 1 against 2 local
jobs, and Ray against the local backend on the same machine (figures, no assertions).

Issue 15 asks for: runner overhead within 10% of a bare play loop; at least 1.8x the
games/s with 2 jobs over 1; Ray within 15% of the local backend. The bare loop is what
a tournament does per match (load the game, make the agents, ``play_match``); the runner
adds the match record, the final view for factions, the action and usage counts and
the Parquet writes. Fast agents show the overhead at its largest (random Stellarion
matches take ~10 ms); slow ones hide it.

    .venv/bin/python benchmarks/bench_simulate.py
    nice .venv/bin/python benchmarks/bench_simulate.py --game conflict --agents heuristic \\
        --games 200 --json

On a shared machine run it under ``nice`` and read the load average it prints.

CPU time on a shared virtual machine varies run to run by more than the overhead
itself (see docs/simulate.md). ``--instructions`` counts instructions instead, with
valgrind's callgrind (repeatable whatever else the machine runs): each of the bare loop
and ``simulate --jobs 1`` runs in its own process at ``--warm`` matches and at
``--warm`` + ``--games`` matches, and the differences are the two loops' cost of
``--games`` matches, start-up and first-match warm-up left out::

    .venv/bin/python benchmarks/bench_simulate.py --instructions --games 100
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from skydeck.agents import make
from skydeck.sim.plan import Plan
from skydeck.sim.runner import play_match
from skydeck.sim.simulate import run
from skydeck.sim.tournament import agent_seed, load_game, match_seed, seating


def bare(plan: Plan, clock: Any = time.perf_counter) -> float:
    """Seconds for the plan's matches in a plain loop, nothing kept."""
    start = clock()
    for setting in plan.settings():
        for i in range(plan.games):
            game = load_game(plan.game, setting.options)
            specs = seating(plan.agents, game.players, i)
            agents = [make(s, game, seed=agent_seed(plan.seed, i, k)) for k, s in enumerate(specs)]
            play_match(game, agents, match_seed(plan.seed, plan.agents, i), names=specs)
    return clock() - start


def runner(plan: Plan, clock: Any = time.perf_counter, **backend: Any) -> float:
    """Seconds for ``skydeck simulate`` of the plan (into a fresh temporary folder)."""
    folder = Path(tempfile.mkdtemp(prefix="bench-simulate-"))
    try:
        start = clock()
        run(plan, folder / "run", **backend)
        return clock() - start
    finally:
        shutil.rmtree(folder)


def instructions(mode: str, games: int, game: str, agents: str) -> int:
    """Instructions callgrind counts for one process playing ``games`` matches ``mode``
    (``bare`` or ``runner``)."""
    cmd = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
        __file__, "--one", mode, "--games", str(games), "--game", game, "--agents", agents,
    ]  # fmt: skip
    err = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    found = re.search(r"Collected : (\d+)", err)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{err[-800:]}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="stellarion")
    ap.add_argument("--agents", default="random")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many timings")
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument(
        "--alternate",
        type=int,
        default=0,
        metavar="K",
        help="also time bare and --jobs 1 CPU K times in turn; print median and pooled",
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--instructions", action="store_true", help="count with callgrind instead")
    ap.add_argument("--warm", type=int, default=25, help="matches left out (--instructions)")
    ap.add_argument("--one", choices=("bare", "runner"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    options = {} if args.players is None else {"players": args.players}
    plan = Plan(args.game, args.agents.split(","), args.games, options, [], 0)
    n = args.games
    if args.one:
        bare(plan) if args.one == "bare" else runner(plan, jobs=1)
        return
    if args.instructions:
        cost = {}
        for mode in ("bare", "runner"):
            low = instructions(mode, args.warm, args.game, args.agents)
            high = instructions(mode, args.warm + n, args.game, args.agents)
            cost[mode] = high - low
        extra = cost["runner"] / cost["bare"] - 1
        print(f"{args.game}, {args.agents}, {n} matches after {args.warm} (callgrind)")
        print(f"  bare play loop     {cost['bare']:>16,} instructions")
        print(f"  simulate --jobs 1  {cost['runner']:>16,} instructions  overhead {extra:+.2%}")
        return

    def best(fn: Any, *a: Any, **kw: Any) -> float:
        return min(fn(*a, **kw) for _ in range(args.repeat))

    out: dict[str, Any] = {"game": args.game, "agents": args.agents, "games": n}
    out["load_before"] = os.getloadavg()[0]
    out["bare_s"] = best(bare, plan)
    out["jobs1_s"] = best(runner, plan, jobs=1)
    out["jobs2_s"] = best(runner, plan, jobs=2)
    out["overhead"] = out["jobs1_s"] / out["bare_s"] - 1
    # CPU time of this process: the overhead without the noise of other processes
    # (--jobs 1 plays in this process, so both clocks see the same work).
    out["bare_cpu_s"] = best(bare, plan, clock=time.process_time)
    out["jobs1_cpu_s"] = best(runner, plan, clock=time.process_time, jobs=1)
    out["overhead_cpu"] = out["jobs1_cpu_s"] / out["bare_cpu_s"] - 1
    out["speedup_2_jobs"] = out["jobs1_s"] / out["jobs2_s"]
    if args.alternate:
        # This machine's CPU time varies run to run more than the overhead itself:
        # alternate the two so that drifts hit both, and report the spread.
        pairs = [
            (bare(plan, clock=time.process_time), runner(plan, clock=time.process_time, jobs=1))
            for _ in range(args.alternate)
        ]
        ratios = sorted(s / b - 1 for b, s in pairs)
        out["overhead_cpu_runs"] = ratios
        out["overhead_cpu_median"] = statistics.median(ratios)
        out["overhead_cpu_pooled"] = sum(s for _, s in pairs) / sum(b for b, _ in pairs) - 1
    if not args.no_ray:
        import ray

        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        runner(plan, ray="")  # warm the workers: their start is not the backend's speed
        out["ray2_s"] = best(runner, plan, ray="")
        ray.shutdown()
        out["ray_vs_local"] = out["ray2_s"] / out["jobs2_s"] - 1
    out["load_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.game}, {args.agents}, {n} matches, best of {args.repeat}")
    print(f"  bare play loop      {out['bare_s']:7.2f} s  {n / out['bare_s']:8.1f} games/s")
    print(f"  simulate --jobs 1   {out['jobs1_s']:7.2f} s  {n / out['jobs1_s']:8.1f} games/s"
          f"  overhead {out['overhead']:+.1%}")  # fmt: skip
    print(f"  CPU time: bare {out['bare_cpu_s']:.2f} s, simulate --jobs 1 "
          f"{out['jobs1_cpu_s']:.2f} s  overhead {out['overhead_cpu']:+.1%}")  # fmt: skip
    if args.alternate:
        runs = out["overhead_cpu_runs"]
        print(f"  CPU overhead, {args.alternate} alternations: median "
              f"{out['overhead_cpu_median']:+.1%}, pooled {out['overhead_cpu_pooled']:+.1%}, "
              f"range {runs[0]:+.1%} .. {runs[-1]:+.1%}")  # fmt: skip
    print(f"  simulate --jobs 2   {out['jobs2_s']:7.2f} s  {n / out['jobs2_s']:8.1f} games/s"
          f"  speed-up {out['speedup_2_jobs']:.2f}x")  # fmt: skip
    if "ray2_s" in out:
        print(f"  simulate --ray (2)  {out['ray2_s']:7.2f} s  {n / out['ray2_s']:8.1f} games/s"
              f"  vs local 2 jobs {out['ray_vs_local']:+.1%}")  # fmt: skip
    print(f"  load average {out['load_before']:.2f} before, {out['load_after']:.2f} after")


if __name__ == "__main__":
    main()
