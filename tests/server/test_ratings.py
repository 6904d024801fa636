"""Ratings: OpenSkill updated once when a rated match ends (bots rated too), the
rules of what counts, casual matches unrated, Stellarion's co-op results, and the
profile, match list and leaderboard that show them."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import select

from skydeck.server.people_tables import match_outcomes, rating_history, ratings
from skydeck.server.ratings import PROVISIONAL_GAMES, SeatResult, outcome, rate, shown
from tests.server.conftest import join
from tests.server.people import CHEAP, play_rated_vs_bot, play_to_end, rated_vs_bot, sign_up


@pytest.fixture
def client(client_factory):
    return client_factory(**CHEAP)


def test_outcome_ranks_winners_then_scores_with_ties():
    res = outcome("stellium", "over", [10, 7, 10, 3], (0, 2), (), 4)
    assert [r.rank for r in res] == [1, 3, 1, 4]
    assert [r.result for r in res] == ["win", "loss", "win", "loss"]
    draw = outcome("stellium", "over", [5, 5], (0, 1), (), 2)
    assert [r.result for r in draw] == ["draw", "draw"] and [r.rank for r in draw] == [1, 1]
    coop = outcome("stellarion", "over", [1.0, 1.0], (0, 1), (), 2)
    assert [r.result for r in coop] == ["win", "win"]


def test_abandoned_is_a_loss_for_who_owed_the_move():
    res = outcome("stellium", "abandoned", [0, 0, 0], (), (1,), 3)
    assert [r.result for r in res] == ["win", "loss", "win"]
    assert [r.rank for r in res] == [1, 2, 1]
    everyone = outcome("conflict", "abandoned", [0, 0], (), (0, 1), 2)
    assert all(r == SeatResult("abandoned", None, None) for r in everyone)


def test_openskill_moves_winner_up_loser_down_and_ties_together():
    (w_mu, w_sigma), (l_mu, _l_sigma) = rate([(25, 25 / 3), (25, 25 / 3)], [1, 2])
    assert w_mu > 25 > l_mu and w_sigma < 25 / 3
    tied = rate([(25, 25 / 3)] * 3, [1, 1, 3])
    assert tied[0] == tied[1] and tied[0][0] > tied[2][0]
    assert shown(25, 25 / 3) == 1000 and shown(25, 2.5) == 1525


def test_a_rated_match_against_a_bot_moves_both_ratings_once(client):
    csrf = sign_up(client, "Rita")
    st = play_rated_vs_bot(client, csrf)
    assert st["status"] == "over"
    engine = client.app.state.people.engine
    deadline = time.time() + 10
    while time.time() < deadline:
        with engine.connect() as conn:
            rows = conn.execute(select(ratings)).all()
        if len(rows) == 2:
            break
        time.sleep(0.05)
    assert len(rows) == 2 and all(r.games == 1 for r in rows)
    me = client.get("/api/players/Rita").json()
    bot = client.get("/api/players/AI: random").json()
    assert bot["kind"] == "bot" and bot["ratings"][0]["game"] == "toy"
    mine = me["ratings"][0]
    assert mine["provisional"] and mine["games"] == 1 and mine["rating"] != 1000
    assert (mine["rating"] > bot["ratings"][0]["rating"]) == (st["winners"] == [0])
    assert len(me["history"]["toy"]) == 1
    listed = client.get("/api/players/Rita/matches?game=toy").json()["matches"]
    assert listed[0]["rated"] and listed[0]["result"] in ("win", "loss", "draw")
    assert listed[0]["rating_before"] == 1000 and listed[0]["rating_after"] == mine["rating"]
    assert listed[0]["players"] == ["Rita", "AI: random"] and listed[0]["replay"].startswith("/r/")
    assert me["opponents"][0]["name"] == "AI: random"
    # the board lists provisional players only when asked
    assert client.get("/api/leaderboard/toy").json()["players"] == []
    board = client.get("/api/leaderboard/toy?provisional=true").json()["players"]
    assert {p["name"] for p in board} == {"Rita", "AI: random"}
    # counted once: a second count of the same match changes nothing
    hub = client.app.state.hub
    room = hub.room(st_id := listed[0]["match"])
    client.app.state.people._count(st_id, "toy", True, [SeatResult("win", 1, 0)] * 2, room.n)
    with engine.connect() as conn:
        assert len(conn.execute(select(rating_history)).all()) == 2


def test_provisional_until_enough_games_then_on_the_board(client):
    csrf = sign_up(client, "Many")
    for _ in range(PROVISIONAL_GAMES):
        play_rated_vs_bot(client, csrf)
    deadline = time.time() + 10
    while time.time() < deadline:
        me = client.get("/api/players/Many").json()
        if me["ratings"] and me["ratings"][0]["games"] == PROVISIONAL_GAMES:
            break
        time.sleep(0.05)
    assert not me["ratings"][0]["provisional"]
    board = client.get("/api/leaderboard/toy").json()["players"]
    assert {p["name"] for p in board} == {"Many", "AI: random"}
    assert [p["place"] for p in board] == [1, 2] and board[0]["rating"] >= board[1]["rating"]
    page = client.get("/api/players/Many/matches?per_page=4&page=2").json()
    assert page["more"] and len(page["matches"]) == 4
    assert client.get("/api/players/Many/matches?result=nonsense").status_code == 400


def test_rated_match_rules(client):
    csrf = sign_up(client, "Rules")
    h = {"x-skydeck-csrf": csrf}
    base = {"game": "toy", "rated": True}
    bad = [
        ({"seats": [{"kind": "human"}, {"kind": "ai"}]}, "creator takes a seat"),
        ({"seats": [{"kind": "human", "me": True},
                    {"kind": "ai", "agent": "mcts:hard(seconds=0.1)"}]}, "lobby's levels"),
        ({"seats": [{"kind": "human", "me": True}, {"kind": "human"}], "hotseat": True},
         "hotseat"),
        ({"seats": [{"kind": "human", "me": True}, {"kind": "human", "me": True}]}, "one seat"),
    ]
    for extra, words in bad:
        r = client.post("/api/matches", json={**base, **extra}, headers=h)
        assert r.status_code == 400 and words in r.json()["detail"], r.text
    r = client.post("/api/matches", json={"game": "stellarion", "rated": True,
                    "seats": [{"kind": "human", "me": True}]}, headers=h)
    assert r.status_code == 400 and "co-operative" in r.json()["detail"]
    client.cookies.clear()
    r = client.post("/api/matches", json={**base, "seats": [{"kind": "human", "me": True},
                                                              {"kind": "ai"}]})
    assert r.status_code == 401


def test_a_casual_match_changes_no_rating_but_is_in_the_history(client):
    csrf = sign_up(client, "Casual")
    r = client.post("/api/matches", headers={"x-skydeck-csrf": csrf},
                    json={"game": "toy", "seed": 2,
                          "seats": [{"kind": "human", "me": True}, {"kind": "ai"}]})
    m = r.json()
    ws, _, st = join(client, m["id"], [m["tokens"][0]])
    play_to_end(ws, st, {0})
    ws.__exit__(None, None, None)
    deadline = time.time() + 10
    while time.time() < deadline:
        listed = client.get("/api/me/matches").json()["matches"]
        if listed[0]["result"]:
            break
        time.sleep(0.05)
    assert listed[0]["result"] and not listed[0]["rated"] and listed[0]["rating_after"] is None
    assert client.get("/api/players/Casual").json()["ratings"] == []


def test_a_rated_match_with_a_seat_nobody_held_ends_unrated(client):
    csrf = sign_up(client, "Alone")
    r = client.post("/api/matches", headers={"x-skydeck-csrf": csrf},
                    json={"game": "toy", "seed": 4, "rated": True,
                          "seats": [{"kind": "human", "me": True}, {"kind": "human"}]})
    m = r.json()
    # the creator plays both seats' moves? No: seat 1 is only a token nobody signed in
    # took; the creator abandons the match instead, by the hub's sweep
    hub = client.app.state.hub
    room = hub.room(m["id"])
    hub.abandon(room)
    engine = client.app.state.people.engine
    deadline = time.time() + 10
    while time.time() < deadline:
        with engine.connect() as conn:
            row = conn.execute(select(match_outcomes)).first()
        if row is not None:
            break
        time.sleep(0.05)
    assert row is not None and not row.rated and "held by nobody" in row.note
    assert client.get("/api/players/Alone").json()["ratings"] == []


def test_abandoned_rated_match_loses_for_the_seat_that_owed_a_move(client, client_factory):
    csrf = sign_up(client, "Waits")
    m = rated_vs_bot(client, csrf)
    # (the bot moves second: seat 0 owes the first move, and never makes it)
    hub = client.app.state.hub
    hub.abandon(hub.room(m["id"]))
    deadline = time.time() + 10
    while time.time() < deadline:
        listed = client.get("/api/me/matches").json()["matches"]
        if listed[0]["result"]:
            break
        time.sleep(0.05)
    assert listed[0]["result"] == "loss" and listed[0]["rating_after"] < 1000


def test_stellarion_counts_results_per_setup(client):
    csrf = sign_up(client, "Solo")
    r = client.post("/api/matches", headers={"x-skydeck-csrf": csrf},
                    json={"game": "stellarion", "seed": 1,
                          "seats": [{"kind": "human", "me": True}]})
    assert r.status_code == 201, r.text
    m = r.json()
    hub = client.app.state.hub
    hub.abandon(hub.room(m["id"]))  # an abandoned co-op match counts as nothing
    people = client.app.state.people
    # results of finished solo matches, counted as the hub does at their end
    from skydeck.server.people_tables import match_players

    with people.engine.begin() as conn:
        conn.execute(match_players.update().values(result=None))
    for i, won in enumerate([True, True, False, True]):
        mid = f"{m['id']}{i}"
        hub_stored = hub.storage.load(m["id"])
        hub_stored.id = mid
        hub.storage.create_match(hub_stored)
        people.holders.hold_many(mid, "stellarion", hub_stored.options, False,
                                 {0: people.accounts.by_name("Solo").id})
        people._count(mid, "stellarion", False,
                      outcome("stellarion", "over", [1.0 if won else 0.0], (0,) if won else (),
                              (), 1), 30 + i)
    coop = client.get("/api/players/Solo").json()["coop"]
    assert len(coop) == 1
    s = coop[0]
    assert (s["played"], s["won"], s["win_rate"]) == (4, 3, 0.75)
    assert s["best_streak"] == 2 and s["streak"] == 1 and s["fewest_moves"] == 30
    assert client.get("/api/leaderboard/stellarion").status_code == 404


def test_cooperative_is_the_games_own_declaration(client, monkeypatch):
    """The co-operative fact comes from ``Capabilities.cooperative`` (no set of game ids):
    a game that declares it ranks nobody, is listed as such, and has no leaderboard."""
    import dataclasses

    from skydeck.registry import game_class

    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games["stellarion"]["cooperative"] and not games["stellarion"]["ratable"]
    assert not games["stellium"]["cooperative"] and games["stellium"]["ratable"]
    cls = game_class("stellium")
    monkeypatch.setattr(cls, "capabilities",
                        dataclasses.replace(cls.capabilities, cooperative=True))
    res = outcome("stellium", "over", [10, 7], (0,), (), 2)
    assert [r.result for r in res] == ["win", "win"] and [r.rank for r in res] == [1, 1]
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games["stellium"]["cooperative"] and not games["stellium"]["ratable"]
    assert client.get("/api/leaderboard/stellium").status_code == 404


def test_the_lobby_says_what_each_level_is_and_its_bot_rating(client):
    """Issue 51: every AI the lobby offers comes with its bot account's name, how it
    plays, and, once its bot has played rated matches, its rating in that game."""
    games = {g["id"]: g for g in client.get("/api/games").json()}
    for gid, g in games.items():
        levels = {lv["spec"]: lv for lv in g["levels"]}
        assert list(levels) == g["agents"], gid
        for spec, lv in levels.items():
            assert lv["name"].startswith("AI: ") and lv["summary"], (gid, spec)
            assert lv["rating"] is None, "no bot has played yet"
    hard = {lv["spec"]: lv for lv in games["stellium"]["levels"]}["mcts:hard"]
    assert hard["name"] == "AI: hard" and "100000 iterations" in hard["summary"]
    assert "flat search" in hard["summary"], "the game's own note on how the search runs"

    csrf = sign_up(client, "Lena")
    play_rated_vs_bot(client, csrf)
    engine = client.app.state.people.engine
    deadline = time.time() + 10
    while time.time() < deadline:
        with engine.connect() as conn:
            if len(conn.execute(select(ratings)).all()) == 2:
                break
        time.sleep(0.05)
    toy = next(g for g in client.get("/api/games").json() if g["id"] == "toy")
    rated = {lv["spec"]: lv["rating"] for lv in toy["levels"]}
    bot = client.get("/api/players/AI: random").json()["ratings"][0]
    assert rated["random"] == bot, "the level shows its bot account's own rating"
    assert rated["random"]["provisional"] and rated["random"]["games"] == 1
    assert all(r is None for spec, r in rated.items() if spec != "random")
