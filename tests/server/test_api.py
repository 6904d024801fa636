"""Lobby API and match WebSocket: creating, joining, playing, refusing bad input."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tests.server.conftest import join, new_toy, receive_until

JSON = {"content-type": "application/json"}


def test_games_lists_every_registered_game_with_options_and_agents(client):
    from skydeck.registry import game_ids

    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert set(games) == {*game_ids(), "toy"}
    toy = games["toy"]
    assert toy["players"] == [2, 3]
    assert toy["options"][0]["name"] == "marker_limit"
    assert "random" in toy["agents"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "nope", "seats": []}, "unknown game"),
        ({"game": "toy", "seats": [{"kind": "human"}]}, "must list 2 seats"),
        ({"game": "toy", "seats": [{"kind": "human"}, {"kind": "robot"}]}, "'human' or 'ai'"),
        ({"game": "toy", "options": {"bogus": 1}, "seats": []}, "unknown option"),
        ({"game": "toy", "options": {"marker_limit": -1}, "seats": []}, "marker_limit"),
        (
            {"game": "toy", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "zzz"}]},
            "unknown agent",
        ),
        ({"game": "toy", "seed": -3, "seats": [{"kind": "human"}] * 2}, "'seed'"),
        ({"game": "toy", "move_seconds": 1, "seats": [{"kind": "human"}] * 2}, "move_seconds"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_lobby_requests_are_refused_with_a_clear_reason(client, body, words):
    r = client.post("/api/matches", json=body)
    assert r.status_code == 400
    assert words in r.json()["detail"]
    assert client.get("/api/matches").json() == []


def test_malformed_and_oversized_requests_are_refused(client):
    r = client.post("/api/matches", content=b"{not json", headers=JSON)
    assert r.status_code == 400 and "not valid JSON" in r.json()["detail"]
    r = client.post("/api/matches", content=b" " * 70_000 + b"{}", headers=JSON)
    assert r.status_code == 413
    assert client.get("/api/matches").json() == []


def test_a_client_that_leaves_mid_request_creates_nothing_and_raises_nothing(client):
    """The lobby request's body never arrives whole (the client disconnected): the server
    answers 499 to nobody and logs no error, and no match exists."""
    import asyncio

    app = client.app
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/matches",
        "raw_path": b"/api/matches",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"100")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 499
    assert client.get("/api/matches").json() == []


def test_seat_tokens_are_unguessable_and_distinct(client):
    m = new_toy(client)
    a, b = m["tokens"]
    assert a != b and len(a) >= 32 and len(b) >= 32
    assert m["links"]["0"].endswith("#t=" + a)
    assert m["hotseat_link"].endswith(f"#t={a},{b}")
    # The stored header never carries a token or its digest.
    assert a not in json.dumps(client.get(f"/api/matches/{m['id']}").json())
    assert "token" not in json.dumps(client.get("/api/matches").json())


def test_a_seat_sees_its_own_hand_and_the_other_only_as_a_count(client):
    m = new_toy(client)
    ws0, welcome, s0 = join(client, m["id"], [m["tokens"][0]])
    ws1, _, s1 = join(client, m["id"], [m["tokens"][1]])
    spec, _, sp = join(client, m["id"])
    assert welcome["seats"] == [0] and not welcome["spectator"]
    assert isinstance(s0["views"]["0"]["hands"][0], list)
    assert isinstance(s0["views"]["0"]["hands"][1], int)
    assert isinstance(s1["views"]["1"]["hands"][1], list)
    assert sp["views"] == {} and all(isinstance(h, int) for h in sp["public"]["hands"])
    assert s1["legal"]["1"]["actions"] == []
    act = s0["legal"]["0"]["actions"][0]
    ws0.send_json({"type": "act", "seat": 0, "action": act["action"], "n": 0})
    u0, u1, usp = (receive_until(w, "state") for w in (ws0, ws1, spec))
    assert u0["n"] == u1["n"] == usp["n"] == 1
    drew0 = [e for e in u0["log"][0]["events"] if e["kind"] == "drew"]
    drew1 = [e for e in u1["log"][0]["events"] if e["kind"] == "drew"]
    assert "card" in drew0[0] and "card" not in drew1[0]
    # The mover sees its own move named; the others only that seat 0 moved.
    assert u0["log"][0]["label"] == act["label"] and u1["log"][0]["label"] is None
    for w in (ws0, ws1, spec):
        w.__exit__(None, None, None)


def _error(ws):
    return receive_until(ws, "error")


def test_refusals_change_nothing(client):
    m = new_toy(client)
    ws0, _, s0 = join(client, m["id"], [m["tokens"][0]])
    ws1, _, _s1 = join(client, m["id"], [m["tokens"][1]])
    good = s0["legal"]["0"]["actions"][0]["action"]
    cases = [
        ("not json at all", "bad_json"),
        (json.dumps([1, 2]), "bad_message"),
        (json.dumps({"type": "act", "seat": 0, "n": 0}), "bad_message"),
        (json.dumps({"type": "act", "seat": "0", "action": good, "n": 0}), "bad_message"),
        (json.dumps({"type": "fly"}), "unknown_type"),
        (json.dumps({"type": "act", "seat": 1, "action": good, "n": 0}), "not_your_seat"),
        (
            json.dumps(
                {"type": "act", "seat": 0, "action": {"kind": "play", "args": [99]}, "n": 0}
            ),
            "illegal",
        ),
        (json.dumps({"type": "act", "seat": 0, "action": {"kind": 5}, "n": 0}), "illegal"),
        (json.dumps({"type": "act", "seat": 0, "action": good, "n": 4}), "stale"),
        (
            json.dumps({"type": "act", "seat": 0, "action": good, "n": 0, "pad": "x" * 70_000}),
            "too_large",
        ),
        (json.dumps({"type": "undo", "n": 0}), "undo"),
    ]
    for text, code in cases:
        ws0.send_text(text)
        err = _error(ws0)
        assert err["code"] == code, (text[:60], err)
        assert err["message"]
    # Seat 1 tries to act out of turn with its own token: refused by the rules.
    ws1.send_json({"type": "act", "seat": 1, "action": good, "n": 0})
    assert _error(ws1)["code"] == "illegal"
    assert client.get(f"/api/matches/{m['id']}").json()["n"] == 0
    # And a good move still works afterwards.
    ws0.send_json({"type": "act", "seat": 0, "action": good, "n": 0})
    assert receive_until(ws0, "state")["n"] == 1
    for w in (ws0, ws1):
        w.__exit__(None, None, None)


def test_replayed_and_stale_messages_are_refused(client):
    m = new_toy(client)
    ws0, _, s0 = join(client, m["id"], [m["tokens"][0]])
    mark = next(a for a in s0["legal"]["0"]["actions"] if a["action"]["kind"] == "mark")
    msg = {"type": "act", "seat": 0, "action": mark["action"], "n": 0}
    ws0.send_json(msg)
    after = receive_until(ws0, "state")
    assert after["n"] == 1
    ws0.send_json(msg)  # the very same message again
    err = _error(ws0)
    assert err["code"] == "stale" and "replayed" in err["message"]
    assert client.get(f"/api/matches/{m['id']}").json()["n"] == 1
    ws0.__exit__(None, None, None)


def test_wrong_or_missing_tokens(client):
    m = new_toy(client)
    other = new_toy(client)
    with client.websocket_connect(f"/ws/matches/{m['id']}") as ws:
        ws.send_json({"type": "hello", "tokens": [other["tokens"][0]]})
        err = ws.receive_json()
        assert err["code"] == "bad_token"
    with client.websocket_connect(f"/ws/matches/{m['id']}") as ws:
        ws.send_json({"type": "hello", "tokens": "abc"})
        assert ws.receive_json()["code"] == "bad_message"
    with client.websocket_connect(f"/ws/matches/{m['id']}") as ws:
        ws.send_json({"type": "act"})
        assert ws.receive_json()["code"] == "bad_message"
    with client.websocket_connect(f"/ws/matches/{m['id']}") as ws:
        ws.send_bytes(b"\xff\xfe not json")
        assert ws.receive_json()["code"] == "bad_json"
    with client.websocket_connect("/ws/matches/nonexistent") as ws:
        assert ws.receive_json()["code"] == "no_match"
    # Without a token: a spectator, who may not act.
    ws, welcome, _st = join(client, m["id"])
    assert welcome["spectator"]
    ws.send_json({"type": "act", "seat": 0, "action": {"kind": "mark", "args": [1]}, "n": 0})
    assert _error(ws)["code"] == "not_your_seat"
    ws.__exit__(None, None, None)


def test_hotseat_one_socket_plays_both_seats_to_the_end(client):
    m = new_toy(client, hotseat=True)
    ws, welcome, st = join(client, m["id"], m["tokens"])
    assert welcome["seats"] == [0, 1]
    while st["status"] == "live":
        seat = st["to_move"][0]
        act = next(a for a in st["legal"][str(seat)]["actions"] if a["action"]["kind"] == "play")
        ws.send_json({"type": "act", "seat": seat, "action": act["action"], "n": st["n"]})
        st = receive_until(ws, "state")
    assert st["status"] == "over" and len(st["scores"]) == 2 and st["winners"]
    assert st["log_reset"] and all(line["label"] for line in st["log"])
    rec = client.get(f"/api/matches/{m['id']}/record").json()
    assert len(rec["actions"]) == st["n"]
    ws.__exit__(None, None, None)


def test_undo_takes_back_a_free_move_only(client):
    m = new_toy(client)
    ws, _, st = join(client, m["id"], [m["tokens"][0]])
    mark = next(a for a in st["legal"]["0"]["actions"] if a["action"]["kind"] == "mark")
    ws.send_json({"type": "act", "seat": 0, "action": mark["action"], "n": 0})
    st = receive_until(ws, "state")
    assert st["can_undo"] and st["views"]["0"]["marker"] == 1
    ws.send_json({"type": "undo", "n": 1})
    st = receive_until(ws, "state")
    assert st["n"] == 0 and st["views"]["0"]["marker"] == 0 and st["log_reset"]
    assert client.get(f"/api/matches/{m['id']}").json()["n"] == 0
    play = next(a for a in st["legal"]["0"]["actions"] if a["action"]["kind"] == "play")
    ws.send_json({"type": "act", "seat": 0, "action": play["action"], "n": 0})
    st = receive_until(ws, "state")
    assert not st["can_undo"]  # it drew a card: undo would reveal the deck
    ws.send_json({"type": "undo", "n": 1})
    assert _error(ws)["code"] == "undo"
    ws.__exit__(None, None, None)


def test_ai_seat_answers_and_plays_to_the_end(client):
    m = new_toy(client, kinds=("ai", "ai"))
    deadline = time.time() + 20
    while time.time() < deadline:
        info = client.get(f"/api/matches/{m['id']}").json()
        if info["status"] == "over":
            break
        time.sleep(0.05)
    assert info["status"] == "over" and info["winners"]


def test_per_move_clock_plays_for_a_slow_seat(client_factory, monkeypatch):
    import skydeck.server.hub as hub_module

    monkeypatch.setattr(hub_module, "MIN_MOVE_SECONDS", 0.2)
    client = client_factory()
    m = new_toy(client, move_seconds=0.3)
    ws, _, st = join(client, m["id"], [m["tokens"][0]])
    assert [d["seat"] for d in st["deadlines"]] == [0]
    st = receive_until(ws, "state")  # nobody moved: the clock did
    assert st["n"] == 1 and st["to_move"] == [1]
    assert not st["can_undo"]  # a move the clock made is not the seat's to take back
    ws.send_json({"type": "undo", "n": 1})
    assert _error(ws)["code"] == "undo"
    ws.__exit__(None, None, None)


def test_replay_from_a_seat_hides_the_other_hand(client):
    m = new_toy(client, hotseat=True)
    ws, _, st = join(client, m["id"], m["tokens"])
    for _ in range(3):
        seat = st["to_move"][0]
        act = next(a for a in st["legal"][str(seat)]["actions"] if a["action"]["kind"] == "play")
        ws.send_json({"type": "act", "seat": seat, "action": act["action"], "n": st["n"]})
        st = receive_until(ws, "state")
    ws.__exit__(None, None, None)
    mid = m["id"]
    assert client.get(f"/api/matches/{mid}/replay?seat=1").status_code == 403
    assert client.get(f"/api/matches/{mid}/replay?seat=1&token=bad").status_code == 403
    assert client.get(f"/api/matches/{mid}/record").status_code == 403
    r = client.get(f"/api/matches/{mid}/replay?seat=1&token={m['tokens'][1]}").json()
    assert len(r["steps"]) == 4
    for step in r["steps"]:
        hands = step["view"]["hands"]
        assert isinstance(hands[1], list) and isinstance(hands[0], int)
    spect = client.get(f"/api/matches/{mid}/replay").json()
    assert all(isinstance(h, int) for h in spect["steps"][-1]["view"]["hands"])


@pytest.mark.parametrize("game", ["toy", "stellium"])
def test_a_live_replay_names_the_other_seats_moves_only_where_no_choice_is_secret(client, game):
    """A live match's replay from seat 1 labels seat 0's moves only in a game whose
    choices are all public (``Game.public_actions``: Stellium), never in the toy game
    (its hands are secret)."""
    body = {"game": game, "seed": 3, "seats": [{"kind": "human"}, {"kind": "human"}]}
    m = client.post("/api/matches", json=body).json()
    ws, _, st = join(client, m["id"], m["tokens"])
    while st["n"] < 6:
        seat = st["to_move"][0]
        act = st["legal"][str(seat)]["actions"][0]
        ws.send_json({"type": "act", "seat": seat, "action": act["action"], "n": st["n"]})
        st = receive_until(ws, "state")
    ws.__exit__(None, None, None)
    r = client.get(f"/api/matches/{m['id']}/replay?seat=1&token={m['tokens'][1]}").json()
    others = [step for step in r["steps"] if step["seat"] == 0]
    mine = [step for step in r["steps"] if step["seat"] == 1]
    assert others and all(step["label"] for step in mine)
    assert all(bool(step["label"]) is (game == "stellium") for step in others)


def test_the_server_answers_while_an_ai_seat_thinks(client_factory, monkeypatch):
    import skydeck.server.hub as hub_module

    joined = threading.Event()

    class Busy:
        name = "busy"

        def choose(self, view, legal, seat):
            # Not before the test's client is in: on a loaded machine joining can take
            # longer than the whole thought, and the move would come first.
            joined.wait(30)
            end = time.perf_counter() + 1.5
            while time.perf_counter() < end:  # pure CPU, holding the GIL
                sum(range(1000))
            return legal[0]

    monkeypatch.setattr(hub_module, "make_agent", lambda spec, game, seed, *models: Busy())
    client = client_factory()
    m = new_toy(client, kinds=("ai", "human"))
    ws, _, st = join(client, m["id"], [m["tokens"][1]])
    assert st["n"] == 0
    joined.set()
    time.sleep(0.2)  # the AI is thinking now
    slowest = 0.0
    for i in range(5):
        t = time.perf_counter()
        ws.send_json({"type": "ping", "id": i})
        assert receive_until(ws, "pong")["id"] == i
        slowest = max(slowest, time.perf_counter() - t)
    assert slowest < 0.5, f"a ping took {slowest:.2f} s while the AI thought"
    assert client.get(f"/api/matches/{m['id']}").json()["n"] == 0  # still thinking
    assert receive_until(ws, "state")["n"] == 1  # and then it moved
    ws.__exit__(None, None, None)


def test_a_finished_match_replays_with_every_seat_view(client):
    m = new_toy(client, hotseat=True)
    mid = m["id"]
    assert client.get(f"/api/matches/{mid}/replay?seat=everyone").status_code == 403
    ws, _, st = join(client, mid, m["tokens"])
    while st["status"] == "live":
        seat = st["to_move"][0]
        act = next(a for a in st["legal"][str(seat)]["actions"] if a["action"]["kind"] == "play")
        ws.send_json({"type": "act", "seat": seat, "action": act["action"], "n": st["n"]})
        st = receive_until(ws, "state")
    ws.__exit__(None, None, None)
    full = client.get(f"/api/matches/{mid}/replay?seat=everyone").json()
    assert full["seat"] == "everyone" and len(full["steps"]) == st["n"] + 1
    first = full["steps"][1]
    assert isinstance(first["views"]["0"]["hands"][0], list)
    assert isinstance(first["views"]["1"]["hands"][1], list)
    assert any("card" in e for e in first["events"] if e["kind"] == "drew")
    # Once over, any single seat's replay is open too, with every move named.
    seat1 = client.get(f"/api/matches/{mid}/replay?seat=1").json()
    assert all(step["label"] for step in seat1["steps"][1:])


DEEP = "[" * 5000 + "]" * 5000


def test_deeply_nested_json_is_refused_with_400_not_a_crash(client):
    r = client.post("/api/matches", content=DEEP.encode(), headers=JSON)
    assert r.status_code == 400 and "nested too deeply" in r.json()["detail"]
    # Deep but within the JSON decoder's reach: the option's own check names it.
    deep = json.loads("[" * 900 + "]" * 900)
    body = {"game": "toy", "options": {"marker_limit": deep}, "seats": [{"kind": "human"}] * 2}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 400 and "marker_limit" in r.json()["detail"]
    assert client.get("/api/matches").json() == []


def test_deeply_nested_messages_are_refused_and_the_socket_stays_open(client):
    m = new_toy(client)
    ws, _, st = join(client, m["id"], [m["tokens"][0]])
    ws.send_text(DEEP)
    err = _error(ws)
    assert err["code"] == "bad_json" and "nested too deeply" in err["message"]
    # Deep but within the JSON decoder's reach: the action itself is refused.
    deep_action = {"kind": "play", "args": json.loads("[" * 900 + "]" * 900)}
    ws.send_json({"type": "act", "seat": 0, "action": deep_action, "n": st["n"]})
    err = _error(ws)
    assert err["code"] == "illegal" and "nested too deeply" in err["message"]
    ws.send_json({"type": "ping", "id": 7})
    assert receive_until(ws, "pong")["id"] == 7
    good = st["legal"]["0"]["actions"][0]["action"]
    ws.send_json({"type": "act", "seat": 0, "action": good, "n": st["n"]})
    assert receive_until(ws, "state")["n"] == 1
    ws.__exit__(None, None, None)


def test_options_name_the_player_counts_they_apply_to(client):
    """The lobby shows and sends an option only for the player counts it applies to."""
    games = {g["id"]: g for g in client.get("/api/games").json()}
    if "expedition" not in games:
        pytest.skip("Stellar Expedition is not registered")
    specs = {o["name"]: o for o in games["expedition"]["options"]}
    assert specs["solo_rank"]["players"] == [1] and specs["drone_faction"]["players"] == [1]
    assert specs["modules"]["players"] is None


def test_default_seat_names_are_player_numbers(client):
    m = new_toy(client, kinds=("human", "ai"))
    names = [s["name"] for s in m["seats"]]
    assert names == ["Player 1", "Player 2 (AI: random)"]
    r = client.post(
        "/api/matches", json={"game": "toy", "seats": [{"kind": "human"}, {"kind": "x"}]}
    )
    assert r.status_code == 400 and r.json()["detail"].startswith("Player 2 (seats[1]):")
