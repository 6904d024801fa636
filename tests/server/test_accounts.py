"""Accounts and sessions: the rules, the cookie, CSRF, back-off, fixation, sign out
(here and everywhere), a new password, deleting an account, and seats claimed by a
guest who signs up or opens from another browser."""

from __future__ import annotations

import itertools
import logging
import time

import pytest
from sqlalchemy import select

from skydeck.server.backoff import FREE_BY_NAME, MAX_WAIT, wait_after
from skydeck.server.people_tables import accounts, sessions
from skydeck.server.sessions import COOKIE, token_hash
from tests.server.conftest import join, new_toy
from tests.server.people import CHEAP, PASSWORD, cookie, plant, play_to_end, sign_in, sign_up


@pytest.fixture
def client(client_factory):
    return client_factory(**CHEAP)


def test_sign_up_sets_an_httponly_lax_cookie_and_me_answers_without_the_token(client):
    r = client.post("/api/accounts", json={"name": "Ada", "password": PASSWORD})
    assert r.status_code == 201, r.text
    header = r.headers["set-cookie"]
    assert header.startswith(f"{COOKIE}=") and "HttpOnly" in header
    assert "SameSite=lax" in header or "samesite=lax" in header.lower()
    assert "Secure" not in header  # plain http here; "auto" marks it Secure over https
    token = cookie(client)
    assert token and token not in r.text and PASSWORD not in r.text
    me = client.get("/api/me")
    assert me.status_code == 200 and me.json()["name"] == "Ada"
    assert token not in me.text and me.json()["csrf"] == r.json()["csrf"]


def test_secure_cookie_when_asked(client_factory):
    c = client_factory(secure_cookies="always", **CHEAP)
    r = c.post("/api/accounts", json={"name": "Sec", "password": PASSWORD})
    assert "Secure" in r.headers["set-cookie"]


def test_name_rules_and_case_insensitive_uniqueness(client):
    for name, words in [
        ("ab", "3 to 24 characters"),
        ("x" * 25, "3 to 24 characters"),
        ("has space", "not ' '"),
        ("Zoë", "not 'ë'"),
        ("9lives", "starts with a letter"),
        ("admin", "reserved"),
        ("AI: hard", "not ':'"),
    ]:
        r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 400 and words in r.json()["detail"], (name, r.text)
    sign_up(client, "Grace")
    client.cookies.clear()
    r = client.post("/api/accounts", json={"name": "gRACE", "password": PASSWORD})
    assert r.status_code == 409 and "taken" in r.json()["detail"]


def test_password_rules_are_nists(client):
    for pw, words in [
        ("short1!", "at least 8"),
        ("password", "most common"),
        ("Password123", "most common"),
        ("qwertyuiop", "most common"),
        ("aaaaaaaaaa", "repeated"),
        ("Hopper-99", "not be your name"),
    ]:
        r = client.post("/api/accounts", json={"name": "Hopper-99", "password": pw})
        assert r.status_code == 400 and words in r.json()["detail"], (pw, r.text)
        assert f"\"{pw}\"" not in r.text and f"{pw!r}" not in r.text
    # no composition rules: a long lower-case phrase is fine
    sign_up(client, "Hopper", "just lower case words")


def test_passwords_are_argon2id_and_sessions_are_stored_hashed(client):
    sign_up(client, "Stored")
    token = cookie(client)
    engine = client.app.state.people.engine
    with engine.connect() as conn:
        pw = conn.execute(select(accounts.c.password)).scalar_one()
        rows = conn.execute(select(sessions.c.token_hash)).scalars().all()
    assert pw.startswith("$argon2id$") and PASSWORD not in pw
    assert rows == [token_hash(token)] and token not in rows


def test_wrong_password_backs_off_per_name_even_for_the_right_one(client):
    sign_up(client, "Target")
    client.cookies.clear()
    for _ in range(FREE_BY_NAME):
        r = sign_in(client, "target", "wrong password")
        assert r.status_code == 401 and r.json()["detail"] == "wrong name or password"
    r = sign_in(client, "Target", "wrong password")
    assert r.status_code in (401, 429)
    r = sign_in(client, "Target")  # the right password, but the name is backing off
    assert r.status_code == 429 and "try again in" in r.json()["detail"]
    assert int(r.headers["retry-after"]) >= 1
    # an unknown name is answered like a wrong password (no way to list names)
    assert sign_in(client, "Nobody", "whatever1").json()["detail"] == "wrong name or password"


def test_back_off_grows_to_its_cap():
    waits = [wait_after(f, FREE_BY_NAME) for f in range(1, 30)]
    assert waits[: FREE_BY_NAME - 1] == [0.0] * (FREE_BY_NAME - 1)
    grown = waits[FREE_BY_NAME - 1 :]
    assert grown[:4] == [1.0, 2.0, 4.0, 8.0] and max(grown) == MAX_WAIT
    assert all(a <= b for a, b in itertools.pairwise(grown))


def test_sign_in_rate_per_address(client_factory):
    c = client_factory(signin_rate="3/minute", **CHEAP)
    codes = [sign_in(c, f"who{i}", "whatever1").status_code for i in range(4)]
    assert codes == [401, 401, 401, 429]


def test_sign_in_gives_a_fresh_token_no_fixation(client, client_factory):
    attacker = client_factory(**CHEAP)
    sign_up(attacker, "Mallory")
    planted = cookie(attacker)
    sign_up(client, "Victim")
    plant(client, planted)  # the attacker's token planted in the browser
    r = sign_in(client, "Victim")
    assert r.status_code == 200
    fresh = cookie(client)
    assert fresh and fresh != planted
    # the planted token is gone (the browser's old session ended) and never was Victim's
    plant(attacker, planted)
    assert attacker.get("/api/me").status_code == 401
    assert client.get("/api/me").json()["name"] == "Victim"
    # a made-up token planted before signing in is not kept either
    plant(client, "made-up-by-attacker")
    sign_in(client, "Victim")
    assert cookie(client) != "made-up-by-attacker"


def test_csrf_refused_without_the_header_or_from_another_site(client):
    csrf = sign_up(client, "Carol")
    assert client.delete("/api/session").status_code == 403
    assert client.delete("/api/session", headers={"x-skydeck-csrf": "0" * 64}).status_code == 403
    other = {"x-skydeck-csrf": csrf, "origin": "https://evil.example"}
    assert client.delete("/api/session", headers=other).status_code == 403
    r = client.post("/api/me/password", json={"password": PASSWORD, "new_password": "new one 123"})
    assert r.status_code == 403 and "X-Skydeck-CSRF" in r.json()["detail"]
    made = client.post(
        "/api/matches",
        json={"game": "toy", "seats": [{"kind": "human", "me": True}, {"kind": "human"}]},
    )
    assert made.status_code == 403
    assert client.get("/api/me").status_code == 200  # all refused: still signed in
    # a sign-in from another site's page (login CSRF) is refused too, and a form post
    r = client.post("/api/session", json={"name": "Carol", "password": PASSWORD},
                    headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    r = client.post("/api/session", content=b"name=Carol",
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    assert client.delete("/api/session", headers={"x-skydeck-csrf": csrf}).status_code == 204
    assert client.get("/api/me").status_code == 401


def test_sign_out_everywhere_ends_every_session(client, client_factory):
    phone = client_factory(**CHEAP)
    csrf = sign_up(client, "Dora")
    assert sign_in(phone, "Dora").status_code == 200
    assert phone.get("/api/me").status_code == 200
    r = client.delete("/api/me/sessions", headers={"x-skydeck-csrf": csrf})
    assert r.status_code == 200 and r.json()["ended"] == 2
    assert phone.get("/api/me").status_code == 401
    assert client.get("/api/me").status_code == 401


def test_change_password_ends_other_sessions(client, client_factory):
    phone = client_factory(**CHEAP)
    csrf = sign_up(client, "Eve")
    sign_in(phone, "Eve")
    bad = client.post("/api/me/password", json={"password": "not it at all",
                      "new_password": "another phrase"}, headers={"x-skydeck-csrf": csrf})
    assert bad.status_code == 403 and "current password is wrong" in bad.json()["detail"]
    weak = client.post("/api/me/password", json={"password": PASSWORD,
                       "new_password": "password1"}, headers={"x-skydeck-csrf": csrf})
    assert weak.status_code == 400
    r = client.post("/api/me/password", json={"password": PASSWORD,
                    "new_password": "another phrase"}, headers={"x-skydeck-csrf": csrf})
    assert r.status_code == 200 and client.get("/api/me").status_code == 200
    assert phone.get("/api/me").status_code == 401
    phone.cookies.clear()
    assert sign_in(phone, "Eve").status_code == 401
    assert sign_in(phone, "Eve", "another phrase").status_code == 200


def test_expired_session_signs_nobody_in(client):
    sign_up(client, "Old")
    engine = client.app.state.people.engine
    with engine.begin() as conn:
        conn.execute(sessions.update().values(expires=time.time() - 1))
    assert client.get("/api/me").status_code == 401


def test_deleted_account_cannot_sign_in_and_its_matches_stay(client):
    csrf = sign_up(client, "Frank")
    r = client.post("/api/matches", headers={"x-skydeck-csrf": csrf},
                    json={"game": "toy", "seed": 1,
                          "seats": [{"kind": "human", "me": True}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    assert r.json()["seats"][0]["name"] == "Frank"
    wrong = client.request("DELETE", "/api/me", json={"password": "not the password"},
                           headers={"x-skydeck-csrf": csrf})
    assert wrong.status_code == 403
    gone = client.request("DELETE", "/api/me", json={"password": PASSWORD},
                          headers={"x-skydeck-csrf": csrf})
    assert gone.status_code == 204
    assert client.get("/api/me").status_code == 401
    assert sign_in(client, "Frank").status_code == 401
    assert client.get("/api/players/Frank").status_code == 404
    seats = client.get(f"/api/matches/{match_id}").json()["seats"]
    assert seats[0]["name"] == "deleted player"
    sign_up(client, "frank")  # the name is free again; the old matches are not its


def test_a_guest_who_signs_up_claims_the_seats_its_browser_holds(client, client_factory):
    m = new_toy(client)
    token = m["tokens"][0]
    sign_up(client, "Gina", claim=[{"match": m["id"], "tokens": [token]},
                                   {"match": "nope", "tokens": ["x"]}])
    mine = client.get("/api/me/matches").json()["matches"]
    assert [(x["match"], x["seat"]) for x in mine] == [(m["id"], 0)]
    # the seat now reads as the account's name, in memory and in storage
    assert client.get(f"/api/matches/{m['id']}").json()["seats"][0]["name"] == "Gina"
    assert client.app.state.hub.storage.load(m["id"]).seats[0]["name"] == "Gina"
    # another device: no link, no token, the session opens the seat
    tablet = client_factory(**CHEAP)
    assert sign_in(tablet, "Gina").status_code == 200
    ws, welcome, _st = join(tablet, m["id"], [])
    assert welcome["seats"] == [0] and not welcome["spectator"]
    ws.__exit__(None, None, None)
    # a wrong token claims nothing
    other = new_toy(client)
    r = sign_in(client, "Gina", claim=[{"match": other["id"], "tokens": ["wrong"]}])
    assert r.json()["claimed"] == []


def test_another_persons_seat_is_refused_in_a_rated_match(client, client_factory):
    csrf = sign_up(client, "Hana")
    r = client.post("/api/matches", headers={"x-skydeck-csrf": csrf},
                    json={"game": "toy", "seed": 5, "rated": True,
                          "seats": [{"kind": "human", "me": True}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    m = r.json()
    # a guest with the invitation is asked to sign in
    guest = client_factory(**CHEAP)
    ws = guest.websocket_connect(f"/ws/matches/{m['id']}")
    with ws:
        ws.send_json({"type": "hello", "tokens": [m["tokens"][1]]})
        err = ws.receive_json()
    assert err["code"] == "sign_in"
    # Ivan signs in and takes seat 1 with the link; it is his from then on
    ivan = client_factory(**CHEAP)
    sign_up(ivan, "Ivan")
    ws1, welcome, _ = join(ivan, m["id"], [m["tokens"][1]])
    assert welcome["seats"] == [1] and welcome["match"]["seats"][1]["name"] == "Ivan"
    ws1.__exit__(None, None, None)
    # Judy, signed in, with the same token: that seat is someone else's
    judy = client_factory(**CHEAP)
    sign_up(judy, "Judy")
    ws = judy.websocket_connect(f"/ws/matches/{m['id']}")
    with ws:
        ws.send_json({"type": "hello", "tokens": [m["tokens"][1]]})
        err = ws.receive_json()
    assert err["code"] == "bad_token" and "someone else" in err["message"]
    # Ivan's session opens only his seat, never Hana's
    ws2, welcome, _ = join(ivan, m["id"], [])
    assert welcome["seats"] == [1]
    ws2.__exit__(None, None, None)
    r = ivan.get(f"/api/matches/{m['id']}/replay?seat=0")
    assert r.status_code == 403
    assert ivan.get(f"/api/matches/{m['id']}/replay?seat=1").status_code == 200


def test_guest_play_is_as_before(client):
    m = new_toy(client)
    ws, welcome, st = join(client, m["id"], m["tokens"])
    assert welcome["seats"] == [0, 1]
    st = play_to_end(ws, st, {0, 1})
    assert st["status"] == "over"
    ws.__exit__(None, None, None)
    assert "rated" not in client.get(f"/api/matches/{m['id']}").json()["settings"]


def test_no_password_or_session_token_in_any_log_or_answer(client, caplog):
    caplog.set_level(logging.DEBUG)
    answers = []
    r = client.post("/api/accounts", json={"name": "Kim", "password": PASSWORD})
    answers.append(r.text)
    token = cookie(client)
    csrf = r.json()["csrf"]
    answers.append(client.get("/api/me").text)
    answers.append(client.get("/api/players/Kim").text)
    answers.append(client.get("/api/me/matches").text)
    client.cookies.clear()
    answers.append(sign_in(client, "Kim", "a wrong password").text)
    r = sign_in(client, "Kim")
    answers.append(r.text)
    token2 = cookie(client)
    csrf = r.json()["csrf"]
    answers.append(client.post("/api/me/password", headers={"x-skydeck-csrf": csrf},
                               json={"password": PASSWORD, "new_password": "brand new words"}).text)
    token3 = cookie(client)
    logged = "\n".join(rec.getMessage() + str(rec.args) for rec in caplog.records)
    for secret in (PASSWORD, "brand new words", "a wrong password", token, token2, token3):
        assert secret and secret not in logged
        assert all(secret not in a for a in answers)


def test_a_session_is_valid_on_every_worker(client_factory, db_url):
    one = client_factory(**CHEAP)
    two = client_factory(db_url, **CHEAP)  # a second server over the same database
    sign_up(one, "Lee")
    plant(two, str(cookie(one)))
    assert two.get("/api/me").json()["name"] == "Lee"
