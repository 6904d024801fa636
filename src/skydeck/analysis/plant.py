"""Planted mistakes: a heuristic match with one move replaced by a clearly bad legal
move, to measure whether the analyser flags it (docs/analysis.md, "How well").

What "clearly bad" means is measured, not assumed: at a decision, the planter weighs
the heuristic's own move against a few other legal moves (the game's ``bad_move`` hint
first, then a seeded sample of the rest) by paired playouts, picks the worst on half
of them and keeps it only if, measured again on the other half (fresh deals, so the
worst of several noisy numbers is not flattered by its own noise: the winner's curse),
it loses at least ``margin`` of win chance to the heuristic's move, clear of two
standard errors.

Why from the seat's view: the planter builds its states with the same determinisation
as the analyser (:class:`~skydeck.analysis.estimate.Estimator`: ``from_view`` and
``resample`` of ``state.view(seat)``), never from the true state. A move that is bad
only given hidden facts (an opponent's unseen fleet) is not a mistake the seat could
have seen, and no honest analyser can flag it. Its seeds are its own (``plant_seed``),
apart from the grading's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skydeck.analysis.estimate import Arm, Estimator, mix, paired
from skydeck.analysis.selfplay import play_heuristic
from skydeck.analysis.support import analysis_for
from skydeck.core import Action, Game, Rng, State
from skydeck.core.record import MatchRecord

_PLANT = 0x504C414E54  # "PLANT": keeps the planter's seeds apart from the grading's


@dataclass(frozen=True)
class Planter:
    """The planter's knobs. A decision is tried from the ``start``-th decision (two or
    more legal moves) of the match on, every ``every`` decisions, at most ``tries``
    times; the first try that finds a clearly bad move plants it."""

    #: Legal moves sampled besides the game's ``bad_move`` hint.
    candidates: int = 6
    #: Playouts per move to pick the worst; as many again to confirm it.
    playouts: int = 16
    #: The least confirmed drop in win chance from the heuristic's move (0-1).
    margin: float = 0.30
    start: int = 10
    every: int = 1
    tries: int = 3

    @property
    def rounds(self) -> int:
        """Playouts per move in each half (a paired estimate needs two)."""
        return max(2, self.playouts)


@dataclass(frozen=True)
class Planted:
    """The move planted at ``step`` (index in the record) and its confirmed drop from
    the heuristic's move ``chosen``, with the drop's standard error."""

    step: int
    move: Action
    chosen: Action
    drop: float
    se: float
    tries: int

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "move": self.move.to_json(),
            "chosen": self.chosen.to_json(),
            "drop": self.drop,
            "se": self.se,
            "tries": self.tries,
        }


def weigh(
    game: Game,
    view: dict[str, Any],
    seat: int,
    chosen: Action,
    seed: int,
    planter: Planter = Planter(),
) -> tuple[Estimator, list[tuple[Action, float]]]:
    """The candidates' drops from ``chosen`` (paired playouts from the seat's ``view``
    on deals ``0..planter.playouts``), the game's ``bad_move`` hint first, and the
    estimator (for measuring again on fresh deals)."""
    support = analysis_for(game)
    est = Estimator(game, support, view, seat, mix(seed, _PLANT))
    legal = est.root.legal_actions(seat)
    if chosen not in legal:
        raise ValueError(f"{game.id}: {chosen} is not a legal move of seat {seat} here")
    rng = Rng(mix(seed, _PLANT, 1))
    pool: list[Action] = []
    if support.bad_move is not None:
        hint = support.bad_move(est.root.clone(), seat, legal, rng.spawn())
        if hint is not None and hint != chosen:
            pool.append(hint)
    rest = [a for a in legal if a != chosen and a not in pool]
    rng.shuffle(rest)
    pool += rest[: planter.candidates]
    arms = [Arm(seat, a) for a in (chosen, *pool)]
    tallies = est.tallies(len(arms))
    est.run(arms, tallies, range(planter.rounds))
    return est, [(a, paired(tallies[0], t)[0]) for a, t in zip(pool, tallies[1:])]


def worst_move(
    game: Game,
    view: dict[str, Any],
    seat: int,
    chosen: Action,
    seed: int,
    planter: Planter = Planter(),
) -> tuple[Action, float, float] | None:
    """A legal move of ``seat`` clearly worse than ``chosen`` from the seat's ``view``
    alone: (move, confirmed drop, its standard error), or None where no candidate is
    ``planter.margin`` worse. Same view and seed, same answer."""
    est, drops = weigh(game, view, seat, chosen, seed, planter)
    if not drops:
        return None
    worst, drop = max(drops, key=lambda d: d[1])  # the first of equals: the hint
    if drop < planter.margin:
        return None
    n = planter.rounds
    again = est.tallies(2)
    est.run([Arm(seat, chosen), Arm(seat, worst)], again, range(n, 2 * n))
    drop, se = paired(again[0], again[1])
    if drop < planter.margin or drop <= 2.0 * se:
        return None
    return worst, drop, se


def planted_record(
    game: Game, seed: int, plant_seed: int, planter: Planter = Planter(), max_steps: int = 5000
) -> tuple[MatchRecord, Planted | None]:
    """Deal ``seed`` played by the heuristic on every seat, one move replaced by
    :func:`worst_move` (seeded by ``plant_seed`` and the step); the record and what was
    planted (None: no try found a clearly bad move)."""
    found: list[Planted] = []
    tried = 0

    def pick(
        state: State, seat: int, legal: list[Action], action: Action, decision: int, step: int
    ) -> Action | None:
        nonlocal tried
        if found or tried >= planter.tries or decision < planter.start:
            return None
        if (decision - planter.start) % max(1, planter.every):
            return None
        tried += 1
        bad = worst_move(game, state.view(seat), seat, action, mix(plant_seed, step), planter)
        if bad is None:
            return None
        move, drop, se = bad
        found.append(Planted(step, move, action, drop, se, tried))
        return move

    record = play_heuristic(game, seed, pick, max_steps)
    return record, (found[0] if found else None)
