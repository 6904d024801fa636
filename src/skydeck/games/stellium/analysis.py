"""What the after-the-game analyser needs of Stellium (``skydeck analyse``).

Measured: each seat's win chance (a tie for the most Stelliums shares the win). A
playout is the heuristic's own ``decide`` for every seat (the policy the heuristic
plays by) for 8 steps, about one turn of each player, then judged by the search's
position value: each seat's Stelliums plus the progress of the Missions in its hand,
its margin over the best rival put through ``0.5 + 0.5 tanh(margin / 6)`` and the
seats' numbers scaled to sum to 1. Nothing was fitted: docs/analysis.md gives the
calibration this yields.

Chance events: drawing from the bag (the body drawn), and taking a Mission, which turns
up the next Mission of the reserve. Both show as a step where the state drew from its
generator or revealed what was hidden.

Thresholds (drop in win chance): inaccuracy 0.05, mistake 0.10, blunder 0.20.
The planted mistake: of the legal moves, the one the heuristic's one-move value rates
lowest (placing a body where it helps the seat least, taking the worst Mission).
"""

from __future__ import annotations

from skydeck.core import Action, Game, Rng, State
from skydeck.core.analysis import AnalysisSupport, Policy

from .ai.heuristic import decide
from .ai.support import evaluate
from .progress import values
from .state import StelliumState


def policy(game: Game) -> Policy:
    def choose(state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
        assert isinstance(state, StelliumState)
        return decide(state, legal, seat, rng)

    return choose


def judge(state: State) -> list[float]:
    shaped = evaluate(state)
    total = sum(shaped) or 1.0
    return [v / total for v in shaped]


def bad_move(state: State, seat: int, legal: list[Action], rng: Rng) -> Action | None:
    assert isinstance(state, StelliumState)
    after = []
    for a in legal:
        s = state.clone()
        s.apply(a, seat)
        after.append(s)
    rated = sorted(zip(values(after, seat), (str(a) for a in legal), legal))
    worst, best = rated[0], rated[-1]
    return worst[2] if best[0] - worst[0] > 1.0 else None


ANALYSIS = AnalysisSupport(
    measure="win chance (a tie for the most Stelliums shares the win); playouts of the "
    "heuristic, one turn of each player, then the position value's margin",
    policy=policy,
    depth=8,
    judge=judge,
    playouts=48,
    width=3,
    chance="bag draws (the body drawn) and the Mission turned up when one is taken",
    bad_move=bad_move,
)
