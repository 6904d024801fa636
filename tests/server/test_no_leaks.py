"""Every WebSocket frame of a match is captured; each seat must have received exactly its
own view, its own legal actions and its own filtered events (and the spectator the public
view), so no frame ever carried another seat's hidden information."""

from __future__ import annotations

import json

import pytest

from skydeck.core import Rng, filter_events
from skydeck.registry import game_ids
from tests.server.conftest import games, join, receive_until

GAMES = [g for g in ("toy", "stellium", "conflict") if g == "toy" or g in game_ids()]


@pytest.mark.parametrize("game_id", GAMES)
def test_each_seat_receives_exactly_its_own_view_and_events(client, game_id):
    body = {"game": game_id, "seed": 11, "seats": [{"kind": "human"}, {"kind": "human"}]}
    if game_id != "toy":
        body["options"] = {"players": 2}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    m = r.json()
    sockets = {}
    frames: dict[object, list[dict]] = {0: [], 1: [], None: []}
    for seat in (0, 1, None):
        tokens = [] if seat is None else [m["tokens"][seat]]
        ws, _welcome, first = join(client, m["id"], tokens)
        sockets[seat] = ws
        frames[seat].append(first)
    rng = Rng(5)
    current = frames[0][-1]
    for _ in range(60):
        if current["status"] != "live":
            break
        seat = rng.choice(current["to_move"])
        legal = frames[seat][-1]["legal"][str(seat)]["actions"]
        # Lean towards phase-ending moves so that later phases are covered too.
        enders = [a for a in legal if a["action"]["kind"] in ("ready", "done", "fire")]
        act = (rng.choice(enders) if enders and rng.random() < 0.4 else rng.choice(legal))["action"]
        sockets[seat].send_json({"type": "act", "seat": seat, "action": act, "n": current["n"]})
        for s, ws in sockets.items():
            frames[s].append(receive_until(ws, "state"))
        current = frames[0][-1]
        assert all(f[-1]["n"] == current["n"] for f in frames.values())
    for ws in sockets.values():
        ws.__exit__(None, None, None)
    room = client.app.state.hub.room(m["id"])  # a finished match is rebuilt from storage
    entries = [(e.seat, e.action) for e in room.match.record.entries]
    options = room.game.options
    game = games(game_id)(**options)
    state = game.new(11)
    steps = [(state.clone(), [])]
    for seat, action in entries:
        events = state.apply(action, seat)
        steps.append((state.clone(), events))
    assert len(steps) - 1 == current["n"]
    phases: set[str] = set()
    for seat, seen in frames.items():
        for frame in seen:
            st, events = steps[frame["n"]]
            text = json.dumps(frame)
            if seat is None:
                assert frame["views"] == {} and frame["legal"] == {}
                assert frame["public"] == json.loads(json.dumps(st.view(None)))
            else:
                assert set(frame["views"]) == {str(seat)}, "a view of another seat was sent"
                assert frame["views"][str(seat)] == json.loads(json.dumps(st.view(seat)))
                expected = [a.to_json() for a in st.legal_actions(seat)][:3000]
                assert [a["action"] for a in frame["legal"][str(seat)]["actions"]] == expected
                assert "public" not in frame
            for line in frame["log"]:
                _, line_events = steps[line["n"]]
                want = json.loads(json.dumps(filter_events(line_events, seat)))
                # each event comes with its sentence, told from the filtered event alone
                assert [{k: v for k, v in e.items() if k != "text"} for e in line["events"]] == want
                names = [s["name"] for s in room.seats]
                told = [game.describe_event(e, names, room.match.state) for e in want]
                assert [e["text"] for e in line["events"]] == told
                if line["seat"] != seat and frame["status"] == "live":
                    if type(game).public_actions:  # no choice secret: every move named
                        assert line["label"] == game.describe(entries[line["n"] - 1][1])
                    else:
                        assert line["label"] is None, "another seat's move was named"
            if game_id == "conflict" and seat is not None:
                phases.add(frame["views"][str(seat)]["phase"])
            if game_id == "toy" and seat is not None:
                assert isinstance(frame["views"][str(seat)]["hands"][1 - seat], int), text
    if game_id == "conflict":  # the secret phases and the table were both covered
        assert {"preparation", "deployment"} <= phases, phases


def test_view_patches_rebuild_the_same_views(client):
    """A client may take views as changes of their top-level keys; applied in order they
    give exactly the full views another client receives (for seats and spectators)."""
    game_id = "stellium" if "stellium" in game_ids() else "toy"
    body = {"game": game_id, "seed": 3, "seats": [{"kind": "human"}, {"kind": "human"}]}
    m = client.post("/api/matches", json=body).json()
    pairs = []
    for tokens in ([m["tokens"][0]], []):
        full, _, f0 = join(client, m["id"], tokens)
        ws = client.websocket_connect(f"/ws/matches/{m['id']}")
        ws.__enter__()
        ws.send_json({"type": "hello", "tokens": tokens, "patches": True})
        receive_until(ws, "welcome")
        p0 = receive_until(ws, "state")
        pairs.append((full, ws, [f0], [p0]))
    driver, _, st = join(client, m["id"], m["tokens"])
    rng = Rng(2)
    for _ in range(25):
        if st["status"] != "live":
            break
        seat = st["to_move"][0]
        act = rng.choice(st["legal"][str(seat)]["actions"])["action"]
        driver.send_json({"type": "act", "seat": seat, "action": act, "n": st["n"]})
        st = receive_until(driver, "state")
        for full, ws, fs, ps in pairs:
            fs.append(receive_until(full, "state"))
            ps.append(receive_until(ws, "state"))
    sizes = []
    for full, ws, fs, ps in pairs:
        views, public = {}, None
        for f, p in zip(fs, ps):
            views.update(p["views"])
            for seat, patch in p.get("view_patches", {}).items():
                views[seat] = {**views[seat], **patch["set"]}
                for k in patch["del"]:
                    del views[seat][k]
            if "public" in p:
                public = p["public"]
            if "public_patch" in p:
                public = {**public, **p["public_patch"]["set"]}
            assert views == f["views"]
            assert public == f.get("public")
            sizes.append((len(json.dumps(f)), len(json.dumps(p))))
        for w in (full, ws):
            w.__exit__(None, None, None)
    driver.__exit__(None, None, None)
    assert sum(p for _, p in sizes[2:]) < sum(f for f, _ in sizes[2:])
