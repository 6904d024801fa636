"""Stellium's heuristic players: a greedy one and a turn planner.

Agents see views, never states. Stellium's view hides only the Mission Reserve's
order, so the agent rebuilds a full state from the view (any Reserve order will do:
nothing it evaluates depends on it) and rates tables by one value:

    value = own Mission Stelliums + tokens + colour bonus
          + half of what its held Missions are worth times how complete they are (squared)
          - a third of the best opponent's same measure (blocking)

``greedy`` (:func:`decide`) rates each legal action one step ahead: it chooses a
placement without looking at the effect the body then has, and a body to draw by its
placements alone. It is the search's playout policy (cheap, so playouts are many).

``heuristic`` (:func:`plan`) rates a placement by the best table its effect can then
make, the Missions that become complete completed: a Planet placed to swap a body into
a shape, a Comet's push that finishes one, are seen. Only the few placements the
one-step value likes best are looked at further (``WIDTH``), which keeps a turn to
a few hundred tables. Missions are always completed when they can be, the highest
first.
"""

from __future__ import annotations

from typing import Any

from skydeck.core import Action, Game, Rng
from skydeck.games.stellium.inverse import state_from_view
from skydeck.games.stellium.progress import potential, values
from skydeck.games.stellium.state import StelliumState
from skydeck.games.stellium.tables import (
    CARD_INDEX,
    CARDS,
    DRAW_PHASE,
    EFFECT,
    KEEP,
    MISSIONS,
    NEW_MISSION,
    PLACE,
)

#: placements (by their one-step value) whose effects the planner looks at; for a
#: draw, the placements of each body
WIDTH = 8
DRAW_WIDTH = 4


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


def _after(state: StelliumState, actions: list[Action], mover: int) -> list[StelliumState]:
    """The table after each of ``actions`` (legal for ``mover``: no second check)."""
    out = []
    for a in actions:
        s = state.clone()
        s._apply(a, mover)
        out.append(s)
    return out


def _best(state: StelliumState, actions: list[Action], seat: int, rng: Rng) -> Action:
    return _pick(actions, values(_after(state, actions, state.to_move[0]), seat), rng)


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


def plan(state: StelliumState, legal: list[Action], seat: int, rng: Rng) -> Action:
    """The planner's choice in a full state (see the module's docstring)."""
    obvious = _obvious(legal)
    if obvious is not None:
        return obvious
    phase = state.phase
    if phase == DRAW_PHASE:
        return _plan_draw(state, legal, seat, rng)
    if phase == PLACE:
        return _pick(legal, _placement_values(state, legal, seat, WIDTH), rng)
    if phase == EFFECT:
        return _pick(legal, values([_settled(state, a, seat, rng) for a in legal], seat), rng)
    if phase == NEW_MISSION:
        return _mission(state, legal, seat, rng)
    return _best(state, legal, seat, rng)


def _pick(actions: list[Action], rated: list[float], rng: Rng) -> Action:
    best, best_value = actions[0], float("-inf")
    for a, v in zip(actions, rated):
        v += rng.random() * 1e-3  # break ties at random
        if v > best_value:
            best, best_value = a, v
    return best


def _settled(state: StelliumState, action: Action, seat: int, rng: Rng) -> StelliumState:
    """The table after ``action`` once the turn's Missions are settled: complete what
    can be (the highest first), keep the body the one-step value prefers."""
    s = state.clone()
    s._apply(action, seat)
    while s.to_move == (seat,) and s.phase in (MISSIONS, KEEP):
        s._apply(decide(s, s.legal_actions(seat), seat, rng), seat)
    return s


def _placement_values(
    state: StelliumState, placements: list[Action], seat: int, width: int
) -> list[float]:
    """Each placement's value: for the ``width`` best by the one-step value, the best
    table one of its effects leaves (Missions settled); for the rest, minus infinity."""
    after = _after(state, placements, seat)
    first = values(after, seat)
    order = sorted(range(len(placements)), key=first.__getitem__, reverse=True)[:width]
    out = [float("-inf")] * len(placements)
    rng = Rng(0)  # settling is deterministic but for ties among kept bodies
    for i in order:
        s = after[i]
        if s.phase != EFFECT or s.to_move != (seat,):
            out[i] = first[i]
            continue
        ends = [_settled(s, e, seat, rng) for e in s.legal_actions(seat)]
        out[i] = max(values(ends, seat))
    return out


def _plan_draw(state: StelliumState, actions: list[Action], seat: int, rng: Rng) -> Action:
    """Draw the body whose best planned placement leaves the best table."""
    rated = []
    for a in actions:
        if a.kind != "draw":
            rated.append(float("-inf"))
            continue
        drawn = state.clone()
        drawn._apply(a, seat)
        places = drawn.legal_actions(seat)
        rated.append(max(_placement_values(drawn, places, seat, DRAW_WIDTH)))
    return _pick(actions, rated, rng)


class HeuristicAgent:
    """The planner (``heuristic``); :class:`GreedyAgent` is the one-step player."""

    name = "heuristic"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        obvious = _obvious(legal_actions)
        if obvious is not None:
            return obvious
        state = state_from_view(self.game, view, self.rng.next64())
        return self.policy(state, legal_actions, seat, self.rng)

    policy = staticmethod(plan)


class GreedyAgent(HeuristicAgent):
    """The one-step player (``greedy``): the search's playout policy, as an agent."""

    name = "greedy"
    policy = staticmethod(decide)


AGENTS = {"heuristic": HeuristicAgent, "greedy": GreedyAgent}
