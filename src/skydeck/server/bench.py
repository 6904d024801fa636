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
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import httpx

from skydeck.server.compression import MIN_COMPRESSED


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(db: str, port: int, deflate: bool = True) -> subprocess.Popen[bytes]:
    code = (
        "import uvicorn; from skydeck.server.app import create_app; "
        f"uvicorn.run(create_app({db!r}, ai_delay=0, tune_gc=True), host='127.0.0.1', port={port}, "
        f"log_level='warning', ws_per_message_deflate={deflate!r}, timeout_keep_alive=120, "
        "ws='skydeck.server.compression:LargeFramesProtocol')"
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


#: The server writes a state update's small fields first and its legal actions last
#: (``Room.state_text``); the bots read only what they need from the text.
_STATE_HEAD = '{"type":"state",'
_HEAD_END = ',"now":'
_LEGAL = ',"legal":{'
_PIECE = '{"label":'
_decode = json.JSONDecoder().raw_decode


def read_head(raw: str) -> dict[str, Any]:
    """A server message's ``type``, ``n``, ``status`` and ``to_move`` (a state update:
    only its head is decoded, not its views and legal actions), or the whole message."""
    if raw.startswith(_STATE_HEAD):
        cut = raw.find(_HEAD_END, 0, 400)
        if cut > 0:
            return dict(json.loads(raw[:cut] + "}"))
    return dict(json.loads(raw))


def pick_legal(raw: str, seat: int, rng: random.Random) -> Any | None:
    """A random legal action of ``seat`` from a state update, as JSON, decoding only the
    chosen one. ``{"label":`` can only start an entry: inside a JSON string a quote is
    escaped, and an action's JSON holds no object (a kind and nested lists of scalars,
    core ``Action``), so counting them counts the actions."""
    start = raw.rfind(_LEGAL)
    begin = raw.find(f'"{seat}":{{"actions":[', start) if start > 0 else -1
    if begin < 0:
        legal = json.loads(raw).get("legal", {}).get(str(seat), {}).get("actions", [])
        return rng.choice(legal)["action"] if legal else None
    end = raw.find('],"truncated":', begin)
    count = raw.count(_PIECE, begin, end)
    if not count:
        return None
    pos = begin
    for _ in range(rng.randrange(count) + 1):
        pos = raw.find(_PIECE, pos + 1)
    return _decode(raw, pos)[0]["action"]


async def _bot(
    url: str, match: dict[str, Any], seat: int, stats: Stats, rng: random.Random, deflate: bool
) -> None:
    """One seat's client, kept lean (it shares the CPUs with the server it measures):
    one connection, no per-message timers, only a state's head decoded (and one legal
    action when it is this seat's turn); the driver cancels it when time is up."""
    import websockets

    from skydeck.server.compression import client_extensions

    dumps, clock = json.dumps, time.perf_counter
    async with websockets.connect(
        f"{url}/ws/matches/{match['id']}",
        max_size=1 << 24,
        compression=None,
        extensions=client_extensions() if deflate else None,
    ) as ws:
        await ws.send(dumps({"type": "hello", "tokens": [match["tokens"][seat]], "patches": True}))
        sent_at = 0.0
        sent_n = -1
        waiting = False
        async for raw in ws:
            assert isinstance(raw, str)
            msg = read_head(raw)
            kind = msg["type"]
            if kind == "error":
                stats.errors += 1
                waiting = False
                continue
            if kind != "state":
                continue
            n = msg["n"]
            if waiting and n > sent_n:
                stats.latencies.append(clock() - sent_at)
                stats.moves += 1
                waiting = False
            if msg["status"] != "live":
                if seat == 0:
                    stats.games += 1
                return
            if not waiting and seat in msg["to_move"]:
                choice = pick_legal(raw, seat, rng)
                if choice is not None:
                    sent_n = n
                    waiting = True
                    sent_at = clock()
                    await ws.send(dumps({"type": "act", "seat": seat, "action": choice, "n": n}))


async def _drive(base: str, game: str, matches: int, seconds: float, deflate: bool) -> Stats:
    stats = Stats()
    url = base.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def one_slot(k: int) -> None:
            seed = k
            rng = random.Random(k)
            while True:
                body = {
                    "game": game,
                    "seed": seed,
                    "options": {"players": 2},
                    "seats": [{"kind": "human"}, {"kind": "human"}],
                }
                for attempt in range(3):
                    try:
                        r = await http.post("/api/matches", json=body)
                        break
                    except httpx.TransportError:
                        # A pooled keep-alive connection the server closed meanwhile.
                        if attempt == 2:
                            raise
                r.raise_for_status()
                m = r.json()
                seed += matches
                await asyncio.gather(
                    _bot(url, m, 0, stats, rng, deflate), _bot(url, m, 1, stats, rng, deflate)
                )

        slots = [asyncio.ensure_future(one_slot(k)) for k in range(matches)]
        done, _ = await asyncio.wait(slots, timeout=seconds, return_when=asyncio.FIRST_EXCEPTION)
        for task in slots:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
    return stats


def _run(coro: Coroutine[Any, Any, Stats]) -> Stats:
    """Run the bots on uvloop when it is installed (as uvicorn runs the server): less
    CPU per message for the bots, which share the machine with the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


def _loop_name() -> str:
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_bench(
    game: str = "stellium", matches: int = 50, seconds: float = 20.0, deflate: bool = True
) -> dict[str, Any]:
    # The machine's load before the bench adds its own two processes to it.
    load_before = [round(x, 2) for x in os.getloadavg()]
    folder = Path(tempfile.mkdtemp(prefix="skydeck-bench-"))
    db = f"sqlite:///{folder / 'bench.sqlite'}"
    port = _free_port()
    proc = _start_server(db, port, deflate)
    try:
        server_cpu0 = _cpu_seconds(proc.pid)
        bots_cpu0 = time.process_time()
        t0 = time.perf_counter()
        stats = _run(_drive(f"http://127.0.0.1:{port}", game, matches, seconds, deflate))
        elapsed = time.perf_counter() - t0
        bots_cpu = time.process_time() - bots_cpu0
        server_cpu1 = _cpu_seconds(proc.pid)
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
        "p90_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.9))] * 1000, 2),
        "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2),
        "max_ms": round(lat[-1] * 1000, 2),
        "errors": stats.errors,
        "finished_games": stats.games,
        "storage": "SQLite, WAL, group commit (each move acknowledged after its commit)",
        "compression": (
            f"permessage-deflate, messages of {MIN_COMPRESSED} bytes or more" if deflate else "none"
        ),
        "event_loop": _loop_name(),
        "cpus": os.cpu_count(),
        # CPU time per move, which the machine's other load does not inflate much.
        "server_cpu_ms_per_move": (
            round((server_cpu1 - server_cpu0) * 1000 / stats.moves, 3)
            if stats.moves and server_cpu0 is not None and server_cpu1 is not None
            else None
        ),
        "bots_cpu_ms_per_move": round(bots_cpu * 1000 / stats.moves, 3) if stats.moves else None,
        "load_before": load_before,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
