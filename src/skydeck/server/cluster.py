"""`skydeck serve --workers N`: N server processes over one PostgreSQL behind HAProxy.

```
 browsers ──HTTP/WebSocket──> HAProxy (the front port)
                                 │ /api/matches/ID..., /ws/matches/ID, /m/ID, /r/ID:
                                 │   consistent hash on ID -> the worker that owns it
                                 │ anything else (lobby, lists, new matches): round robin
                   ┌─────────────┼─────────────┐
               worker w0     worker w1   ...  (skydeck serve --worker wI, loopback ports)
                   └──────── PostgreSQL ───────┘  (the event log, every match's truth)
```

A match lives in one worker: every request and socket naming its id reaches the same
worker, so its players and spectators share one room. A worker rebuilds a match from
its log on the first request for it (and arms its clocks and AI seats there). When a
worker dies, HAProxy's health check takes it out within about two seconds and its ids
hash to the others; this launcher then asks HAProxy for every live match, so the new
owners rebuild them at once (clocks and AI seats keep going even with nobody
connected), and browsers reconnect by themselves (``match.js``). A dead worker is not
restarted: its matches stay where they went (restart the service to rebalance).

HAProxy (the Debian package ``haproxy``) is the router; nothing here proxies a byte.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from limits import parse_many

from skydeck.server.guard import describe_rate
from skydeck.server.settings import Settings
from skydeck.server.storage import Storage, default_url

#: Health checks every this many ms; a worker is out after FALL failed checks, each
#: given CHECK_TIMEOUT_MS (a busy worker on a loaded machine must not be taken for dead:
#: a dead one refuses the connection at once).
CHECK_MS = 500
FALL = 3
CHECK_TIMEOUT_MS = 3000


@dataclass
class Worker:
    name: str
    port: int
    proc: subprocess.Popen[bytes]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def max_connections() -> int:
    """What HAProxy may hold open here: each connection takes two descriptors (client
    and worker), within the process's hard limit."""
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        return 20_000
    return max(100, min(20_000, (hard - 100) // 2))


#: Connections an address may hold open through HAProxy beyond its WebSockets: the HTTP
#: connections a browser keeps for the pages, the lobby and static files.
HTTP_CONNECTIONS = 16
#: Sticky counters HAProxy 2.6 has (sc0 counts connections; the rest, creation rates).
STICK_COUNTERS = 3


def limit_rules(settings: Settings) -> tuple[str, str]:
    """HAProxy's share of the limits (frontend rules, and the tables they count in),
    for the whole cluster at once: a worker sees only the requests routed to it, so its
    own count of an address's new matches (sent round robin) would let N times the
    rate through. Counted here: connections open per address (``max_sockets`` plus
    ``HTTP_CONNECTIONS``) and the first two rates of ``create_rate``; each worker still
    applies every limit to what it sees."""
    if not settings.limits:
        return "", ""
    rules = [
        "    stick-table type ipv6 size 200k expire 1h store conn_cur",
        "    tcp-request connection track-sc0 src",
        f"    tcp-request connection reject if {{ sc0_conn_cur gt "
        f"{settings.max_sockets + HTTP_CONNECTIONS} }}",
        "    acl creating method POST",
        "    acl creating_path path /api/matches",
    ]
    tables = []
    for i, item in enumerate(parse_many(settings.create_rate)[: STICK_COUNTERS - 1], start=1):
        period = item.get_expiry()
        table = f"create_rate_{i}"
        tables.append(
            f"backend {table}\n"
            f"    stick-table type ipv6 size 200k expire {period}s "
            f"store http_req_rate({period}s)\n"
        )
        detail = (
            f'{{\\"detail\\":\\"too many new matches from your address: at most '
            f'{describe_rate(item)}; try again in {period} s\\"}}'
        )
        rules += [
            f"    http-request track-sc{i} src table {table} if creating creating_path",
            f'    http-request return status 429 content-type application/json string "{detail}" '
            f"hdr Retry-After {period} if creating creating_path "
            f"{{ sc_http_req_rate({i},{table}) gt {item.amount} }}",
        ]
    return "\n".join(rules) + "\n", "\n".join(tables)


def haproxy_config(
    host: str,
    port: int,
    workers: list[tuple[str, int]],
    maxconn: int = 2000,
    settings: Settings | None = None,
) -> str:
    """HAProxy's configuration: match requests hashed on the match id (consistent
    hashing, so a worker that goes away moves only its own matches), the rest round
    robin; WebSockets pass through (HTTP mode upgrades them). The workers learn each
    client's address from X-Forwarded-For, which HAProxy alone writes (one a client
    sent is dropped), and HAProxy counts the limits that must hold cluster-wide
    (``limit_rules``)."""
    servers = "\n".join(f"    server {name} 127.0.0.1:{p}" for name, p in workers)
    check = f"    default-server check inter {CHECK_MS}ms fall {FALL} rise 2"
    rules, tables = limit_rules(settings or Settings())
    return f"""global
    maxconn {maxconn}

defaults
    mode http
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    timeout check {CHECK_TIMEOUT_MS}ms
    retries 3
    option redispatch 1
    option forwardfor

frontend skydeck
    bind {host}:{port}
{rules}    http-request del-header x-forwarded-for
    http-request set-var(txn.match) path,field(4,/) if {{ path_beg /api/matches/ /ws/matches/ }}
    http-request set-var(txn.match) path,field(3,/) if {{ path_beg /m/ /r/ }}
    use_backend by_match if {{ var(txn.match) -m found }}
    default_backend any

backend by_match
    balance hash var(txn.match)
    hash-type consistent
    option httpchk GET /api/health
{check}
{servers}

backend any
    balance roundrobin
    option httpchk GET /api/health
{check}
{servers}

{tables}"""


def _wait_http(url: str, seconds: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{url}: the process ended with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {seconds:.0f} s")


def wake_live_matches(front: str, storage: Storage) -> int:
    """Ask HAProxy for every live match: each one's owner rebuilds it if it does not
    hold it yet (after a start, or a worker's death). Returns how many answered."""
    answered = 0
    for match_id in storage.live_ids():
        url = f"{front}/api/matches/{match_id}"
        request = urllib.request.Request(url, headers={"X-Skydeck-Internal": "1"})
        with contextlib.suppress(OSError), urllib.request.urlopen(request, timeout=10) as r:
            answered += r.status == 200
    return answered


def run_cluster(settings: Settings, worker_args: list[str]) -> int:
    """Start HAProxy and ``settings.workers`` servers, each given ``worker_args`` (the
    settings as flags); supervise them until SIGTERM/SIGINT."""
    workers, host, port = settings.workers, settings.host, settings.port
    url = settings.database_url or default_url()
    if not (url.startswith("postgresql") or url.startswith("postgres://")):
        print(
            "skydeck serve --workers: the workers share one PostgreSQL database; give it "
            f"with --db postgresql://USER@HOST/DB (got {url!r})",
            file=sys.stderr,
        )
        return 2
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        print(
            "skydeck serve --workers needs HAProxy (Debian: apt-get install haproxy)",
            file=sys.stderr,
        )
        return 2
    storage = Storage(url)  # migrates once, before any worker starts
    if settings.idle_expiry > 0:  # before any worker takes them up
        idle = storage.abandon_idle(time.time() - settings.idle_expiry)
        if idle:
            print(f"{len(idle)} idle matches abandoned", flush=True)
    front_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    front = f"http://{front_host}:{port}"
    folder = Path(tempfile.mkdtemp(prefix="skydeck-haproxy-"))
    running: list[Worker] = []
    proxy: subprocess.Popen[bytes] | None = None
    stopping = False

    def stop(_sig: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        for i in range(workers):
            name, wport = f"w{i}", free_port()
            cmd = [
                sys.executable,
                "-m",
                "skydeck.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(wport),
                "--db",
                url,
                "--worker",
                name,
                "--front",
                f"{front_host}:{port}",
                *worker_args,
            ]
            running.append(Worker(name, wport, subprocess.Popen(cmd)))
        for w in running:
            _wait_http(f"http://127.0.0.1:{w.port}/api/health", 60, w.proc)
        cfg = folder / "haproxy.cfg"
        cfg.write_text(
            haproxy_config(
                host, port, [(w.name, w.port) for w in running], max_connections(), settings
            )
        )
        check = subprocess.run([haproxy, "-c", "-q", "-f", str(cfg)], capture_output=True)
        if check.returncode != 0:
            raise RuntimeError(f"HAProxy refused its configuration: {check.stderr.decode()}")
        proxy = subprocess.Popen([haproxy, "-db", "-f", str(cfg)])
        _wait_http(f"{front}/api/health", 30, proxy)
        for w in running:
            print(f"worker {w.name}: pid {w.proc.pid}, port {w.port}", flush=True)
        print(f"HAProxy: pid {proxy.pid}, config {cfg}", flush=True)
        woken = wake_live_matches(front, storage)
        print(
            f"Skydeck is at {front}/  ({workers} workers, HAProxy; database: {url}; "
            f"{storage.durability()}; {woken} live matches taken up)",
            flush=True,
        )
        dead: set[str] = set()
        while not stopping:
            time.sleep(0.2)
            if proxy.poll() is not None:
                print(f"HAProxy ended with code {proxy.returncode}", file=sys.stderr)
                return 1
            for w in running:
                if w.name not in dead and w.proc.poll() is not None:
                    dead.add(w.name)
                    print(
                        f"worker {w.name} (pid {w.proc.pid}) ended with code "
                        f"{w.proc.returncode}: its matches go to the others",
                        flush=True,
                    )
                    if len(dead) == len(running):
                        print("every worker has ended", file=sys.stderr)
                        return 1
                    # Once HAProxy has seen it gone (two failed checks), the new owners
                    # take its matches up from the log.
                    time.sleep((FALL + 2) * CHECK_MS / 1000)
                    woken = wake_live_matches(front, storage)
                    print(f"{woken} live matches answered after {w.name} ended", flush=True)
        return 0
    except RuntimeError as exc:
        print(f"skydeck serve --workers: {exc}", file=sys.stderr)
        return 1
    finally:
        for p in [proxy, *(w.proc for w in running)]:
            if p is not None and p.poll() is None:
                p.terminate()
        for p in [proxy, *(w.proc for w in running)]:
            if p is not None:
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        storage.close()
        shutil.rmtree(folder, ignore_errors=True)
