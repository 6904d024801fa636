"""The solver's greedy line: the legal actions less the dominated ones, and the line
that takes the best-rated child at every step to the end of the game.

Apart from the solver (solve.py), which searches around this line, because the honest
players play it too: ``pimc`` from each candidate in dealt states, and ``lookahead``'s
endgame. While it was a method of the solver, lookahead -> pimc -> solve -> lookahead
(the solver's planner pass plays ``lookahead``) was an import cycle (issue 47).
"""

from __future__ import annotations

from skydeck.core import Action
from skydeck.games.stellarion.ai.heuristic import BASE, Weights, evaluate
from skydeck.games.stellarion.legal import END, Key
from skydeck.games.stellarion.state import StellarionState


def candidates(s: StellarionState, defer_meteors: bool, sun: bool) -> list[tuple[Action, Key]]:
    """The legal actions minus the dominated ones (solve.py's module doc, pruning 1-3).
    ``defer_meteors``: solo without Mirrors (trading at the end of a turn is never
    better than at the start of the next); ``sun``: the Glaucous Sun is in play."""
    table = s._table()
    items = list(table.items())
    for action, k in items:
        if k[0] == "P":
            return [(action, k)]
    if s.phase == END and defer_meteors:
        items = [(a, k) for a, k in items if k[0] != "M"]
    if sun and not s.meteors:
        forfeits = [k[1] for _, k in items if k[0] == "F"]
        if forfeits:
            most = max(forfeits)
            items = [(a, k) for a, k in items if k[0] != "F" or k[1] == most]
    return items


def finish(s: StellarionState, weights: Weights = BASE, max_steps: int = 1000) -> StellarionState:
    """The discrepancy-0 line from ``s`` played to the end, with no table and no
    budget: at every step the child ``evaluate`` rates best (the earlier on a tie, as
    the solver orders them); where every child loses at once, the first of them. The
    final state (unfinished after ``max_steps``, a guard against a line that cycles, as
    retrieving the two Nebulas just spent could). ``pimc`` plays this line in dealt
    states."""
    game = s.game
    defer_meteors = game.players == 1 and not game.mirrors
    sun = game.glaucous_sun
    for _ in range(max_steps):
        if s.is_over:
            break
        best: StellarionState | None = None
        best_value = 0.0
        lost: StellarionState | None = None
        for action, k in candidates(s, defer_meteors, sun):
            child = s.clone()
            child._do(k, action, child.turn)
            if child.outcome > 0:
                return child
            if child.outcome < 0:
                if lost is None:
                    lost = child
                continue
            value = evaluate(child, weights)
            if best is None or value > best_value:
                best, best_value = child, value
        step = best if best is not None else lost
        if step is None:
            break  # no legal action at all: the engine ends a game before that
        s = step
    return s
