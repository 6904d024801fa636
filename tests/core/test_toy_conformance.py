"""The conformance checks run on the toy game: proves the checks themselves work
(and can fail) independently of any real game."""

from __future__ import annotations

import pytest

from skydeck import conformance as checks
from skydeck.core import IllegalAction
from tests.core.toygame import ToyGame, ToyState


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("check", checks.CONTRACT)
def test_toy_passes(check, players: int) -> None:
    check(ToyGame(players=players), 3)


def test_leaky_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = ToyState.view

    def leaky(self: ToyState, seat: int | None) -> dict:
        v = original(self, seat)
        v["hands"] = self.hands  # shows everybody's hidden cards
        return v

    monkeypatch.setattr(ToyState, "view", leaky)
    with pytest.raises(AssertionError, match="resample"):
        checks.check_views_and_resample(ToyGame(players=2), 3)


def test_shared_clone_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def shallow(self: ToyState) -> ToyState:
        s = ToyState(self.game, self.rng)
        s.deck, s.hands, s.played = self.deck, self.hands, self.played
        s.turn, s.marker, s.marks, s.reveals = self.turn, self.marker, self.marks, self.reveals
        return s

    monkeypatch.setattr(ToyState, "clone", shallow)
    with pytest.raises(AssertionError, match="changed the original"):
        checks.check_clone_independent(ToyGame(players=2), 3)


def test_mutating_refusal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def sloppy(self: ToyState, action, seat) -> None:
        self.marker += 100  # mutates before refusing
        raise IllegalAction("nope")

    monkeypatch.setattr(ToyState, "validate", sloppy)
    with pytest.raises(AssertionError, match="changed the state"):
        checks.check_illegal_actions(ToyGame(players=2), 3)
