"""A foreign or corrupt record, an unknown seat, a live match: a clear error each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skydeck.analysis import AnalysisError, analyse
from skydeck.analysis.analyse import read_record
from skydeck.cli import main
from skydeck.core.record import Match
from skydeck.registry import load
from tests.analysis.helpers import record


def test_a_file_that_is_not_json_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "rec.json"
    bad.write_text("{not json")
    with pytest.raises(AnalysisError, match=r"rec\.json is not JSON"):
        read_record(bad)


def test_a_foreign_json_file_is_not_taken_for_a_record(tmp_path: Path) -> None:
    other = tmp_path / "package.json"
    other.write_text(json.dumps({"name": "left-pad", "version": "1.0.0"}))
    with pytest.raises(AnalysisError, match="not a Skydeck match record"):
        read_record(other)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError, match=r"cannot read .*nowhere\.json"):
        read_record(tmp_path / "nowhere.json")


def test_an_unknown_game_is_named() -> None:
    rec, _ = record()
    obj = rec.to_json()
    obj["header"]["game"] = "chess"
    with pytest.raises(AnalysisError, match="unknown game 'chess'"):
        read_record(obj)


def test_a_record_whose_moves_do_not_replay_is_refused() -> None:
    rec, _ = record()
    obj = rec.to_json()
    obj["actions"][1], obj["actions"][2] = obj["actions"][2], obj["actions"][1]
    with pytest.raises(AnalysisError, match="does not replay"):
        analyse(read_record(obj), playouts=2, width=1)


def test_a_corrupt_action_is_refused() -> None:
    rec, _ = record()
    obj = rec.to_json()
    obj["actions"][3] = {"seat": "x"}
    with pytest.raises(AnalysisError, match="action #3"):
        read_record(obj)


def test_a_live_match_is_refused() -> None:
    game = load("stellium", players=2)
    match = Match(game, 4)
    for _ in range(5):
        seat = match.state.to_move[0]
        match.play(seat, match.state.legal_actions(seat)[0])
    with pytest.raises(AnalysisError, match="still live"):
        analyse(match.record, playouts=2, width=1)


def test_an_unknown_seat_is_refused() -> None:
    rec, _ = record()
    with pytest.raises(AnalysisError, match="no seat 3 in this Stellium match"):
        analyse(rec, seats=[2], playouts=2, width=1)


def test_the_command_line_says_what_is_wrong_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec, _ = record()
    path = tmp_path / "m.json"
    rec.save(path)
    assert main(["analyse", str(path), "--seat", "5", "--playouts", "2"]) == 2
    assert "no seat 5" in " ".join(capsys.readouterr().out.split())
    (tmp_path / "x.json").write_text("[1, 2]")
    assert main(["analyse", str(tmp_path / "x.json")]) == 2
    assert "not a Skydeck match record" in " ".join(capsys.readouterr().out.split())
