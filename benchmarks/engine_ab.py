"""Engine speed of two source trees, side by side: ``skydeck bench GAME`` run
alternately on each (A, B, A, B ...) so that a busy machine slows both alike.

    python benchmarks/engine_ab.py BEFORE_SRC AFTER_SRC [--rounds 5] [--seconds 2]
        [--anchor ../shared/anchors/engine/speed_ratio.py]

BEFORE_SRC and AFTER_SRC are ``src`` folders (e.g. of a ``git worktree`` at an older
commit); each run puts one first on PYTHONPATH. Prints the median steps/s of each and
their ratio per game (after / before): the redesign (issue 47) must keep it within 3%.
With ``--anchor``, each round also times the anchor's own program (OpenSpiel's
pure-Python tic-tac-toe, as the anchor file holds it, in the anchor's venv) and the
medians are given as multiples of it too, so figures from different runs compare.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path


def steps_per_s(src: str, game: str, seconds: float) -> float:
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, "-m", "skydeck.cli", "bench", game, "--seconds", str(seconds), "--json"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return float(json.loads(out.splitlines()[0])["steps_per_s"])


def anchor_steps_per_s(anchor: str) -> float:
    """The anchor's random tic-tac-toe steps/s: its program (the ``TTT`` string of
    speed_ratio.py) run in its venv ($ANCHOR_VENV, default ~/.cache/skydeck-anchors)."""
    tree = ast.parse(Path(anchor).read_text())
    program = next(
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "TTT" for t in node.targets)
        and isinstance(node.value, ast.Constant)
    )
    venv = os.environ.get("ANCHOR_VENV", os.path.expanduser("~/.cache/skydeck-anchors/venv"))
    python = os.path.join(venv, "bin", "python")
    out = subprocess.run([python, "-c", program], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", default="conflict,expedition,stellarion,stellium")
    parser.add_argument("--anchor", help="the anchor's speed_ratio.py, timed every round")
    args = parser.parse_args()
    print(f"{'game':<12} {'before':>10} {'after':>10} {'after/before':>13}  (median steps/s)")
    anchors: list[float] = []
    for game in args.games.split(","):
        before, after = [], []
        for _ in range(args.rounds):
            if args.anchor:
                anchors.append(anchor_steps_per_s(args.anchor))
            before.append(steps_per_s(args.before, game, args.seconds))
            after.append(steps_per_s(args.after, game, args.seconds))
        b, a = statistics.median(before), statistics.median(after)
        ratios = sorted(x / y for x, y in zip(after, before))
        line = (
            f"{game:<12} {b:>10,.0f} {a:>10,.0f} {a / b:>13.3f}  "
            f"(pairs {ratios[0]:.3f}-{ratios[-1]:.3f})"
        )
        if args.anchor:
            t = statistics.median(anchors[-args.rounds :])
            line += f"  anchor {t:,.0f}: before {b / t:.2f}x, after {a / t:.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
