"""Information-set Monte Carlo tree search (single observer, determinised).

Each iteration draws one determinisation from a :class:`~skydeck.agents.belief.Belief`
and walks one tree shared by all determinisations: nodes are reached by action
sequences, and an action's statistics only count the iterations in which it was legal
(its *availability*), which is the ISMCTS form of UCB.

Simultaneous phases (several seats in ``to_move``) are decoupled: at such a node every
seat picks from its own statistics without seeing the others' picks, the picks are
applied together, and the child is keyed by the joint choice. A seat's regret is thus
computed as if it moved blind, which is exactly what a simultaneous phase means.

Playouts follow the game's rollout policy for at most ``rollout_depth`` steps, then the
game's evaluation (or the default one) gives every seat a reward in [0, 1].

``flat=True`` keeps the root alone (flat Monte Carlo, UCB over the searching seat's root
actions): the other seats' simultaneous picks at the root and everything after it come
from the rollout policy. Where a decision offers hundreds of actions (Stellar Conflict's
placements) a thin tree models the opponents as random players; a good rollout policy
models them as real ones.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from skydeck.agents.support import GameSupport, default_evaluate, random_rollout
from skydeck.core import Action, IllegalAction, Rng, State

Choice = tuple[int, Action]
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


class Node:
    """Statistics per seat and action: [total reward, visits, availability]."""

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.stats: dict[int, dict[Action, list[float]]] = {}
        self.children: dict[Hashable, Node] = {}

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children.values())


@dataclass(frozen=True)
class Budget:
    """Stop after ``iterations`` iterations or ``seconds`` of wall time, whichever
    comes first (None: no limit of that kind; at least one must be set)."""

    iterations: int | None = 1000
    seconds: float | None = None
    #: "wall" (real time: what a player waits) or "cpu" (this process's CPU time: the
    #: same strength on a busy machine, for tournaments on shared cores)
    clock: str = "wall"
    #: stop as soon as the most visited root action cannot be overtaken in what is left
    #: of the budget (the answer could not change: the rest would be wasted time)
    stop_early: bool = True

    def __post_init__(self) -> None:
        if self.clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, got {self.clock!r}")
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search budget needs iterations, seconds or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds must be positive, got {self.seconds}")


@dataclass
class SearchResult:
    action: Action
    iterations: int
    seconds: float
    visits: dict[Action, int]


#: how often (in iterations) the search checks whether its answer is settled
CHECK_EVERY = 64


def _iterations_left(
    done: int, limit: int | None, start: float, deadline: float | None, now: float
) -> float:
    """Iterations still allowed: the iteration limit, or the time left at the rate
    measured so far, whichever is smaller."""
    left = math.inf if limit is None else float(limit - done)
    if deadline is not None:
        spent = max(now - start, 1e-9)
        left = min(left, (deadline - now) * done / spent)
    return left


def _settled(
    stats: dict[Action, list[float]], only: tuple[int, frozenset[Action]] | None, left: float
) -> bool:
    """True when the answer (the most visited root action) is fixed: even if every
    remaining iteration went to the runner-up it would not catch up."""
    counts = sorted(
        (e[1] for a, e in stats.items() if only is None or not only[1] or a in only[1]),
        reverse=True,
    )
    if len(counts) < 2:
        return bool(counts)
    return counts[0] - counts[1] > left


class Ismcts:
    """The search itself; an agent wraps it with a belief and a budget."""

    def __init__(
        self,
        support: GameSupport,
        rng: Rng,
        exploration: float = 0.7,
        use_policy: bool = True,
        rollout_depth: int | None = None,
        flat: bool = False,
    ) -> None:
        self.support = support
        self.rng = rng
        self.c = exploration
        self.flat = flat
        self.rollout: Callable[[State, int, list[Action], Rng], Action] = (
            support.rollout if use_policy and support.rollout is not None else random_rollout
        )
        self.rollout_depth = rollout_depth if rollout_depth is not None else support.rollout_depth
        self.evaluate: Callable[[State], list[float]] = support.evaluate or (
            lambda s: default_evaluate(s, support)
        )
        # the game's own playout, unless the level asks for a step count of its own
        self.game_playout = support.playout if use_policy and rollout_depth is None else None

    def search(
        self,
        root: Node,
        seat: int,
        sample: Callable[[], State],
        budget: Budget,
        root_actions: list[Action] | None = None,
    ) -> SearchResult:
        """Search from ``root`` for ``seat``; ``root_actions`` narrows the seat's choice
        at the root (the other seats and deeper nodes keep every legal action)."""
        # the searching seat and its allowed root actions (empty: every legal one)
        only = (seat, frozenset(root_actions or ()))
        clock = CLOCKS[budget.clock]
        start = clock()
        deadline = None if budget.seconds is None else start + budget.seconds
        limit = budget.iterations
        done = 0
        check = CHECK_EVERY
        step = self.iterate_flat if self.flat else self.iterate
        while True:
            step(root, sample(), only)
            done += 1
            if limit is not None and done >= limit:
                break
            if deadline is not None and clock() >= deadline:
                break
            if budget.stop_early and done >= check:
                check += CHECK_EVERY
                left = _iterations_left(done, limit, start, deadline, clock())
                if _settled(root.stats.get(seat, {}), only, left):
                    break
        stats = root.stats.get(seat, {})
        if root_actions is not None:
            # a reused root may hold actions other determinisations allowed: keep ours
            allowed = set(root_actions)
            stats = {a: e for a, e in stats.items() if a in allowed}
        visits = {a: int(e[1]) for a, e in stats.items()}
        if not stats:  # no iteration got past the root (a joint pick kept failing)
            fallback = root_actions[0] if root_actions else None
            if fallback is None:
                raise RuntimeError("the search visited no root action")
            return SearchResult(fallback, done, clock() - start, visits)
        best = max(stats.items(), key=lambda kv: (kv[1][1], kv[1][0] / max(kv[1][1], 1)))[0]
        return SearchResult(best, done, clock() - start, visits)

    # --- one iteration ---------------------------------------------------------------
    def iterate(
        self, root: Node, state: State, only: tuple[int, frozenset[Action]] | None = None
    ) -> None:
        node = root
        path: list[tuple[Node, list[Choice]]] = []
        while True:
            to_move = state.to_move
            if not to_move:
                break
            choices: list[Choice] = []
            expanding = False
            for s in to_move:
                legal = state.legal_actions(s)
                if only is not None and node is root and s == only[0] and only[1]:
                    legal = [a for a in legal if a in only[1]]
                action, fresh = self._select(node, s, legal)
                choices.append((s, action))
                expanding = expanding or fresh
            if len(choices) == 1:
                s, a = choices[0]
                state._apply(a, s)  # picked from legal_actions(s) of this very state
            else:
                choices = self._apply_joint(node, state, choices)
                if not choices:
                    break
            path.append((node, choices))
            key: Hashable = choices[0][1] if len(choices) == 1 else tuple(choices)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
            node = child
            if expanding:
                break
        rewards = self._playout(state)
        for n, choices in path:
            for s, a in choices:
                e = n.stats[s][a]
                e[0] += rewards[s]
                e[1] += 1

    def iterate_flat(self, root: Node, state: State, only: tuple[int, frozenset[Action]]) -> None:
        """One flat iteration: the searching seat's root action by UCB, the other
        seats' simultaneous picks by the rollout policy (applied in a random order, as
        arrival order is at a table), then a playout."""
        seat, allowed = only
        to_move = list(state.to_move)
        if seat not in to_move:
            raise ValueError(f"flat search: seat {seat} is not to move")
        if len(to_move) > 1:
            self.rng.shuffle(to_move)
        legal = state.legal_actions(seat)
        if allowed:
            legal = [a for a in legal if a in allowed]
        mine, _fresh = self._select(root, seat, legal)
        for s in to_move:
            if s not in state.to_move:
                continue
            options = state.legal_actions(s)
            if s != seat:
                state._apply(self.rollout(state, s, options, self.rng), s)
            elif mine in options:
                state._apply(mine, s)
            else:  # an earlier pick took its spot
                mine = self._ask_again(root, seat, options)
                state._apply(mine, s)
        reward = self._playout(state)[seat]
        e = root.stats[seat][mine]
        e[0] += reward
        e[1] += 1

    def _select(self, node: Node, seat: int, legal: list[Action]) -> tuple[Action, bool]:
        table = node.stats.get(seat)
        if table is None:
            table = node.stats[seat] = {}
        untried: list[Action] = []
        best: Action | None = None
        best_value = -math.inf
        c = self.c
        for a in legal:
            e = table.get(a)
            if e is None:
                e = table[a] = [0.0, 0, 0]
            e[2] += 1
            n = e[1]
            if n == 0:
                untried.append(a)
            elif not untried:
                value = e[0] / n + c * math.sqrt(math.log(e[2]) / n)
                if value > best_value:
                    best_value, best = value, a
        if untried:
            return untried[self.rng.below(len(untried))], True
        assert best is not None
        return best, False

    def _apply_joint(self, node: Node, state: State, choices: list[Choice]) -> list[Choice]:
        """Apply simultaneous picks in seat order. A pick that an earlier one made
        illegal (two cards on the same spot) is replaced by another legal action of
        that seat, as a real table asks the player again; the statistics then credit
        the replacement. Without this, a pick that always collides would stay
        "untried" forever and every later iteration would stop at this node."""
        done: list[Choice] = []
        for s, a in choices:
            if s not in state.to_move:
                continue
            try:
                state.apply(a, s)
            except IllegalAction:
                legal = state.legal_actions(s)
                if not legal:
                    continue
                a = self._ask_again(node, s, legal)
                state._apply(a, s)
            done.append((s, a))
        return done

    def _ask_again(self, node: Node, seat: int, legal: list[Action]) -> Action:
        """Another legal action for a seat whose simultaneous pick an earlier one made
        illegal, as a table asks the player again; the node's statistics will credit it."""
        a = legal[self.rng.below(len(legal))]
        node.stats[seat].setdefault(a, [0.0, 0, 1])
        return a

    def _playout(self, state: State) -> list[float]:
        if self.game_playout is not None:
            return self.game_playout(state, self.rng)
        rng, rollout = self.rng, self.rollout
        steps = self.rollout_depth
        while True:
            to_move = state.to_move
            if not to_move or steps == 0:
                break
            s = to_move[0] if len(to_move) == 1 else to_move[rng.below(len(to_move))]
            # the policy picks from legal_actions(s): skip apply()'s second check
            state._apply(rollout(state, s, state.legal_actions(s), rng), s)
            if steps is not None:
                steps -= 1
        return self.evaluate(state)
