"""Faults inside the server: a failing database or a crashing rules engine refuse the
move with a clear error and leave the match exactly as it was."""

from __future__ import annotations

import json

from tests.core.toygame import ToyState
from tests.server.conftest import join, new_toy, receive_until


def _views(client, m):
    ws, _, st = join(client, m["id"], m["tokens"])
    ws.__exit__(None, None, None)
    return st


def test_a_move_the_database_refuses_is_not_applied(client, monkeypatch):
    m = new_toy(client)
    ws, _, st = join(client, m["id"], m["tokens"])
    hub = client.app.state.hub
    play = next(a for a in st["legal"]["0"]["actions"] if a["action"]["kind"] == "play")

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(hub.storage, "append_actions", broken)
    ws.send_json({"type": "act", "seat": 0, "action": play["action"], "n": 0})
    err = receive_until(ws, "error")
    assert err["code"] == "storage" and "disk full" in err["message"]
    assert hub.rooms[m["id"]].n == 0
    assert hub.rooms[m["id"]].match.state.view(0) == st["views"]["0"]
    monkeypatch.undo()
    ws.send_json({"type": "act", "seat": 0, "action": play["action"], "n": 0})
    assert receive_until(ws, "state")["n"] == 1
    ws.__exit__(None, None, None)


def test_a_match_the_database_refuses_is_not_created(client, monkeypatch):
    hub = client.app.state.hub
    before = client.get("/api/matches").json()

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(hub.storage, "append_actions", broken)
    body = {"game": "toy", "seed": 7, "seats": [{"kind": "human"}, {"kind": "human"}]}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 503
    assert r.json()["detail"] == "the match could not be stored: disk full"
    assert client.get("/api/matches").json() == before
    monkeypatch.undo()
    assert client.post("/api/matches", json=body).status_code == 201


def test_an_engine_crash_leaves_the_match_as_it_was(client, monkeypatch):
    m = new_toy(client)
    ws, _, st = join(client, m["id"], m["tokens"])
    hub = client.app.state.hub
    before = json.dumps(hub.rooms[m["id"]].match.state.to_json())
    real = ToyState._apply

    def half_then_crash(self, action, seat):
        self.hands[seat].clear()  # a half-done change...
        raise RuntimeError("bug in the rules")  # ...then a crash

    monkeypatch.setattr(ToyState, "_apply", half_then_crash)
    play = st["legal"]["0"]["actions"][0]
    ws.send_json({"type": "act", "seat": 0, "action": play["action"], "n": 0})
    err = receive_until(ws, "error")
    assert err["code"] == "engine_error" and "bug in the rules" in err["message"]
    assert json.dumps(hub.rooms[m["id"]].match.state.to_json()) == before
    monkeypatch.setattr(ToyState, "_apply", real)
    ws.send_json({"type": "act", "seat": 0, "action": play["action"], "n": 0})
    assert receive_until(ws, "state")["n"] == 1
    assert hub.storage.action_count(m["id"]) == 1
    ws.__exit__(None, None, None)


def test_an_undo_the_database_refuses_is_not_applied(client, monkeypatch):
    m = new_toy(client)
    ws, _, st = join(client, m["id"], m["tokens"])
    hub = client.app.state.hub
    mark = next(a for a in st["legal"]["0"]["actions"] if a["action"]["kind"] == "mark")
    ws.send_json({"type": "act", "seat": 0, "action": mark["action"], "n": 0})
    st = receive_until(ws, "state")

    def broken(*args, **kwargs):
        raise OSError("database gone")

    monkeypatch.setattr(hub.storage, "remove_last_action", broken)
    ws.send_json({"type": "undo", "n": 1})
    assert receive_until(ws, "error")["code"] == "storage"
    room = hub.rooms[m["id"]]
    assert room.n == 1 and room.match.state.view(0) == st["views"]["0"]
    ws.__exit__(None, None, None)


def test_a_client_too_far_behind_is_cut_off():
    from skydeck.server.room import Client

    client = Client(frozenset({0}))
    for i in range(Client.MAX_BACKLOG + 5):
        client.send({"type": "state", "n": i})
    items = [client.queue.get_nowait() for _ in range(client.queue.qsize())]
    assert None in items  # the writer stops there and closes the socket
    assert items.index(None) == Client.MAX_BACKLOG + 1
