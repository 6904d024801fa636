"""permessage-deflate for large frames only: small messages go out uncompressed, large
ones compressed, and a standard peer decodes the mix (with context takeover) exactly."""

from __future__ import annotations

import json
import socket
import threading
import time
import weakref
from pathlib import Path

import httpx
import pytest
import uvicorn
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame
from websockets.server import ServerProtocol
from websockets.sync.client import connect
from websockets.uri import parse_uri

from skydeck.server.compression import (
    MIN_COMPRESSED,
    LargeFramesDeflate,
    LargeFramesProtocol,
    LargeFramesServerDeflate,
    client_extensions,
    text_frame,
)
from tests.server.conftest import make_app

RSV1 = 0x40


def _pair(server_ext: list, client_ext: list | None) -> tuple[ServerProtocol, ClientProtocol]:
    """A server and a client protocol (websockets sans-I/O) after their handshake."""
    client = ClientProtocol(parse_uri("ws://skydeck.test/ws"), extensions=client_ext)
    client.send_request(client.connect())
    server = ServerProtocol(extensions=server_ext)
    for data in client.data_to_send():
        server.receive_data(data)
    server.send_response(server.accept(server.events_received()[0]))
    for data in server.data_to_send():
        client.receive_data(data)
    assert client.events_received()[0].status_code == 101
    return server, client


def _send(sender: ServerProtocol | ClientProtocol, peer, text: str) -> tuple[bool, str]:
    """(was it compressed on the wire, what the peer decoded)."""
    sender.send_text(text.encode())
    wire = b"".join(sender.data_to_send())
    peer.receive_data(wire)
    (frame,) = [e for e in peer.events_received() if isinstance(e, Frame)]
    return bool(wire[0] & RSV1), frame.data.decode()


def _message(size: int, salt: int) -> str:
    words = [
        {"label": f"move {salt}-{i}", "action": {"kind": "place", "args": [i]}} for i in range(size)
    ]
    return json.dumps(words)


def test_small_messages_go_out_plain_and_large_ones_compressed_in_one_stream():
    server, client = _pair(
        [LargeFramesServerDeflate(server_max_window_bits=12, client_max_window_bits=12)],
        [ClientPerMessageDeflateFactory(client_max_window_bits=True)],
    )
    assert isinstance(server.extensions[0], LargeFramesDeflate)
    # Large and small interleaved: the context the peer keeps must stay in step.
    for salt, size in enumerate([2, 400, 3, 500, 1, 450, 400]):
        text = _message(size, salt)
        compressed, seen = _send(server, client, text)
        assert seen == text
        assert compressed == (len(text) >= MIN_COMPRESSED)
    # The client side of the bench skips small frames the same way.
    server, client = _pair(
        [LargeFramesServerDeflate(server_max_window_bits=12, client_max_window_bits=12)],
        client_extensions(),
    )
    assert _send(client, server, '{"type":"act"}') == (False, '{"type":"act"}')
    big = _message(300, 9)
    assert _send(client, server, big) == (True, big)


def test_without_context_takeover_and_in_fragments_the_peer_reads_every_message():
    """zlib-ng writes the server's deflate: a standard (zlib) peer reads it when each
    message starts afresh (no context takeover), when a message comes in fragments, and
    with a ping between them."""
    server, client = _pair(
        [LargeFramesServerDeflate(server_no_context_takeover=True)],
        [ClientPerMessageDeflateFactory(server_no_context_takeover=True)],
    )
    assert server.extensions[0].local_no_context_takeover
    for salt, size in enumerate([400, 2, 500]):
        text = _message(size, salt)
        assert _send(server, client, text) == (len(text) >= MIN_COMPRESSED, text)
    server, client = _pair([LargeFramesServerDeflate()], [ClientPerMessageDeflateFactory()])
    first, second = _message(300, 1).encode(), _message(200, 2).encode()
    server.send_text(first, fin=False)
    server.send_ping(b"p")
    server.send_continuation(second, fin=True)
    wire = b"".join(server.data_to_send())
    assert wire[0] & RSV1  # a fragmented message is compressed, frame after frame
    client.receive_data(wire)
    frames = [e for e in client.events_received() if isinstance(e, Frame)]
    assert frames[0].data + frames[-1].data == first + second


def test_a_peer_without_compression_gets_plain_frames():
    server, client = _pair([LargeFramesServerDeflate()], None)
    assert server.extensions == []
    big = _message(500, 1)
    assert _send(server, client, big) == (False, big)


def test_a_frame_written_directly_is_the_one_the_library_writes():
    server, client = _pair(
        [LargeFramesServerDeflate(server_max_window_bits=12, client_max_window_bits=12)],
        [ClientPerMessageDeflateFactory(client_max_window_bits=True)],
    )
    for size in (0, 1, 125, 126, 127, 1000, MIN_COMPRESSED - 1):
        text = ("é" * size)[: size // 2] + "x" * (size - size // 2)
        data = text.encode()[: max(0, size)]
        text = data.decode(errors="ignore")
        server.send_text(text.encode())
        assert text_frame(text.encode()) == b"".join(server.data_to_send()), size
        client.receive_data(text_frame(text.encode()))
        (frame,) = [e for e in client.events_received() if isinstance(e, Frame)]
        assert frame.data.decode() == text


@pytest.fixture
def live_server(tmp_path: Path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = make_app(f"sqlite:///{tmp_path / 'c.sqlite'}")
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws=LargeFramesProtocol
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started:
        assert time.time() < deadline, "server did not start"
        time.sleep(0.02)
    yield f"127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.mark.skipif(
    "stellium" not in __import__("skydeck").registry.game_ids(),
    reason="Stellium is not registered",
)
def test_a_standard_compressing_client_plays_through_the_large_frames_protocol(live_server):
    body = {"game": "stellium", "seed": 3, "seats": [{"kind": "human"}] * 2}
    m = httpx.post(f"http://{live_server}/api/matches", json=body, timeout=10).json()
    url = f"ws://{live_server}/ws/matches/{m['id']}"
    with connect(url, compression="deflate") as ws:  # the library's own deflate
        ws.send(json.dumps({"type": "hello", "tokens": m["tokens"], "patches": True}))
        assert json.loads(ws.recv(10))["type"] == "welcome"
        state = json.loads(ws.recv(10))
        sizes = []
        for _ in range(12):
            seat = state["to_move"][0]
            act = state["legal"][str(seat)]["actions"][0]["action"]
            ws.send(json.dumps({"type": "act", "seat": seat, "action": act, "n": state["n"]}))
            raw = ws.recv(10)
            sizes.append(len(raw))
            state = json.loads(raw)
            assert state["type"] == "state" and state["n"] == len(sizes)
    assert min(sizes) < MIN_COMPRESSED  # both kinds went through


@pytest.mark.skipif(
    "stellium" not in __import__("skydeck").registry.game_ids(),
    reason="Stellium is not registered",
)
@pytest.mark.parametrize("compression", [None, "deflate"])
def test_every_update_arrives_whole_over_the_direct_frames(live_server, compression):
    """The direct path writes the small frames, the library the large (compressed) ones:
    a client gets every update whole and in order, with or without compression."""
    body = {"game": "stellium", "seed": 5, "seats": [{"kind": "human"}] * 2}
    m = httpx.post(f"http://{live_server}/api/matches", json=body, timeout=10).json()
    url = f"ws://{live_server}/ws/matches/{m['id']}"
    with connect(url, compression=compression) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": m["tokens"], "patches": 2}))
        assert json.loads(ws.recv(10))["type"] == "welcome"
        state = json.loads(ws.recv(10))
        sizes = [0]
        while state["status"] == "live" and len(sizes) < 40:
            seat = state["to_move"][0]
            act = state["legal"][str(seat)]["actions"][-1]["action"]
            ws.send(json.dumps({"type": "act", "seat": seat, "action": act, "n": state["n"]}))
            raw = ws.recv(10)
            sizes.append(len(raw.encode()))
            state = json.loads(raw)
            assert state["type"] == "state" and state["n"] == len(sizes) - 1
    assert min(sizes[1:]) < MIN_COMPRESSED <= max(sizes)


def _opened(live_server: str, seed: int) -> tuple[str, list[str]]:
    body = {"game": "stellium", "seed": seed, "seats": [{"kind": "human"}] * 2}
    m = httpx.post(f"http://{live_server}/api/matches", json=body, timeout=10).json()
    return f"ws://{live_server}/ws/matches/{m['id']}", m["tokens"]


def test_direct_channel_is_offered_only_by_the_large_frames_protocol():
    from skydeck.server.compression import DIRECT, direct

    assert direct({"type": "websocket", "extensions": {}}) is None
    assert direct({"type": "websocket"}) is None
    assert direct({"type": "websocket", "extensions": {DIRECT: object()}}) is None


def test_text_messages_skip_asgi_receive_and_keep_their_order(live_server, monkeypatch):
    """After the hello, text messages go from the protocol straight to the match's
    handler (not through ASGI's receive); a binary message still goes through receive,
    and the replies come back in the order sent."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    received: list[str] = []
    real = WebSocketsSansIOProtocol.receive

    async def counted(self):  # the server runs in a thread of this process
        message = await real(self)
        received.append(message["type"])
        return message

    monkeypatch.setattr(WebSocketsSansIOProtocol, "receive", counted)
    url, tokens = _opened(live_server, 7)
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        assert json.loads(ws.recv(10))["type"] == "welcome"
        assert json.loads(ws.recv(10))["type"] == "state"
        before = received.count("websocket.receive")
        for i in range(30):  # text only: every one straight to the handler
            ws.send(json.dumps({"type": "ping", "id": i}))
        assert [json.loads(ws.recv(10))["id"] for _ in range(30)] == list(range(30))
        direct_only = received.count("websocket.receive")
        # A binary message goes through receive; text sent right behind it waits
        # its turn in receive's queue if it arrives before that one is read.
        ws.send(json.dumps({"type": "ping", "id": 30}).encode())
        for i in range(31, 36):
            ws.send(json.dumps({"type": "ping", "id": i}))
        assert [json.loads(ws.recv(10))["id"] for _ in range(6)] == list(range(30, 36))
    assert before == 1  # the hello
    assert direct_only == before
    assert 1 <= received.count("websocket.receive") - direct_only <= 6


def test_invalid_utf8_text_still_closes_with_1007(live_server):
    from websockets.exceptions import ConnectionClosed

    url, tokens = _opened(live_server, 8)
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        assert json.loads(ws.recv(10))["type"] == "welcome"
        ws.recv(10)
        ws.send(b"\xff\xfe{}", text=True)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007


def test_a_closed_connection_is_freed_without_waiting_for_the_collector(live_server):
    """websockets' connection and its parser generator refer to each other: unless the
    protocol closes the generator, every closed connection (with its deflate contexts)
    waits for a full collection (the 10-minute soak held hundreds)."""
    import gc

    url, tokens = _opened(live_server, 9)
    port = int(live_server.rsplit(":", 1)[1])
    # Only this server's connections count: another test's server in this process (a
    # browser page reconnecting, a server still shutting down) may open or hold its own.
    ours: list[weakref.ref] = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(5):
            with connect(url, compression="deflate") as ws:
                ws.send(json.dumps({"type": "hello", "tokens": tokens}))
                assert json.loads(ws.recv(10))["type"] == "welcome"
                ws.recv(10)
                ours.extend(
                    weakref.ref(o.conn)
                    for o in gc.get_objects()
                    if type(o) is LargeFramesProtocol
                    and o.server is not None
                    and o.server[1] == port
                    and isinstance(getattr(o, "conn", None), ServerProtocol)
                )
        assert ours, "no connection of this server was found"
        deadline = time.time() + 5
        while True:
            # A count, not a list of the live objects: a list kept across the sleep
            # would itself keep a connection alive that the server had not closed yet at
            # the first look, and every later look would find it again (a flaky failure
            # seen once in a full run).
            alive = sum(r() is not None for r in ours)
            if not alive or time.time() > deadline:
                break
            time.sleep(0.05)
        assert alive == 0, f"{alive} closed connection(s) still alive after 5 s"
    finally:
        gc.enable()


def test_a_move_read_as_one_whole_frame_skips_the_parser_and_any_other_read_does_not(
    live_server, monkeypatch
):
    """``_one_text_frame`` takes a read that is exactly one whole masked text frame;
    a frame split over two reads, two frames in one read, or a ping frame go through
    websockets' parser, and every message is answered, in order, either way."""
    taken: list[bool] = []
    real = LargeFramesProtocol._one_text_frame

    def spy(self, data):
        ok = real(self, data)
        taken.append(ok)
        return ok

    monkeypatch.setattr(LargeFramesProtocol, "_one_text_frame", spy)
    url, tokens = _opened(live_server, 9)
    host, port = live_server.split(":")
    client = ClientProtocol(parse_uri(url))
    sock = socket.create_connection((host, int(port)), timeout=10)

    def frames_of(text: str) -> bytes:
        client.send_text(text.encode())
        return b"".join(client.data_to_send())

    def replies(count: int) -> list[dict]:
        out: list[dict] = []
        while len(out) < count:
            client.receive_data(sock.recv(65536))
            for e in client.events_received():
                if isinstance(e, Frame) and e.opcode.name == "TEXT":
                    msg = json.loads(e.data)
                    if msg["type"] == "pong":
                        out.append(msg)
        return out

    def ping(i: int) -> bytes:
        return frames_of(json.dumps({"type": "ping", "id": i}))

    try:
        client.send_request(client.connect())
        sock.sendall(b"".join(client.data_to_send()))
        while not client.events_received():
            client.receive_data(sock.recv(65536))
        sock.sendall(frames_of(json.dumps({"type": "hello", "tokens": tokens})))
        time.sleep(0.3)
        taken.clear()
        sock.sendall(ping(1))  # one whole frame: the fast path
        assert [m["id"] for m in replies(1)] == [1]
        assert taken == [True]
        whole = ping(2)
        sock.sendall(whole[:3])  # a frame in two reads: the parser keeps the first part
        time.sleep(0.3)
        sock.sendall(whole[3:])
        assert [m["id"] for m in replies(1)] == [2]
        client.send_ping(b"x")  # a control frame
        sock.sendall(b"".join(client.data_to_send()) + ping(3) + ping(4))  # one read
        assert [m["id"] for m in replies(2)] == [3, 4]
        assert True not in taken[1:]
        taken.clear()
        sock.sendall(ping(5))  # and the fast path again, the parser back at a frame's start
        assert [m["id"] for m in replies(1)] == [5]
        assert taken == [True]
    finally:
        sock.close()
