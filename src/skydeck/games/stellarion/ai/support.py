"""Stellarion search support: the view's inverse, a playout policy and an evaluation.

Stellarion is co-operative with everything shared at the table; what is hidden is only
order (the unknown middle of each deck, the Theory stack under its top token). The view
lists each deck's contents, its known top and bottom cards and its discard pile, so a
state is rebuilt by putting the known cards in place and shuffling the rest.

Playouts: random Coordinates waste the decks, so the policy Launches whenever it can,
proves Theories and spends Meteors at once, and otherwise plays a random action with a
preference for Coordinates that keep Launch material (see :func:`rollout`). The
evaluation rewards a win fully and a loss by the share of Voyages taken, so the search
still climbs when every line loses (most lines lose at 0 Shooting Stars).
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Game, Rng, State
from skydeck.core.search import GameSupport
from skydeck.games.stellarion import inverse
from skydeck.games.stellarion.game import StellarionGame
from skydeck.games.stellarion.state import StellarionState


def from_view(game: Game, view: dict[str, Any], seat: int, rng: Rng) -> State:
    """The game's own inverse of its view (every seat sees the same in Stellarion)."""
    assert isinstance(game, StellarionGame)
    return inverse.from_view(game, view, rng)


def evaluate(state: State) -> list[float]:
    """Win 1; a loss 0.5 x progress; an unfinished playout is judged by progress plus
    what keeps a game alive: usable cards (the Observatory loses every card used; the
    end of a turn turns up every face-down top, RULINGS 6, or one of them under the
    ``reveal="one"`` variant), how close a Launch is, tokens in reserve and, with the
    Glaucous Sun, the distance left to the final space."""
    assert isinstance(state, StellarionState)
    s = state
    n = s.game.players
    if s.outcome > 0:
        return [1.0] * n
    got = sum(len(p) for p in s.piles)
    total = got + sum(len(c) for c in s.columns)
    if s.game.theories:
        got += len(s.proven)
        total += len(s.proven) + len(s.theories)
    progress = got / max(1, total)
    if s.outcome < 0:
        return [0.5 * progress] * n
    decks, up = s.decks, s.up
    usable = [decks[d][-1] & 31 for d in range(8) if up[d] and decks[d]]
    usable += [c & 31 for c in s.outpost]
    galaxies = {s.game.voyage_galaxy[col[-1]] for col in s.columns if col}
    ready = 0
    for g in galaxies:
        have = len({f & 3 for f in usable if f < 16 and f >> 2 == g})
        ready = max(ready, have)
    value = (
        0.5 * progress
        + 0.14 * min(len(usable), 7) / 7
        + 0.08 * ready / 4
        + 0.04 * min(s.stars, 2) / 2
        + 0.04 * (1.0 if s.held >= 2 else 0.5 * s.held)
    )
    if s.game.glaucous_sun:
        span = s.game.sun_final - s.game.sun_start
        value -= 0.1 * (s.sun - s.game.sun_start) / max(1, span)
    return [max(0.0, value)] * n


def rollout(state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
    for kind in ("launch", "traverse", "meteor", "prove", "take"):
        for a in legal:
            if a.kind == kind:
                return a
    return legal[rng.below(len(legal))]


SUPPORT = GameSupport(
    from_view=from_view,
    rollout=rollout,
    evaluate=evaluate,
    cooperative=True,
    rollout_depth=40,  # a few turns; keeps one iteration short so answers stay prompt
)
