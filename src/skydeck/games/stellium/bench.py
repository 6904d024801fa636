"""Stellium-specific speed figure: the cost of one Mission check (all placements of
one card against one board). ``skydeck bench stellium`` gives steps/s; this adds

    python -m skydeck.games.stellium.bench
"""

from __future__ import annotations

import json
import time

from skydeck.core import Rng
from skydeck.games.stellium.game import StelliumGame
from skydeck.games.stellium.state import StelliumState
from skydeck.games.stellium.tables import CARDS, UNIVERSE


def sample_boards(count: int = 50, seed: int = 0) -> list[StelliumState]:
    """Mid-game states from random play."""
    game = StelliumGame(players=3)
    rng = Rng(seed)
    out = []
    for k in range(count):
        s = game.new(seed + k)
        for _ in range(rng.below(80)):
            if s.is_over:
                break
            seat = s.to_move[0]
            s.apply(rng.choice(s.legal_actions(seat)), seat)
        out.append(s)
    return out


def matching_cost(seconds: float = 1.0) -> dict[str, float]:
    """Microseconds per card check, averaged over all 40 cards and sample boards."""
    boards = sample_boards()
    checks = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for s in boards:
            for card in CARDS:
                card.matches(s.board, s.colours, UNIVERSE.centres)
            checks += len(CARDS)
    elapsed = time.perf_counter() - start
    return {"checks": checks, "us_per_check": round(elapsed / checks * 1e6, 2)}


def report(seconds: float = 1.0) -> dict[str, object]:
    """Extra figures for ``skydeck bench stellium`` (after the random-play table)."""
    cost = matching_cost(min(seconds, 2.0))
    return {
        "Mission checks timed": cost["checks"],
        "µs per Mission check (one card, one board)": cost["us_per_check"],
    }


if __name__ == "__main__":
    print(json.dumps(matching_cost()))
