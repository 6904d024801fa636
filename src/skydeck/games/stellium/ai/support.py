"""Stellium search support: the game's own view inversion, the heuristic as a model of
every player, and a position value (Stelliums plus how close the Missions in hand are)
to judge a playout at a turn boundary.

The search is flat (see ``GameSupport.flat``): for each of a few root moves, the
heuristic plays the rest of the turn and every other player's next turn, and the table
is judged when the turn comes back to the searching seat. This is a policy rollout: the
heuristic, improved by looking at what its own moves lead to once the rivals have
answered. Judged there, a Mission left for a rival to complete or block is seen.

What did not work, measured with ``skydeck tournament`` against the heuristic (seed
1000, 40 games): a tree search that judged every leaf by the heuristic's one-move value
wherever it stopped (mid-turn, a reply later) won 19 of 40; the search then mostly
re-derived the heuristic and overrated Comets and Supernovas (many placements make the
best leaf look good). This flat search won 26 of 40 on the same deals while it kept the
heuristic's pick unless the search was clearly better (the trust rule, which assumes the
widest spread of rewards and so, at about 130 playouts an answer, hardly ever let the
search decide), and 40 of 40 without that rule: the playouts foresee the rivals'
replies, so the search takes and blocks what they are about to complete.
"""

from __future__ import annotations

import math
from typing import Any

from skydeck.core import Action, Game, Rng, State
from skydeck.core.search import GameSupport
from skydeck.games.stellium.ai.heuristic import HeuristicAgent, decide
from skydeck.games.stellium.inverse import from_view
from skydeck.games.stellium.progress import HELD, hand_value, values
from skydeck.games.stellium.state import StelliumState

ROOT_ACTIONS = 4

SCALE = 6.0  # points: a difference worth about a Mission


def evaluate(state: State) -> list[float]:
    """One reward per seat in [0, 1]: a win counts most once the game is over; before
    that, the margin over the best rival of Stelliums plus held Missions' progress."""
    assert isinstance(state, StelliumState)
    n = state.game.players
    if state.is_over:
        winners = state.winners
        scores = state.scores
        out = []
        for i in range(n):
            best_other = max(scores[j] for j in range(n) if j != i)
            margin = 0.5 + 0.5 * math.tanh((scores[i] - best_other) / SCALE)
            out.append((0.9 if i in winners else 0.0) + 0.1 * margin)
        return out
    worth = [state.total(i) + HELD * hand_value(state, i) for i in range(n)]
    return [
        0.5 + 0.5 * math.tanh((worth[i] - max(worth[j] for j in range(n) if j != i)) / SCALE)
        for i in range(n)
    ]


def playout(state: State, rng: Rng) -> list[float]:
    """The heuristic plays every seat until the turn has gone round the table once
    (the searching seat's turn, begun at the root, and each rival's), then judge."""
    assert isinstance(state, StelliumState)
    stop = state.turn_count + state.game.players
    while state.turn_count < stop:
        to_move = state.to_move
        if not to_move:
            break
        seat = to_move[0]
        state._apply(decide(state, state.legal_actions(seat), seat, rng), seat)
    return evaluate(state)


def candidates(game: Game, view: dict[str, Any], legal: list[Action], seat: int) -> list[Action]:
    """The heuristic's pick first, then the next best by its one-move value: the search
    then only has to find a clearly better line among a few sound moves.

    A short list (which body to draw, which body to keep) is still ranked, pick first,
    so that the agent's trust rule applies to it as well."""
    pick = HeuristicAgent(game, seed=0).choose(view, legal, seat)
    if len(legal) <= ROOT_ACTIONS:
        return [pick, *(a for a in legal if a != pick)]
    base = from_view(game, view, seat, Rng(0))
    rest = [a for a in legal if a != pick]
    after = []
    for a in rest:
        s = base.clone()
        s.apply(a, seat)
        after.append(s)
    scored = [(v, str(a), a) for v, a in zip(values(after, seat), rest)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [pick, *(a for _, _, a in scored[: ROOT_ACTIONS - 1])]


SUPPORT = GameSupport(
    candidates=candidates,
    from_view=from_view,
    evaluate=evaluate,
    rollout_depth=0,
    score_scale=SCALE,
    flat=True,
    playout=playout,
    trust=False,
)
