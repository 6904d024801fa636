"""`skydeck bench server`: concurrent matches played by bot clients over WebSockets.

The server runs in its own process (as in production) on loopback with durable SQLite
storage; this process drives ``matches`` two-player matches, two WebSocket clients
each, every client answering its own seat's turns with a random legal action. We
measure moves per second and the latency from sending a move to receiving the update
that contains it.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(db: str, port: int, deflate: bool = True) -> subprocess.Popen[bytes]:
    code = (
        "import uvicorn; from skydeck.server.app import create_app; "
        f"uvicorn.run(create_app({db!r}, ai_delay=0), host='127.0.0.1', port={port}, "
        f"log_level='warning', ws_per_message_deflate={deflate!r})"
    )
    proc = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.games = 0


async def _bot(base: str, match: dict[str, Any], seat: int, stats: Stats, stop: float) -> None:
    import websockets

    rng = random.Random(seat * 7919 + hash(match["id"]))
    url = base.replace("http", "ws") + f"/ws/matches/{match['id']}"
    async with websockets.connect(url, max_size=1 << 24) as ws:
        hello = {"type": "hello", "tokens": [match["tokens"][seat]], "patches": True}
        await ws.send(json.dumps(hello))
        sent_at: float | None = None
        sent_n = -1
        while time.time() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.time()))
            except TimeoutError:
                return
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors += 1
                sent_at = None
                continue
            if msg["type"] != "state":
                continue
            if sent_at is not None and msg["n"] > sent_n:
                stats.latencies.append(time.perf_counter() - sent_at)
                stats.moves += 1
                sent_at = None
            if msg["status"] != "live":
                if seat == 0:
                    stats.games += 1
                return
            legal = msg["legal"][str(seat)]["actions"]
            if seat in msg["to_move"] and legal and sent_at is None:
                choice = rng.choice(legal)["action"]
                sent_n = msg["n"]
                sent_at = time.perf_counter()
                await ws.send(
                    json.dumps({"type": "act", "seat": seat, "action": choice, "n": msg["n"]})
                )


async def _drive(base: str, game: str, matches: int, seconds: float) -> Stats:
    stats = Stats()
    stop = time.time() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def one_slot(k: int) -> None:
            seed = k
            while time.time() < stop:
                r = await http.post(
                    "/api/matches",
                    json={
                        "game": game,
                        "seed": seed,
                        "options": {"players": 2},
                        "seats": [{"kind": "human"}, {"kind": "human"}],
                    },
                )
                r.raise_for_status()
                m = r.json()
                seed += matches
                await asyncio.gather(_bot(base, m, 0, stats, stop), _bot(base, m, 1, stats, stop))

        await asyncio.gather(*(one_slot(k) for k in range(matches)))
    return stats


def run_bench(
    game: str = "stellium", matches: int = 50, seconds: float = 20.0, deflate: bool = True
) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="skydeck-bench-"))
    db = f"sqlite:///{folder / 'bench.sqlite'}"
    port = _free_port()
    proc = _start_server(db, port, deflate)
    try:
        t0 = time.perf_counter()
        stats = asyncio.run(_drive(f"http://127.0.0.1:{port}", game, matches, seconds))
        elapsed = time.perf_counter() - t0
    finally:
        proc.terminate()
        proc.wait(10)
    lat = sorted(stats.latencies) or [0.0]
    return {
        "game": game,
        "matches": matches,
        "seconds": round(elapsed, 2),
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / elapsed, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 2),
        "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2),
        "errors": stats.errors,
        "finished_games": stats.games,
        "storage": "SQLite, WAL, one commit per move",
        "compression": "permessage-deflate" if deflate else "none",
        "cpus": os.cpu_count(),
    }
