"""`skydeck soak` in CI: bot matches of all four games against a real server process,
with clock timeouts and reconnects; no error, every finished record replays to the
announced result, memory flat after warm-up. SKYDECK_SOAK=short (CI) runs it briefly;
the full run is `skydeck soak --matches 200 --minutes 10`."""

from __future__ import annotations

import asyncio
import os
import random

import pytest

from skydeck.server.soak import GAMES, Seat, SoakStats, format_report, run_soak

SHORT = os.environ.get("SKYDECK_SOAK", "") == "short"


@pytest.mark.slow
def test_soak_has_no_errors_and_every_finished_record_replays():
    matches, seconds = (8, 50.0) if SHORT else (24, 120.0)
    report = run_soak(matches=matches, seconds=seconds, p_timeout=0.03, p_drop=0.03, windows=5)
    text = format_report(report)
    assert report["errors"] == 0, text
    assert report["replay_mismatches"] == [], text
    assert report["finished_total"] >= 1 and report["replayed"] == report["finished_total"], text
    assert report["disconnects"] > 0 and report["clock_timeouts_let_run"] > 0, text
    assert sum(w["moves"] for w in report["windows"]) > 100, text
    assert report["memory_flat"], text
    assert set(report["finished"]) <= {g for g, _ in GAMES}


def _seat(game: str = "stellium") -> Seat:
    stats = SoakStats(windows=[], started=0.0, window_s=1.0)
    match = {"id": "m1", "game": game, "tokens": ["a", "b"]}
    return Seat("ws://127.0.0.1:1", match, 0, stats, random.Random(1), "127.0.0.1")


def test_a_bot_lets_only_a_running_clock_act_for_it():
    """A seat that waits with no clock of its own would stall its match for good
    (Stellium outside a draw has no clock): the bot waits only on a clock that acts for
    it, its own or a table clock."""
    seat = _seat()
    assert not seat._clocked({"deadlines": []})
    assert not seat._clocked({"deadlines": [{"seat": 1, "due": 9.0, "kind": "draw"}]})
    assert seat._clocked({"deadlines": [{"seat": 0, "due": 9.0, "kind": "draw"}]})
    assert seat._clocked({"deadlines": [{"seat": 1, "due": 9.0, "kind": "deployment"}]})


def test_a_silent_live_match_is_reported_as_stalled(monkeypatch):
    class Silent:
        async def recv(self) -> str:
            await asyncio.sleep(3600)
            return ""

    monkeypatch.setattr("skydeck.server.soak.STALL_SECONDS", 0.05)
    seat = _seat()
    assert asyncio.run(seat._session(Silent(), 0.0, 0.0)) is True  # it reconnects
    assert len(seat.stats.errors) == 1 and "stalled" in seat.stats.errors[0]
