"""Server fixtures: an app over a fresh SQLite file, with the toy game registered too
(so the platform is tested on a known hidden-information game besides the real ones)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from skydeck.registry import with_games
from skydeck.server import create_app
from tests.core.toygame import ToyGame

games, list_games = with_games(ToyGame)


def make_app(url: str, **kw: Any):
    return create_app(
        url, games=games, list_games=list_games, ai_delay=kw.pop("ai_delay", 0.0), **kw
    )


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.sqlite'}"


@pytest.fixture
def client_factory(db_url: str) -> Iterator[Callable[..., TestClient]]:
    made: list[TestClient] = []

    def factory(url: str | None = None, **kw: Any) -> TestClient:
        c = TestClient(make_app(url or db_url, **kw))
        c.__enter__()
        made.append(c)
        return c

    yield factory
    # Sockets a failed test left open would keep the app from shutting down.
    while OPEN_SOCKETS:
        ws = OPEN_SOCKETS.pop()
        with contextlib.suppress(Exception):
            ws.__exit__(None, None, None)
    for c in made:
        c.__exit__(None, None, None)


@pytest.fixture
def client(client_factory: Callable[..., TestClient]) -> TestClient:
    return client_factory()


def new_toy(client: TestClient, kinds=("human", "human"), **extra: Any) -> dict[str, Any]:
    body = {"game": "toy", "seed": 7, "seats": [{"kind": k} for k in kinds], **extra}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def receive_until(ws: Any, kind: str, limit: int = 50) -> dict[str, Any]:
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind!r} message in {limit}")


OPEN_SOCKETS: list[Any] = []


def join(client: TestClient, match_id: str, tokens: list[str] | None = None):
    """Open the match socket, say hello, and return (socket, welcome, first state)."""
    ws = client.websocket_connect(f"/ws/matches/{match_id}")
    ws.__enter__()
    OPEN_SOCKETS.append(ws)
    ws.send_json({"type": "hello", "tokens": tokens or []})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    state = ws.receive_json()
    assert state["type"] == "state", state
    return ws, welcome, state
