"""Match records replay exactly; undo never crosses a reveal or a random draw."""

from __future__ import annotations

import json

import pytest

from skydeck.core import Action, IllegalAction
from skydeck.core.record import Match, MatchRecord
from skydeck.registry import load
from tests.core.toygame import ToyGame


@pytest.fixture(autouse=True)
def register_toy(monkeypatch: pytest.MonkeyPatch) -> None:
    import skydeck.games as package

    games = dict(package.discover())
    games["toy"] = ToyGame
    monkeypatch.setattr(package, "_FOUND", games)


def play_some(match: Match, n: int) -> None:
    for _ in range(n):
        if match.state.is_over:
            return
        seat = match.state.to_move[0]
        plays = [a for a in match.state.legal_actions(seat) if a.kind == "play"]
        match.play(seat, plays[0])


def test_record_replays_to_the_same_state(tmp_path) -> None:
    match = Match(load("toy", players=3), seed=5, seats=["ann", "bob", "cy"])
    play_some(match, 6)
    path = tmp_path / "m.json"
    match.record.save(path)
    record = MatchRecord.load(path)
    assert record.seats == ["ann", "bob", "cy"]
    assert record.final_state().to_json() == match.state.to_json()
    assert Match.from_record(record).state.to_json() == match.state.to_json()
    steps = list(record.replay())
    assert len(steps) == 7 and steps[0][1] is None


def test_undo_of_a_free_action() -> None:
    match = Match(load("toy", players=2), seed=1)
    before = match.state.to_json()
    match.play(0, Action("mark", (1,)))
    assert match.can_undo()
    entry = match.undo()
    assert entry.action == Action("mark", (1,))
    assert match.state.to_json() == before
    assert match.record.entries == []


def test_undo_refused_after_a_reveal() -> None:
    match = Match(load("toy", players=2), seed=1)
    play_some(match, 1)  # playing draws a hidden card: information revealed
    assert not match.can_undo()
    with pytest.raises(IllegalAction, match="revealed information"):
        match.undo()
    assert len(match.record.entries) == 1


def test_undo_with_nothing_to_undo() -> None:
    with pytest.raises(IllegalAction, match="nothing to undo"):
        Match(load("toy", players=2), seed=1).undo()


def test_malformed_records_are_refused_clearly() -> None:
    good = Match(load("toy", players=2), seed=1)
    play_some(good, 2)
    obj = good.record.to_json()
    with pytest.raises(ValueError, match="malformed match record"):
        MatchRecord.from_json({"actions": []})
    broken = json.loads(json.dumps(obj))
    broken["actions"][1]["action"] = {"kind": 5}
    with pytest.raises(ValueError, match="action #1"):
        MatchRecord.from_json(broken)
    wrong = json.loads(json.dumps(obj))
    wrong["actions"][0]["seat"] = 1
    with pytest.raises(ValueError, match="does not replay: action #0"):
        MatchRecord.from_json(wrong).final_state()
    with pytest.raises(ValueError, match="unknown game"):
        MatchRecord.from_json({**obj, "header": {**obj["header"], "game": "chess"}})
