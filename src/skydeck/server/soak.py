"""`skydeck soak`: many bot matches of every game against a real server, for minutes.

The server runs in its own process (``skydeck serve``'s app: uvloop, tuned collector,
durable SQLite unless ``--db``); this process keeps ``matches`` matches going, cycling
through the four games, each seat a WebSocket bot that
- answers its turn with a random legal action after a short think,
- now and then lets its clock run out instead, when one is running for it (Stellium's
  draw clock, Stellar Conflict's table clock, a 5 s move clock in the other games: the
  server moves for it),
- now and then drops its connection and reconnects a moment later.

It reports errors (anything but a race with a clock or another seat's move: a refusal
whose match had already moved on), the latency of moves (p50/p99 per time window), the
server's resident memory per window (flat after warm-up: no leak), matches finished,
and that every finished match's stored record replays to the scores the server
announced. The command fails on any error, any replay that differs, or memory that
keeps growing after warm-up.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosedOK

from skydeck.registry import game_class, game_ids
from skydeck.server.bench import _free_port, _run_loop, _start_server, http_json, player_address

#: Every game for two, two players each; the options a live server would use.
GAMES: list[tuple[str, dict[str, Any]]] = [
    (g, {"players": 2}) for g in game_ids() if 2 in game_class(g).player_counts
]
#: Shortest move clock the server takes, for the games without a clock of their own
#: (their seats are moved by the clock's random timeout).
MOVE_SECONDS = 5
#: Seconds a WebSocket opening handshake may take, and attempts before it is an error.
OPEN_TIMEOUT = 30.0
CONNECT_ATTEMPTS = 5
#: The matches start spread over this fraction of the run (not 400 handshakes at once).
RAMP = 0.1
#: Memory may grow by this fraction after warm-up before it counts as a leak.
LEAK_GROWTH = 0.15
#: A live match that sends a seat nothing for this long has stalled (an error): the
#: longest wait is a clock (Stellar Conflict's deployment, 60 s at the default scale).
STALL_SECONDS = 150.0
#: Clocks that act for every seat to move (their deadline names one seat only).
TABLE_CLOCKS = {
    ta.label
    for game_id in game_ids()
    for ta in game_class(game_id).capabilities.timed_actions
    if ta.scope == "table"
}


@dataclass
class Window:
    t0: float
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    rss_mb: float = 0.0


@dataclass
class SoakStats:
    windows: list[Window]
    started: float
    window_s: float
    errors: list[str] = field(default_factory=list)
    races: int = 0
    timeouts_let_run: int = 0
    disconnects: int = 0
    connect_retries: int = 0
    unchecked: int = 0
    finished: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    replay_mismatches: list[str] = field(default_factory=list)

    def window(self) -> Window:
        k = int((time.perf_counter() - self.started) // self.window_s)
        while len(self.windows) <= k:
            self.windows.append(Window(self.started + len(self.windows) * self.window_s))
        return self.windows[k]


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Seat:
    """One seat's bot: plays, sometimes waits for its clock, sometimes drops its line."""

    def __init__(
        self,
        url: str,
        match: dict[str, Any],
        seat: int,
        stats: SoakStats,
        rng: random.Random,
        address: str,
    ) -> None:
        self.url = url
        #: Where this player connects from (one loopback address per player).
        self.address = address
        self.match = match
        self.seat = seat
        self.stats = stats
        self.rng = rng
        self.final: dict[str, Any] | None = None

    async def play(self, p_timeout: float, p_drop: float) -> None:
        from websockets.asyncio.client import connect

        uri = f"{self.url}/ws/matches/{self.match['id']}"
        failed = 0
        while self.final is None:
            try:
                ws = await connect(
                    uri,
                    max_size=1 << 24,
                    open_timeout=OPEN_TIMEOUT,
                    local_addr=(self.address, 0),
                )
            except (OSError, TimeoutError):
                # As the browser does: try again a little later (counted, and an error
                # only when every attempt fails).
                failed += 1
                self.stats.connect_retries += 1
                if failed >= CONNECT_ATTEMPTS:
                    raise
                await asyncio.sleep(self.rng.uniform(0.5, 2.0))
                continue
            failed = 0
            async with ws:
                token = self.match["tokens"][self.seat]
                await ws.send(json.dumps({"type": "hello", "tokens": [token]}))
                dropped = await self._session(ws, p_timeout, p_drop)
            if dropped:
                self.stats.disconnects += 1
                await asyncio.sleep(self.rng.uniform(0.1, 1.0))

    async def _session(self, ws: Any, p_timeout: float, p_drop: float) -> bool:
        """Play over one connection; True when this bot dropped it on purpose."""
        sent_n, sent_at = -1, 0.0
        last_sent = -1  # the move number our last move was sent at
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), STALL_SECONDS)
            except TimeoutError:
                self.stats.errors.append(
                    f"{self.match['game']} {self.match['id']} seat {self.seat}: no update "
                    f"for {STALL_SECONDS:.0f} s in a live match (stalled)"
                )
                return True  # reconnect: a fresh state, or the same silence again
            except ConnectionClosedOK:  # closed normally: the bot reconnects
                return False
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                # The match moved on (a clock acted for us, the other seat moved)
                # between our reading the state and our move arriving: a race.
                if msg["code"] == "over" or (
                    msg["code"] in ("stale", "illegal") and msg["n"] > msg.get("for_n", msg["n"])
                ):
                    self.stats.races += 1  # the match moved on before our move arrived
                else:
                    self.stats.errors.append(
                        f"{self.match['game']} {self.match['id']} seat {self.seat} "
                        f"(last move sent at {last_sent}): {msg}"
                    )
                sent_n = -1
                continue
            if kind != "state":
                continue
            n = msg["n"]
            if sent_n >= 0 and n > sent_n:
                w = self.stats.window()
                w.latencies.append(time.perf_counter() - sent_at)
                w.moves += 1
                sent_n = -1
            if msg["status"] != "live":
                self.final = msg
                return False
            if self.rng.random() < p_drop:
                return True
            if sent_n >= 0 or self.seat not in msg["to_move"]:
                continue
            legal = msg["legal"].get(str(self.seat), {}).get("actions", [])
            if not legal or (self._clocked(msg) and self.rng.random() < p_timeout):
                self.stats.timeouts_let_run += 1
                continue  # the clock will act for this seat
            await asyncio.sleep(self.rng.uniform(0.0, 0.05))
            act = self.rng.choice(legal)["action"]
            sent_n, sent_at, last_sent = n, time.perf_counter(), n
            await ws.send(json.dumps({"type": "act", "seat": self.seat, "action": act, "n": n}))

    def _clocked(self, state: dict[str, Any]) -> bool:
        """Whether a clock is running that will act for this seat (else a seat that
        waits would stall its match for good: Stellium's draw clock runs only while a
        body is drawn, and Stellium has no move clock)."""
        return any(d["seat"] == self.seat or d["kind"] in TABLE_CLOCKS for d in state["deadlines"])


def check_replay(record: dict[str, Any], final: dict[str, Any]) -> str | None:
    """None if the stored record replays to the scores and winners announced."""
    from skydeck.core.record import MatchRecord

    state = MatchRecord.from_json(record).final_state()
    got = (list(state.scores), list(state.winners))
    want = (final.get("scores"), final.get("winners"))
    if not state.is_over or got != want:
        return f"replayed to {got}, announced {want}"
    return None


async def _drive(
    base: str, matches: int, seconds: float, stats: SoakStats, p_timeout: float, p_drop: float
) -> None:
    url = base.replace("http", "ws", 1)
    end = time.perf_counter() + seconds

    async def slot(k: int) -> None:
        rng = random.Random(k)
        i = k
        await asyncio.sleep(seconds * RAMP * k / matches)
        while time.perf_counter() < end:
            game, options = GAMES[i % len(GAMES)]
            i += 1
            body: dict[str, Any] = {
                "game": game,
                "options": options,
                "seed": rng.randrange(1 << 40),
                "seats": [{"kind": "human"}, {"kind": "human"}],
            }
            if not game_class(game).capabilities.timed_actions:
                body["move_seconds"] = MOVE_SECONDS
            # Two players, each from an address of its own, as on a real server (the
            # per-address limits stay on at their defaults).
            addresses = [player_address(), player_address()]
            status, m = await http_json(base, "POST", "/api/matches", body, addresses[0])
            if status != 201:
                stats.errors.append(f"create {game}: {status} {str(m)[:200]}")
                return
            seats = [Seat(url, m, s, stats, rng, addresses[s]) for s in (0, 1)]
            try:
                await asyncio.gather(*(s.play(p_timeout, p_drop) for s in seats))
            except Exception as exc:  # a socket closed under a bot, a bad frame
                stats.errors.append(f"{game} {m['id']}: {type(exc).__name__}: {exc}")
                continue
            final = seats[0].final or {}
            # Counted once its record is checked; one that ends as time runs out
            # and is cut before that is counted apart.
            stats.unchecked += 1
            status, record = await http_json(
                base, "GET", f"/api/matches/{m['id']}/record", local=addresses[0]
            )
            if status != 200:
                stats.errors.append(f"record of {m['id']}: {status}")
                continue
            fault = await asyncio.to_thread(check_replay, record, final)
            stats.unchecked -= 1
            stats.finished[game] = stats.finished.get(game, 0) + 1
            stats.replayed += 1
            if fault is not None:
                stats.replay_mismatches.append(f"{game} {m['id']}: {fault}")

    tasks = [asyncio.ensure_future(slot(k)) for k in range(matches)]
    await asyncio.wait(tasks, timeout=seconds)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _sample_memory(pid: int, stats: SoakStats, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        stats.window().rss_mb = _rss_mb(pid)
        await asyncio.sleep(min(1.0, stats.window_s / 4))


def run_soak(
    matches: int = 200,
    seconds: float = 600.0,
    db: str | None = None,
    p_timeout: float = 0.02,
    p_drop: float = 0.01,
    windows: int = 10,
) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="skydeck-soak-"))
    url = db or f"sqlite:///{folder / 'soak.sqlite'}"
    port = _free_port()
    proc = _start_server(url, port, clock_grace=0)
    stats = SoakStats([], time.perf_counter(), max(1.0, seconds / windows))
    try:

        async def main() -> None:
            await asyncio.gather(
                _drive(f"http://127.0.0.1:{port}", matches, seconds, stats, p_timeout, p_drop),
                _sample_memory(proc.pid, stats, seconds),
            )

        _run_loop(main())
    finally:
        proc.terminate()
        proc.wait(10)
    rows = []
    for w in stats.windows:
        if w.t0 - stats.started >= seconds - 1e-9:
            continue  # the last moves' acknowledgements after time was up
        lat = sorted(w.latencies) or [0.0]
        rows.append(
            {
                "t_s": round(w.t0 - stats.started, 1),
                "moves": w.moves,
                "p50_ms": round(statistics.median(lat) * 1000, 1),
                "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 1),
                "rss_mb": round(w.rss_mb, 1),
            }
        )
    rss = [r["rss_mb"] for r in rows if r["rss_mb"]]
    warm = rss[max(1, len(rss) // 3) - 1] if rss else 0.0  # after the first third
    peak_after = max(rss[len(rss) // 3 :], default=0.0)
    growth = (peak_after - warm) / warm if warm else 0.0
    return {
        "matches": matches,
        "seconds": seconds,
        "windows": rows,
        "errors": len(stats.errors),
        "error_samples": stats.errors[:10],
        "races": stats.races,
        "clock_timeouts_let_run": stats.timeouts_let_run,
        "disconnects": stats.disconnects,
        "connect_retries": stats.connect_retries,
        "finished": stats.finished,
        "finished_total": sum(stats.finished.values()),
        "replayed": stats.replayed,
        "finished_unchecked": stats.unchecked,
        "replay_mismatches": stats.replay_mismatches,
        "rss_after_warmup_mb": warm,
        "rss_growth_after_warmup": round(growth, 3),
        "memory_flat": growth <= LEAK_GROWTH,
    }


def format_report(r: dict[str, Any]) -> str:
    lines = [
        f"soak: {r['matches']} concurrent matches for {r['seconds']:.0f} s",
        f"  {'t (s)':>7} {'moves':>7} {'p50 ms':>8} {'p99 ms':>8} {'RSS MB':>8}",
    ]
    for w in r["windows"]:
        lines.append(
            f"  {w['t_s']:>7} {w['moves']:>7} {w['p50_ms']:>8} {w['p99_ms']:>8} {w['rss_mb']:>8}"
        )
    lines += [
        f"  errors {r['errors']}, races with clocks/moves {r['races']}, clock timeouts let "
        f"run {r['clock_timeouts_let_run']}, disconnects {r['disconnects']}, "
        f"connection attempts retried {r['connect_retries']}",
        f"  finished {r['finished_total']} {r['finished']} (and {r['finished_unchecked']} "
        f"more cut by the end before their check), replayed {r['replayed']}, "
        f"replay mismatches {len(r['replay_mismatches'])}",
        f"  memory after warm-up {r['rss_after_warmup_mb']} MB, growth since "
        f"{r['rss_growth_after_warmup'] * 100:.1f}% "
        f"({'flat' if r['memory_flat'] else 'GROWING'})",
    ]
    lines += [f"  error: {e}" for e in r["error_samples"]]
    lines += [f"  replay mismatch: {e}" for e in r["replay_mismatches"][:10]]
    return "\n".join(lines)
