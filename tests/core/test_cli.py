"""The `skydeck` command line: games, play seats, bench, render and replay errors."""

from __future__ import annotations

import json
import re
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


def _conflict_record(path) -> None:  # type: ignore[no-untyped-def]
    from skydeck.core import Rng
    from skydeck.core.record import Match
    from skydeck.registry import load

    game = load("conflict", players=2, scale="dispute", deployment="light_speed")
    match, rng = Match(game, 3), Rng(3)
    while not match.state.is_over:
        seat = match.state.to_move[0]
        match.play(seat, rng.choice(match.state.legal_actions(seat)))
    match.record.save(path)


def test_render_writes_the_file_asked_for_or_a_documented_pattern(tmp_path) -> None:
    rec = tmp_path / "rec.json"
    _conflict_record(rec)
    out = tmp_path / "table.png"
    assert main(["render", "conflict", str(rec), "--out", str(out)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec.json", "table.png"]
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        main(["render", "conflict", str(rec), "--out", str(tmp_path / "t0.svg"), "--step", "0"])
        == 0
    )
    assert (tmp_path / "t0.svg").read_text().startswith("<svg")
    assert (
        main(["render", "conflict", str(rec), "--out", str(tmp_path / "s.svg"), "--step", "99"])
        == 2
    )
    steps = tmp_path / "steps"
    steps.mkdir()
    assert main(["render", "conflict", str(rec), "--out", str(steps / "t-{step}.svg")]) == 0
    names = sorted(p.name for p in steps.iterdir())
    assert len(names) >= 2 and names[0] == "t-00.svg" and names[1] == "t-01.svg"


def test_tournament_table_is_whole_when_piped(capsys: pytest.CaptureFixture[str]) -> None:
    """Piped, rich assumes 80 columns; the table must still print every value whole."""
    assert main(["tournament", "stellium", "--agents", "random,heuristic", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    header = next(line for line in out.splitlines() if "agent" in line)
    for title in ("95% CI", "Elo", "mean score", "CPU/move", "CPU max"):
        assert title in header
    rows = [line for line in out.splitlines() if "heuristic" in line or "random" in line]
    assert len(rows) == 2 and all(" - " in row and " ms " in row for row in rows)


def test_tournament_reports_each_agents_cpu_per_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CPU time per move (mean and max) per agent: a budget per move is about CPU, and
    on a shared machine wall time also counts the wait for a core."""
    assert main(
        ["tournament", "stellium", "--agents", "random,heuristic", "--games", "2", "--json"]
    ) == 0
    standings = {s["agent"]: s for s in json.loads(capsys.readouterr().out)["standings"]}
    for st in standings.values():
        assert 0 < st["mean_cpu_s"] <= st["max_cpu_s"]
    assert standings["heuristic"]["mean_cpu_s"] > standings["random"]["mean_cpu_s"]


def test_replay_names_players_not_seats(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from skydeck.core import Rng
    from skydeck.core.record import Match
    from skydeck.registry import load

    match, rng = Match(load("stellium", players=3), 2), Rng(2)
    while not match.state.is_over:
        seat = match.state.to_move[0]
        match.play(seat, rng.choice(match.state.legal_actions(seat)))
    match.record.save(tmp_path / "rec.json")
    assert main(["replay", str(tmp_path / "rec.json")]) == 0
    out = capsys.readouterr().out
    assert "Player 3" in out
    assert not re.search(r"\bseats?\s*#?\d", out, re.IGNORECASE)
    last = out.strip().splitlines()[-1]
    assert last.startswith("scores: Player 1 ") and ("won by Player" in last or "nobody" in last)
