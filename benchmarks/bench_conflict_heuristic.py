"""Stellar Conflict heuristic mirrors per CPU-second: what a balance pass costs
(docs/journal/2026-12-01-balance.md plays tens of thousands of them), timed beside an anchor.

    .venv/bin/python benchmarks/bench_conflict_heuristic.py [--rounds 3] [--before SRC]

Each round plays the same 18 matches (every race pair at every scale, one deal each)
with the heuristic in both seats and times them in CPU seconds; ``--before SRC`` also
times another checkout's ``src`` (e.g. a ``git worktree`` of an older commit) in the same
round, so the two are compared under the same load. Beside them, each round times
OpenSpiel's pure-Python tic-tac-toe at random (the engine anchor of
``../shared/anchors/engine``) with the Python of ``--anchor-python`` (default: the
anchors' own venv; skipped, and said so, when it is missing). Prints figures, asserts
nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANCHOR_PYTHON = Path.home() / ".cache" / "skydeck-anchors" / "venv" / "bin" / "python"

MIRRORS = """
import time
from skydeck.agents import make
from skydeck.sim.runner import play_match
from skydeck.sim.tournament import load_game
pairs = [("wiss", "vak"), ("wiss", "tetrakori"), ("wiss", "hexai"),
         ("vak", "tetrakori"), ("vak", "hexai"), ("tetrakori", "hexai")]
cells = [(list(p), sc) for sc in ("dispute", "conflict", "war") for p in pairs]
games = [(load_game("conflict", {"races": r, "scale": sc}), 992000 + i)
         for i, (r, sc) in enumerate(cells)]
start = time.process_time()
for game, seed in games:
    play_match(game, [make("heuristic", game, seed=2 * seed + s) for s in range(2)], seed)
print(len(games) / (time.process_time() - start))
"""

# Random tic-tac-toe steps per second, OpenSpiel's pure-Python game: the anchor.
ANCHOR = """
import random, time
import pyspiel, open_spiel.python.games  # noqa: F401
game = pyspiel.load_game("python_tic_tac_toe")
rng = random.Random(1)
def play():
    s, n = game.new_initial_state(), 0
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        n += 1
    return n
play()
start, steps = time.perf_counter(), 0
while time.perf_counter() - start < 2.0:
    steps += play()
print(steps / (time.perf_counter() - start))
"""


def _run(python: str, code: str, src: Path | None = None) -> float:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env)
    if out.returncode:
        raise SystemExit(f"a timing run failed:\n{out.stderr.strip()[-2000:]}")
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", type=Path, help="another checkout's src folder")
    parser.add_argument("--anchor-python", default=str(ANCHOR_PYTHON))
    args = parser.parse_args()
    anchor = Path(args.anchor_python).exists()
    if not anchor:
        print(f"no anchor: {args.anchor_python} is missing (see ../shared/anchors/engine)")
    now, before, ttt = [], [], []
    for r in range(1, args.rounds + 1):
        line = f"round {r}:"
        if anchor:
            ttt.append(_run(args.anchor_python, ANCHOR))
            line += f" anchor {ttt[-1]:,.0f} steps/s;"
        if args.before is not None:
            before.append(_run(sys.executable, MIRRORS, args.before))
            line += f" before {before[-1]:.2f} games/s;"
        now.append(_run(sys.executable, MIRRORS, ROOT / "src"))
        line += f" now {now[-1]:.2f} games per CPU-second"
        if before:
            line += f" ({now[-1] / before[-1]:.2f}x before)"
        print(line, flush=True)
    summary = f"median: now {statistics.median(now):.2f} games per CPU-second"
    if before:
        summary += f", {statistics.median(n / b for n, b in zip(now, before)):.2f}x before"
    if ttt:
        per = 1000 * statistics.median(n / t for n, t in zip(now, ttt))
        summary += f"; {per:.3f} games per 1,000 anchor steps"
    print(summary)


if __name__ == "__main__":
    main()
