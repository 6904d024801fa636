"""A server safe to open to the internet (issue 46): request bodies, rates and caps per
client address, sockets and spectators, idle matches, origins, names.

Clients here come from addresses of their own in 127.0.0.0/8 (all of it is loopback on
Linux), as different people would, against a real server on loopback."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from skydeck.server.bench import _free_port, _start_server
from skydeck.server.storage import Storage
from tests.server.conftest import join, new_toy, receive_until
from tests.server.live import LiveServer

TOY = {"game": "toy", "seed": 7, "seats": [{"kind": "human"}, {"kind": "human"}]}


def http_from(address: str) -> httpx.Client:
    """An HTTP client whose connections leave from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=20)


def ws_from(server: LiveServer, match_id: str, address: str, **kw: Any) -> Any:
    url = server.base.replace("http", "ws", 1) + f"/ws/matches/{match_id}"
    return connect(url, source_address=(address, 0), open_timeout=10, **kw)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(
        f"sqlite:///{tmp_path / 'safe.sqlite'}",
        create_rate="5/minute",
        max_unfinished=4,
        max_sockets=3,
        socket_rate="20/minute",
        max_spectators=2,
    ) as server:
        yield server


# --- hole 3: bodies read whole before the size check -----------------------------------
def _rss_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for pid {pid}")


def _post_huge(port: int, size: int, chunked: bool, answers: list[bytes]) -> None:
    """POST ``size`` bytes (declared, or chunked with no length) as fast as the server
    takes them; keeps the server's first answer, read as it comes (a server that closes
    with a body unread resets the connection, and a reset drops what was not read)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)

    def read() -> None:
        # The head and the body may come in separate segments: read until the body its
        # content-length names is whole, or the server closes.
        data = b""
        with contextlib.suppress(OSError):
            while chunk := sock.recv(4096):
                data += chunk
                head, sep, body = data.partition(b"\r\n\r\n")
                length = re.search(rb"content-length: *(\d+)", head, re.IGNORECASE)
                if sep and length and len(body) >= int(length.group(1)):
                    break
        if data:
            answers.append(data)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        head = "POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
        head += length + "\r\n\r\n"
        block = b" " * (1 << 20)
        with contextlib.suppress(OSError):
            sock.sendall(head.encode())
            for _ in range(size // len(block)):
                sock.sendall(b"%x\r\n" % len(block) + block + b"\r\n" if chunked else block)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        reader.join(60)
    finally:
        sock.close()


def test_huge_bodies_are_refused_without_the_server_holding_them(tmp_path: Path):
    """Four bodies of 256 MiB at once, two declared and two chunked: each is answered
    413, and the server's peak memory grows by less than 20 MiB (it read at most the
    limit of each). The server reading bodies whole (the old ``request.body()`` before
    the size check) took it from 176 MiB to 1.5 GiB."""
    port = _free_port()
    proc = _start_server(f"sqlite:///{tmp_path / 'b.sqlite'}", port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            assert http.get("/api/games").status_code == 200  # warmed up
        # Reset the peak (VmHWM) to the present size (Linux, as root or the owner).
        Path(f"/proc/{proc.pid}/clear_refs").write_text("5")
        before = _rss_kib(proc.pid, "VmHWM")
        answers: list[bytes] = []
        size = 256 << 20
        posts = [
            threading.Thread(target=_post_huge, args=(port, size, chunked, answers))
            for chunked in (False, True, False, True)
        ]
        for t in posts:
            t.start()
        for t in posts:
            t.join(120)
        grown_mib = (_rss_kib(proc.pid, "VmHWM") - before) / 1024
        assert grown_mib < 20, f"the server's peak memory grew by {grown_mib:.0f} MiB"
        assert len(answers) == 4 and all(a.startswith(b"HTTP/1.1 413") for a in answers), answers
        assert b"at most 65536" in answers[0]
        body = {"game": "stellium", "seats": [{"kind": "human"}] * 2}
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:  # still serving
            assert http.post("/api/matches", json=body).status_code == 201
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_websocket_frame_over_the_limit_closes_the_socket_with_1009(live: LiveServer):
    m = live.create(TOY)
    with ws_from(live, m["id"], "127.0.0.1") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send("x" * (1 << 20) + "x")  # one byte over the default 1 MiB
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert live.create(TOY)["id"]  # the server is unharmed


def test_a_body_over_the_limit_is_refused_from_its_declared_length(client):
    r = client.post(
        "/api/matches",
        content=b"{}",
        headers={"content-type": "application/json", "content-length": "9999999"},
    )
    assert r.status_code == 413 and "9999999 bytes" in r.json()["detail"]
    r = client.post(
        "/api/matches",
        content=b"{}",
        headers={"content-type": "application/json", "content-length": "12x"},
    )
    assert r.status_code == 400 and "Content-Length" in r.json()["detail"]
    assert client.get("/api/matches").json() == []


# --- hole 4: rates, caps and expiry --------------------------------------------------
def test_new_matches_past_the_rate_get_429_with_retry_after(client_factory):
    client = client_factory(create_rate="3/minute")
    for _ in range(3):
        assert client.post("/api/matches", json=TOY).status_code == 201
    r = client.post("/api/matches", json=TOY)
    assert r.status_code == 429
    assert "at most 3 a minute" in r.json()["detail"]
    assert 1 <= int(r.headers["retry-after"]) <= 60
    assert len(client.get("/api/matches").json()) == 3  # nothing made by the refused one


def test_other_api_requests_past_their_rate_get_429_but_the_health_check_never(client_factory):
    client = client_factory(request_rate="5/minute")
    for _ in range(5):
        assert client.get("/api/games").status_code == 200
    r = client.get("/api/matches")
    assert r.status_code == 429 and "at most 5 a minute" in r.json()["detail"]
    assert "retry-after" in r.headers
    assert all(client.get("/api/health").status_code == 200 for _ in range(20))
    assert client.get("/").status_code == 200  # pages and static files are not API calls


def test_a_clients_unfinished_matches_are_capped_and_a_finished_one_frees_its_place(
    client_factory,
):
    client = client_factory(max_unfinished=2)
    first = new_toy(client)
    new_toy(client)
    r = client.post("/api/matches", json=TOY)
    assert r.status_code == 429 and "2 unfinished matches" in r.json()["detail"]
    # The first match is played to its end: a place is free again.
    ws, _, state = join(client, first["id"], first["tokens"])
    while state["status"] == "live":
        seat = state["to_move"][0]
        action = state["legal"][str(seat)]["actions"][0]["action"]
        ws.send_json({"type": "act", "seat": seat, "action": action, "n": state["n"]})
        state = receive_until(ws, "state")
    assert client.post("/api/matches", json=TOY).status_code == 201


def test_limits_off_lets_everything_through(client_factory):
    client = client_factory(limits=False, create_rate="1/minute", max_unfinished=1)
    for _ in range(4):
        assert client.post("/api/matches", json=TOY).status_code == 201


def test_flooding_from_one_address_leaves_another_served(live: LiveServer):
    """One client floods creation and sockets; it meets 429s and closed sockets, while a
    second client, from another address, creates, connects and plays as usual."""
    flood, calm = "127.0.0.2", "127.0.0.3"
    with http_from(flood) as http:
        codes = [http.post(live.base + "/api/matches", json=TOY).status_code for _ in range(12)]
        made = [m for m in http.get(live.base + "/api/matches").json()]
    assert codes[:4] == [201] * 4 and set(codes[4:]) == {429}, codes  # the cap of 4 first
    match_id = made[0]["id"]
    opened, refused = [], []
    for _ in range(6):
        ws = ws_from(live, match_id, flood)
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        first = json.loads(ws.recv(timeout=10))
        if first["type"] == "error":
            refused.append(first)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
            ws.close()
        else:
            opened.append(ws)
    try:
        assert len(opened) == 2, "two spectators at most in a match (max_spectators=2)"
        assert refused[0]["code"] == "spectators_full"
        # A third socket (no hello yet) fills the address's 3; a fourth is refused.
        extra = ws_from(live, match_id, flood)
        fourth = ws_from(live, match_id, flood)
        refusal = json.loads(fourth.recv(timeout=10))
        assert refusal["code"] == "too_many" and "at most 3" in refusal["message"]
        with pytest.raises(ConnectionClosed) as closed:
            fourth.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        fourth.close()
        extra.close()
        # Meanwhile the calm client is served as usual.
        with http_from(calm) as http:
            r = http.post(live.base + "/api/matches", json=TOY)
            assert r.status_code == 201, r.text
            mine = r.json()
        with ws_from(live, mine["id"], calm) as ws:
            ws.send(json.dumps({"type": "hello", "tokens": mine["tokens"]}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            state = json.loads(ws.recv(timeout=10))
            seat = state["to_move"][0]
            action = state["legal"][str(seat)]["actions"][0]["action"]
            ws.send(json.dumps({"type": "act", "seat": seat, "action": action, "n": 0}))
            assert json.loads(ws.recv(timeout=10))["n"] == 1
    finally:
        for ws in opened:
            ws.close()


def test_a_socket_flooding_messages_has_them_dropped_unread_and_is_told_once(client_factory):
    """Two a second, bursts of four: a flood of 40 pings gets four answers and one word
    that the rest were dropped (a token comes back only every half second)."""
    client = client_factory(ws_message_rate=2)
    m = new_toy(client)
    ws, _, _ = join(client, m["id"], m["tokens"])
    for i in range(40):
        ws.send_text(json.dumps({"type": "ping", "id": i}))
    pongs, limited = [], []
    while len(pongs) + len(limited) < 5:
        msg = ws.receive_json()
        if msg["type"] == "pong":
            pongs.append(msg["id"])
        elif msg["type"] == "error":
            limited.append(msg)
    assert pongs == [0, 1, 2, 3], pongs  # the burst: twice the rate
    assert len(limited) == 1 and limited[0]["code"] == "rate_limited"
    assert "more than 2 messages a second" in limited[0]["message"]
    time.sleep(0.6)  # a token has come back: the socket is served
    ws.send_text(json.dumps({"type": "ping", "id": "again"}))
    assert receive_until(ws, "pong")["id"] == "again"


def test_a_match_idle_past_the_expiry_is_abandoned_and_kept(client_factory, db_url):
    client = client_factory(idle_expiry=3)
    m = new_toy(client)
    ws, _, state = join(client, m["id"], m["tokens"])
    seat = state["to_move"][0]
    action = state["legal"][str(seat)]["actions"][0]["action"]
    ws.send_json({"type": "act", "seat": seat, "action": action, "n": 0})
    assert receive_until(ws, "state")["n"] == 1
    final = receive_until(ws, "state", limit=5)  # the sweep's word, a moment later
    assert final["status"] == "abandoned"
    assert final["to_move"] == [] and final["legal"][str(seat)]["actions"] == []
    ws.send_json({"type": "act", "seat": 0, "action": action, "n": 1})
    refusal = receive_until(ws, "error")
    assert refusal["code"] == "over" and "abandoned after 3 seconds" in refusal["message"]
    info = client.get(f"/api/matches/{m['id']}").json()
    assert info["status"] == "abandoned" and info["n"] == 1
    listed = {x["id"]: x["status"] for x in client.get("/api/matches").json()}
    assert listed[m["id"]] == "abandoned"
    record = client.get(f"/api/matches/{m['id']}/record")
    assert record.status_code == 200 and len(record.json()["actions"]) == 1
    assert client.get(f"/api/matches/{m['id']}/replay").status_code == 200
    store = Storage(db_url)
    try:
        assert m["id"] not in store.live_ids()  # not rebuilt at restart
        assert store.load(m["id"]).deadlines == []
    finally:
        store.close()


def test_idle_matches_in_storage_are_abandoned_at_start_not_rebuilt(client_factory, db_url):
    client = client_factory()
    old, fresh = new_toy(client), new_toy(client)
    store = Storage(db_url)
    try:
        with store.engine.begin() as conn:  # the first was made two days ago
            conn.exec_driver_sql(
                "UPDATE matches SET created = created - 172800 WHERE id = ?", (old["id"],)
            )
    finally:
        store.close()
    restarted = client_factory()
    assert restarted.get(f"/api/matches/{old['id']}").json()["status"] == "abandoned"
    assert restarted.get(f"/api/matches/{fresh['id']}").json()["status"] == "live"
    assert old["id"] not in restarted.app.state.hub.rooms


# --- also: origins, content types, names, words ------------------------------------
def test_a_page_of_another_site_may_not_open_a_match_socket(live: LiveServer):
    m = live.create(TOY)
    with pytest.raises(InvalidStatus) as refused:
        ws_from(live, m["id"], "127.0.0.1", origin="https://evil.example")
    assert refused.value.response.status_code == 403
    own = f"http://127.0.0.1:{live.port}"
    with ws_from(live, m["id"], "127.0.0.1", origin=own) as ws:  # the server's own pages
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    with ws_from(live, m["id"], "127.0.0.1") as ws:  # no Origin: not a browser
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"


def test_allowed_origins_are_a_setting(tmp_path: Path):
    with LiveServer(
        f"sqlite:///{tmp_path / 'o.sqlite'}", allowed_origins="https://play.example"
    ) as server:
        m = server.create(TOY)
        with ws_from(server, m["id"], "127.0.0.1", origin="https://play.example") as ws:
            ws.send(json.dumps({"type": "hello", "tokens": []}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        with pytest.raises(InvalidStatus):
            ws_from(server, m["id"], "127.0.0.1", origin="https://other.example")


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_cross_site_form_cannot_create_a_match(client, kind):
    headers = {"content-type": kind} if kind else {}
    r = client.post("/api/matches", content=json.dumps(TOY).encode(), headers=headers)
    assert r.status_code == 415 and "application/json" in r.json()["detail"]
    assert client.get("/api/matches").json() == []


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("evil\u202etxt.exe", "U+202E (right-to-left override)"),
        ("a\u2066b", "U+2066"),
        ("bell\x07", "U+0007"),
        ("two\nlines", "U+000A"),
        ("nul\x00", "U+0000"),
        ("x" * 41, "at most 40"),
    ],
)
def test_names_with_controls_or_overrides_are_refused_clearly(client, name, words):
    body = {**TOY, "seats": [{"kind": "human", "name": name}, {"kind": "human"}]}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 400
    assert "Player 1 (seats[0])" in r.json()["detail"] and words in r.json()["detail"]
    assert client.get("/api/matches").json() == []


def test_names_people_use_are_kept(client):
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 Ana"
    body = {**TOY, "seats": [{"kind": "human", "name": f"  {family} "}, {"kind": "human"}]}
    m = new_toy(client, **{k: v for k, v in body.items() if k not in ("game", "seed")})
    assert m["seats"][0]["name"] == family and m["seats"][1]["name"] == "Player 2"


def test_a_hold_for_a_seat_not_yours_names_it_as_people_see_it(client):
    m = client.post(
        "/api/matches",
        json={"game": "conflict", "seats": [{"kind": "human"}, {"kind": "human"}]},
    ).json()
    ws, _, state = join(client, m["id"], [m["tokens"][0]])
    ws.send_json({"type": "hold", "seat": 1, "n": state["n"], "at": [0, 0, 0]})
    refusal = receive_until(ws, "error")
    assert refusal["code"] == "not_your_seat"
    assert refusal["message"] == "Player 2 is not yours (you play Player 1)"


# --- holes 1 and 2, end to end: AI seats asked for over the network -----------------
def _ai_seat(client, agent: str, game: str = "stellium"):
    seats = [{"kind": "human"}, {"kind": "ai", "agent": agent}]
    body = {"game": game, "options": {"players": 2}, "seats": seats}
    return client.post("/api/matches", json=body)


def test_a_model_path_from_the_network_opens_nothing_and_tells_nothing(client):
    answers = {
        spec: _ai_seat(client, spec, "stellarion")
        for spec in (" policy:/etc/passwd", " policy:/etc/no-such-file", "\tpolicy:../x.zip")
    }
    details = {r.json()["detail"] for r in answers.values()}
    assert all(r.status_code == 400 for r in answers.values())
    assert len(details) == 1, details  # one answer whether a file exists or not
    assert "no such model in this server's models folder" in details.pop()
    assert client.get("/api/matches").json() == []


def test_an_ai_budget_from_the_network_stays_within_the_servers_limits(client_factory):
    client = client_factory()
    r = _ai_seat(client, "mcts:hard:seconds=3600:iterations=1000000000")
    assert r.status_code == 400
    assert "seconds may be at most 1.6 on this server (ai_max_seconds)" in r.json()["detail"]
    r = _ai_seat(client, "mcts:hard:iterations=1000000000")
    assert r.status_code == 400 and "ai_max_iterations" in r.json()["detail"]
    assert _ai_seat(client, "mcts:hard:seconds=1").status_code == 201
    generous = client_factory(ai_max_seconds=5)
    made = _ai_seat(generous, "mcts:hard:seconds=4")
    assert made.status_code == 201 and made.json()["seats"][1]["agent"] == "mcts:hard:seconds=4"
