"""Clocks owned by the server: Stellium's 5-second draw and Stellar Conflict's timed
deployment send the engine's own timeout action; Light Speed runs no clock."""

from __future__ import annotations

import time

import pytest

from skydeck.core import Action, Rng
from skydeck.registry import game_class, game_ids, load
from skydeck.server.clocks import wanted_clocks
from tests.server.conftest import join, receive_until


def _create(client, game, options, kinds=("human", "human")):
    r = client.post(
        "/api/matches",
        json={"game": game, "seed": 1, "options": options, "seats": [{"kind": k} for k in kinds]},
    )
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.skipif("stellium" not in game_ids(), reason="Stellium is not registered")
def test_stellium_draw_clock_draws_at_random_for_a_slow_player(client_factory):
    client = client_factory(clock_scale=0.1)  # the 5 s draw lasts 0.5 s
    m = _create(client, "stellium", {"players": 2})
    ws, _, st = join(client, m["id"], m["tokens"])
    seat = st["to_move"][0]
    [clock] = st["deadlines"]
    assert clock["seat"] == seat and clock["kind"] == "draw"
    assert 0.3 < clock["due"] - st["now"] <= 0.5 + 0.05
    st = receive_until(ws, "state")
    assert st["n"] == 1
    kinds = [e["kind"] for e in st["log"][0]["events"]]
    assert "timeout" in kinds and "drew" in kinds
    assert not st["can_undo"]
    # Placing is not timed: no clock runs until the next draw.
    assert st["deadlines"] == []
    ws.__exit__(None, None, None)


@pytest.mark.skipif("conflict" not in game_ids(), reason="Stellar Conflict is not registered")
def test_conflict_timed_deployment_runs_one_table_clock_of_the_battle_size(client_factory):
    client = client_factory(clock_scale=0.02)  # Dispute's 30 s last 0.6 s
    m = _create(client, "conflict", {"players": 2, "scale": "dispute", "deployment": "timed"})
    ws, _, st = join(client, m["id"], m["tokens"])
    assert st["deadlines"] == []  # Preparation is not timed
    for seat in (0, 1):
        ws.send_json({"type": "act", "seat": seat, "action": {"kind": "ready"}, "n": st["n"]})
        st = receive_until(ws, "state")
    [clock] = st["deadlines"]
    assert clock["kind"] == "deployment"
    assert 0.4 < clock["due"] - st["now"] <= 0.6 + 0.05
    # A placement does not restart the table clock.
    due = clock["due"]
    place = next(a for a in st["legal"]["0"]["actions"] if a["action"]["kind"] == "place")
    ws.send_json({"type": "act", "seat": 0, "action": place["action"], "n": st["n"]})
    st = receive_until(ws, "state")
    if st["deadlines"]:
        assert st["deadlines"][0]["due"] == due
    deadline = time.time() + 5
    while time.time() < deadline:
        st = receive_until(ws, "state")
        if any(e["kind"] == "stop" for line in st["log"] for e in line["events"]):
            break
    stops = [e for line in st["log"] for e in line["events"] if e["kind"] == "stop"]
    assert stops and stops[0]["why"] == "timeout"
    ws.__exit__(None, None, None)


@pytest.mark.skipif("conflict" not in game_ids(), reason="Stellar Conflict is not registered")
def test_conflict_light_speed_runs_no_clock(client_factory):
    client = client_factory(clock_scale=0.02)
    m = _create(client, "conflict", {"players": 2, "deployment": "light_speed"})
    ws, _, st = join(client, m["id"], m["tokens"])
    for seat in (0, 1):
        ws.send_json({"type": "act", "seat": seat, "action": {"kind": "ready"}, "n": st["n"]})
        st = receive_until(ws, "state")
    assert st["deadlines"] == []
    # The engine refuses a timeout the server would never send here.
    ws.send_json({"type": "act", "seat": 0, "action": {"kind": "timeout"}, "n": st["n"]})
    assert receive_until(ws, "error")["code"] == "illegal"
    ws.__exit__(None, None, None)


TIMED_GAMES = sorted(g for g in game_ids() if game_class(g).capabilities.timed_actions)


def test_the_timed_games_are_those_the_rulebooks_time():
    """Stellium's 5-second draw and Stellar Conflict's timed deployment."""
    assert {"stellium", "conflict"} <= set(TIMED_GAMES)


@pytest.mark.parametrize("game_id", TIMED_GAMES)
def test_clock_actions_are_never_offered_to_a_player(game_id):
    """A clock's action is the server's to send: no game lists it among a seat's moves
    (the web and the terminal show exactly the legal actions), yet the engine accepts it
    whenever its clock runs."""
    capabilities = game_class(game_id).capabilities
    kinds = {ta.kind for ta in capabilities.timed_actions}
    rng = Rng(11)
    accepted = 0
    for seed in range(3):
        state = load(game_id, players=2, **capabilities.live_options).new(seed)
        for _ in range(300):
            if state.is_over:
                break
            for seat in state.to_move:
                assert not kinds & {a.kind for a in state.legal_actions(seat)}
            wanted = wanted_clocks(state, {}, set(), None)
            for w in wanted:
                if w.action is not None:
                    state.validate(Action(w.action["kind"]), w.seat)
                    accepted += 1
            seat = state.to_move[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert accepted > 0


@pytest.mark.skipif("stellium" not in game_ids(), reason="Stellium is not registered")
def test_the_stellium_page_lists_no_timeout_move(client):
    m = _create(client, "stellium", {"players": 2})
    ws, _, st = join(client, m["id"], m["tokens"])
    seat = st["to_move"][0]
    kinds = {a["action"]["kind"] for a in st["legal"][str(seat)]["actions"]}
    assert kinds == {"draw"}
    ws.__exit__(None, None, None)


def _moves(client, match_id):
    return client.get(f"/api/matches/{match_id}").json()["n"]


@pytest.mark.skipif("stellium" not in game_ids(), reason="Stellium is not registered")
def test_stellium_draw_clock_waits_for_the_seat_to_move_to_connect(client_factory):
    # The 5 s draw lasts 0.5 s; a seat nobody opened is waited for 30 s.
    client = client_factory(clock_scale=0.1, clock_grace=30.0)
    m = _create(client, "stellium", {"players": 2})
    time.sleep(1.0)  # twice the draw clock: no draw was taken for an absent player
    assert _moves(client, m["id"]) == 0
    to_move = load("stellium", players=2).new(1).to_move[0]  # _create's seed
    other = 1 - to_move
    # The other player connecting does not start the clock of the seat to move.
    ws_other, _, st = join(client, m["id"], [m["tokens"][other]])
    [clock] = st["deadlines"]
    assert clock["seat"] == to_move and clock["due"] - st["now"] > 29
    assert 27 < clock["start"] - st["now"] <= 29  # when it would start without them
    time.sleep(0.8)
    assert _moves(client, m["id"]) == 0
    # The seat to move connects: its 5 (here 0.5) seconds start now.
    ws, _, st = join(client, m["id"], [m["tokens"][to_move]])
    [clock] = st["deadlines"]
    assert 0.3 < clock["due"] - st["now"] <= 0.5 + 0.05
    assert "start" not in clock
    # The waiting player sees the clock start too.
    assert receive_until(ws_other, "state")["deadlines"][0]["due"] == clock["due"]
    st = receive_until(ws, "state")
    assert st["n"] == 1
    assert "timeout" in [e["kind"] for e in st["log"][0]["events"]]
    for w in (ws, ws_other):
        w.__exit__(None, None, None)


@pytest.mark.skipif("stellium" not in game_ids(), reason="Stellium is not registered")
def test_stellium_draw_clock_starts_after_the_grace_period_anyway(client_factory):
    client = client_factory(clock_scale=0.1, clock_grace=0.5)
    m = _create(client, "stellium", {"players": 2})
    time.sleep(0.6)
    assert _moves(client, m["id"]) == 0  # grace over, the 0.5 s draw is running
    deadline = time.time() + 5
    while _moves(client, m["id"]) == 0 and time.time() < deadline:
        time.sleep(0.05)
    assert _moves(client, m["id"]) == 1


# --- Stellar Conflict's alarm: the card each seat is moving lands where it is ----------


def _events(st) -> list[dict]:
    """The state's new log events, without the display text."""
    return [
        {k: v for k, v in e.items() if k != "text"} for line in st["log"] for e in line["events"]
    ]


def _ready_both(ws, st):
    for seat in (0, 1):
        ws.send_json({"type": "act", "seat": seat, "action": {"kind": "ready"}, "n": st["n"]})
        st = receive_until(ws, "state")
    return st


def _synced(ws) -> None:
    """Messages are handled in order: once the pong is back, so are the reports."""
    ws.send_json({"type": "ping", "id": 1})
    receive_until(ws, "pong")


def _until_event(ws, kind: str, seconds: float = 8.0) -> list[dict]:
    seen: list[dict] = []
    deadline = time.time() + seconds
    while time.time() < deadline:
        st = receive_until(ws, "state")
        if st.get("log_reset"):  # the whole log again (the match is over)
            seen = []
        seen += _events(st)
        if any(e["kind"] == kind for e in seen):
            return seen
    raise AssertionError(f"no {kind!r} event in {seconds} s: {seen}")


@pytest.mark.skipif("conflict" not in game_ids(), reason="Stellar Conflict is not registered")
def test_conflict_alarm_deploys_the_reported_card_where_it_is(client_factory):
    """Issue 13, item 13: the client reports the card it is dragging; at the alarm that
    card stops there, the card nobody moved is removed, and nothing is placed afterwards.
    Issue 54, item 1: the player then deploys the frozen card or removes it; one who does
    not answer gets it deployed when the server's grace period ("alarm") is over."""
    client = client_factory(clock_scale=0.1)  # Dispute's 30 s last 3 s
    m = _create(client, "conflict", {"players": 2, "scale": "dispute"})
    ws, welcome, st = join(client, m["id"], m["tokens"])
    assert welcome["match"]["options"]["clock"] == "real"  # a server keeps real time
    st = _ready_both(ws, st)
    [clock] = st["deadlines"]
    assert clock["kind"] == "deployment"
    # Player 2 drags its card about, then back to hand; Player 1 is holding its card
    ws.send_json({"type": "hold", "seat": 1, "n": st["n"], "at": [600, 400, 0]})
    ws.send_json({"type": "hold", "seat": 1, "n": st["n"], "at": None})
    ws.send_json({"type": "hold", "seat": 0, "n": st["n"], "at": [450, 300, 0]})
    ws.send_json({"type": "hold", "seat": 0, "n": st["n"], "at": [300, 100, 90]})
    _synced(ws)
    events = _until_event(ws, "frozen")
    assert [e for e in events if e["kind"] == "frozen"] == [
        {"kind": "frozen", "seat": 0, "x": 300, "y": 100, "angle": 90}
    ]
    events = _until_event(ws, "battle")
    placed = [e for e in events if e["kind"] == "placed"]
    assert placed == [
        {"kind": "placed", "seat": 0, "card": 0, "ship": "wiss.cargo", "x": 300, "y": 100,
         "angle": 90, "at_alarm": True}
    ]  # fmt: skip
    assert [e for e in events if e["kind"] == "removed"] == [
        {"kind": "removed", "seat": 1, "why": "it was not on the table"}
    ]
    st = client.get(f"/api/matches/{m['id']}").json()
    assert st["status"] == "over"  # only a Cargo ship on the table: nobody fires
    ws.__exit__(None, None, None)


@pytest.mark.skipif("conflict" not in game_ids(), reason="Stellar Conflict is not registered")
def test_conflict_report_of_a_card_already_placed_is_dropped(client_factory):
    client = client_factory(clock_scale=0.1)
    m = _create(client, "conflict", {"players": 2, "scale": "dispute"})
    ws, _, st = join(client, m["id"], m["tokens"])
    st = _ready_both(ws, st)
    n = st["n"]
    ws.send_json({"type": "hold", "seat": 0, "n": n, "at": [300, 100, 0]})
    place = {"kind": "place", "args": [300, 100, 0]}
    ws.send_json({"type": "act", "seat": 0, "action": place, "n": n})  # the Cargo ship down
    st = receive_until(ws, "state")
    # a report sent before that placement arrives late: it is about the card now down
    ws.send_json({"type": "hold", "seat": 0, "n": n, "at": [600, 100, 0]})
    _synced(ws)
    events = _until_event(ws, "battle")
    assert [e["seat"] for e in events if e["kind"] == "removed"] == [0, 1]
    assert not [e for e in events if e["kind"] == "placed" and e.get("at_alarm")]
    ws.__exit__(None, None, None)


@pytest.mark.skipif("conflict" not in game_ids(), reason="Stellar Conflict is not registered")
def test_conflict_light_speed_stop_deploys_the_card_others_are_moving(client_factory):
    client = client_factory(clock_scale=0.1)
    m = _create(client, "conflict", {"players": 2, "deployment": "light_speed"})
    ws, _, st = join(client, m["id"], m["tokens"])
    st = _ready_both(ws, st)
    assert st["deadlines"] == []  # no timer in Light Speed
    ws.send_json({"type": "hold", "seat": 1, "n": st["n"], "at": [700, 450, 180]})
    _synced(ws)
    events = []
    for spot in ([100, 100, 0], [300, 100, 0]):  # Player 1's Cargo ship and Flagship
        ws.send_json({"type": "act", "seat": 0, "action": {"kind": "place", "args": spot},
                      "n": st["n"]})  # fmt: skip
        st = receive_until(ws, "state")
        events += _events(st)
    events += _until_event(ws, "battle")
    stop = next(e for e in events if e["kind"] == "stop")
    assert stop["seat"] == 0
    [late] = [e for e in events if e["kind"] == "placed" and e["seat"] == 1]
    assert (late["x"], late["y"], late["angle"], late["at_alarm"]) == (700, 450, 180, True)
    ws.__exit__(None, None, None)


@pytest.mark.skipif("conflict" not in game_ids(), reason="Stellar Conflict is not registered")
def test_bad_reports_are_refused_with_their_fault(client_factory):
    client = client_factory()
    m = _create(client, "conflict", {"players": 2})
    ws, _, st = join(client, m["id"], [m["tokens"][0]])
    ws.send_json({"type": "hold", "seat": 0, "n": st["n"], "at": [1, 2]})
    assert "[x, y, angle]" in receive_until(ws, "error")["message"]
    ws.send_json({"type": "hold", "seat": 1, "n": st["n"], "at": [1, 2, 3]})
    assert receive_until(ws, "error")["code"] == "not_your_seat"
    ws.__exit__(None, None, None)
    toy = _create(client, "toy", {"players": 2}) if "toy" in game_ids() else None
    if toy is not None:
        ws, _, st = join(client, toy["id"], toy["tokens"])
        ws.send_json({"type": "hold", "seat": 0, "n": st["n"], "at": [1, 2, 3]})
        assert "takes no report" in receive_until(ws, "error")["message"]
        ws.__exit__(None, None, None)
