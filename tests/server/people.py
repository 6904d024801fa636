"""Helpers of the accounts, ratings and profile tests: a server with cheap password
hashes (the rules are the same; only Argon2's memory is smaller), signing up, playing
a toy match to its end."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from skydeck.server.sessions import COOKIE
from tests.server.conftest import join, receive_until

#: Argon2id with 64 KiB: a test signs up in a millisecond (production: 64 MiB).
CHEAP = {"password_memory": 64}
PASSWORD = "correct horse battery"


def sign_up(client: TestClient, name: str, password: str = PASSWORD, **extra: Any) -> str:
    """Sign up (the client keeps the cookie); the CSRF token."""
    r = client.post("/api/accounts", json={"name": name, "password": password, **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["csrf"])


def sign_in(client: TestClient, name: str, password: str = PASSWORD, **extra: Any) -> Any:
    return client.post("/api/session", json={"name": name, "password": password, **extra})


def cookie(client: TestClient) -> str | None:
    return client.cookies.get(COOKIE)


def plant(client: TestClient, token: str) -> None:
    """Put a session cookie in the client's jar, as a browser would hold it."""
    client.cookies.clear()
    client.cookies.set(COOKIE, token, domain="testserver.local", path="/")


def play_to_end(ws: Any, st: dict[str, Any], seats: set[int]) -> dict[str, Any]:
    """Play the toy match's 'play' moves for ``seats`` until it ends (AI seats move
    themselves); the last state."""
    while st["status"] == "live":
        mine = [s for s in st["to_move"] if s in seats]
        if not mine:
            st = receive_until(ws, "state")
            continue
        seat = mine[0]
        act = next(a for a in st["legal"][str(seat)]["actions"] if a["action"]["kind"] == "play")
        ws.send_json({"type": "act", "seat": seat, "action": act["action"], "n": st["n"]})
        st = receive_until(ws, "state")
    return st


def rated_vs_bot(client: TestClient, csrf: str, agent: str = "random") -> dict[str, Any]:
    r = client.post(
        "/api/matches",
        json={"game": "toy", "seed": 3, "rated": True,
              "seats": [{"kind": "human", "me": True}, {"kind": "ai", "agent": agent}]},
        headers={"x-skydeck-csrf": csrf},
    )
    assert r.status_code == 201, r.text
    return r.json()


def play_rated_vs_bot(client: TestClient, csrf: str) -> dict[str, Any]:
    m = rated_vs_bot(client, csrf)
    ws, welcome, st = join(client, m["id"], [m["tokens"][0]])
    assert welcome["seats"] == [0]
    st = play_to_end(ws, st, {0})
    ws.__exit__(None, None, None)
    return st
