"""Win chances by playouts from a seat's view: determinise, play out, count wins.

Every number starts from one view: the game's ``from_view`` rebuilds a state the seat
could be in, and every playout re-draws all it cannot see (``State.resample``) and the
state's own generator (future draws, dice, shuffles). Nothing of the true state is
used, so two true states with the same view give the same answer for a fixed seed.

The moves compared at one decision (the arms) share their playouts' deals and
generators (common random numbers): a difference between two moves is then the moves'
doing, not a different deal, which cuts the noise of a comparison several times.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from skydeck.agents.belief import reseed
from skydeck.agents.support import support_for
from skydeck.analysis.support import policy_for
from skydeck.core import Action, Game, Rng, State
from skydeck.core.analysis import AnalysisSupport

_MASK = (1 << 64) - 1


def mix(*parts: int) -> int:
    """One 64-bit seed from several integers (SplitMix64 over them), so that a task's
    seed depends on (analysis seed, step, seat) only."""
    z = 0x9E3779B97F4A7C15
    for p in parts:
        z = (z ^ (p & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        z = (z ^ (z >> 31)) * 0x94D049BB133111EB & _MASK
        z ^= z >> 29
    return z


@dataclass(frozen=True)
class Arm:
    """One line to play out: ``actor`` plays ``action`` first (None: nobody is told
    what to play, the policy plays from the position)."""

    actor: int | None = None
    action: Action | None = None


@dataclass
class Tally:
    """Outcomes of one arm: the sum of each seat's win share, the playouts, and the
    observer's share per playout index (for paired comparisons)."""

    sums: list[float]
    n: int = 0
    rejected: int = 0
    unfinished: int = 0
    by_index: dict[int, float] = field(default_factory=dict)

    def mean(self) -> list[float] | None:
        return None if self.n == 0 else [s / self.n for s in self.sums]


def outcome(state: State, support: AnalysisSupport) -> list[float]:
    """Each seat's win share at the end: 1 for a sole winner, 1/k for k tied winners,
    1 for every seat of a won co-operative game; 0 for a loss."""
    n = state.game.players
    winners = state.winners
    if support.cooperative:
        return [1.0 if winners else 0.0] * n
    if not winners:
        return [0.0] * n
    share = 1.0 / len(winners)
    return [share if i in winners else 0.0 for i in range(n)]


def play_out(
    state: State, game: Game, support: AnalysisSupport, rng: Rng
) -> tuple[list[float], bool]:
    """Play to the end (or ``support.depth`` steps, then ``support.judge``) with the
    game's policy; (win shares, finished)."""
    policy = policy_for(game, support)
    depth = support.depth if support.judge is not None else None
    for step in range(support.max_steps):
        to_move = state.to_move
        if not to_move:
            return outcome(state, support), True
        if depth is not None and step >= depth:
            assert support.judge is not None
            return list(support.judge(state)), True
        seat = to_move[0] if len(to_move) == 1 else to_move[rng.below(len(to_move))]
        legal = state.legal_actions(seat)
        state._apply(policy(state, seat, legal, rng), seat)  # picked from legal
    n = game.players
    return [1.0 / n] * n, False


class Estimator:
    """Playouts from one seat's view. ``seed`` decides every deal and every playout."""

    def __init__(
        self,
        game: Game,
        support: AnalysisSupport,
        view: dict[str, Any],
        observer: int,
        seed: int,
    ) -> None:
        self.game, self.support, self.observer, self.seed = game, support, observer, seed
        search = support_for(game)
        if search.from_view is None:
            raise ValueError(
                f"{game.id}: the analysis needs the game's from_view (a state from a view)"
            )
        rng = Rng(mix(seed, 1))
        self.root = reseed(search.from_view(game, view, observer, rng.spawn()), rng)
        self.playouts = 0

    def deal(self, index: int) -> tuple[State, int]:
        """Playout ``index``'s determinisation and the seed of its playout generator."""
        rng = Rng(mix(self.seed, 2, index))
        state = reseed(self.root.resample(self.observer, rng), rng)
        return state, rng.next64()

    def run(self, arms: list[Arm], tallies: list[Tally], indices: range) -> None:
        """Play every arm once on each of the deals ``indices`` (an arm whose action
        the deal does not allow is skipped there and counted as rejected)."""
        for index in indices:
            deal, playout_seed = self.deal(index)
            for arm, tally in zip(arms, tallies):
                state = deal.clone()
                if arm.action is not None:
                    assert arm.actor is not None
                    if arm.actor not in state.to_move or arm.action not in state.legal_actions(
                        arm.actor
                    ):
                        tally.rejected += 1
                        continue
                    state._apply(arm.action, arm.actor)
                shares, finished = play_out(state, self.game, self.support, Rng(playout_seed))
                self.playouts += 1
                tally.n += 1
                tally.unfinished += not finished
                for i, v in enumerate(shares):
                    tally.sums[i] += v
                tally.by_index[index] = shares[self.observer]

    def tallies(self, count: int) -> list[Tally]:
        return [Tally([0.0] * self.game.players) for _ in range(count)]


def paired(a: Tally, b: Tally) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` for the observer over shared deals."""
    common = sorted(set(a.by_index) & set(b.by_index))
    if not common:
        return 0.0, math.inf
    diffs = [a.by_index[i] - b.by_index[i] for i in common]
    mean = sum(diffs) / len(diffs)
    if len(diffs) < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean, math.sqrt(var / len(diffs))
