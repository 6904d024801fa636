"""A Stellarion player that looks one turn further than the heuristic.

The heuristic (agents.py) judges each action by the position at the end of its own
turn. Played out with all four expansions, its losses are nearly all a turn with
nothing left to Launch or Coordinate, decks run dry a few Voyages short: each turn
spends cards, and a turn that looks fine on its own can leave the next one nothing
good to do. This agent keeps the heuristic's ranking and re-judges its best ``top``
actions by what the *next* turn can make of them.

For each of ``deals`` dealt states consistent with the view (``inverse.from_view``; every
candidate is judged on the same deals, so a difference is one of play, not of luck)
it plays the candidate and the heuristic's greedy rest of the turn, ends the turn
(greedy in the end-of-turn step; the deal decides what the reveals show, which is why
it averages over deals), then takes the best next turn the greedy planner finds: the
candidate's value is that turn's, averaged over the deals. Only main-step decisions
(Launch, Coordinate, Traverse) get the second look; the choices inside a power, the
end-of-turn step and the decisions where a Meteor trade is on offer (as measured) are
the heuristic's. ``seconds`` caps the CPU time of one
decision (``time.process_time``, one core's work): no deal is started that, taking as
long as the longest so far, would end past it, so a slow machine answers on fewer deals
rather than later.

``endgame`` (3 by default; 0 turns it off): once that many Voyages or fewer are left,
every decision with a choice takes the ranking's best ``ENDGAME_CANDIDATES`` and plays
each to the end of the game in states dealt from the view (the solver's greedy line, as
``pimc`` does), for ``endgame_seconds`` of CPU: a line that wins scores 1, one that
loses half its share of the Voyages taken. Near the end the lines are short, so they
can tell a move that still wins from one that merely looks good for a turn.

Measured with all four expansions: docs/journal/2026-12-03-stellarion-ai.md, "Looking a turn
further"
(the agent without the endgame, ``lookahead:endgame=0``) and "The end of the game"
(with it: 12.5% of 1,000 deals where the agent without it wins 8.0%).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from skydeck.core import Action, Game
from skydeck.games.stellarion.ai.heuristic import (
    HeuristicAgent,
    Weights,
    best_first,
    evaluate,
    forced_action,
)
from skydeck.games.stellarion.ai.pimc import play_out
from skydeck.games.stellarion.legal import MAIN, OVER
from skydeck.games.stellarion.state import StellarionState

#: How many of the ranking's best actions the endgame plays out.
ENDGAME_CANDIDATES = 4


class LookaheadAgent(HeuristicAgent):
    """The heuristic, with its ``top`` best main-step actions judged by the best next
    turn over ``deals`` dealt states, within ``seconds`` of CPU a decision."""

    name = "lookahead"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        top: int = 5,
        deals: int = 8,
        seconds: float = 1.8,
        samples: int = 4,
        weights: Weights | None = None,
        endgame: int = 3,
        endgame_seconds: float = 0.5,
    ) -> None:
        if top < 1 or deals < 1 or seconds <= 0:
            raise ValueError(
                f"lookahead: top and deals must be at least 1 and seconds above 0 "
                f"(got top={top}, deals={deals}, seconds={seconds})"
            )
        if endgame < 0 or endgame_seconds <= 0:
            raise ValueError(
                f"lookahead: endgame must be 0 or more and endgame_seconds above 0 "
                f"(got endgame={endgame}, endgame_seconds={endgame_seconds})"
            )
        super().__init__(game, seed=seed, samples=samples, weights=weights)
        self.top, self.deals, self.seconds = top, deals, seconds
        self.endgame, self.endgame_seconds = endgame, endgame_seconds
        self.last_deals = 0  # deals the last second look used (tests, curious players)
        self.last_endgame_deals = 0  # deals the last endgame play-out used (the same)

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        forced = forced_action(legal_actions, seat, self.name)
        if forced is not None:
            return forced
        start = time.process_time()
        self.last_endgame_deals = 0
        order = self.rank(view, legal_actions)
        if not self.endgame or len(order) < 2:
            return order[0]  # (none left, a Theory still to prove: only with an endgame)
        if sum(len(column) for column in view["voyages"]["columns"]) > self.endgame:
            return order[0]
        return self._played_out(view, order[:ENDGAME_CANDIDATES], start)

    def _played_out(self, view: dict[str, Any], candidates: list[Action], start: float) -> Action:
        """The best of ``candidates`` by lines played to the end of the game in states
        dealt from the view, every candidate on the same deals, for ``endgame_seconds``
        of CPU and never past ``seconds`` since the decision began (``start``); the
        ranking's order on a tie, and with no deal at all."""
        begun = time.process_time()
        budget = min(self.endgame_seconds, self.seconds - (begun - start))
        totals = [0.0] * len(candidates)
        dealt = 0
        while time.process_time() - begun < budget:
            # ``_deal``: the same hook as the rest of the agent (the truth, for a clairvoyant)
            values = play_out(self._deal(view), candidates, self.weights)
            if values is None:
                break
            totals = [t + v for t, v in zip(totals, values)]
            dealt += 1
            if all(t == dealt for t in totals):
                break  # every line won every deal: more deals will not tell them apart
        self.last_endgame_deals = dealt
        return best_first(candidates, totals)[0]

    def rank(self, view: dict[str, Any], legal_actions: list[Action]) -> list[Action]:
        start = time.process_time()
        self.last_deals = 0
        order = super().rank(view, legal_actions)
        if self.top < 2 or view["phase"] != "main" or len(order) < 2:
            return order
        if any(a.kind == "meteor" for a in legal_actions):
            return order  # as measured: with a Meteor trade on offer, the heuristic's order
        candidates = order[: self.top]
        totals, self.last_deals = self._on_deals(
            view, candidates, self.deals, self._next_turn_value, self._within(start)
        )
        return best_first(candidates, totals) + order[self.top :]

    def _within(self, start: float) -> Callable[[], bool]:
        """Asked after each deal: whether one more, as long as the longest so far, still
        ends within ``seconds`` of ``start``. Stopping only once the budget is spent
        would let the last deal run past it, by more on a slower machine."""
        last = time.process_time()
        longest = 0.0

        def more() -> bool:
            nonlocal last, longest
            now = time.process_time()
            longest = max(longest, now - last)
            last = now
            return now - start + longest < self.seconds

        return more

    def _next_turn_value(self, root: StellarionState, action: Action, key: Any) -> float:
        """``action``, the greedy rest of its turn and end-of-turn step, then the value
        of the best next turn the greedy planner finds."""
        s = root.clone()
        turn = s.turns
        s._do(key, action, s.turn)
        self._finish_turn(s, turn)
        steps = 0
        while s.phase != OVER and s.turns == turn and steps < 20:  # the end-of-turn step
            steps += 1
            table = s._table()
            if not table:
                break
            self._greedy_step(s, table)
        if s.phase != MAIN or s.outcome:
            return evaluate(s, self.weights)
        table = s._table()
        if not table:
            return evaluate(s, self.weights)
        return max(self._line_value(s, a, k) for a, k in table.items())
