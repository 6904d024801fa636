"""A real server on loopback in a thread of the test process (uvicorn, the protocol
`skydeck serve` runs), for tests that need real sockets: browsers, clients that come
from addresses of their own, bodies that must not be read."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn

from tests.server.conftest import make_app


class LiveServer:
    """``with LiveServer(url, **settings) as server``: ``server.base`` answers HTTP and
    WebSockets until the block ends. ``settings``: fields of the server's Settings."""

    def __init__(self, url: str, ai_delay: float = 0.0, **settings: Any) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.app = make_app(url, ai_delay=ai_delay, **settings)
        # The WebSocket protocol `skydeck serve` runs (its direct channel included).
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="skydeck.server.compression:LargeFramesProtocol",
            ws_max_size=self.app.state.settings.ws_max_frame,  # as `skydeck serve` does
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("live server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        import httpx

        r = httpx.post(self.base + "/api/matches", json=body, timeout=10)
        assert r.status_code == 201, r.text
        return r.json()
