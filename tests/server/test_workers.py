"""`skydeck serve --workers 2` for real: PostgreSQL, HAProxy and two worker processes.

Matches are created and played through HAProxy; every request and socket of one match
reaches one worker (players and a spectator see the same updates); the lobby list
answers from any worker; a worker killed with SIGKILL mid-match has its matches taken
up by the other from the event log, and clients that reconnect (as the browser does)
find every acknowledged move and play on.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from skydeck.server.cluster import haproxy_config
from tests.server.postgres import PostgresServer, find_bindir
from tests.server.test_storage import _free_port

ROOT = Path(__file__).resolve().parents[2]


def test_haproxy_hashes_match_requests_and_sockets_on_the_match_id():
    cfg = haproxy_config("127.0.0.1", 8000, [("w0", 9001), ("w1", 9002)])
    assert "balance hash var(txn.match)" in cfg and "hash-type consistent" in cfg
    assert "path_beg /api/matches/ /ws/matches/" in cfg
    assert cfg.count("server w1 127.0.0.1:9002") == 2  # in both back ends
    if shutil.which("haproxy"):
        path = Path(f"/tmp/skydeck-test-{uuid.uuid4().hex}.cfg")
        path.write_text(cfg)
        try:
            out = subprocess.run(["haproxy", "-c", "-f", str(path)], capture_output=True)
            assert out.returncode == 0, out.stderr
        finally:
            path.unlink()


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    bindir = find_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    if shutil.which("haproxy") is None:
        pytest.skip("HAProxy is not installed (Debian: apt-get install haproxy)")
    server = PostgresServer(bindir)
    try:
        url = server.start()
    except Exception:
        server.stop()
        raise
    yield url
    server.stop()


class Cluster:
    """``skydeck serve --workers 2`` as a subprocess, its output read line by line."""

    def __init__(self, db: str, flags: tuple[str, ...] = ()) -> None:
        self.port = _free_port()
        exe = Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin" / "skydeck"
        if not exe.exists():
            exe = Path(shutil.which("skydeck") or "skydeck")
        cmd = [str(exe), "serve", "--workers", "2", "--port", str(self.port), "--db", db, *flags]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.pids: dict[str, int] = {}
        self.ports: dict[str, int] = {}
        self.wait_for(r"^Skydeck is at .* workers, HAProxy", 90)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: str, seconds: float) -> str:
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                assert self.proc.poll() is None, "skydeck serve --workers ended"
                continue
            found = re.match(r"worker (w\d): pid (\d+)(?:, port (\d+))?", line)
            if found:
                self.pids[found[1]] = int(found[2])
                if found[3]:
                    self.ports[found[1]] = int(found[3])
            if re.search(pattern, line):
                return line
        raise AssertionError(f"no line matching {pattern!r} within {seconds} s")

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def owner(self, match_id: str) -> str:
        r = httpx.get(f"{self.http}/api/matches/{match_id}", timeout=10)
        assert r.status_code == 200, r.text
        return r.headers["x-skydeck-worker"]

    def open(self, match_id: str, tokens: list[str], tries: float = 20) -> tuple[Any, dict]:
        """Connect (again) as the browser does: retry until a worker answers."""
        deadline = time.time() + tries
        while True:
            try:
                ws = connect(f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}")
                ws.send(json.dumps({"type": "hello", "tokens": tokens}))
                welcome, st = (json.loads(ws.recv(timeout=10)) for _ in range(2))
                assert welcome["type"] == "welcome" and st["type"] == "state"
                return ws, st
            except (OSError, EOFError, TimeoutError, Exception):
                if time.time() > deadline:
                    raise
                time.sleep(0.3)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def _move(ws: Any, st: dict, watchers: list[Any]) -> dict:
    """Play the first legal move of the seat to move; the mover's and every watcher's
    next state must be that move's."""
    seat = st["to_move"][0]
    act = st["legal"][str(seat)]["actions"][0]["action"]
    ws.send(json.dumps({"type": "act", "seat": seat, "action": act, "n": st["n"]}))
    new = json.loads(ws.recv(timeout=20))
    assert new["type"] == "state" and new["n"] == st["n"] + 1, new
    for w in watchers:
        seen = json.loads(w.recv(timeout=20))
        assert seen["type"] == "state" and seen["n"] == new["n"]
    return dict(new)


def _fresh_database(pg_url: str) -> str:
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg_url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        conn.autocommit = True
        conn.execute(f'CREATE DATABASE "{name}"')
    return pg_url.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0] + "/" + name


def test_two_workers_behind_haproxy_survive_a_worker_killed_mid_match(pg_url):
    # Up to 24 matches from this one address in a few seconds: over a person's rate.
    cluster = Cluster(_fresh_database(pg_url), ("--create-rate", "100/minute"))
    try:
        assert set(cluster.pids) == {"w0", "w1"}
        matches: list[dict[str, Any]] = []
        owners: dict[str, str] = {}
        # Match ids are random, so six of them all hash to one worker one time in 32:
        # go on (24 at most) until both workers own one.
        for k in range(24):
            body = {
                "game": "stellarion",
                "options": {"players": 2},
                "seed": 70 + k,
                "seats": [{"kind": "human"}] * 2,
            }
            r = httpx.post(f"{cluster.http}/api/matches", json=body, timeout=20)
            assert r.status_code == 201, r.text
            matches.append(r.json())
            owners[matches[-1]["id"]] = cluster.owner(matches[-1]["id"])
            if len(matches) >= 6 and len(set(owners.values())) == 2:
                break
        # The same id always reaches the same worker.
        assert all(cluster.owner(mid) == w for mid, w in owners.items())
        if len(set(owners.values())) < 2:
            pytest.fail(f"{len(matches)} matches all reached one worker: {owners}")
        socks: dict[str, tuple[Any, dict, Any]] = {}
        for m in matches:
            ws, st = cluster.open(m["id"], m["tokens"])
            spectator, _ = cluster.open(m["id"], [])
            for _ in range(3):
                st = _move(ws, st, [spectator])
            socks[m["id"]] = (ws, st, spectator)
        # The lobby's list answers from any worker (round robin): all of them, each time.
        for _ in range(4):
            listed = httpx.get(f"{cluster.http}/api/matches", timeout=10).json()
            assert {m["id"] for m in matches} <= {x["id"] for x in listed}

        victim = owners[matches[0]["id"]]
        survivor = "w1" if victim == "w0" else "w0"
        os.kill(cluster.pids[victim], signal.SIGKILL)
        cluster.wait_for(rf"worker {victim} .* ended with code -9", 20)
        for m in matches:
            ws, st, spectator = socks[m["id"]]
            if owners[m["id"]] == victim:
                # Its sockets were cut; reconnecting reaches the survivor, which rebuilt
                # the match from the log: every acknowledged move is there.
                with pytest.raises(ConnectionClosed):
                    ws.recv(timeout=10)
                ws, again = cluster.open(m["id"], m["tokens"])
                assert again["n"] == st["n"] == 3 and again["views"] == st["views"]
                spectator, _ = cluster.open(m["id"], [])
                st = again
            for _ in range(2):  # every match plays on, spectators in step
                st = _move(ws, st, [spectator])
            assert cluster.owner(m["id"]) == survivor
            assert httpx.get(f"{cluster.http}/api/matches/{m['id']}").json()["n"] == 5
            ws.close()
            spectator.close()
    finally:
        cluster.stop()


def test_limits_hold_for_the_whole_cluster_and_workers_see_each_clients_address(pg_url):
    """Behind HAProxy: a worker sees the address HAProxy saw (never one a client claims),
    so one client's cap on unfinished matches is its own; and the creation rate is
    counted by HAProxy for the cluster, where each worker, sent every other request,
    would have let twice the rate through."""
    cluster = Cluster(
        _fresh_database(pg_url), ("--create-rate", "6/minute", "--max-unfinished", "2")
    )
    body = {"game": "stellarion", "options": {"players": 2}, "seats": [{"kind": "human"}] * 2}

    def create(address: str, headers: dict[str, str] | None = None) -> httpx.Response:
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(transport=transport, timeout=20) as http:
            return http.post(f"{cluster.http}/api/matches", json=body, headers=headers)

    try:
        flood = [create("127.0.0.2") for _ in range(2)]
        assert [r.status_code for r in flood] == [201, 201]
        capped = create("127.0.0.2")
        assert capped.status_code == 429 and "2 unfinished" in capped.json()["detail"]
        spoofed = create("127.0.0.2", {"X-Forwarded-For": "198.51.100.7"})
        assert spoofed.status_code == 429 and "2 unfinished" in spoofed.json()["detail"]
        assert create("127.0.0.3").status_code == 201  # another client: its own cap
        # The flood's 5th and 6th requests (each worker has seen 3 of them at most)...
        assert [create("127.0.0.2").status_code for _ in range(2)] == [429, 429]
        # ...and its 7th is over the cluster's rate, which HAProxy counts.
        over = create("127.0.0.2")
        assert over.status_code == 429, over.text
        assert "at most 6 a minute" in over.json()["detail"]
        assert over.headers["retry-after"] == "60"
        assert create("127.0.0.4").status_code == 201
    finally:
        cluster.stop()


def test_a_session_and_play_now_hold_on_every_worker(pg_url):
    """Issue 48 with several workers: a person signed in on one worker is signed in on
    the other (sessions live in the database), and Play now pairs two people whose
    requests reached different workers (the queue lives there too)."""
    cluster = Cluster(_fresh_database(pg_url))
    try:
        assert sorted(cluster.ports) == ["w0", "w1"], cluster.ports
        at = {w: f"http://127.0.0.1:{p}" for w, p in cluster.ports.items()}
        people = {}
        for name, home in (("Ada", "w0"), ("Bob", "w1")):
            http = httpx.Client(timeout=30)
            account = {"name": name, "password": "a long phrase"}
            r = http.post(f"{at[home]}/api/accounts", json=account)
            assert r.status_code == 201, r.text
            people[name] = (http, r.json()["csrf"], home)
        for name, (http, _csrf, _home) in people.items():
            for w in ("w0", "w1"):  # the one cookie is good on both workers
                me = http.get(f"{at[w]}/api/me")
                assert me.status_code == 200 and me.json()["name"] == name, (w, me.text)
        body = {"game": "stellium", "players": 2}
        for http, csrf, home in people.values():
            r = http.post(f"{at[home]}/api/queue", json=body, headers={"x-skydeck-csrf": csrf})
            assert r.status_code == 201, r.text
        places = {}
        deadline = time.time() + 30
        while time.time() < deadline:
            places = {
                name: http.get(f"{at[home]}/api/queue").json()
                for name, (http, _c, home) in people.items()
            }
            if all(p["status"] == "matched" for p in places.values()):
                break
            time.sleep(0.3)
        assert all(p["status"] == "matched" for p in places.values()), places
        assert places["Ada"]["match_id"] == places["Bob"]["match_id"]
        for http, _c, _h in people.values():
            http.close()
    finally:
        cluster.stop()


def test_workers_refuse_a_database_they_cannot_share(capsys):
    from skydeck.server.cluster import run_cluster
    from skydeck.server.settings import Settings

    settings = Settings(workers=2, port=_free_port(), database_url="sqlite:///x.sqlite")
    assert run_cluster(settings, []) == 2
    assert "share one PostgreSQL database" in capsys.readouterr().err
