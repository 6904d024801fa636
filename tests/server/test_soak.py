"""`skydeck soak` in CI: bot matches of all four games against a real server process,
with clock timeouts and reconnects; no error, every finished record replays to the
announced result, memory flat after warm-up. SKYDECK_SOAK=short (CI) runs it briefly;
the full run is `skydeck soak --matches 200 --minutes 10`."""

from __future__ import annotations

import os

import pytest

from skydeck.server.soak import GAMES, format_report, run_soak

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
