"""Stellium's effect sentences open with the mover's name: another seat's log line has no
label for the move, so the web log tells the move by the first sentence that starts with
the mover (events.js, logLine)."""

from __future__ import annotations

import pytest

from skydeck.games.stellium.describe import describe_event

EFFECTS = [
    {"effect": "none"},
    {"effect": "swap", "spaces": ["c1", "e1"]},
    {"effect": "collision", "from": "c3", "direction": "ne", "off_edge": "comet"},
    {"effect": "rotation", "galaxy": "south", "degrees": 240},
    {"effect": "attraction", "hole": "g1", "from": "i1"},
]


@pytest.mark.parametrize("effect", EFFECTS, ids=[e["effect"] for e in EFFECTS])
def test_every_effect_sentence_starts_with_the_mover(effect: dict[str, object]) -> None:
    text = describe_event({"kind": "effect", "seat": 1, **effect}, ["Ada", "Bo"])
    assert text.startswith("Bo "), text
