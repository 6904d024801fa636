"""The ISMCTS agent and its difficulty levels.

The agent owns a search, a random generator and (between two of its decisions) the
subtree it expects to reuse; it never keeps a state. Levels differ in budget and in
playout policy:

========  ============================  ===========  ===================================
level     budget (iterations, seconds)  playouts     intent
========  ============================  ===========  ===================================
easy      150, 0.25 s                   random       a beginner: short-sighted
normal    1 500, 0.8 s                  game policy  a fair club player
hard      100 000, 1.6 s                game policy  the best we have within 2 s a move
========  ============================  ===========  ===================================

Only the iteration limit is deterministic: with a time limit the result depends on the
machine. ``mcts:hard:seconds=0`` (no time limit) or ``mcts:iterations=300`` make a level
reproducible for a fixed seed.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from typing import Any

from skydeck.agents.belief import Belief, NoBelief, view_key
from skydeck.agents.ismcts import CLOCKS, Budget, Ismcts, Node, SearchResult
from skydeck.agents.simple import RandomAgent, heuristic_class
from skydeck.agents.support import support_for
from skydeck.core import Action, Game, Rng
from skydeck.core.record import MatchRecord


@dataclass(frozen=True)
class Level:
    iterations: int | None
    seconds: float | None
    use_policy: bool
    exploration: float = 0.7
    #: playout steps before the evaluation; None: the game support's (its own ``playout``
    #: if it has one); set, it replaces a game's ``playout`` with that many policy steps
    rollout_depth: int | None = None
    reuse: bool = True
    clock: str = "wall"
    stop_early: bool = True
    #: keep the game's first root candidate unless the search is clearly better (see
    #: ``_trust_guidance``); off: the most visited candidate wins; None: the game
    #: support's choice
    trust: bool | None = None
    #: search the root alone, the rollout policy playing the rest (see
    #: ``GameSupport.flat``); None: the game support's choice
    flat: bool | None = None


LEVELS: dict[str, Level] = {
    "easy": Level(150, 0.25, use_policy=False, exploration=1.0),
    "normal": Level(1500, 0.8, use_policy=True),
    "hard": Level(100_000, 1.6, use_policy=True),
}
DEFAULT_LEVEL = "normal"


def level_with(level: Level, params: dict[str, str]) -> Level:
    """A level with ``key=value`` overrides from an agent spec; ValueError if bad."""
    changes: dict[str, Any] = {}
    for key, raw in params.items():
        try:
            if key in ("iterations", "iters"):
                n = int(raw)
                changes["iterations"] = None if n == 0 else n
            elif key in ("seconds", "time"):
                t = float(raw)
                changes["seconds"] = None if t == 0 else t
            elif key in ("c", "exploration"):
                changes["exploration"] = float(raw)
            elif key == "depth":
                changes["rollout_depth"] = int(raw)
            elif key == "policy":
                if raw not in ("random", "game"):
                    raise ValueError
                changes["use_policy"] = raw == "game"
            elif key == "clock":
                if raw not in CLOCKS:
                    raise ValueError
                changes["clock"] = raw
            elif key in ("reuse", "early", "trust", "flat"):
                if raw not in ("0", "1"):
                    raise ValueError
                changes[{"early": "stop_early"}.get(key, key)] = raw == "1"
            else:
                raise KeyError(key)
        except KeyError:
            raise ValueError(
                f"unknown mcts parameter {key!r}; known: iterations, seconds, c, depth, "
                "policy, reuse, early, trust, flat, clock"
            ) from None
        except ValueError:
            raise ValueError(f"bad value {raw!r} for mcts parameter {key!r}") from None
    out = replace(level, **changes)
    Budget(out.iterations, out.seconds, out.clock)  # ValueError if both limits are off
    return out


class MctsAgent:
    """Information-set MCTS over determinisations rebuilt from the seat's view."""

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        level: str | Level = DEFAULT_LEVEL,
        record: MatchRecord | None = None,
    ) -> None:
        if isinstance(level, str):
            if level not in LEVELS:
                raise ValueError(f"unknown mcts level {level!r}; known: {', '.join(LEVELS)}")
            self.name = f"mcts:{level}"
            level = LEVELS[level]
        else:
            self.name = "mcts"
        self.game = game
        self.level = level
        self.budget = Budget(level.iterations, level.seconds, level.clock, level.stop_early)
        self.support = support_for(game)
        self.trust = self.support.trust if level.trust is None else level.trust
        self.flat = self.support.flat if level.flat is None else level.flat
        self.rng = Rng(seed)
        self.search = Ismcts(
            self.support,
            self.rng.spawn(),
            exploration=level.exploration,
            use_policy=level.use_policy,
            rollout_depth=level.rollout_depth,
            flat=self.flat,
        )
        self.record = record
        self.last: SearchResult | None = None
        self.reused = 0
        self._fallback: Any = None
        self._expected: tuple[int, str, Node] | None = None
        self._seen: dict[tuple[int, str], set[Action]] = {}

    def bind(self, record: MatchRecord | None) -> None:
        """Let the agent replay the host's public match record when the game has no
        ``from_view`` support (see :mod:`skydeck.agents.belief`)."""
        self.record = record

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        if not legal_actions:
            raise ValueError(f"{self.name}: seat {seat} was given no legal action")
        clock = CLOCKS[self.level.clock]
        started = clock()
        key = view_key(view)
        try:
            belief = Belief(
                self.game, self.support, view, legal_actions, seat, self.rng.spawn(), self.record
            )
        except NoBelief as exc:
            return self._fall_back(exc, view, legal_actions, seat)
        if len(legal_actions) == 1:
            self._expected = None
            return legal_actions[0]
        root_actions = legal_actions
        if self.level.use_policy and self.support.candidates is not None:
            root_actions = self.support.candidates(self.game, view, legal_actions, seat)
            if len(root_actions) == 1:
                self._expected = None
                return root_actions[0]
        root = self._reusable_root(seat, key)
        budget = self.budget
        if budget.seconds is not None:
            # the time limit covers the whole answer: rebuilding the state, the search,
            # and the look-ahead for tree reuse afterwards (kept under a tenth)
            spent = clock() - started
            budget = replace(budget, seconds=max(0.01, budget.seconds * 0.95 - spent))
        result = self.search.search(root, seat, belief.sample, budget, root_actions)
        self.last = result
        action = result.action
        # a support handing back ``legal_actions`` itself ranks nothing: no first choice
        if root_actions is not legal_actions and self.trust:
            action = self._trust_guidance(root, seat, root_actions, action)
        action = self._break_cycles(seat, key, action, result.visits, legal_actions)
        self._remember(root, action, seat, belief)
        return action

    # --- guidance ----------------------------------------------------------------------
    @staticmethod
    def _trust_guidance(root: Node, seat: int, ranked: list[Action], pick: Action) -> Action:
        """The game's candidates come best first. Keep its first choice unless the search
        found something clearly better (mean reward ahead by two standard errors):
        noisy playouts should not overrule a good rating by chance."""
        first = ranked[0]
        stats = root.stats.get(seat, {})
        a, b = stats.get(first), stats.get(pick)
        if pick == first or a is None or b is None or a[1] == 0 or b[1] == 0:
            return pick
        ma, mb = a[0] / a[1], b[0] / b[1]
        error = math.sqrt(0.25 / a[1] + 0.25 / b[1])
        return pick if mb - ma > 2.0 * error else first

    # --- cycles ------------------------------------------------------------------------
    def _break_cycles(
        self,
        seat: int,
        key: str,
        action: Action,
        visits: dict[Action, int],
        legal: list[Action],
    ) -> Action:
        """Back at a view we already chose from, the earlier choice led here again (a
        buy/sell or place/undo loop a short search cannot see the end of): try the most
        visited action not yet tried here, so every match ends."""
        tried = self._seen.setdefault((seat, key), set())
        if action in tried:
            fresh = [a for a in legal if a not in tried]
            if fresh:
                action = max(fresh, key=lambda a: visits.get(a, 0))
        tried.add(action)
        if len(self._seen) > 50_000:
            self._seen.clear()
        return action

    # --- tree reuse ------------------------------------------------------------------
    def _reusable_root(self, seat: int, key: str) -> Node:
        expected, self._expected = self._expected, None
        if self.level.reuse and expected is not None and expected[:2] == (seat, key):
            self.reused += 1
            return expected[2]
        return Node()

    def _remember(self, root: Node, action: Action, seat: int, belief: Belief) -> None:
        """Keep the subtree under our action if the next view is predictable: when
        applying it reveals nothing, the next decision's view is known now."""
        child = root.children.get(action)
        if not self.level.reuse or child is None:
            return
        keys = set()
        for _ in range(3):  # the same next view in every sample: nothing hidden was drawn
            state = belief.sample()
            state.apply(action, seat)
            if seat not in state.to_move:
                return
            keys.add(view_key(state.view(seat)))
        if len(keys) == 1:
            self._expected = (seat, keys.pop(), child)

    # --- no belief: degrade, loudly, instead of crashing a match -----------------------
    def _fall_back(
        self, exc: NoBelief, view: dict[str, Any], legal: list[Action], seat: int
    ) -> Action:
        if self._fallback is None:
            warnings.warn(
                f"{self.name}: {exc}; playing the game's heuristic (or random) instead",
                RuntimeWarning,
                stacklevel=3,
            )
            cls = heuristic_class(self.game.id)
            self._fallback = (
                cls(self.game, seed=self.rng.next64() >> 33)
                if cls is not None
                else RandomAgent(self.game, self.rng.next64() >> 33)
            )
        return self._fallback.choose(view, legal, seat)
