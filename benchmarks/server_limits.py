"""What the per-client limits cost a move: `skydeck bench server --once`, limits on and
off, timed alternately in one run.

    .venv/bin/python benchmarks/server_limits.py [ROUNDS] [MATCHES] [GAME]

Why alternately: on a shared 2-core machine a run's throughput drifts by 10-20% over a
few minutes (other jobs, the disk), so a 5% target can only be read from pairs taken
side by side. Each round runs the two settings back to back, in an order that swaps
every round (on-off, off-on, ...), each in a fresh server with a fresh SQLite file;
both use the same bots, and every bot player comes from a loopback address of its own
(``bench.player_address``), so with the limits on every check runs (rates, caps,
sockets, the message bucket) at the defaults, as on a server open to the internet.

Prints each round's moves/s and server CPU per move for both, the ratio on/off per
round, and the median ratio.
"""

from __future__ import annotations

import statistics
import sys

from skydeck.server.bench import run_bench


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    matches = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    game = sys.argv[3] if len(sys.argv) > 3 else "stellium"
    ratios, cpu_ratios = [], []
    print(f"bench server --once, {matches} {game} matches, limits on vs off, {rounds} rounds")
    for r in range(rounds):
        order = (True, False) if r % 2 == 0 else (False, True)
        got = {}
        for limits in order:
            got[limits] = run_bench(game, matches=matches, seconds=120.0, once=True, limits=limits)
            res = got[limits]
            assert res["errors"] == 0, res
        on, off = got[True], got[False]
        ratio = on["moves_per_s"] / off["moves_per_s"]
        cpu = on["server_cpu_ms_per_move"] / off["server_cpu_ms_per_move"]
        ratios.append(ratio)
        cpu_ratios.append(cpu)
        print(
            f"  round {r + 1} ({'on first' if order[0] else 'off first'}): "
            f"on {on['moves_per_s']} moves/s, {on['server_cpu_ms_per_move']} ms CPU/move, "
            f"p99 {on['p99_ms']} ms; off {off['moves_per_s']} moves/s, "
            f"{off['server_cpu_ms_per_move']} ms CPU/move, p99 {off['p99_ms']} ms; "
            f"moves/s on/off {ratio:.3f}, CPU/move on/off {cpu:.3f}"
        )
    print(
        f"median moves/s on/off {statistics.median(ratios):.3f} "
        f"(range {min(ratios):.3f}-{max(ratios):.3f}); median server CPU a move on/off "
        f"{statistics.median(cpu_ratios):.3f} (range {min(cpu_ratios):.3f}-{max(cpu_ratios):.3f})"
    )


if __name__ == "__main__":
    main()
