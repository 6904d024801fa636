"""Profiles, leaderboards and rating updates at size: 10,000 accounts and 100,000
finished matches in SQLite (issue 48's targets: profile and leaderboard p99 <= 50 ms,
a rating update <= 5 ms of server CPU).

    .venv/bin/python benchmarks/people.py [ACCOUNTS] [MATCHES] [DB_PATH]
        [--anchor ../shared/anchors/engine/speed_ratio.py]

Fills a fresh SQLite file through the server's own migrations (accounts, two held
seats per match with results, ratings and their history for stellium), then times, in
this process: ``players.profile`` of random accounts, ``players.leaderboard``, page 1
of ``players.player_matches``, and ``ratings.record_end`` of new rated matches
(process CPU time, the database write included). With ``--anchor``, the anchor's own
program (OpenSpiel's pure-Python random tic-tac-toe, ``engine_ab.anchor_steps_per_s``)
is timed before and after, and each p99 is also given in anchor steps (how many of its
steps run in that time), a figure that compares across machines and loads.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert

from skydeck.server import players
from skydeck.server.accounts import Account
from skydeck.server.holders import setup_key
from skydeck.server.people_tables import accounts, match_players, rating_history, ratings
from skydeck.server.ratings import SeatResult, record_end, shown
from skydeck.server.storage import Storage, matches

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_ab import anchor_steps_per_s

GAME = "stellium"


def fill(storage: Storage, n_accounts: int, n_matches: int, rng: random.Random) -> None:
    now = time.time() - n_matches
    setup = setup_key({"first_game": False})
    with storage.engine.begin() as conn:
        conn.execute(insert(accounts), [
            {"id": i + 1, "name": f"p{i}", "name_key": f"p{i}", "kind": "human", "agent": None,
             "password": "x", "created": now, "deleted": None} for i in range(n_accounts)])
        games = [0] * (n_accounts + 1)
        batch_m, batch_p, batch_h = [], [], []
        for k in range(n_matches):
            a, b = rng.sample(range(1, n_accounts + 1), 2)
            mid = f"m{k}"
            t = now + k
            batch_m.append({"id": mid, "game": GAME, "options": {}, "seed": k,
                            "seats": [{"kind": "human", "name": f"p{a - 1}"},
                                      {"kind": "human", "name": f"p{b - 1}"}],
                            "settings": {"rated": True}, "status": "over", "created": t,
                            "updated": t, "version": 1, "creator": None})
            win = rng.random() < 0.5
            for seat, acc, won in ((0, a, win), (1, b, not win)):
                games[acc] += 1
                batch_p.append({"match_id": mid, "seat": seat, "account_id": acc, "game": GAME,
                                "setup": setup, "rated": True, "created": t,
                                "result": "win" if won else "loss", "rank": 1 if won else 2,
                                "score": 0.0, "moves": 40, "ended": t,
                                "rating_before": 1200, "rating_after": 1210})
                batch_h.append({"account_id": acc, "game": GAME, "match_id": mid, "t": t,
                                "mu": 25.0, "sigma": 5.0, "shown": shown(25.0, 5.0)})
            if len(batch_m) >= 5000:
                conn.execute(insert(matches), batch_m)
                conn.execute(insert(match_players), batch_p)
                conn.execute(insert(rating_history), batch_h)
                batch_m, batch_p, batch_h = [], [], []
        if batch_m:
            conn.execute(insert(matches), batch_m)
            conn.execute(insert(match_players), batch_p)
            conn.execute(insert(rating_history), batch_h)
        conn.execute(insert(ratings), [
            {"account_id": i, "game": GAME, "mu": 20 + rng.random() * 10, "sigma": 3.0,
             "shown": 0, "games": games[i], "updated": now} for i in range(1, n_accounts + 1)])
        conn.exec_driver_sql("UPDATE ratings SET shown = CAST(1000 + 30 * (mu - 3 * sigma) AS INT)")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


#: (label, p99 ms) of each figure, for the anchor's terms at the end.
P99: list[tuple[str, float]] = []


def timed(label: str, fn, n: int) -> None:  # type: ignore[no-untyped-def]
    wall = []
    for i in range(n):
        t = time.perf_counter()
        fn(i)
        wall.append((time.perf_counter() - t) * 1000)
    P99.append((label, pct(wall, 0.99)))
    print(f"{label:<28} n={n:<4} p50 {statistics.median(wall):6.2f} ms  "
          f"p99 {pct(wall, 0.99):6.2f} ms  max {max(wall):6.2f} ms")


def main() -> None:
    args = sys.argv[1:]
    anchor = None
    if "--anchor" in args:
        at = args.index("--anchor")
        anchor = args[at + 1]
        del args[at : at + 2]
    anchors = [anchor_steps_per_s(anchor)] if anchor else []
    n_accounts = int(args[0]) if len(args) > 0 else 10_000
    n_matches = int(args[1]) if len(args) > 1 else 100_000
    path = Path(args[2]) if len(args) > 2 else Path(tempfile.mkdtemp()) / "people.sqlite"
    rng = random.Random(48)
    storage = Storage(f"sqlite:///{path}")
    t = time.perf_counter()
    fill(storage, n_accounts, n_matches, rng)
    print(f"filled {n_accounts} accounts, {n_matches} matches in {time.perf_counter() - t:.1f} s "
          f"({path.stat().st_size / 1e6:.0f} MB)")
    engine = storage.engine
    ids = [rng.randrange(1, n_accounts + 1) for _ in range(300)]
    acc = [Account(i, f"p{i - 1}", "human", None, 0.0) for i in ids]
    timed("profile", lambda i: players.profile(engine, acc[i]), 300)
    timed("player_matches page 1", lambda i: players.player_matches(engine, acc[i]), 300)
    timed("leaderboard (top 50)", lambda _i: players.leaderboard(engine, GAME), 300)
    timed("by_name", lambda i: players.by_name(engine, acc[i].name), 300)
    # rating updates: new rated matches between random accounts
    new = []
    with engine.begin() as conn:
        for k in range(300):
            a, b = rng.sample(range(1, n_accounts + 1), 2)
            mid = f"new{k}"
            conn.execute(insert(matches).values(
                id=mid, game=GAME, options={}, seed=k, seats=[{}, {}], settings={"rated": True},
                status="over", created=time.time(), updated=time.time(), version=1))
            for seat, acc_id in ((0, a), (1, b)):
                conn.execute(insert(match_players).values(
                    match_id=mid, seat=seat, account_id=acc_id, game=GAME, setup="{}",
                    rated=True, created=time.time()))
            new.append(mid)
    cpu, wall = [], []
    for mid in new:
        c, t = time.process_time(), time.perf_counter()
        note = record_end(engine, mid, GAME, True,
                          [SeatResult("win", 1, 1.0), SeatResult("loss", 2, 0.0)], 40)
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - t) * 1000)
        assert note is None, note
    label = "rating update (record_end)"
    print(f"{label:<28} n={len(new):<4} CPU p50 {statistics.median(cpu):.2f} ms "
          f"p99 {pct(cpu, 0.99):.2f} ms; wall p50 {statistics.median(wall):.2f} ms "
          f"p99 {pct(wall, 0.99):.2f} ms (SQLite FULL sync: the commit's fsync)")
    P99.append(("rating update CPU", pct(cpu, 0.99)))
    storage.close()
    if anchor:
        anchors.append(anchor_steps_per_s(anchor))
        steps = statistics.mean(anchors)
        print(f"anchor: {anchors[0]:,.0f} and {anchors[1]:,.0f} steps/s (before, after)")
        for label, ms in P99:
            print(f"{label:<28} p99 {ms:6.2f} ms = {ms / 1000 * steps:,.0f} anchor steps")


if __name__ == "__main__":
    main()
