""""Play now": the queue pairs signed-in people by rating, widens the window while they
wait (a fake clock, no sleeps), offers a rated bot after the configured wait, pairs
people who reached different workers (two servers over one database), and refuses bad
requests and guests with words that say what was wrong."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from skydeck.server.people_tables import match_players, queue_entries, ratings
from tests.server.people import CHEAP, cookie, plant, sign_up

SETTINGS = {**CHEAP, "queue_window": 100, "queue_widen": 10.0, "queue_window_max": 800,
            "queue_bot_after": 30.0, "queue_stale": 60.0}


class Clock:
    """The queue's time, moved by hand."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Person:
    name: str
    token: str
    csrf: str


def person(client: TestClient, name: str, rating: int | None = None) -> Person:
    """Sign up ``name`` (a fresh cookie), with a settled toy rating if given."""
    client.cookies.clear()
    csrf = sign_up(client, name)
    if rating is not None:
        people = client.app.state.people
        account = people.accounts.by_name(name)
        with people.engine.begin() as conn:
            conn.execute(insert(ratings).values(account_id=account.id, game="toy", mu=25.0,
                                                sigma=2.0, shown=rating, games=30,
                                                updated=time.time()))
    return Person(name, str(cookie(client)), csrf)


def as_(client: TestClient, who: Person) -> dict[str, str]:
    plant(client, who.token)
    return {"x-skydeck-csrf": who.csrf}


def join(client: TestClient, who: Person, **body: Any) -> dict[str, Any]:
    r = client.post("/api/queue", json={"game": "toy", "players": 2, **body},
                    headers=as_(client, who))
    assert r.status_code == 201, r.text
    return dict(r.json())


def poll(client: TestClient, who: Person) -> dict[str, Any]:
    as_(client, who)
    r = client.get("/api/queue")
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(client_factory, clock) -> TestClient:
    c = client_factory(**SETTINGS)
    c.app.state.people.queue.clock = clock
    return c


def held_by(client: TestClient, match_id: str) -> dict[int, int]:
    with client.app.state.people.engine.connect() as conn:
        rows = conn.execute(select(match_players.c.seat, match_players.c.account_id,
                                   match_players.c.rated)
                            .where(match_players.c.match_id == match_id)).all()
    assert all(r.rated for r in rows)
    return {r.seat: r.account_id for r in rows}


def ids(client: TestClient, *who: Person) -> set[int]:
    return {client.app.state.people.accounts.by_name(p.name).id for p in who}


def test_the_queue_pairs_the_nearest_ratings(client):
    ann, bob, cat = (person(client, n, r) for n, r in (("Ann", 1000), ("Bob", 1500),
                                                       ("Cat", 1060)))
    assert join(client, ann)["status"] == "waiting"
    assert join(client, bob)["status"] == "waiting"  # 500 apart: outside the window
    made = join(client, cat)
    assert made["status"] == "matched", made
    assert poll(client, ann) == made
    assert set(held_by(client, made["match_id"]).values()) == ids(client, ann, cat)
    assert poll(client, bob)["status"] == "waiting"
    info = client.get(f"/api/matches/{made['match_id']}").json()
    assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Cat"]
    assert info["status"] == "live"


def test_the_window_widens_while_people_wait(client, clock):
    ann, bob = person(client, "Ann", 1000), person(client, "Bob", 1300)
    first = join(client, ann)
    assert first["window"] == 100
    join(client, bob)
    clock.t += 19  # Ann's window: 100 + 19 * 10 = 290 < 300
    st = poll(client, bob)
    assert st["status"] == "waiting" and st["window"] == 290
    assert poll(client, ann)["status"] == "waiting"
    clock.t += 1  # 300: Ann, the longest waiter, now reaches Bob
    assert poll(client, bob)["status"] == "matched"
    assert poll(client, ann)["status"] == "matched"


def test_the_window_stops_at_its_widest(client, clock):
    ann, bob = person(client, "Ann", 1000), person(client, "Bob", 2000)
    join(client, ann)
    join(client, bob)
    for step in range(1, 11):
        clock.t += 10  # both pages poll every 10 s
        assert poll(client, ann)["window"] == min(100 + 100 * step, 800)
        assert poll(client, bob)["status"] == "waiting"


def test_a_queue_is_per_game_count_and_setup(client):
    ann, bob = person(client, "Ann", 1000), person(client, "Bob", 1000)
    join(client, ann, options={"marker_limit": 2})
    assert join(client, bob)["status"] == "waiting"  # the default set-up: another queue
    made = join(client, bob, options={"marker_limit": 2})
    assert made["status"] == "matched"
    assert client.get(f"/api/matches/{made['match_id']}").json()["options"]["marker_limit"] == 2


def test_a_bot_is_offered_after_the_wait_and_plays_rated(client, clock):
    ann = person(client, "Ann", 1000)
    st = join(client, ann)
    assert st["bot"] is None and st["bot_after"] == 30
    h = as_(client, ann)
    early = client.post("/api/queue/bot", headers=h)
    assert early.status_code == 409 and "after 30 s" in early.json()["detail"]
    clock.t += 30
    st = poll(client, ann)
    assert st["status"] == "waiting" and st["bot"]["name"].startswith("AI: ")
    r = client.post("/api/queue/bot", headers=as_(client, ann))
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["status"] == "matched" and poll(client, ann) == made
    info = client.get(f"/api/matches/{made['match_id']}").json()
    kinds = sorted(s["kind"] for s in info["seats"])
    assert kinds == ["ai", "human"]
    assert [s["name"] for s in info["seats"] if s["kind"] == "ai"] == [st["bot"]["name"]]
    held = held_by(client, made["match_id"])
    assert len(held) == 2 and ids(client, ann) <= set(held.values())
    again = client.post("/api/queue/bot", headers=as_(client, ann))
    assert again.status_code == 409 and made["match_id"] in again.json()["detail"]


def test_leaving_and_a_closed_page_give_the_place_up(client, clock):
    ann, bob = person(client, "Ann", 1000), person(client, "Bob", 1000)
    join(client, ann)
    r = client.delete("/api/queue", headers=as_(client, ann))
    assert r.json() == {"left": True} and poll(client, ann) == {"status": "idle"}
    join(client, ann)
    clock.t += 61  # Ann's page stopped polling
    assert join(client, bob)["status"] == "waiting"
    with client.app.state.people.engine.connect() as conn:
        left = {r.account_id for r in conn.execute(select(queue_entries.c.account_id))}
    assert left == ids(client, bob)


def test_people_who_reached_different_workers_meet(client_factory, db_url, clock):
    one = client_factory(**SETTINGS)
    two = client_factory(db_url, **SETTINGS)  # a second server over the same database
    for c in (one, two):
        c.app.state.people.queue.clock = clock
    ann, bob = person(one, "Ann", 1000), person(one, "Bob", 1020)
    assert join(one, ann)["status"] == "waiting"
    made = join(two, bob)
    assert made["status"] == "matched"
    assert poll(one, ann) == made
    assert set(held_by(one, made["match_id"]).values()) == ids(one, ann, bob)


def test_a_group_one_worker_claimed_is_not_taken_by_another(client_factory, db_url,
                                                              clock):
    one = client_factory(**SETTINGS)
    two = client_factory(db_url, **SETTINGS)
    for c in (one, two):
        c.app.state.people.queue.clock = clock
    ann, bob = person(one, "Ann", 1000), person(one, "Bob", 1000)
    queue = one.app.state.people.queue
    for p in (ann, bob):
        queue.join(one.app.state.people.accounts.by_name(p.name).id, "toy",
                   {"players": 2, "marker_limit": 3}, True)
    first = queue.groups("toy", 2, '{"marker_limit":3,"players":2}')
    second = two.app.state.people.queue.groups("toy", 2, '{"marker_limit":3,"players":2}')
    assert len(first) == 1 and len(first[0][1]) == 2 and second == []


def test_bad_requests_and_guests_are_refused_by_name(client):
    ann = person(client, "Ann", 1000)
    bad = [
        ({"game": "chess", "players": 2}, "unknown game 'chess'"),
        ({"game": "toy", "players": 1}, "'players' must be one of [2"),
        ({"game": "toy", "players": 9}, "got 9"),
        ({"game": "toy", "players": "2"}, "'players' must be one of"),
        ({"game": "toy", "players": True}, "'players' must be one of"),
        ({"game": "toy", "players": 2, "options": []}, "'options' must be an object"),
        ({"game": "toy", "players": 2, "options": {"marker_limit": -1}}, "marker_limit"),
        ({"game": "toy", "players": 2, "options": {"colour": "red"}}, "colour"),
    ]
    for body, words in bad:
        r = client.post("/api/queue", json=body, headers=as_(client, ann))
        assert r.status_code == 400 and words in r.json()["detail"], (body, r.text)
    assert poll(client, ann) == {"status": "idle"}  # nothing was taken
    nobot = client.post("/api/queue/bot", headers=as_(client, ann))
    assert nobot.status_code == 404 and "not in a queue" in nobot.json()["detail"]
    as_(client, ann)
    r = client.post("/api/queue", json={"game": "toy", "players": 2})
    assert r.status_code == 403 and "X-Skydeck-CSRF" in r.json()["detail"]
    client.cookies.clear()
    for r in (client.post("/api/queue", json={"game": "toy", "players": 2}),
              client.get("/api/queue"), client.delete("/api/queue"),
              client.post("/api/queue/bot")):
        assert r.status_code == 401 and "Play now is for people signed in" in r.json()["detail"]
