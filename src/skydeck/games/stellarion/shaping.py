"""How far a Stellarion deal has gone, for RL reward shaping where the game itself pays
only at the end (``Capabilities.progress``; the heuristic's value, ``.value``, is
``agents.position_value``)."""

from __future__ import annotations

from typing import Any

from skydeck.core import State


def progress(state: State) -> float:
    """Share of the Voyages taken (0 at the deal, 1 when the last one is taken)."""
    s: Any = state
    taken = sum(len(p) for p in s.piles)
    left = sum(len(c) for c in s.columns)
    return taken / (taken + left) if taken + left else 1.0

