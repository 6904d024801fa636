"""`skydeck bench server`: concurrent matches played by bot clients over WebSockets.

The server runs in its own process (as in production) on loopback with durable SQLite
storage; this process drives ``matches`` two-player matches, two WebSocket clients
each, every client answering its own seat's turns with a random legal action. We
measure moves per second and the latency from sending a move to receiving the update
that contains it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar, cast

from skydeck.server.compression import MIN_COMPRESSED

T = TypeVar("T")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(
    db: str,
    port: int,
    deflate: bool = True,
    clock_grace: float | None = None,
    limits: bool = True,
) -> subprocess.Popen[bytes]:
    """The server in a process of its own; ``limits``: every per-client limit on, at its
    default (``Settings``), as a server on the internet runs."""
    grace = "" if clock_grace is None else f", clock_grace={clock_grace!r}"
    grace += f", limits={limits!r}"
    # Every game, and the boardgame.io anchor's counter (``skydeck.server.counter``).
    code = (
        "import uvicorn; from skydeck.server.app import create_app; "
        "from skydeck.server.counter import bench_games; games, listed = bench_games(); "
        f"uvicorn.run(create_app({db!r}, ai_delay=0, tune_gc=True{grace}, "
        "games=games, list_games=listed), "
        f"host='127.0.0.1', port={port}, "
        f"log_level='warning', ws_per_message_deflate={deflate!r}, timeout_keep_alive=120, "
        "ws_max_size=1 << 20, ws='skydeck.server.compression:LargeFramesProtocol')"
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


#: Each bot player connects from an address of its own in 127.0.0.0/8 (Linux routes
#: all of it to loopback), as the players of a real server come from many addresses:
#: the server's per-address limits stay on at their defaults and meet one player each.
_ADDRESSES = itertools.count()


def player_address() -> str:
    """A fresh loopback address (127.1.0.1, 127.1.0.2, ...) for one bot player."""
    k = next(_ADDRESSES) % (250 * 250 * 250)
    return f"127.{1 + k // 62500}.{k // 250 % 250}.{k % 250 + 1}"


async def http_json(
    base: str, method: str, path: str, body: Any = None, local: str | None = None
) -> tuple[int, Any]:
    """One HTTP/1.1 request from address ``local`` (a fresh connection, closed after):
    the status and the JSON answer. The bots' own minimal client: an HTTP client
    library builds a TLS context per client, which per player would cost more than the
    request."""
    host, port = base.split("//", 1)[1].split(":")
    reader, writer = await asyncio.open_connection(
        host, int(port), local_addr=(local, 0) if local else None
    )
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        writer.write(head.encode() + data)
        raw = await reader.read()
    finally:
        writer.close()
    header, _, payload = raw.partition(b"\r\n\r\n")
    status = int(header.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in header.lower():
        payload = _unchunk(payload)
    try:
        return status, json.loads(payload) if payload else None
    except ValueError:
        return status, payload.decode(errors="replace")


def _unchunk(data: bytes) -> bytes:
    out = []
    while data:
        size_line, _, rest = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out.append(rest[:size])
        data = rest[size + 2 :]
    return b"".join(out)


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


class _Bot(asyncio.Protocol):
    """One seat's client, kept lean (it shares the CPUs with the server it measures):
    the websockets library's sans-I/O protocol (handshake, framing, masking, deflate,
    pings) driven straight from the event loop's callbacks, so a message costs no task
    switch; only a state's head is decoded, and one legal action on this seat's turn."""

    def __init__(
        self,
        uri: str,
        match: dict[str, Any],
        seat: int,
        stats: Stats,
        rng: random.Random,
        deflate: bool,
        done: asyncio.Future[None],
        ready: asyncio.Future[None] | None = None,
    ) -> None:
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri

        from skydeck.server.compression import client_extensions

        self.ws = ClientProtocol(
            parse_uri(uri),
            extensions=client_extensions() if deflate else None,
            max_size=1 << 24,
        )
        self.token = match["tokens"][seat]
        self.seat = seat
        self.stats = stats
        self.rng = rng
        self.done = done
        self.transport: asyncio.Transport | None = None
        self.parts: list[bytes] = []  # a fragmented message (servers rarely send one)
        self.sent_at = 0.0
        self.sent_n = -1
        self.waiting = False
        #: Set once the first state has come (``--once``: the bot then waits for ``go``).
        self.ready = ready
        self.held: str | None = None  # that first state, while the bot waits

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        from websockets.frames import Frame, Opcode
        from websockets.http11 import Response

        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code != 101:
                    self._finish(RuntimeError(f"handshake refused: {event.status_code}"))
                    return
                hello = {"type": "hello", "tokens": [self.token], "patches": 2}
                self.ws.send_text(json.dumps(hello).encode())
            elif isinstance(event, Frame) and event.opcode in (Opcode.TEXT, Opcode.CONT):
                self.parts.append(bytes(event.data))
                if event.fin:
                    raw = b"".join(self.parts).decode()
                    self.parts = []
                    if self._message(raw):
                        self._close()
                        return
        self._flush()
        if self.ws.close_expected():
            self._finish(None)

    def _message(self, raw: str) -> bool:
        """Handle one server message; True once the match is over for this seat."""
        msg = read_head(raw)
        kind = msg["type"]
        stats = self.stats
        if kind == "error":
            stats.errors += 1
            self.waiting = False
            return False
        if kind != "state":
            return False
        if self.ready is not None:  # set-up, not timed: hold the first state until ``go``
            self.held = raw
            if not self.ready.done():
                self.ready.set_result(None)
            return False
        n = msg["n"]
        if self.waiting and n > self.sent_n:
            stats.latencies.append(time.perf_counter() - self.sent_at)
            stats.moves += 1
            self.waiting = False
        if msg["status"] != "live":
            if self.seat == 0:
                stats.games += 1
            return True
        if not self.waiting and self.seat in msg["to_move"]:
            choice = pick_legal(raw, self.seat, self.rng)
            if choice is not None:
                self.sent_n = n
                self.waiting = True
                self.sent_at = time.perf_counter()
                act = {"type": "act", "seat": self.seat, "action": choice, "n": n}
                self.ws.send_text(json.dumps(act).encode())
        return False

    def go(self) -> None:
        """Start playing from the state held since set-up (``--once``)."""
        self.ready = None
        raw, self.held = self.held, None
        if raw is not None and self._message(raw):
            self._close()
        else:
            self._flush()

    def _close(self) -> None:
        """The match is over for this seat: close the connection and report done."""
        self.ws.send_close(1000)
        self._flush()
        self._finish(None)

    def _flush(self) -> None:
        assert self.transport is not None
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)

    def _finish(self, error: BaseException | None) -> None:
        if not self.done.done():
            if error is None:
                self.done.set_result(None)
            else:
                self.done.set_exception(error)

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish(None if exc is None else exc)


async def _bot(
    url: str, match: dict[str, Any], seat: int, stats: Stats, rng: random.Random, deflate: bool
) -> None:
    """Play ``seat`` of ``match`` until it ends; the driver cancels it when time is up."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    uri = f"{url}/ws/matches/{match['id']}"
    host, port = uri.split("/")[2].split(":")
    local = match["addresses"][seat]
    transport, _ = await loop.create_connection(
        lambda: _Bot(uri, match, seat, stats, rng, deflate, done),
        host,
        int(port),
        local_addr=(local, 0),
    )
    try:
        await done
    finally:
        transport.close()


async def _new_match(base: str, game: str, seed: int) -> dict[str, Any]:
    """A two-player match created by its first player; ``addresses``: where each of
    its two players connects from."""
    body = {
        "game": game,
        "seed": seed,
        "options": {"players": 2},
        "seats": [{"kind": "human"}, {"kind": "human"}],
    }
    addresses = [player_address(), player_address()]
    status, answer = await http_json(base, "POST", "/api/matches", body, addresses[0])
    if status != 201:
        raise RuntimeError(f"the server refused a new match: {status} {answer}")
    return {**answer, "addresses": addresses}


async def _drive(
    base: str,
    game: str,
    matches: int,
    seconds: float,
    deflate: bool,
    mark: Callable[[], None] = lambda: None,
) -> Stats:
    """Keep ``matches`` matches going for ``seconds``: a slot whose match ends creates
    the next one, so match set-up (HTTP, WebSocket handshakes, first states) is timed
    with the moves. ``mark`` is called when the clock starts and when it stops."""
    stats = Stats()
    url = base.replace("http", "ws", 1)

    async def one_slot(k: int) -> None:
        seed = k
        rng = random.Random(k)
        while True:
            m = await _new_match(base, game, seed)
            seed += matches
            await asyncio.gather(
                _bot(url, m, 0, stats, rng, deflate), _bot(url, m, 1, stats, rng, deflate)
            )

    mark()
    slots = [asyncio.ensure_future(one_slot(k)) for k in range(matches)]
    done, _ = await asyncio.wait(slots, timeout=seconds, return_when=asyncio.FIRST_EXCEPTION)
    mark()
    for task in slots:
        task.cancel()
    await asyncio.gather(*slots, return_exceptions=True)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    return stats


#: Seconds the untimed set-up of ``--once`` may take.
SETUP_SECONDS = 120.0


async def _drive_once(
    base: str,
    game: str,
    matches: int,
    seconds: float,
    deflate: bool,
    mark: Callable[[], None] = lambda: None,
) -> Stats:
    """The anchor's method (``../shared/anchors/bgio/rawdriver.js``): create every match
    and connect both its seats first, not timed; then start the clock, let every match
    play to its end once (or until ``seconds``), and stop it when the last one ends. So
    only the moves are timed; the run's end drains as its matches finish."""
    stats = Stats()
    url = base.replace("http", "ws", 1)
    loop = asyncio.get_running_loop()
    host, port = url.split("/")[2].split(":")
    bots: list[_Bot] = []
    transports: list[asyncio.BaseTransport] = []
    try:
        made = [await _new_match(base, game, k) for k in range(matches)]
        for k, m in enumerate(made):
            rng = random.Random(k)
            for seat in (0, 1):
                uri = f"{url}/ws/matches/{m['id']}"
                local = m["addresses"][seat]
                bot = _Bot(
                    uri,
                    m,
                    seat,
                    stats,
                    rng,
                    deflate,
                    loop.create_future(),
                    loop.create_future(),
                )

                def factory(b: _Bot = bot) -> _Bot:
                    return b

                conn, _ = await loop.create_connection(
                    factory, host, int(port), local_addr=(local, 0)
                )
                transports.append(conn)
                bots.append(bot)
        readies = [b.ready for b in bots if b.ready is not None]
        await asyncio.wait_for(asyncio.gather(*readies), SETUP_SECONDS)
        mark()
        for bot in bots:
            bot.go()
        done, _ = await asyncio.wait(
            [b.done for b in bots], timeout=seconds, return_when=asyncio.FIRST_EXCEPTION
        )
        mark()
        for f in done:
            if f.exception() is not None:
                raise f.exception()  # type: ignore[misc]
    finally:
        for open_conn in transports:
            open_conn.close()
    return stats


def _run(coro: Coroutine[Any, Any, Stats]) -> Stats:
    return _run_loop(coro)


def _run_loop(coro: Coroutine[Any, Any, T]) -> T:
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


def _start_workers(
    db: str, port: int, workers: int, limits: bool = True
) -> tuple[subprocess.Popen[str], list[int]]:
    """``skydeck serve --workers N`` (HAProxy in front); its pids: workers and HAProxy."""
    cmd = [sys.executable, "-m", "skydeck.cli", "serve", "--workers", str(workers)]
    cmd += ["--port", str(port), "--db", db, "--ai-delay", "0"]
    cmd += [] if limits else ["--no-limits"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    pids = []
    for line in proc.stdout:
        found = re.match(r"(worker w\d+|HAProxy): pid (\d+)", line)
        if found:
            pids.append(int(found[2]))
        if line.startswith("Skydeck is at"):
            return proc, pids
    raise RuntimeError(f"skydeck serve --workers {workers} did not start")


def _cpu_total(pids: list[int]) -> float | None:
    times = [_cpu_seconds(pid) for pid in pids]
    return None if any(t is None for t in times) else sum(t or 0.0 for t in times)


def run_bench(
    game: str = "stellium",
    matches: int = 50,
    seconds: float = 20.0,
    deflate: bool = True,
    workers: int = 1,
    db: str | None = None,
    once: bool = False,
    limits: bool = True,
) -> dict[str, Any]:
    """``workers`` > 1: that many workers behind HAProxy over PostgreSQL (``db``, else a
    throw-away PostgreSQL server with its default, durable settings); the server CPU
    is then that of every worker and of HAProxy. ``once``: the anchor's method
    (``_drive_once``: set-up not timed, each match played to its end once) instead of
    ``seconds`` of matches kept going (``_drive``: set-up timed). ``limits``: the
    server's per-client limits on at their defaults (each bot player connects from an
    address of its own, ``player_address``), or off."""
    if workers > 1 and game == "counter":
        raise ValueError("the counter game is known to a single bench server only (--workers 1)")
    # The machine's load before the bench adds its own two processes to it.
    load_before = [round(x, 2) for x in os.getloadavg()]
    folder = Path(tempfile.mkdtemp(prefix="skydeck-bench-"))
    pg = None
    if workers > 1 and db is None:
        from skydeck.server.pgtemp import PostgresServer, find_bindir

        bindir = find_bindir()
        if bindir is None:
            raise RuntimeError("--workers needs PostgreSQL: give --db, or install its server")
        pg = PostgresServer(bindir, durable=True)
        db = pg.start().replace("postgresql+psycopg://", "postgresql://")
    db = db or f"sqlite:///{folder / 'bench.sqlite'}"
    port = _free_port()
    proc: subprocess.Popen[Any]
    if workers > 1:
        proc, pids = _start_workers(db, port, workers, limits)
    else:
        proc = _start_server(db, port, deflate, limits=limits)
        pids = [proc.pid]
    # (wall, server CPU, bots' CPU) when the clock starts and when it stops
    marks: list[tuple[float, float | None, float]] = []

    def mark() -> None:
        marks.append((time.perf_counter(), _cpu_total(pids), time.process_time()))

    drive = _drive_once if once else _drive
    try:
        stats = _run(drive(f"http://127.0.0.1:{port}", game, matches, seconds, deflate, mark))
    finally:
        proc.terminate()
        proc.wait(30)
        if pg is not None:
            pg.stop()
    (t0, server_cpu0, bots_cpu0), (t1, server_cpu1, bots_cpu1) = marks
    elapsed, bots_cpu = t1 - t0, bots_cpu1 - bots_cpu0
    lat = sorted(stats.latencies) or [0.0]
    return {
        "game": game,
        "method": (
            "once: every match created and connected first (not timed), each played to its end once"
            if once
            else "continuous: matches kept going, a new one created as each ends (timed)"
        ),
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
        "storage": (
            f"{'SQLite, WAL synchronous=FULL' if db.startswith('sqlite') else 'PostgreSQL'}, "
            "group commit (each move acknowledged after its commit)"
        ),
        "workers": workers,
        "limits": "on (defaults)" if limits else "off",
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
