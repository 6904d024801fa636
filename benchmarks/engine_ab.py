"""Engine speed of two source trees, side by side: ``skydeck bench GAME`` run
alternately on each (A, B, A, B ...) so that a busy machine slows both alike.

    python benchmarks/engine_ab.py BEFORE_SRC AFTER_SRC [--rounds 5] [--seconds 2]

BEFORE_SRC and AFTER_SRC are ``src`` folders (e.g. of a ``git worktree`` at an older
commit); each run puts one first on PYTHONPATH. Prints the median steps/s of each and
their ratio per game (after / before): the redesign (issue 47) must keep it within 3%.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys


def steps_per_s(src: str, game: str, seconds: float) -> float:
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, "-m", "skydeck.cli", "bench", game, "--seconds", str(seconds), "--json"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return float(json.loads(out.splitlines()[0])["steps_per_s"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", default="conflict,expedition,stellarion,stellium")
    args = parser.parse_args()
    print(f"{'game':<12} {'before':>10} {'after':>10} {'after/before':>13}  (median steps/s)")
    for game in args.games.split(","):
        before, after = [], []
        for _ in range(args.rounds):
            before.append(steps_per_s(args.before, game, args.seconds))
            after.append(steps_per_s(args.after, game, args.seconds))
        b, a = statistics.median(before), statistics.median(after)
        ratios = sorted(x / y for x, y in zip(after, before))
        print(
            f"{game:<12} {b:>10,.0f} {a:>10,.0f} {a / b:>13.3f}  "
            f"(pairs {ratios[0]:.3f}-{ratios[-1]:.3f})"
        )


if __name__ == "__main__":
    main()
