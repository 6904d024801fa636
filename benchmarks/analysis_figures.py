"""The figures of docs/analysis.md: calibration of the analyser's win chances, and
planted mistakes, on heuristic-versus-heuristic matches of one game.

    python benchmarks/analysis_figures.py stellium --positions 500 --planted 20 --own 60

- calibration: ``--positions`` positions, ``--per-match`` from each match (decisions
  spread evenly over it), deals from seed 1000 on; each position's chance is a
  ``position`` task from the deciding seat's view with the game's default playouts
  (the "before" number of a decision), against what that seat finally got (1 win, 0
  loss, 1/k shared). Reliability table by decile, Brier score against the constant
  1/players and against the constant mean outcome.
- planted mistakes: ``--planted`` matches from seed 2000 on, each with one move (at a
  decision from the 10th on) replaced by the game's ``bad_move``; that decision
  analysed as ``skydeck analyse`` would (default playouts and width): the share graded
  mistake or blunder.
- own moves: ``--own`` decisions of heuristic matches from seed 3000 on: the share the
  analyser calls a blunder (and a mistake).

Nothing here was used to tune anything: the settings are the games' declared defaults.
Writes docs/results/analysis-GAME-Np.json (beside docs/analysis.md, which cites it; the
folder's README names the command behind each file) and prints the tables in Markdown.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path
from typing import Any

from skydeck.analysis.estimate import mix, outcome
from skydeck.analysis.grade import grade
from skydeck.analysis.plant import Planter, planted_record
from skydeck.analysis.runners import pool
from skydeck.analysis.selfplay import heuristic_record
from skydeck.analysis.support import analysis_for
from skydeck.core import Game
from skydeck.registry import load

RESULTS = Path(__file__).resolve().parent.parent / "docs" / "results"


def _base(game: Any, support: Any) -> dict[str, Any]:
    return {"game": game.id, "options": game.options, "width": support.width}


def calibration_tasks(game: Any, positions: int, per_match: int) -> tuple[list[Any], dict]:
    support = analysis_for(game)
    tasks: list[Any] = []
    truth: dict[str, float] = {}
    seed = 1000
    while len(tasks) < positions:
        record, _ = heuristic_record(game, seed)
        picks = []
        for i, (state, _, _) in enumerate(record.replay()):
            if i < len(record.entries):
                seat = record.entries[i].seat
                if len(state.legal_actions(seat)) > 1:
                    picks.append((seat, state.view(seat)))
            final = state
        shares = outcome(final, support)
        step = max(1, len(picks) // per_match)
        for i, (seat, view) in enumerate(picks[::step][:per_match]):
            tid = f"cal:{seed}:{i}"
            tasks.append(
                {
                    **_base(game, support),
                    "id": tid,
                    "kind": "position",
                    "step": i,
                    "observer": seat,
                    "view": view,
                    "playouts": support.playouts,
                    "seed": mix(seed, i, seat, 2),
                }
            )
            truth[tid] = shares[seat]
            if len(tasks) >= positions:
                break
        seed += 1
    return tasks, truth


def decision_task(game: Any, support: Any, tid: str, state: Any, entry: Any) -> dict[str, Any]:
    return {
        **_base(game, support),
        "id": tid,
        "kind": "decision",
        "step": 0,
        "observer": entry.seat,
        "view": state.view(entry.seat),
        "playouts": support.playouts,
        "seed": mix(zlib.crc32(tid.encode()), entry.seat, 1),
        "action": entry.action.to_json(),
    }


def planted_tasks(
    game: Game, count: int, first: int = 2000, planter: Planter | None = None
) -> tuple[list[Any], dict[str, Any]]:
    """``count`` decision tasks of planted moves, from deals ``first`` on (at most
    ``5 * count`` deals tried), and what the planter found for each (by task id).
    ``planter`` None: the game's ``bad_move`` from the 10th decision on."""
    support = analysis_for(game)
    tasks: list[Any] = []
    found: dict[str, Any] = {}
    seed = first
    while len(tasks) < count and seed < first + 5 * count:
        tid = f"plant:{seed}"
        if planter is None:
            record, planted = heuristic_record(game, seed, plant=10)
            info = None if planted is None else {"step": planted}
        else:
            record, what = planted_record(game, seed, seed, planter)
            planted = None if what is None else what.step
            info = None if what is None else what.to_json()
        seed += 1
        print(f"planted {seed - 1}: {info}", file=sys.stderr, flush=True)
        if planted is None or info is None:
            continue
        for i, (state, _, _) in enumerate(record.replay()):
            if i == planted:
                tasks.append(decision_task(game, support, tid, state, record.entries[planted]))
                found[tid] = info
                break
    return tasks, found


def own_tasks(game: Any, count: int) -> list[Any]:
    support = analysis_for(game)
    tasks: list[Any] = []
    seed = 3000
    while len(tasks) < count:
        record, _ = heuristic_record(game, seed)
        picks = []
        for i, (state, _, _) in enumerate(record.replay()):
            if i < len(record.entries):
                entry = record.entries[i]
                if len(state.legal_actions(entry.seat)) > 1:
                    picks.append(decision_task(game, support, f"own:{seed}:{i}", state, entry))
        step = max(1, len(picks) // 10)
        tasks += picks[::step][:10][: count - len(tasks)]
        seed += 1
    return tasks


def reliability(pairs: list[tuple[float, float]]) -> list[dict[str, Any]]:
    rows = []
    for d in range(10):
        lo, hi = d / 10, (d + 1) / 10
        inside = [(p, y) for p, y in pairs if lo <= p < hi or (d == 9 and p == 1.0)]
        if inside:
            rows.append(
                {
                    "decile": f"{lo:.1f}-{hi:.1f}",
                    "n": len(inside),
                    "predicted": sum(p for p, _ in inside) / len(inside),
                    "observed": sum(y for _, y in inside) / len(inside),
                }
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--per-match", type=int, default=10)
    ap.add_argument("--planted", type=int, default=20)
    ap.add_argument("--own", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--planted-seed", type=int, default=2000, help="the planted deals' first seed")
    ap.add_argument(
        "--planter",
        choices=("view", "hint"),
        default="view",
        help="view: the worst of sampled moves measured from the seat's view (plant.py); "
        "hint: the game's bad_move from the 10th decision on",
    )
    knobs = Planter()
    ap.add_argument("--plant-candidates", type=int, default=knobs.candidates)
    ap.add_argument("--plant-playouts", type=int, default=knobs.playouts)
    ap.add_argument("--plant-margin", type=float, default=knobs.margin)
    ap.add_argument("--plant-start", type=int, default=knobs.start)
    ap.add_argument("--plant-every", type=int, default=knobs.every)
    ap.add_argument("--plant-tries", type=int, default=knobs.tries)
    ap.add_argument(
        "--tag", default="", help="added to the output file's name: analysis-GAME-Np-TAG.json"
    )
    args = ap.parse_args(argv)
    game = load(args.game, players=args.players)
    support = analysis_for(game)
    started = time.perf_counter()
    out: dict[str, Any] = {
        "game": game.id,
        "options": game.options,
        "playouts": support.playouts,
        "width": support.width,
        "thresholds": list(support.thresholds),
        "args": vars(args),
    }
    if args.positions:
        tasks, truth = calibration_tasks(game, args.positions, args.per_match)
        pairs = []
        for r in pool(tasks, args.jobs):
            seat = next(t["observer"] for t in tasks if t["id"] == r["id"])
            pairs.append((r["value"][seat], truth[r["id"]]))
        n = len(pairs)
        mean_y = sum(y for _, y in pairs) / n
        base = 1 / game.players
        out["calibration"] = {
            "positions": n,
            "brier": sum((p - y) ** 2 for p, y in pairs) / n,
            "brier_base_1_over_players": sum((base - y) ** 2 for _, y in pairs) / n,
            "brier_base_mean_outcome": sum((mean_y - y) ** 2 for _, y in pairs) / n,
            "mean_outcome": mean_y,
            "table": reliability(pairs),
        }
    planter = Planter(
        candidates=args.plant_candidates,
        playouts=args.plant_playouts,
        margin=args.plant_margin,
        start=args.plant_start,
        every=args.plant_every,
        tries=args.plant_tries,
    )
    for name, count in (("planted", args.planted), ("own", args.own)):
        if not count:
            continue
        found: dict[str, Any] = {}
        if name == "planted":
            chosen = planter if args.planter == "view" else None
            tasks, found = planted_tasks(game, count, args.planted_seed, chosen)
        else:
            tasks = own_tasks(game, count)
        grades: dict[str, int] = {}
        drops = []
        cases = []
        for r in pool(tasks, args.jobs):
            g = "forced" if r["forced"] else grade(r["drop"], r["se"], support.thresholds)
            grades[g] = grades.get(g, 0) + 1
            drops.append(r.get("drop", 0.0))
            if r["id"] in found:
                cases.append(
                    {
                        "id": r["id"],
                        "planted": found[r["id"]],
                        "grade": g,
                        "drop": r.get("drop", 0.0),
                        "se": r.get("se"),
                    }
                )
        total = len(tasks)
        out[name] = {
            "decisions": total,
            "grades": grades,
            "mistake_or_blunder": (grades.get("mistake", 0) + grades.get("blunder", 0))
            / max(1, total),
            "blunder": grades.get("blunder", 0) / max(1, total),
            "mean_drop": sum(drops) / max(1, len(drops)),
        }
        if name == "planted":
            out[name]["planter"] = (
                vars(planter) if args.planter == "view" else "the game's bad_move"
            )
            out[name]["cases"] = cases
            print(f"planted: {len(tasks)} of {count} found", file=sys.stderr)
    out["seconds"] = time.perf_counter() - started
    RESULTS.mkdir(exist_ok=True)
    tag = f"-{args.tag}" if args.tag else ""
    path = RESULTS / f"analysis-{game.id}-{game.players}p{tag}.json"
    path.write_text(json.dumps(out, indent=1))
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
