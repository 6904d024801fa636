"""The template's RL encoding: the action catalogue and the observation, from the view
only (the Observer cannot see the state)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from skydeck.core.action import Action
from skydeck.core.observer import Observer, put

COOPERATIVE = False
SIMULTANEOUS = False
CARDS = 9
MAX_PLAYERS = 3


def catalogue(game: Any) -> list[tuple[str, Iterable[Action]]]:
    """Every action the game can offer: play card 1..9."""
    return [("play", [Action("play", (c,)) for c in range(1, CARDS + 1)])]


class TemplateObserver(Observer):
    def __init__(self, game: Any) -> None:
        super().__init__()
        self.o_hand = self.add("hand", CARDS, "1 for each card in my hand")
        self.o_played = self.add("played", (MAX_PLAYERS, CARDS), "cards each seat has played")
        self.o_deck = self.add("deck", 1, "cards left in the deck / 9")

    def fill(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        at = [self.o_hand + c - 1 for c in view["hands"][seat]]
        for s, cards in enumerate(view["played"]):
            at += [self.o_played + s * CARDS + c - 1 for c in cards]
        put(out, at)
        out[self.o_deck] = view["deck_size"] / CARDS


OBSERVER = TemplateObserver
