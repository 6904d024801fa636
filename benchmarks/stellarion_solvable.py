"""How many Stellarion deals can be won? The clairvoyant solver against the heuristic,
deal by deal (docs/journal/2026-12-03-stellarion-ai.md, issue 19).

    python benchmarks/stellarion_solvable.py run --setup base1 --deals 50 --nodes 15000 \\
        --what solver --out runs/solvable.jsonl
    python benchmarks/stellarion_solvable.py run --setup base1 --deals 50 --what heuristic \\
        --out runs/solvable.jsonl
    python benchmarks/stellarion_solvable.py run --setup mirrors --deals 50 --nodes 40000 \
        --retry-unknown --out runs/solvable.jsonl        # a second pass, larger budget
    python benchmarks/stellarion_solvable.py table runs/solvable.jsonl

Deal ``i`` is ``game.new(first_seed + i)``; the heuristic plays it with agent seed ``i``
(as ``skydeck.games.stellarion.measure``). The solver's budget is a count of positions,
so a row is the same on any machine; seconds are reported alongside. One JSON line per
(setup, deal, what) is appended to ``--out``; ``table`` pools them (the last line wins
when a deal was measured twice) and prints the Markdown table with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from skydeck.games.stellarion.game import StellarionGame
from skydeck.games.stellarion.measure import wilson

ALL4 = ["black_holes", "glaucous_sun", "mirrors", "theories"]
SETUPS: dict[str, dict[str, Any]] = {
    **{f"base{n}": {"shooting_stars": n} for n in range(5)},
    **{e: {"expansions": [e]} for e in ALL4},
    "all4": {"expansions": ALL4},
    "default": {},  # the default Shooting Stars: 1 solo, 3 in co-op (--players 2)
}
LABELS = {
    **{f"base{n}": f"base, {n} Shooting Star{'s' if n != 1 else ''}" for n in range(5)},
    **{e: f"{e}, 1 Shooting Star" for e in ALL4},
    "all4": "all four expansions, 1 Shooting Star",
    "default": "base, default Shooting Stars (3 in co-op)",
}


def run_solver(
    game: StellarionGame, seed: int, nodes: int, seconds: float | None, planner: bool = False
) -> dict:
    from skydeck.games.stellarion.ai.solve import WON, Solver, replay

    r = Solver(game.new(seed), seconds=seconds, max_nodes=nodes, planner=planner).solve()
    if r.status == WON:
        assert replay(game, seed, r.line).winners, f"seed {seed}: line does not replay"
    return {
        "status": r.status,
        "nodes": r.nodes,
        "seconds": round(r.seconds, 3),
        "limit": r.limit,
        "beam": r.beam,
        "length": len(r.line),
    } | ({"planner": r.planner} if planner else {})


def clairvoyant(game: StellarionGame, agent_seed: int, kind: str) -> Any:
    """Not a player: ``lookahead`` or the heuristic (``kind``) deciding on the true state
    (solve.py's ``ClairvoyantLookahead`` / ``ClairvoyantHeuristic``), to measure how much
    of the gap between an honest player and the clairvoyant solver is information rather
    than planning. ``run_agent`` hands it the true state before each decision."""
    from skydeck.games.stellarion.ai.solve import ClairvoyantHeuristic, ClairvoyantLookahead

    cls: Any = ClairvoyantLookahead if kind == "lookahead" else ClairvoyantHeuristic
    return cls(game, seed=agent_seed)


def run_agent(game: StellarionGame, seed: int, agent_seed: int, spec: str) -> dict:
    from skydeck.agents import make
    from skydeck.games.stellarion.ai.heuristic import BASE, HeuristicAgent

    if spec == "heuristic@base":  # the heuristic with the base game's weights in any set-up
        agent: Any = HeuristicAgent(game, seed=agent_seed, weights=BASE)
    elif spec in ("lookahead@clairvoyant", "heuristic@clairvoyant"):  # not players
        agent = clairvoyant(game, agent_seed, spec.split("@")[0])
    else:
        agent = make(spec, game, seed=agent_seed)
    s = game.new(seed)
    worst = worst_cpu = 0.0
    moves = 0
    while not s.is_over:
        seat = s.turn
        if hasattr(agent, "truth"):
            agent.truth = s
        t0, c0 = time.perf_counter(), time.process_time()
        action = agent.choose(s.view(seat), s.legal_actions(seat), seat)
        worst = max(worst, time.perf_counter() - t0)
        worst_cpu = max(worst_cpu, time.process_time() - c0)
        moves += 1
        s.apply(action, seat)
    return {
        "won": bool(s.winners),
        "voyages": sum(len(p) for p in s.piles),
        "moves": moves,
        "longest_move_s": round(worst, 3),
        "longest_move_cpu_s": round(worst_cpu, 3),
    }


def cmd_run(a: argparse.Namespace) -> None:
    if a.setup not in SETUPS:
        raise SystemExit(f"unknown setup {a.setup!r}; known: {', '.join(SETUPS)}")
    game = StellarionGame(players=a.players, **SETUPS[a.setup])
    todo = list(range(a.start, a.deals))  # deal i: seed first_seed + i, agent seed i
    if a.retry_unknown:  # a second pass with a larger budget on the deals left unknown
        last: dict[int, str] = {}
        with open(a.out) as f:
            for line in f:
                r = json.loads(line)
                if (r["setup"], r["players"], r["what"]) == (a.setup, a.players, "solver"):
                    last[r["seed"]] = r["status"]
        todo = [i for i in todo if last.get(a.first_seed + i) == "unknown"]
    with open(a.out, "a") as out:
        for i in todo:
            seed = a.first_seed + i
            row: dict[str, Any] = {"setup": a.setup, "players": a.players, "seed": seed}
            if a.what == "solver":
                row |= {"what": "solver", "budget_nodes": a.nodes}
                row |= run_solver(game, seed, a.nodes, a.seconds, a.planner)
            else:
                row |= {"what": a.what}
                row |= run_agent(game, seed, i, a.what)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(json.dumps(row), flush=True)


def pct(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})" if n else "-"


def cmd_table(a: argparse.Namespace) -> None:
    rows: dict[tuple[str, int, int, str], dict] = {}
    for path in a.files:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                rows[(r["setup"], r["players"], r["seed"], r["what"])] = r
    players_agents = sorted({k[3] for k in rows if k[3] != "solver"})
    head = "| set-up | deals | winnable (solved) | unwinnable (proved) | unknown "
    head += "".join(f"| {name} wins (same deals) " for name in players_agents)
    print(head + "| solver s / deal, median |")
    print("| --- " * (6 + len(players_agents)) + "|")
    for setup in SETUPS:
        for players in (1, 2):
            sol = [r for k, r in rows.items() if k[:2] == (setup, players) and k[3] == "solver"]
            if not sol:
                continue
            seeds = {r["seed"] for r in sol}
            n = len(sol)
            won = sum(r["status"] == "won" for r in sol)
            lost = sum(r["status"] == "unwinnable" for r in sol)
            unk = n - won - lost
            cells = []
            for name in players_agents:
                games = [
                    r
                    for k, r in rows.items()
                    if k[:2] == (setup, players) and k[3] == name and r["seed"] in seeds
                ]
                wins = sum(r["won"] for r in games)
                cells.append(f"{pct(wins, len(games))}, {len(games)} deals" if games else "-")
            secs = sorted(r["seconds"] for r in sol)
            label = LABELS[setup] + (", 2-player co-op" if players == 2 else "")
            line = f"| {label} | {n} | {pct(won, n)} | {pct(lost, n)} | {pct(unk, n)} "
            line += "".join(f"| {c} " for c in cells)
            print(line + f"| {secs[n // 2]:.2f} |")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="stellarion_solvable")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("--setup", required=True, help=", ".join(SETUPS))
    p.add_argument("--players", type=int, default=1)
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--first-seed", type=int, default=0)
    p.add_argument(
        "--start", type=int, default=0, help="first deal index (extend: --start 50 --deals 500)"
    )
    p.add_argument(
        "--what",
        default="solver",
        help="solver, an agent spec (heuristic), heuristic@base (the heuristic with the base "
        "game's weights), lookahead@clairvoyant or heuristic@clairvoyant (deciding on the true "
        "state: not players)",
    )
    p.add_argument("--nodes", type=int, default=15_000, help="solver budget in positions")
    p.add_argument("--seconds", type=float, default=None, help="solver: also a time limit")
    p.add_argument(
        "--planner",
        action="store_true",
        help="solver: with the planner pass (skydeck solve --planner); rows say which won",
    )
    p.add_argument("--out", required=True)
    p.add_argument(
        "--retry-unknown", action="store_true", help="solver: only the deals --out left unknown"
    )
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("table")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_table)
    a = ap.parse_args(argv)
    a.func(a)


if __name__ == "__main__":
    main()
