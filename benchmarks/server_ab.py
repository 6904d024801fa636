"""Guest play's server speed of two source trees, side by side: ``skydeck bench server
--once`` run alternately on each (A, B, A, B ...) so that a busy machine slows both
alike, the anchor's own program timed in every round too.

    python benchmarks/server_ab.py BEFORE_SRC AFTER_SRC [--rounds 5]
        [--anchor ../shared/anchors/engine/speed_ratio.py] [-- EXTRA BENCH FLAGS]

BEFORE_SRC and AFTER_SRC are ``src`` folders (e.g. of a ``git worktree`` at an older
commit); each run puts one first on PYTHONPATH. Prints each round's moves/s, the
medians, the median of the rounds' after/before ratios (issue 48: within 5%), and with
``--anchor`` the medians as multiples of the anchor (OpenSpiel's pure-Python
tic-tac-toe steps/s, ``engine_ab.anchor_steps_per_s``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_ab import anchor_steps_per_s


def moves_per_s(src: str, extra: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, "-m", "skydeck.cli", "bench", "server", "--once", "--json", *extra]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("{"))
    return float(json.loads(line)["moves_per_s"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--anchor", help="the anchor's speed_ratio.py, timed every round")
    parser.add_argument("extra", nargs="*", help="flags for `skydeck bench server`")
    args = parser.parse_args()
    before: list[float] = []
    after: list[float] = []
    anchors: list[float] = []
    for r in range(args.rounds):
        # Which goes first alternates too, so neither always runs on a warmer machine.
        order = [("before", args.before), ("after", args.after)]
        if r % 2:
            order.reverse()
        got = {name: moves_per_s(src, args.extra) for name, src in order}
        before.append(got["before"])
        after.append(got["after"])
        line = f"round {r + 1}: before {got['before']:,.0f}  after {got['after']:,.0f} moves/s"
        if args.anchor:
            anchors.append(anchor_steps_per_s(args.anchor))
            line += f"  anchor {anchors[-1]:,.0f} steps/s"
        print(line, flush=True)
    b, a = statistics.median(before), statistics.median(after)
    ratios = sorted(x / y for x, y in zip(after, before, strict=True))
    print(f"median: before {b:,.0f}, after {a:,.0f} moves/s; after/before: median of rounds "
          f"{statistics.median(ratios):.3f} (rounds {ratios[0]:.3f}-{ratios[-1]:.3f})")
    if anchors:
        t = statistics.median(anchors)
        print(f"anchor median {t:,.0f} steps/s: before {b / t:.3f}x, after {a / t:.3f}x")


if __name__ == "__main__":
    main()
