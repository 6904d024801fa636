"""What the after-the-game analyser needs of Stellar Expedition (``skydeck analyse``).

Measured: each seat's win chance (the rulebook's tie-breaks decide the winner; the
solo game counts a win over the drone). A playout is the search's own rollout, the
heuristic for every seat (a fresh player per playout), played to the end of the match.

Chance events: the Sensor rolls and rerolls, the chance rolls of Encounters, tiles
and Expedition cards drawn, Upgrades turned up: every step that drew from the state's
generator or turned up what was hidden.

Thresholds (drop in win chance): inaccuracy 0.05, mistake 0.10, blunder 0.20.
The planted mistake: the legal move the heuristic rates lowest, where it rates it well
below its best (passing up an Expedition, a wasteful reroll).
"""

from __future__ import annotations

from skydeck.core import Action, Game, Rng, State
from skydeck.core.analysis import AnalysisSupport, Policy

from .ai.support import _rater, rollout


def policy(game: Game) -> Policy:
    return rollout


def bad_move(state: State, seat: int, legal: list[Action], rng: Rng) -> Action | None:
    rater = _rater(state.game)
    view = state.view(seat)
    rated = sorted(((rater.score(view, a, seat), str(a), a) for a in legal), key=lambda t: t[:2])
    worst, best = rated[0], rated[-1]
    return worst[2] if best[0] - worst[0] >= 3.0 else None


ANALYSIS = AnalysisSupport(
    measure="win chance (ties broken as the rulebook says; solo: beating the drone); "
    "heuristic playouts to the end of the match",
    policy=policy,
    playouts=16,
    width=3,
    chance="Sensor and chance rolls, tiles, Expedition cards and Upgrades drawn or turned up",
    bad_move=bad_move,
)
