"""Durability: an acknowledged move survives a killed server and a power cut, and a
database outage refuses moves clearly and loses nothing.

A power cut cannot be staged in a test; what makes a commit survive one is checked
instead: SQLite fsyncs its WAL at every commit (synchronous=FULL), PostgreSQL keeps its
default synchronous commit, and no move is acknowledged before its commit returned
(``test_group_commit``). A real ``skydeck serve`` is killed with SIGKILL after its
acknowledgements, and a real PostgreSQL is stopped mid-match.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from skydeck.server.storage import Storage
from tests.server.conftest import join, new_toy, receive_until
from tests.server.postgres import PostgresServer, find_bindir
from tests.server.test_storage import _free_port

ROOT = Path(__file__).resolve().parents[2]


def test_sqlite_fsyncs_every_commit_on_every_connection(db_url):
    s = Storage(db_url)
    conns = [s.engine.connect() for _ in range(2)]  # two pooled connections, both set up
    try:
        for conn in conns:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        for conn in conns:
            conn.close()
    assert s.durability() == "sqlite journal_mode=wal synchronous=FULL"
    s.close()


def _serve(db: str, port: int) -> subprocess.Popen[bytes]:
    """A real ``skydeck serve`` process (the console script of this interpreter)."""
    exe = Path(sys.executable).with_name("skydeck")
    cmd = [str(exe), "serve", "--port", str(port), "--db", db]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("skydeck serve did not start")


def _open(port: int, m: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    ws = connect(f"ws://127.0.0.1:{port}/ws/matches/{m['id']}")
    ws.send(json.dumps({"type": "hello", "tokens": m["tokens"]}))
    welcome, st = (json.loads(ws.recv(timeout=20)) for _ in range(2))
    assert welcome["type"] == "welcome" and st["type"] == "state", (welcome, st)
    return ws, st


def test_kill_9_of_skydeck_serve_loses_no_acknowledged_move(tmp_path):
    """Stellarion matches played over a real ``skydeck serve``; every move is sent only
    after the previous one's acknowledgement; SIGKILL; a restarted server holds every
    acknowledged move, in order, and the same views."""
    db = f"sqlite:///{tmp_path / 'serve.sqlite'}"
    port = _free_port()
    proc = _serve(db, port)
    played: list[tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]] = []
    try:
        for k in range(3):
            body = {
                "game": "stellarion",
                "options": {"players": 2},
                "seed": 40 + k,
                "seats": [{"kind": "human"}] * 2,
            }
            r = httpx.post(f"http://127.0.0.1:{port}/api/matches", json=body, timeout=20)
            assert r.status_code == 201, r.text
            m = r.json()
            ws, st = _open(port, m)
            sent = []
            for _ in range(4 + k):
                seat = st["to_move"][0]
                act = st["legal"][str(seat)]["actions"][0]["action"]
                ws.send(json.dumps({"type": "act", "seat": seat, "action": act, "n": st["n"]}))
                st = json.loads(ws.recv(timeout=20))
                assert st["type"] == "state", st  # the acknowledgement: committed by now
                sent.append({"seat": seat, "action": act})
            played.append((m, sent, st["views"]))
            ws.close()
        os.kill(proc.pid, signal.SIGKILL)  # no shutdown, no flush
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    stored = Storage(db)
    for m, sent, _views in played:
        back = stored.load(m["id"])
        assert back is not None
        assert [{"seat": s, "action": a} for s, a, _t in back.actions] == sent
    stored.close()
    proc = _serve(db, port)
    try:
        for m, sent, views in played:
            ws, st = _open(port, m)
            assert st["n"] == len(sent) and st["views"] == views
            ws.close()
    finally:
        proc.kill()
        proc.wait(10)


# --- PostgreSQL ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresServer]:
    bindir = find_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    server = PostgresServer(bindir)
    try:
        server.url = server.start()  # type: ignore[attr-defined]
    except Exception:
        server.stop()
        raise
    yield server
    server.stop()


def _new_database(pg: PostgresServer) -> str:
    import psycopg

    url: str = pg.url  # type: ignore[attr-defined]
    name = "t_" + uuid.uuid4().hex[:12]
    dsn = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name


def test_postgresql_keeps_its_synchronous_commit(pg):
    s = Storage(_new_database(pg))
    assert s.durability().startswith("postgresql synchronous_commit=on")
    s.close()


def test_a_postgresql_outage_refuses_moves_clearly_and_loses_nothing(pg, client_factory):
    client = client_factory(_new_database(pg))
    m = new_toy(client)
    ws, _, st = join(client, m["id"], m["tokens"])
    hub = client.app.state.hub
    for _ in range(2):
        seat = st["to_move"][0]
        act = st["legal"][str(seat)]["actions"][0]["action"]
        ws.send_json({"type": "act", "seat": seat, "action": act, "n": st["n"]})
        st = receive_until(ws, "state")
    acked = st
    pg.pause()
    try:
        for _ in range(2):  # the pooled connection dies, then no new one can be made
            seat = st["to_move"][0]
            act = st["legal"][str(seat)]["actions"][0]["action"]
            ws.send_json({"type": "act", "seat": seat, "action": act, "n": st["n"]})
            err = receive_until(ws, "error")
            assert err["code"] == "storage"
            assert err["message"].startswith("the database is unreachable, so the move was not")
            assert err["n"] == 2 and hub.rooms[m["id"]].n == 2
    finally:
        pg.resume()
    assert hub.rooms[m["id"]].match.state.view(0) == acked["views"]["0"]
    seat = st["to_move"][0]
    act = st["legal"][str(seat)]["actions"][0]["action"]
    ws.send_json({"type": "act", "seat": seat, "action": act, "n": 2})
    assert receive_until(ws, "state")["n"] == 3  # the match resumes
    assert hub.storage.action_count(m["id"]) == 3
    ws.__exit__(None, None, None)
