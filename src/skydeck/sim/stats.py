"""Statistics for tournaments: Wilson intervals and Elo from pairwise results.

Wilson's score interval behaves well near 0 and 1 (where win rates of strong agents
live) and for small samples, unlike the normal approximation.

Elo is fitted as a Bradley-Terry model by minorisation-maximisation (Hunter 2004) on
every pairwise outcome, draws counted half each way. Each agent also plays one virtual
draw against a fixed anchor (gamma 1), which keeps ratings finite when an agent never loses
and is negligible once many games are in. Ratings are shifted to average 1500.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (successes may be fractional: draws
    count half; so may ``n``, an effective sample size). ``(0.0, 1.0)`` when there is
    no data."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"wilson needs 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def elo(
    outcomes: Iterable[tuple[str, str, float]], names: Iterable[str] | None = None
) -> dict[str, float]:
    """Ratings from ``(a, b, score of a)`` outcomes (1 win, 0.5 draw, 0 loss)."""
    wins: dict[str, float] = {}
    pairs: dict[tuple[str, str], float] = {}
    for a, b, score in outcomes:
        if a == b:
            continue
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"an outcome's score is 0, 0.5 or 1; got {score}")
        wins[a] = wins.get(a, 0.0) + score
        wins[b] = wins.get(b, 0.0) + 1.0 - score
        key = (a, b) if a < b else (b, a)
        pairs[key] = pairs.get(key, 0.0) + 1.0
    players = sorted(set(wins) | set(names or ()))
    if not players:
        return {}
    gamma = dict.fromkeys(players, 1.0)
    for _ in range(2000):
        new = {}
        for p in players:
            denom = 1.0 / (gamma[p] + 1.0)  # the virtual game against the anchor
            for (a, b), n in pairs.items():
                if a == p:
                    denom += n / (gamma[p] + gamma[b])
                elif b == p:
                    denom += n / (gamma[p] + gamma[a])
            new[p] = (wins.get(p, 0.0) + 0.5) / denom
        delta = max(abs(math.log(new[p] / gamma[p])) for p in players)
        gamma = new
        if delta < 1e-10:
            break
    ratings = {p: 400.0 * math.log10(g) for p, g in gamma.items()}
    shift = 1500.0 - sum(ratings.values()) / len(ratings)
    return {p: r + shift for p, r in ratings.items()}
