"""``Game.from_view`` in the core: the default refuses clearly, and the conformance check
of a declared inversion passes on a correct toy inversion and catches wrong ones."""

from __future__ import annotations

import random
from typing import Any

import pytest

from skydeck import conformance as checks
from skydeck.core import Game, Rng, Unsupported
from tests.core.toygame import ToyGame, ToyState


class ViewToyGame(ToyGame):
    """The toy game with its view inversion: the cards a seat cannot see are dealt at
    random to the other hands and the deck."""

    has_from_view = True

    def from_view(self, view: dict[str, Any], seat: int | None, rng: Rng) -> ToyState:
        s = ToyState(self, Rng(rng.next64()))
        s.played = [list(p) for p in view["played"]]
        s.turn, s.marker, s.marks = view["turn"] or 0, view["marker"], view["marks"]
        s.reveals = view["reveals"]
        seen = {c for p in s.played for c in p}
        if seat is not None:
            seen |= set(view["hands"][seat])
        pool = [c for c in range(1, 10) if c not in seen]
        rng.shuffle(pool)
        s.hands = [
            list(h) if i == seat else [pool.pop() for _ in range(h)]
            for i, h in enumerate(view["hands"])
        ]
        s.deck = pool
        return s


def test_default_from_view_is_unsupported() -> None:
    game = ToyGame(players=2)
    assert game.has_from_view is False and Game.has_from_view is False
    with pytest.raises(Unsupported, match=r"toy: .*has_from_view is False"):
        game.from_view(game.new(1).view(0), 0, Rng(1))


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_toy_inversion_passes(players: int, seed: int) -> None:
    checks.check_from_view(ViewToyGame(players=players), seed, every=1)


def test_inversion_that_forgets_public_parts_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = ViewToyGame.from_view

    def forgetful(self: ViewToyGame, view: dict[str, Any], seat: int | None, rng: Rng) -> ToyState:
        s = original(self, view, seat, rng)
        s.marker = 0  # the public marker is not copied
        return s

    monkeypatch.setattr(ViewToyGame, "from_view", forgetful)
    with pytest.raises(AssertionError, match="differs from the view"):
        checks.check_from_view(ViewToyGame(players=2), 3, every=1)


def test_inversion_that_swaps_the_seats_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = ViewToyGame.from_view

    def swapped(self: ViewToyGame, view: dict[str, Any], seat: int | None, rng: Rng) -> ToyState:
        s = original(self, view, seat, rng)
        if seat is not None and s.hands[seat] and s.deck:
            s.hands[seat][0], s.deck[0] = s.deck[0], s.hands[seat][0]
        return s

    monkeypatch.setattr(ViewToyGame, "from_view", swapped)
    with pytest.raises(AssertionError, match="differs from the view"):
        checks.check_from_view(ViewToyGame(players=2), 3, every=1)


def test_inversion_that_draws_nothing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def in_order(self: ViewToyGame, view: dict[str, Any], seat: int | None, rng: Rng) -> ToyState:
        s = ToyState(self, Rng(rng.next64()))  # the generator is fresh, the deal is not
        s.played = [list(p) for p in view["played"]]
        s.turn, s.marker, s.marks = view["turn"] or 0, view["marker"], view["marks"]
        s.reveals = view["reveals"]
        seen = {c for p in s.played for c in p}
        if seat is not None:
            seen |= set(view["hands"][seat])
        pool = [c for c in range(9, 0, -1) if c not in seen]
        s.hands = [
            list(h) if i == seat else [pool.pop() for _ in range(h)]
            for i, h in enumerate(view["hands"])
        ]
        s.deck = pool
        return s

    monkeypatch.setattr(ViewToyGame, "from_view", in_order)
    with pytest.raises(AssertionError, match="same hidden parts for every rng"):
        checks.check_from_view(ViewToyGame(players=2), 3, every=1)


def test_inversion_with_outside_randomness_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = ViewToyGame.from_view
    outside = random.Random(5)

    def leaky_rng(self: ViewToyGame, view: dict[str, Any], seat: int | None, rng: Rng) -> ToyState:
        return original(self, view, seat, Rng(outside.getrandbits(64)))

    monkeypatch.setattr(ViewToyGame, "from_view", leaky_rng)
    with pytest.raises(AssertionError, match="the same rng gave another state"):
        checks.check_from_view(ViewToyGame(players=2), 3, every=1)


def test_inversion_that_cannot_play_on_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = ViewToyGame.from_view

    def placeholders(
        self: ViewToyGame, view: dict[str, Any], seat: int | None, rng: Rng
    ) -> ToyState:
        s = original(self, view, seat, rng)
        for i, h in enumerate(s.hands):
            if i != seat:
                s.hands[i] = [None] * len(h)  # type: ignore[list-item]
        return s

    monkeypatch.setattr(ViewToyGame, "from_view", placeholders)
    with pytest.raises(AssertionError, match="cannot play on to the end"):
        checks.check_from_view(ViewToyGame(players=2), 3, every=1)


def test_inversion_that_mutates_the_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = ViewToyGame.from_view

    def meddling(self: ViewToyGame, view: dict[str, Any], seat: int | None, rng: Rng) -> ToyState:
        s = original(self, view, seat, rng)
        view["played"].append([])  # the caller's (JSON) view: must stay as sent
        return s

    monkeypatch.setattr(ViewToyGame, "from_view", meddling)
    with pytest.raises(AssertionError, match="mutated the view"):
        checks.check_from_view(ViewToyGame(players=2), 3, every=1)
