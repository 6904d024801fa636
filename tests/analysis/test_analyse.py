"""The analysis of a whole match: reproducible for a fixed seed on every runner, its
numbers where they belong, a planted blunder found, the command line's files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skydeck.analysis import analyse
from skydeck.analysis.runners import pool
from skydeck.cli import main
from tests.analysis.helpers import record


def _strip(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "cost"}


@pytest.fixture(scope="module")
def stellium() -> dict[str, Any]:
    rec, _ = record("stellium", 2, seed=1)
    return analyse(rec, playouts=2, width=1, seed=3)


def test_the_same_seed_gives_the_same_analysis_in_a_pool_too(stellium: dict[str, Any]) -> None:
    rec, _ = record("stellium", 2, seed=1)
    again = analyse(rec, playouts=2, width=1, seed=3, runner=lambda t: pool(t, 2))
    assert _strip(again) == _strip(stellium)
    other = analyse(rec, playouts=2, width=1, seed=4)
    assert _strip(other) != _strip(stellium)


def test_every_decision_of_every_seat_is_there_with_its_numbers(stellium: dict[str, Any]) -> None:
    rec, _ = record("stellium", 2, seed=1)
    assert [d["step"] for d in stellium["decisions"]] == list(range(len(rec.entries)))
    for d in stellium["decisions"]:
        assert d["seat"] == rec.entries[d["step"]].seat
        if d["forced"]:
            continue
        assert 0 <= d["after"] <= 1 and 0 <= d["best"] <= 1 and 0 <= d["before"] <= 1
        assert d["best"] >= d["after"]
        assert d["grade"] in ("good", "inaccuracy", "mistake", "blunder")
        assert (d["better"] is None) == (d["drop"] == 0)
    summary = {s["seat"]: s for s in stellium["seats"]}
    assert set(summary) == {0, 1}
    for s in summary.values():
        marked = [d for d in stellium["decisions"] if d["seat"] == s["seat"] and "grade" in d]
        assert s["decisions"] == len(marked)
        assert s["blunders"] == sum(d["grade"] == "blunder" for d in marked)
        assert 0 <= s["accuracy"] <= 100
        assert s["chances"][-1] == [len(rec.entries), s["result"]]


def test_luck_is_each_chance_event_summed(stellium: dict[str, Any]) -> None:
    events = stellium["chance_events"]
    assert events, "Stellium's Missions turned up are chance events"
    for seat in stellium["seats"]:
        total = sum(e["luck"][str(seat["seat"])] or 0 for e in events)
        assert seat["luck"] == pytest.approx(total, abs=1e-3)


def test_one_seat_only(stellium: dict[str, Any]) -> None:
    rec, _ = record("stellium", 2, seed=1)
    one = analyse(rec, seats=[1], playouts=2, width=1, seed=3)
    assert [s["seat"] for s in one["seats"]] == [1]
    assert {d["seat"] for d in one["decisions"]} == {1}
    # the same tasks give the same numbers as in the full analysis
    full = {d["step"]: d for d in stellium["decisions"]}
    assert all(d == full[d["step"]] for d in one["decisions"])


def test_a_planted_blunder_is_found() -> None:
    rec, planted = record("stellium", 2, seed=2, plant=10)
    assert planted is not None
    out = analyse(rec, seats=[rec.entries[planted].seat], playouts=8, width=2, seed=1)
    [row] = [d for d in out["decisions"] if d["step"] == planted]
    assert row["grade"] in ("mistake", "blunder"), row


def test_the_command_line_writes_json_and_a_png(tmp_path: Path) -> None:
    rec, _ = record("stellium", 2, seed=1)
    path = tmp_path / "m.json"
    rec.save(path)
    out = tmp_path / "analysis.json"
    assert (
        main(
            [
                "analyse",
                str(path),
                "--playouts",
                "2",
                "--width",
                "1",
                "--seed",
                "3",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert data["decisions"] and data["seats"]
    png = tmp_path / "analysis.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
