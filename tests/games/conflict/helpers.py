"""Build exact situations for scenario tests."""

from __future__ import annotations

from typing import Any

import skydeck
from skydeck.core import Action, Event
from skydeck.games.conflict.battle import new_card
from skydeck.games.conflict.state import BATTLE, ConflictState

FIRE = Action("fire")


def load(players: int = 2, **options: Any):
    return skydeck.load("conflict", players=players, **options)


def battle(cards: list[tuple[Any, ...]], players: int = 2, **options: Any) -> ConflictState:
    """A state in the Battle phase with ``cards`` (ship id, owner, x, y, angle[, cubes])."""
    game = load(players, **options)
    st = game.new(0)
    st.ready = [True] * players
    st.phase = BATTLE
    for ship, owner, x, y, a, *rest in cards:
        idx = game.content.by_id[ship]
        st.cards.append(new_card(idx, owner, x, y, a, rest[0] if rest else 0))
        st.supply -= rest[0] if rest else 0
    return st


def fire(st: ConflictState) -> list[Event]:
    return st.apply(FIRE, st.to_move[0])


def kinds(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def damage(st: ConflictState, uid: int) -> list[int]:
    return list(st.cards[uid][9])


def on_table(st: ConflictState, uid: int) -> bool:
    return bool(st.cards[uid][5])


def prepared(game, fleets: list[list[str]], seed: int = 0) -> ConflictState:
    """Everybody buys ``fleets`` and gets ready: the state enters Deployment."""
    st = game.new(seed)
    for seat, fleet in enumerate(fleets):
        for ship in fleet:
            st.apply(Action("buy", (ship,)), seat)
        st.apply(Action("ready"), seat)
    return st
