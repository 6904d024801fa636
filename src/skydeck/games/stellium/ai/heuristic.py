"""A greedy Stellium player that pursues its Missions and spoils obvious ones.

Agents see views, never states. Stellium's view hides only the Mission Reserve's
order, so the agent rebuilds a full state from the view (any Reserve order will do:
nothing it evaluates depends on it) and scores each legal action one step ahead:

    value = own Mission Stelliums + tokens + colour bonus
          + half of what its held Missions are worth times how complete they are (squared)
          - a third of the best opponent's same measure (blocking)

Missions are always completed when they can be, the highest first.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Game, Rng
from skydeck.games.stellium.progress import potential, values
from skydeck.games.stellium.rules import (
    CARD_INDEX,
    CARDS,
    DRAW_PHASE,
    NEW_MISSION,
    StelliumState,
)
from skydeck.games.stellium.view import state_from_view


def decide(state: StelliumState, legal: list[Action], seat: int, rng: Rng) -> Action:
    """The heuristic's choice in a full state: the agent's policy, and the search's
    playout policy (``skydeck.games.stellium.ai.support``), so that both play alike."""
    obvious = _obvious(legal)
    if obvious is not None:
        return obvious
    phase = state.phase
    if phase == DRAW_PHASE:
        return _draw(state, legal, seat, rng)
    if phase == NEW_MISSION:
        return _mission(state, legal, seat, rng)
    return _best(state, legal, seat, rng)


def _obvious(legal: list[Action]) -> Action | None:
    """A choice needing no look at the table: the only action, or completing the
    highest Mission (Missions are always completed when they can be)."""
    if len(legal) == 1:
        return legal[0]
    completes = [a for a in legal if a.kind == "complete"]
    if completes:
        return max(completes, key=lambda a: CARDS[CARD_INDEX[str(a.args[0])]].points)
    return None


def _best(state: StelliumState, actions: list[Action], seat: int, rng: Rng) -> Action:
    mover = state.to_move[0]
    after = []
    for a in actions:
        s = state.clone()
        s._apply(a, mover)  # one of legal_actions(mover): no second check
        after.append(s)
    best, best_value = actions[0], float("-inf")
    for a, v in zip(actions, values(after, seat)):
        v += rng.random() * 1e-3  # break ties at random
        if v > best_value:
            best, best_value = a, v
    return best


def _draw(state: StelliumState, actions: list[Action], seat: int, rng: Rng) -> Action:
    """Pick the type whose best placement (effect ignored) helps most."""
    draws = [a for a in actions if a.kind == "draw"]
    after: list[StelliumState] = []
    ends = []
    for a in draws:
        drawn = state.clone()
        drawn._apply(a, seat)
        for p in drawn.legal_actions(seat):
            s = drawn.clone()
            s._apply(p, seat)
            after.append(s)
        ends.append(len(after))
    rated = values(after, seat)
    best, best_value = actions[0], float("-inf")
    start = 0
    for a, end in zip(draws, ends):
        v = max(rated[start:end]) + rng.random() * 1e-3
        start = end
        if v > best_value:
            best, best_value = a, v
    return best


def _mission(state: StelliumState, actions: list[Action], seat: int, rng: Rng) -> Action:
    def worth(c: int) -> float:
        card = CARDS[c]
        p = potential(card, state.board, state.colours)
        return card.points * (0.2 + p * p)

    best, best_value = actions[0], float("-inf")
    for a in actions:
        if a.kind == "pass":
            # a swap must be clearly better than keeping the hand; with an empty
            # bag the board is frozen, so cycling Missions is the only way forward
            # (and it empties the Reserve, which ends the game)
            frozen = not any(state.bag) or state.turn_count > 80
            v = float("-inf") if frozen else 0.5
        else:
            v = worth(CARD_INDEX[str(a.args[0])])
            if len(a.args) == 2:
                v -= worth(CARD_INDEX[str(a.args[1])])
        v += rng.random() * 1e-3
        if v > best_value:
            best, best_value = a, v
    return best


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        obvious = _obvious(legal_actions)
        if obvious is not None:
            return obvious
        state = state_from_view(self.game, view, self.rng.next64())
        return decide(state, legal_actions, seat, self.rng)


AGENTS = {"heuristic": HeuristicAgent}
