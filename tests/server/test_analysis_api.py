"""The analysis endpoints (PROTOCOL.md, "Analysis"): a finished match's analysis is
started, followed and stored; asked again, the stored one comes back; a bad match, an
unfinished one and a full server are refused; each seat's numbers come from its view.

Every test uses a small budget (2 playouts, 1 candidate): the numbers are noisy, the
plumbing is what is tested (the analyser's own tests are in tests/analysis)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.testclient import TestClient

from skydeck.analysis import analyse
from skydeck.analysis.runners import serial
from skydeck.core.record import MatchRecord
from skydeck.server.analysis_store import AnalysisStore
from tests.server.conftest import new_toy

CHEAP = {"analysis_playouts": 2, "analysis_width": 1}
AI = {"kind": "ai"}


def finished(client: TestClient, game: str, seed: int = 3, agent: str = "heuristic") -> str:
    """A match of two AI seats (the `agent`) played to its end."""
    ai = {**AI, "agent": agent}
    r = client.post("/api/matches", json={"game": game, "seed": seed, "seats": [ai, ai]})
    assert r.status_code == 201, r.text
    match_id: str = r.json()["id"]
    deadline = time.time() + 60
    while client.get(f"/api/matches/{match_id}").json()["status"] != "over":
        assert time.time() < deadline, "the AI match did not end"
        time.sleep(0.05)
    return match_id


def wait_done(client: TestClient, match_id: str, limit: float = 180) -> list[dict[str, Any]]:
    """Every distinct answer of GET .../analysis until it is done."""
    seen: list[dict[str, Any]] = []
    deadline = time.time() + limit
    while True:
        got = client.get(f"/api/matches/{match_id}/analysis").json()
        if not seen or (got["status"], got["done"]) != (seen[-1]["status"], seen[-1]["done"]):
            seen.append(got)
        if got["status"] != "running":
            return seen
        assert time.time() < deadline, f"not done in {limit} s: {got}"
        time.sleep(0.05)


def test_start_progress_result_and_the_stored_one_again(client_factory):
    client = client_factory(**CHEAP)
    mid = finished(client, "stellium")
    assert client.get(f"/api/matches/{mid}/analysis").json()["status"] == "none"
    r = client.post(f"/api/matches/{mid}/analysis", json={})
    assert r.status_code == 202, r.text
    assert r.json()["status"] == "running"
    seen = wait_done(client, mid)
    final = seen[-1]
    assert final["status"] == "done", final
    # progress went up to the whole plan, never down
    dones = [s["done"] for s in seen]
    assert dones == sorted(dones) and final["done"] == final["total"] > 0
    record = MatchRecord.from_json(client.get(f"/api/matches/{mid}/record").json())
    result = final["result"]
    assert [d["step"] for d in result["decisions"]] == list(range(len(record.entries)))
    assert {s["seat"] for s in result["seats"]} == {0, 1}
    assert result["settings"]["playouts"] == 2 and result["settings"]["width"] == 1
    graded = [d for d in result["decisions"] if not d["forced"]]
    assert graded and all(
        d["grade"] in ("good", "inaccuracy", "mistake", "blunder") for d in graded
    )
    # asked again: the stored analysis, not a second run
    again = client.post(f"/api/matches/{mid}/analysis", json={})
    assert again.status_code == 200
    assert again.json()["result"] == result and again.json()["started"] == final["started"]
    # one seat's part
    mine = client.get(f"/api/matches/{mid}/analysis?seat=1").json()["result"]
    assert [s["seat"] for s in mine["seats"]] == [1]
    assert mine["decisions"] == [d for d in result["decisions"] if d["seat"] == 1]


def test_a_finished_analysis_survives_a_restart_and_a_half_one_is_not_done(client_factory, db_url):
    first = client_factory(**CHEAP)
    done_id = finished(first, "stellium", seed=4)
    half_id = finished(first, "stellium", seed=5)
    first.post(f"/api/matches/{done_id}/analysis", json={})
    assert wait_done(first, done_id)[-1]["status"] == "done"
    result = first.get(f"/api/matches/{done_id}/analysis").json()["result"]
    # a half analysis, as a server killed while running it leaves it
    store = AnalysisStore(first.app.state.analyses.store.engine)
    assert store.claim(half_id, "", {"playouts": 2})
    first.__exit__(None, None, None)
    second = client_factory(**CHEAP)
    assert second.get(f"/api/matches/{done_id}/analysis").json()["result"] == result
    half = second.get(f"/api/matches/{half_id}/analysis").json()
    assert half["status"] == "interrupted" and "result" not in half
    # asked again, it runs again
    again = second.post(f"/api/matches/{half_id}/analysis", json={})
    assert again.status_code == 202 and again.json()["status"] == "running"


def test_bad_match_unfinished_match_and_bad_seat_are_refused_with_reasons(client):
    for r in (
        client.get("/api/matches/nosuchmatch/analysis"),
        client.post("/api/matches/nosuchmatch/analysis", json={}),
    ):
        assert r.status_code == 404 and "nosuchmatch" in r.json()["detail"]
    live = new_toy(client)["id"]
    r = client.post(f"/api/matches/{live}/analysis", json={})
    assert r.status_code == 409 and "still live" in r.json()["detail"]
    assert client.get(f"/api/matches/{live}/analysis").json()["status"] == "none"
    r = client.get(f"/api/matches/{live}/analysis?seat=7")
    assert r.status_code == 400 and "no seat 7" in r.json()["detail"]
    # only JSON starts one (no other site's form can)
    r = client.post(
        f"/api/matches/{live}/analysis", content=b"x", headers={"content-type": "text/plain"}
    )
    assert r.status_code == 415


def _blocking(
    release: threading.Event,
) -> Callable[[list[dict[str, Any]]], Iterator[dict[str, Any]]]:
    def runner(tasks: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        release.wait(60)
        yield from serial(tasks)

    return runner


def test_one_analysis_per_match_and_the_limit_of_the_server(client_factory):
    client = client_factory(analysis_limit=1, **CHEAP)
    release = threading.Event()
    client.app.state.analyses.runner = _blocking(release)
    a, b = finished(client, "stellium", seed=6), finished(client, "stellium", seed=7)
    try:
        first = client.post(f"/api/matches/{a}/analysis", json={}).json()
        twice = client.post(f"/api/matches/{a}/analysis", json={})
        assert twice.status_code == 202 and twice.json()["started"] == first["started"]
        assert client.app.state.analyses.running() == [a]
        full = client.post(f"/api/matches/{b}/analysis", json={})
        assert full.status_code == 429 and "analysis_limit" in full.json()["detail"]
        assert client.get(f"/api/matches/{b}/analysis").json()["status"] == "none"
    finally:
        release.set()
    assert wait_done(client, a)[-1]["status"] == "done"
    assert client.post(f"/api/matches/{b}/analysis", json={}).status_code == 202


def test_each_seat_is_analysed_from_its_own_view_only(client_factory):
    """Stellar Conflict hides each side's fleet: every task the server runs holds one
    seat's view at that step, no state and no other view, and a seat's graded moves are
    those of an analysis of that seat alone."""
    client = client_factory(**CHEAP)
    tasks: list[dict[str, Any]] = []

    def recording(batch: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        tasks.extend(batch)
        yield from serial(batch)

    client.app.state.analyses.runner = recording
    mid = finished(client, "conflict", agent="random")
    client.post(f"/api/matches/{mid}/analysis", json={})
    final = wait_done(client, mid)[-1]
    assert final["status"] == "done", final
    record = MatchRecord.from_json(client.get(f"/api/matches/{mid}/record").json())
    game = record.make_game()
    views: list[dict[int, Any]] = []
    state = game.new(record.seed)
    for entry in record.entries:
        views.append({k: state.view(k) for k in range(game.players)})
        state.apply(entry.action, entry.seat)
    views.append({k: state.view(k) for k in range(game.players)})
    assert tasks
    differs = 0
    for t in tasks:
        assert "state" not in t and t["view"] == views[t["step"]][t["observer"]]
        differs += t["view"] != views[t["step"]][1 - t["observer"]]
    assert differs, "the seats' views never differed: this match tests nothing hidden"
    settings = final["result"]["settings"]
    for k in range(game.players):
        alone = analyse(record, seats=[k], playouts=2, width=1, seed=settings["seed"])
        mine = [d for d in final["result"]["decisions"] if d["seat"] == k]
        assert mine == alone["decisions"]
