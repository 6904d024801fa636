"""Correspondence matches: a move clock of an hour or more (up to 14 days). The server's
clocks run on a scaled time here (``clock_scale``: a day lasts under a second), so the
test sees a match move on and then be lost on time without waiting a day. The idle
sweep leaves such a match alone (its own clock ends it); a game with a real-time table
clock (Stellar Conflict's deployment) refuses one."""

from __future__ import annotations

import time

from sqlalchemy import select

from skydeck.server.hub import MAX_MOVE_SECONDS, correspondence
from skydeck.server.people_tables import match_players
from skydeck.server.ratings import outcome
from tests.server.conftest import join, receive_until
from tests.server.people import CHEAP, sign_up

DAY = 24 * 3600


def _wait_status(client, match_id: str, status: str, seconds: float) -> dict:
    deadline = time.time() + seconds
    while True:
        info = client.get(f"/api/matches/{match_id}").json()
        if info["status"] == status or time.time() > deadline:
            return info
        time.sleep(0.05)


def test_a_correspondence_match_moves_on_then_is_lost_on_time(client_factory):
    # A day's move clock lasts 1.7 s of real time here.
    client = client_factory(clock_scale=2.0 / DAY, clock_grace=0.0, **CHEAP)
    csrf = sign_up(client, "Corr")
    r = client.post("/api/matches", headers={"x-skydeck-csrf": csrf}, json={
        "game": "toy", "seed": 3, "rated": True, "move_seconds": DAY,
        "seats": [{"kind": "human", "me": True}, {"kind": "ai", "agent": "random"}]})
    assert r.status_code == 201, r.text
    m = r.json()
    assert m["settings"]["move_seconds"] == DAY
    ws, _welcome, st = join(client, m["id"], [m["tokens"][0]])
    assert [d["seat"] for d in st["deadlines"]] == [0]
    first_due = st["deadlines"][0]["due"]
    act = next(a for a in st["legal"]["0"]["actions"] if a["action"]["kind"] == "play")
    ws.send_json({"type": "act", "seat": 0, "action": act["action"], "n": st["n"]})
    while not (st["to_move"] == [0] and st["n"] >= 2):  # the bot answers: seat 0 again
        st = receive_until(ws, "state")
    assert st["status"] == "live"
    assert st["deadlines"][0]["due"] > first_due  # moving started a fresh day
    ws.__exit__(None, None, None)
    info = _wait_status(client, m["id"], "abandoned", 15)
    assert info["status"] == "abandoned" and info["n"] == st["n"]  # no move made for it
    engine = client.app.state.people.engine
    deadline = time.time() + 10
    results: dict[int, str | None] = {}
    while time.time() < deadline:
        with engine.connect() as conn:
            rows = conn.execute(select(match_players.c.seat, match_players.c.result)
                                .where(match_players.c.match_id == m["id"])).all()
        results = {int(r.seat): r.result for r in rows}
        if all(results.values()):
            break
        time.sleep(0.05)
    assert results == {0: "loss", 1: "win"}  # the seat whose clock ran out lost


def test_the_idle_sweep_leaves_a_correspondence_match_to_its_clock(client_factory):
    # Idle after 1 s; a day's move clock lasts 6 s.
    client = client_factory(clock_scale=6.0 / DAY, clock_grace=0.0, idle_expiry=1.0)
    seats = [{"kind": "human"}, {"kind": "human"}]
    plain = client.post("/api/matches", json={"game": "toy", "seats": seats}).json()
    corr = client.post("/api/matches", json={"game": "toy", "seats": seats,
                                              "move_seconds": DAY}).json()
    assert _wait_status(client, plain["id"], "abandoned", 10)["status"] == "abandoned"
    assert client.get(f"/api/matches/{corr['id']}").json()["status"] == "live"
    assert _wait_status(client, corr["id"], "abandoned", 20)["status"] == "abandoned"
    # at start, the stored sweep spares it too
    storage = client.app.state.hub.storage
    again = client.post("/api/matches", json={"game": "toy", "seats": seats,
                                               "move_seconds": 2 * DAY}).json()
    assert again["id"] not in storage.abandon_idle(time.time() + 10, spare=correspondence)


def test_move_clocks_of_days_and_real_time_games(client):
    seats = [{"kind": "human"}, {"kind": "human"}]
    ok = client.post("/api/matches", json={"game": "toy", "seats": seats,
                                            "move_seconds": MAX_MOVE_SECONDS})
    assert ok.status_code == 201
    long = client.post("/api/matches", json={"game": "toy", "seats": seats,
                                              "move_seconds": MAX_MOVE_SECONDS + 1})
    assert long.status_code == 400 and "'move_seconds' must be between" in long.json()["detail"]
    conflict = client.post("/api/matches", json={"game": "conflict", "seats": seats,
                                                  "move_seconds": DAY})
    assert conflict.status_code == 400
    assert "real-time table clock" in conflict.json()["detail"]
    quick = client.post("/api/matches", json={"game": "conflict", "seats": seats,
                                               "move_seconds": 60})
    assert quick.status_code == 201, quick.text


def test_a_cooperative_match_lost_on_time_is_nobodys_win():
    res = outcome("stellarion", "abandoned", [0.0, 0.0], (), (0,), 2)
    assert [r.result for r in res] == ["abandoned", "abandoned"]
