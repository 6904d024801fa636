"""The analyser's unit of work, one position seen by one seat, as a plain dict in and
a plain dict out (so that a process pool or Ray can run it anywhere).

A task holds the seat's view, never a state: the worker rebuilds states from the view
(:class:`~skydeck.analysis.estimate.Estimator`), which is what makes the analysis
honest. Three kinds:

- ``decision``: the seat to move weighs the move played, the heuristic's own choice
  (``before``: the chance if the policy plays) and a few candidates; half the playouts pick the best
  candidate, the other half measure it against the move played (a fresh measurement,
  so the best of several noisy numbers is not flattered by its own noise);
- ``position``: the seat's chances from its view when it is not deciding (after a
  chance event);
- ``expect``: another seat's move played on the deals of this seat's view (deals where
  that move is not possible are rejected): the seat's chances just before a chance
  event's outcome was known.
"""

from __future__ import annotations

import time
from typing import Any

from skydeck.agents.support import support_for
from skydeck.analysis.estimate import Arm, Estimator, Tally, mix, paired
from skydeck.analysis.support import analysis_for, policy_for
from skydeck.core import Action, Game, Rng
from skydeck.registry import load

Task = dict[str, Any]


def run_task(task: Task) -> dict[str, Any]:
    """Run one task (any process: everything it needs is in ``task``)."""
    started, cpu = time.perf_counter(), time.process_time()
    game = load(task["game"], **task["options"])
    kind = task["kind"]
    if kind == "decision":
        out = _decision(game, task)
    elif kind == "position":
        out = _position(game, task)
    elif kind == "expect":
        out = _expect(game, task)
    else:
        raise ValueError(f"unknown analysis task kind {kind!r}")
    out["id"] = task["id"]
    out["seconds"] = time.perf_counter() - started
    out["cpu"] = time.process_time() - cpu
    return out


def _estimator(game: Game, task: Task) -> Estimator:
    return Estimator(game, analysis_for(game), task["view"], task["observer"], task["seed"])


def candidates(
    game: Game, est: Estimator, view: dict[str, Any], seat: int, legal: list[Action], width: int
) -> list[Action]:
    """The moves worth weighing, best first by the game's own ranking: the analysis
    support's or the search support's candidates, else the policy's pick and a seeded
    sample of the rest."""
    ranked: list[Action] = []
    search = support_for(game)
    if search.candidates is not None:
        ranked = list(search.candidates(game, view, legal, seat))
    pick = policy_for(game, est.support)(est.root.clone(), seat, legal, Rng(mix(est.seed, 3)))
    ranked.insert(0, pick)
    rest = [a for a in legal if a not in ranked]
    Rng(mix(est.seed, 4)).shuffle(rest)
    out: list[Action] = []
    for a in [*ranked, *rest]:
        if a not in out and a in legal:
            out.append(a)
        if len(out) >= width:
            break
    return out


def _decision(game: Game, task: Task) -> dict[str, Any]:
    est = _estimator(game, task)
    seat = task["observer"]
    played = game.action_from_json(task["action"])
    legal = est.root.legal_actions(seat)
    if played not in legal:
        raise ValueError(
            f"{game.id}: step {task['step']}: the move played ({played}) is not legal in the "
            "state rebuilt from the seat's view (the view's inversion is out of step)"
        )
    n = max(2, int(task["playouts"]))
    if len(legal) == 1:  # a forced move: no decision, but its value (for luck)
        [t] = est.tallies(1)
        est.run([Arm(seat, played)], [t], range(n // 2))
        value = t.mean()
        return {
            "forced": True,
            "before": value,
            "after": value,
            "best": value,
            "playouts": est.playouts,
            "candidates": [],
        }
    moves = candidates(game, est, task["view"], seat, legal, int(task["width"]))
    pick = moves[0]  # the policy's own choice: "before" is the chance if it plays
    if played not in moves:
        moves.append(played)
    first = n // 2
    arms = [Arm(seat, a) for a in moves]
    tallies = est.tallies(len(arms))
    est.run(arms, tallies, range(first))
    scored = []
    for a, t in zip(moves, tallies):
        m = t.mean()
        scored.append((m[seat] if m else -1.0, a))
    # the best by the first half; on a tie the move played (no drop from noise alone)
    best = max(scored, key=lambda x: (x[0], x[1] == played))[1]
    again = list(dict.fromkeys([played, best, pick]))
    later = est.tallies(len(again))
    est.run([Arm(seat, a) for a in again], later, range(first, n))
    measured = dict(zip(again, later))
    before = _joined(tallies[moves.index(pick)], measured[pick])
    after = measured[played].mean()
    best_value = measured[best].mean()
    drop, se = paired(measured[best], measured[played]) if best != played else (0.0, 0.0)
    if best != played and drop <= 0:  # measured afresh, the played move held: no better
        best, best_value, drop = played, after, 0.0
    return {
        "forced": False,
        "before": before,
        "after": after,
        "best": best_value,
        "best_move": best.to_json(),
        "drop": max(0.0, drop),
        "se": se,
        "legal": len(legal),
        "candidates": [{"move": a.to_json(), "chance": v} for v, a in scored],
        "playouts": est.playouts,
    }


def _joined(a: Tally, b: Tally) -> list[float] | None:
    """The mean of two tallies of one arm over disjoint deals."""
    n = a.n + b.n
    return None if n == 0 else [(x + y) / n for x, y in zip(a.sums, b.sums)]


def _position(game: Game, task: Task) -> dict[str, Any]:
    est = _estimator(game, task)
    [t] = est.tallies(1)
    est.run([Arm()], [t], range(max(1, int(task["playouts"]))))
    return {"value": t.mean(), "playouts": est.playouts}


def _expect(game: Game, task: Task) -> dict[str, Any]:
    """The observer's chances with another seat's move played, over deals of the
    observer's view that allow that move (at most four times the playouts tried)."""
    est = _estimator(game, task)
    actor = int(task["actor"])
    action = game.action_from_json(task["action"])
    want = max(1, int(task["playouts"]))
    [t] = est.tallies(1)
    index = 0
    while t.n < want and index < 4 * want:
        est.run([Arm(actor, action)], [t], range(index, index + 1))
        index += 1
    return {"value": t.mean(), "rejected": t.rejected, "playouts": est.playouts}
