"""Stellarion's deal report (``games/stellarion/analysis.deal_report``): its answer.

- A match that was won answers "winnable" from the match itself, with no step that lost
  it and no doubt (the solver is not needed to know a won deal was winnable).
- A lost match: the report follows the solver's winning line while the match plays it,
  solves again only where the match departs from it, and names the first move after
  which the solver proves the deal lost, by its step and in the game's words. The
  solver is replaced by a scripted one here, so the answer is known in advance and the
  test does not depend on what the real solver finds within its budget.
"""

from __future__ import annotations

from typing import Any

import pytest

import skydeck.games.stellarion.ai.solve as solve
from skydeck.analysis.analyse import deal_report
from skydeck.games.stellarion.analysis import deal_report as game_report
from tests.analysis.helpers import record


def _states(seed: int) -> tuple[list[Any], list[Any], Any]:
    rec, _ = record("stellarion", 1, seed=seed)
    states = [state.clone() for state, _, _ in rec.replay()]
    return states[:-1], rec.entries, states[-1]


def test_a_won_match_was_a_winnable_deal_with_no_losing_move():
    *_, final = _states(3)
    assert final.winners, "deal 3 is won by the heuristic (the test's premise)"
    rec, _ = record("stellarion", 1, seed=3)
    report = deal_report(rec, 0.5)
    assert report is not None
    assert report["winnable"] == solve.WON and report["lost_after"] is None
    assert "note" not in report, report


class Scripted:
    """Stands in for the solver: the answer for each position is set by the test."""

    answers: dict[int, tuple[str, list[tuple[int, Any]]]] = {}
    asked: list[int] = []

    def __init__(self, state: Any, seconds: float | None) -> None:
        self.state = state

    def solve(self) -> Any:
        status, line = Scripted.answers[id(self.state)]
        Scripted.asked.append(id(self.state))
        return type("Result", (), {"status": status, "line": line})()


def test_the_first_move_after_which_the_deal_is_lost_is_named(monkeypatch: pytest.MonkeyPatch):
    states, entries, final = _states(1)
    assert not final.winners and len(entries) > 10, "deal 1 is lost (the test's premise)"
    played = [(e.seat, e.action) for e in entries]
    other = next(a for a in states[3].legal_actions(0) if a != entries[3].action)
    Scripted.answers = {
        # winnable from the start along a line the match follows for three moves
        id(states[0]): (solve.WON, [*played[:3], (0, other)]),
        # after move 3 (where the match departed) still winnable, by moves 4 and 5 ...
        id(states[4]): (solve.WON, [*played[4:6], (0, other)]),
        # ... but move 6 departs again, and after it the deal is lost
        id(states[7]): (solve.UNWINNABLE, []),
    }
    Scripted.asked = []
    monkeypatch.setattr(solve, "Solver", Scripted)
    report = game_report(states, entries, 1.0)
    assert report["winnable"] == solve.WON
    assert report["lost_after"] == {
        "step": 6,
        "seat": entries[6].seat,
        "move": states[0].game.describe(entries[6].action),
    }
    # solved only where the match left the line: the start, after move 3, after move 6
    assert Scripted.asked == [id(states[0]), id(states[4]), id(states[7])]
