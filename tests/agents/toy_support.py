"""The toy game's view inversion, registered for the agent tests (the toy game lives in
tests/, so its support does too)."""

from __future__ import annotations

from typing import Any

from skydeck.agents.support import GameSupport, register
from skydeck.core import Game, Rng
from tests.core.toygame import ToyGame, ToyState


def toy_from_view(game: Game, view: dict[str, Any], seat: int, rng: Rng) -> ToyState:
    assert isinstance(game, ToyGame)
    state = ToyState(game, Rng(rng.next64()))
    own = list(view["hands"][seat])
    seen = set(own)
    for cards in view["played"]:
        seen.update(cards)
    pool = [c for c in range(1, 10) if c not in seen]
    rng.shuffle(pool)
    state.hands = [
        list(own) if i == seat else [pool.pop() for _ in range(h)]
        for i, h in enumerate(view["hands"])
    ]
    state.deck = pool
    assert len(pool) == view["deck_size"]
    state.played = [list(p) for p in view["played"]]
    state.turn, state.marker, state.marks = view["turn"] or 0, view["marker"], view["marks"]
    state.reveals = view["reveals"]
    return state


def toy_evaluate(state: ToyState) -> list[float]:
    if state.is_over:
        return [1.0 if i in state.winners else 0.0 for i in range(len(state.scores))]
    return [0.5] * len(state.scores)


SEARCH_SUPPORT = GameSupport(from_view=toy_from_view, score_scale=5.0)


def install() -> None:
    register("toy", SEARCH_SUPPORT)
