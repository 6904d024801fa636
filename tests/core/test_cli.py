"""The `skydeck` command line: games, play seats, bench, render and replay errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import skydeck
from skydeck.cli import main


def skydeck_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skydeck.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_games_json_lists_every_game_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [g["id"] for g in listed] == skydeck.games()
    assert all(g["players"] and isinstance(g["options"], list) for g in listed)


def test_seats_must_match_the_player_count() -> None:
    proc = skydeck_cli("play", "stellium", "--seats", "human,heuristic,heuristic", stdin="quit\n")
    assert proc.returncode == 2
    assert "--seats lists 3 seat(s) but the game has 2" in proc.stdout


def test_unknown_agent_is_named() -> None:
    proc = skydeck_cli("play", "stellium", "--seats", "human,grandmaster", stdin="quit\n")
    assert proc.returncode != 0
    assert "grandmaster" in proc.stderr + proc.stdout


def test_all_ai_seats_play_a_whole_game_and_save_it(tmp_path) -> None:
    out = tmp_path / "m.json"
    proc = skydeck_cli("play", "stellium", "--seats", "heuristic,random", "--save", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout
    record = json.loads(out.read_text())
    assert record["header"]["game"] == "stellium" and record["actions"]
    replay = skydeck_cli("replay", str(out))
    assert replay.returncode == 0 and "scores" in replay.stdout


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "stellarion", "--seconds", "0.2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "stellarion" and result["steps"] > 0 and result["steps_per_s"] > 0


def test_replay_and_render_refuse_bad_files(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["replay", str(bad)]) == 2
    assert main(["render", "conflict", str(bad), "--out", str(tmp_path / "t.svg")]) == 2
    assert main(["render", "stellarion", str(bad), "--out", str(tmp_path / "t.svg")]) == 2
