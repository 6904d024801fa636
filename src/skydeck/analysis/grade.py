"""Grades and accuracy from drops in win chance.

A move's *drop* is the best move's chance less the played move's, both measured on the
same fresh deals. Grades use the game's thresholds (``AnalysisSupport.thresholds``:
inaccuracy, mistake, blunder) and only count a drop larger than two standard errors of
its own estimate, so that the playouts' noise alone does not mark a sound move.

Accuracy (0-100) per move is lichess's curve over the drop in percentage points,
``103.1668 * exp(-0.04354 * drop) - 3.1669`` clipped to [0, 100]: 100 for no drop, about
80 for 5 points, 65 for 10, 41 for 20, 13 for 40. A seat's accuracy is the mean over
its decisions (forced moves are not decisions).
"""

from __future__ import annotations

import math

GRADES = ("good", "inaccuracy", "mistake", "blunder")


def grade(drop: float, se: float, thresholds: tuple[float, float, float]) -> str:
    if drop <= 2.0 * se or drop < thresholds[0]:
        return "good"
    if drop < thresholds[1]:
        return "inaccuracy"
    if drop < thresholds[2]:
        return "mistake"
    return "blunder"


def move_accuracy(drop: float) -> float:
    """lichess's accuracy of one move from its drop in win chance (0-1)."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, drop) * 100.0) - 3.1669
    return max(0.0, min(100.0, value))


def accuracy(drops: list[float]) -> float | None:
    return None if not drops else sum(move_accuracy(d) for d in drops) / len(drops)
