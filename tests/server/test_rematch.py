"""A rematch: the same people and bots in a new match of the same set-up, every seat
moved on by one; one per finished match (asked again, the same one); refused while the
match is live, to someone not in it, and where a seat was a guest's link."""

from __future__ import annotations

import pytest

from skydeck.server.rematch import rotated
from tests.server.conftest import join
from tests.server.people import CHEAP, cookie, plant, play_rated_vs_bot, play_to_end, sign_up


@pytest.fixture
def client(client_factory):
    return client_factory(**CHEAP)


def test_seats_move_on_by_one():
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "random", "name": "AI"},
             {"kind": "human", "name": "Bob"}]
    out, held = rotated(seats, {0: 10, 1: 99, 2: 20}, {10: "Ann", 20: "Bobby"})
    assert out == [{"kind": "human", "name": "Bobby"}, {"kind": "human", "name": "Ann"},
                   {"kind": "ai", "agent": "random", "name": "AI"}]
    assert held == {1: 10, 2: 99, 0: 20}


def test_a_rematch_of_a_rated_match_rotates_seats_and_is_made_once(client):
    csrf = sign_up(client, "Rita")
    h = {"x-skydeck-csrf": csrf}
    st = play_rated_vs_bot(client, csrf)
    assert st["status"] == "over"
    old_id = client.get("/api/me/matches").json()["matches"][0]["match"]
    old = client.get(f"/api/matches/{old_id}").json()
    r = client.post(f"/api/matches/{old_id}/rematch", headers=h)
    assert r.status_code == 201, r.text
    new_id = r.json()["match_id"]
    assert new_id != old_id and r.json()["link"] == f"/m/{new_id}"
    new = client.get(f"/api/matches/{new_id}").json()
    assert new["status"] == "live" and new["game"] == old["game"]
    assert new["options"] == old["options"] and new["settings"].get("rated") is True
    assert [s["name"] for s in new["seats"]] == [old["seats"][1]["name"], "Rita"]
    assert new["seats"][0]["kind"] == "ai"
    ws, welcome, _ = join(client, new_id, [])  # the session opens Rita's new seat
    assert welcome["seats"] == [1]
    ws.__exit__(None, None, None)
    again = client.post(f"/api/matches/{old_id}/rematch", headers=h)
    assert again.status_code == 200 and again.json()["match_id"] == new_id


def test_rematch_refusals_say_why(client, client_factory):
    csrf = sign_up(client, "Ugo")
    h = {"x-skydeck-csrf": csrf}
    body = {"game": "toy", "seed": 3, "seats": [{"kind": "human", "me": True}, {"kind": "human"}]}
    m = client.post("/api/matches", json=body, headers=h).json()
    live = client.post(f"/api/matches/{m['id']}/rematch", headers=h)
    assert live.status_code == 409 and "still being played" in live.json()["detail"]
    mine = str(cookie(client))
    client.cookies.clear()  # both links played in a guest's browser (hotseat)
    ws, _, st = join(client, m["id"], m["tokens"])
    assert play_to_end(ws, st, {0, 1})["status"] == "over"
    ws.__exit__(None, None, None)
    plant(client, mine)
    guest_seat = client.post(f"/api/matches/{m['id']}/rematch", headers=h)
    assert guest_seat.status_code == 409 and "signed in" in guest_seat.json()["detail"]
    other = client_factory(**CHEAP)
    oh = {"x-skydeck-csrf": sign_up(other, "Vera")}
    stranger = other.post(f"/api/matches/{m['id']}/rematch", headers=oh)
    assert stranger.status_code == 403 and "players" in stranger.json()["detail"]
    other.cookies.clear()
    assert other.post(f"/api/matches/{m['id']}/rematch").status_code == 401
    assert client.post(f"/api/matches/{m['id']}/rematch").status_code == 403  # no CSRF
    assert client.post("/api/matches/nope/rematch", headers=h).status_code == 404


def test_a_private_match_is_not_listed_and_its_links_still_open_it(client):
    listed = client.post("/api/matches", json={"game": "toy", "seats": [{"kind": "human"}] * 2})
    hidden = client.post("/api/matches", json={"game": "toy", "private": True,
                                               "seats": [{"kind": "human"}] * 2})
    assert listed.status_code == hidden.status_code == 201
    ids = [m["id"] for m in client.get("/api/matches").json()]
    assert listed.json()["id"] in ids and hidden.json()["id"] not in ids
    ws, welcome, _ = join(client, hidden.json()["id"], [hidden.json()["tokens"][1]])
    assert welcome["seats"] == [1]
    ws.__exit__(None, None, None)
    bad = client.post("/api/matches", json={"game": "toy", "private": "yes",
                                            "seats": [{"kind": "human"}] * 2})
    assert bad.status_code == 400 and "'private' must be true or false" in bad.json()["detail"]
