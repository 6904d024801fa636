"""Storage: the record round trip, restart rebuild, and SIGKILL durability."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from websockets.sync.client import connect

from skydeck.server.storage import Deadline, Storage, StoredMatch
from tests.server.conftest import join, new_toy, receive_until

ROOT = Path(__file__).resolve().parents[2]


def test_round_trip_of_header_actions_and_deadlines(db_url):
    s = Storage(db_url)
    m = StoredMatch(
        "abc",
        "toy",
        {"players": 2},
        2**62 + 5,
        [{"kind": "human", "name": "A"}],
        {"move_seconds": None},
        "live",
        1.0,
        1.0,
        1,
    )
    m.deadlines = [Deadline("move:0:0", 0, 12.5, None)]
    s.create_match(m)
    s.append_action(
        "abc",
        0,
        0,
        {"kind": "mark", "args": [1]},
        2.0,
        "live",
        [Deadline("timeout:1:1", 1, 9.0, {"kind": "timeout", "args": []})],
    )
    s.append_action("abc", 1, 1, {"kind": "play", "args": [3]}, 3.0, "over", [])
    s.close()
    again = Storage(db_url)  # migrations are idempotent
    back = again.load("abc")
    assert back is not None
    assert (back.seed, back.status, back.seats) == (2**62 + 5, "over", m.seats)
    assert back.actions == [
        (0, {"kind": "mark", "args": [1]}, 2.0),
        (1, {"kind": "play", "args": [3]}, 3.0),
    ]
    assert back.deadlines == []
    assert again.live_ids() == []
    again.remove_last_action("abc", 1, "live", [Deadline("k", 1, 4.0, None)])
    back = again.load("abc")
    assert back is not None and len(back.actions) == 1 and back.deadlines[0].key == "k"
    assert again.live_ids() == ["abc"]


def test_restart_rebuilds_live_matches_views_tokens_and_clocks(client_factory):
    first = client_factory()
    m = new_toy(first, move_seconds=600)
    ws, _, st = join(first, m["id"], m["tokens"])
    for _ in range(3):
        seat = st["to_move"][0]
        act = st["legal"][str(seat)]["actions"][0]
        ws.send_json({"type": "act", "seat": seat, "action": act["action"], "n": st["n"]})
        st = receive_until(ws, "state")
    ws.__exit__(None, None, None)
    before_views, before_due = st["views"], st["deadlines"]
    first.__exit__(None, None, None)
    second = client_factory()  # same database, a new process's worth of state
    hub = second.app.state.hub
    assert m["id"] in hub.rooms  # rebuilt at start-up, not on demand
    ws, _, again = join(second, m["id"], m["tokens"])
    assert again["n"] == 3 and again["views"] == before_views
    assert again["deadlines"] == before_due  # the clock kept its deadline
    assert len(again["log"]) == 3
    ws.__exit__(None, None, None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(url: str, port: int) -> subprocess.Popen:
    code = (
        "import uvicorn; from tests.server.conftest import make_app; "
        f"uvicorn.run(make_app({url!r}, tune_gc=True), host='127.0.0.1', port={port}, "
        "log_level='warning', ws='skydeck.server.compression:LargeFramesProtocol')"  # as serve
    )
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not start")


def _post(port: int, body: dict) -> dict:
    import httpx

    r = httpx.post(f"http://127.0.0.1:{port}/api/matches", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def _open(port: int, m: dict) -> tuple[object, dict]:
    ws = connect(f"ws://127.0.0.1:{port}/ws/matches/{m['id']}")
    ws.send(json.dumps({"type": "hello", "tokens": m["tokens"]}))
    welcome, st = (json.loads(ws.recv(timeout=10)) for _ in range(2))
    assert welcome["type"] == "welcome" and st["type"] == "state"
    return ws, st


def test_sigkill_loses_no_acknowledged_move(db_url):
    """Three matches mid-way, the server killed without warning: every acknowledged
    move of every match is there after the restart, clocks included."""
    port = _free_port()
    proc = _start(db_url, port)
    matches, seen = [], []
    try:
        for k in range(3):
            body = {"game": "toy", "seed": 3 + k, "seats": [{"kind": "human"}] * 2}
            if k == 2:
                body["move_seconds"] = 600
            matches.append(_post(port, body))
        for k, m in enumerate(matches):
            ws, st = _open(port, m)
            for _ in range(2 + k):
                seat = st["to_move"][0]
                act = st["legal"][str(seat)]["actions"][0]["action"]
                ws.send(json.dumps({"type": "act", "seat": seat, "action": act, "n": st["n"]}))
                st = json.loads(ws.recv(timeout=10))
                assert st["type"] == "state"  # the acknowledgement: committed by now
            seen.append((st["n"], st["views"], st["deadlines"]))
        os.kill(proc.pid, signal.SIGKILL)  # no shutdown, no flush
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc = _start(db_url, port)
    try:
        for k, m in enumerate(matches):
            ws, st = _open(port, m)
            assert (st["n"], st["views"], st["deadlines"]) == seen[k]
            assert st["n"] == 2 + k
            ws.close()
        assert seen[2][2], "the move clock was running"
    finally:
        proc.kill()
        proc.wait(10)


def test_sigkill_after_group_commits_loses_no_acknowledged_move(db_url):
    """Moves of several matches sent at the same moment share commits (group commit);
    every one acknowledged before the SIGKILL is there after the restart."""
    port = _free_port()
    proc = _start(db_url, port)
    socks: list[tuple[object, dict]] = []
    try:
        matches = [
            _post(port, {"game": "toy", "seed": 20 + k, "seats": [{"kind": "human"}] * 2})
            for k in range(5)
        ]
        socks = [_open(port, m) for m in matches]
        for _ in range(3):
            for ws, st in socks:  # every match's move leaves before any answer comes
                seat = st["to_move"][0]
                act = st["legal"][str(seat)]["actions"][0]["action"]
                ws.send(json.dumps({"type": "act", "seat": seat, "action": act, "n": st["n"]}))
            socks = [(ws, json.loads(ws.recv(timeout=10))) for ws, _ in socks]
            assert all(st["type"] == "state" for _, st in socks)
        seen = [(st["n"], st["views"]) for _, st in socks]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc = _start(db_url, port)
    try:
        for k, m in enumerate(matches):
            ws, st = _open(port, m)
            assert (st["n"], st["views"]) == seen[k] and st["n"] == 3
            ws.close()
    finally:
        proc.kill()
        proc.wait(10)


def test_migrations_go_down_and_up_again(db_url):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    import skydeck.server.storage as storage_module

    s = Storage(db_url)
    tables = {"matches", "actions", "deadlines", "match_analyses"}
    assert tables <= set(inspect(s.engine).get_table_names())
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(storage_module.__file__).parent / "migrations"))
    with s.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "base")
    assert not tables & set(inspect(s.engine).get_table_names())
    s.close()
    again = Storage(db_url)
    assert again.live_ids() == []


def test_upgrade_to_analyses_adds_their_table_and_keeps_every_match(db_url):
    """A database of the schema just before analyses (the revision that
    ``*_match_analyses.py`` revises) with a finished match in it: the upgrade adds
    ``match_analyses`` and the match is still there, whole."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from sqlalchemy import inspect

    import skydeck.server.storage as storage_module
    from skydeck.server.analysis_store import AnalysisStore
    from skydeck.server.storage import make_engine, metadata

    engine = make_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(storage_module.__file__).parent / "migrations"))
    (before,) = [
        r.down_revision
        for r in ScriptDirectory.from_config(cfg).walk_revisions()
        if r.path.endswith("_match_analyses.py")
    ]
    assert isinstance(before, str)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, before)
    assert "match_analyses" not in inspect(engine).get_table_names()
    old = metadata.tables["matches"]
    with engine.begin() as conn:
        conn.execute(
            old.insert().values(
                id="m1",
                game="toy",
                options={},
                seed=3,
                seats=[],
                settings={},
                status="over",
                created=1.0,
                updated=2.0,
                version=1,
                creator=None,
            )
        )
    engine.dispose()
    s = Storage(db_url)  # upgrades to the newest revision
    assert "match_analyses" in inspect(s.engine).get_table_names()
    back = s.load("m1")
    assert back is not None and (back.status, back.seed) == ("over", 3)
    store = AnalysisStore(s.engine)
    assert store.get("m1") is None
    assert store.claim("m1", "", {"playouts": 2}) and not store.claim("m1", "", {})
    store.finish("m1", {"seats": []}, 5)
    got = store.get("m1")
    assert got is not None and (got["status"], got["done"], got["result"]) == (
        "done",
        5,
        {"seats": []},
    )
    s.close()


def test_postgresql_urls_use_psycopg():
    from skydeck.server.storage import make_engine

    engine = make_engine("postgresql://user@127.0.0.1:1/db")
    assert engine.dialect.driver == "psycopg"


def test_ai_seats_resume_after_a_restart(client_factory):
    first = client_factory(ai_delay=100.0)  # the AI would wait 100 s before moving
    m = new_toy(first, kinds=("ai", "ai"))
    time.sleep(0.2)
    assert first.get(f"/api/matches/{m['id']}").json()["n"] == 0
    first.__exit__(None, None, None)
    second = client_factory(ai_delay=0.0)
    deadline = time.time() + 20
    info = second.get(f"/api/matches/{m['id']}").json()
    while info["status"] == "live" and time.time() < deadline:
        time.sleep(0.05)
        info = second.get(f"/api/matches/{m['id']}").json()
    assert info["status"] == "over" and info["n"] > 0


def test_sqlite_connections_are_durable_wal_with_rare_checkpoints(db_url):
    from skydeck.server.storage import WAL_CHECKPOINT_PAGES

    storage = Storage(db_url)
    with storage.engine.connect() as conn:
        pragma = conn.exec_driver_sql
        assert pragma("PRAGMA journal_mode").scalar() == "wal"
        assert pragma("PRAGMA synchronous").scalar() == 2  # FULL: survives a power cut
        assert pragma("PRAGMA wal_autocheckpoint").scalar() == WAL_CHECKPOINT_PAGES
    storage.close()
