"""Open tables: a signed-in person opens one (listed in the lobby unless private),
others take its seats, the match starts when every seat is taken (the seats held by
the accounts); a seat taken twice, a closed table and bad requests are refused by name;
two servers over one database see one table."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from skydeck.server.people_tables import match_players
from tests.server.people import CHEAP, cookie, plant, sign_up


@pytest.fixture
def client(client_factory):
    return client_factory(**CHEAP)


def person(client, name):
    client.cookies.clear()
    csrf = sign_up(client, name)
    return str(cookie(client)), {"x-skydeck-csrf": csrf}


def as_(client, who):
    plant(client, who[0])
    return who[1]


def test_a_table_fills_then_its_match_starts_with_the_seats_held(client_factory, db_url):
    one = client_factory(**CHEAP)
    two = client_factory(db_url, **CHEAP)  # a second server over the same database
    ann, bob, cat = person(one, "Ann"), person(one, "Bob"), person(one, "Cat")
    r = one.post("/api/tables", json={"game": "toy", "players": 3,
                                      "options": {"marker_limit": 2}}, headers=as_(one, ann))
    assert r.status_code == 201, r.text
    t = r.json()
    assert t["status"] == "open" and t["host"] == "Ann" and t["rated"] is True
    assert [s["name"] for s in t["seats"]] == ["Ann", None, None]
    assert t["invite"] == f"/?table={t['id']}"
    assert [x["id"] for x in two.get("/api/tables").json()] == [t["id"]]
    r = two.post(f"/api/tables/{t['id']}/seats", json={"seat": 2}, headers=as_(two, bob))
    assert r.status_code == 200 and r.json()["status"] == "open", r.text
    again = two.post(f"/api/tables/{t['id']}/seats", json={}, headers=as_(two, bob))
    assert again.status_code == 400 and "already" in again.json()["detail"]
    r = one.post(f"/api/tables/{t['id']}/seats", json={}, headers=as_(one, cat))
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["status"] == "started" and done["link"] == f"/m/{done['match_id']}"
    assert [s["name"] for s in done["seats"]] == ["Ann", "Cat", "Bob"]
    info = one.get(f"/api/matches/{done['match_id']}").json()
    assert [s["name"] for s in info["seats"]] == ["Ann", "Cat", "Bob"]
    assert info["options"]["marker_limit"] == 2 and info["settings"]["rated"] is True
    with one.app.state.people.engine.connect() as conn:
        held = conn.execute(select(match_players.c.seat).where(
            match_players.c.match_id == done["match_id"])).all()
    assert sorted(r.seat for r in held) == [0, 1, 2]
    assert two.get("/api/tables").json() == []  # started: no longer listed
    assert two.get(f"/api/tables/{t['id']}").json()["match_id"] == done["match_id"]
    late = person(two, "Dan")
    full = two.post(f"/api/tables/{t['id']}/seats", json={}, headers=as_(two, late))
    assert full.status_code == 409 and "started" in full.json()["detail"]


def test_private_tables_leaving_and_closing(client):
    ann, bob = person(client, "Ann"), person(client, "Bob")
    t = client.post("/api/tables", json={"game": "toy", "players": 2, "private": True},
                    headers=as_(client, ann)).json()
    assert client.get("/api/tables").json() == []  # not listed
    assert client.get(f"/api/tables/{t['id']}").json()["private"] is True  # the link finds it
    taken = client.post(f"/api/tables/{t['id']}/seats", json={"seat": 0},
                        headers=as_(client, bob))
    assert taken.status_code == 409 and "seat 0 is taken" in taken.json()["detail"]
    r = client.delete(f"/api/tables/{t['id']}/seats", headers=as_(client, ann))
    assert r.json() == {"left": True}
    assert client.get(f"/api/tables/{t['id']}").json()["status"] == "closed"
    closed = client.post(f"/api/tables/{t['id']}/seats", json={}, headers=as_(client, bob))
    assert closed.status_code == 409 and "closed" in closed.json()["detail"]


def test_bad_tables_are_refused_by_name(client):
    ann = person(client, "Ann")
    h = as_(client, ann)
    bad = [
        ({"game": "chess", "players": 2}, "unknown game 'chess'"),
        ({"game": "toy", "players": 7}, "'players' must be one of"),
        ({"game": "toy", "players": 2, "options": {"marker_limit": -3}}, "marker_limit"),
        ({"game": "toy", "players": 2, "rated": "yes"}, "'rated' must be true or false"),
        ({"game": "toy", "players": 2, "private": 1}, "'private' must be true or false"),
        ({"game": "toy", "players": 2, "move_seconds": 1}, "'move_seconds' must be between"),
        ({"game": "stellarion", "players": 2, "rated": True}, "co-operative"),
    ]
    for body, words in bad:
        r = client.post("/api/tables", json=body, headers=h)
        assert r.status_code == 400 and words in r.json()["detail"], (body, r.text)
    assert client.get("/api/tables").json() == []
    assert client.get("/api/tables/nope").status_code == 404
    t = client.post("/api/tables", json={"game": "toy", "players": 2}, headers=h).json()
    bad_seat = client.post(f"/api/tables/{t['id']}/seats", json={"seat": 5},
                           headers=as_(client, person(client, "Bob")))
    assert bad_seat.status_code == 400 and "'seat' must be" in bad_seat.json()["detail"]
    client.cookies.clear()
    r = client.post("/api/tables", json={"game": "toy", "players": 2})
    assert r.status_code == 401
