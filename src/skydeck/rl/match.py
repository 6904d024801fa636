"""One episode over an engine, shared by the PettingZoo and Gymnasium faces.

Holds the game, the state, the action catalogue and the observer; turns indexes into
engine actions and back, builds masks from ``legal_actions`` and observations of what
``view(seat)`` shows (``Observer.observe``), and scores the end. The faces (``aec``, ``parallel``,
``gym``) only add their APIs' bookkeeping, so all three step at the same cost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from skydeck.core.action import Action
from skydeck.core.errors import IllegalAction
from skydeck.core.game import Game, State
from skydeck.encoding import spec_module, tables
from skydeck.registry import game_ids, game_module, load

REWARDS = ("outcome", "margin")
PLACEMENTS = ("grid", "continuous")
SEED_RANGE = 2**31 - 1
# What a face does with an action of its space that the mask excludes: "lose" ends the
# episode as a loss for that agent (PettingZoo classic's TerminateIllegalWrapper, the
# default, so Gymnasium's check_env and unmasked samplers run), "raise" (debugging).
ILLEGAL = ("lose", "raise")
ILLEGAL_REWARD = -1.0


class OutsideMask(IllegalAction):
    """A well-formed action of the space that the mask excluded: the one kind of bad
    action that ``illegal="lose"`` turns into a lost episode. Malformed actions (not an
    index, outside the space, ``wait`` from a mover) always raise: they are bugs in the
    caller, not moves."""


def check_illegal(illegal: str) -> str:
    if illegal not in ILLEGAL:
        raise ValueError(f"unknown illegal {illegal!r}; choose one of {', '.join(ILLEGAL)}")
    return illegal


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def seat_of(agent: str) -> int:
    """``player_2`` -> 2; ValueError naming the bad agent otherwise."""
    prefix, _, number = str(agent).partition("_")
    if prefix != "player" or not number.isdigit():
        raise ValueError(f"unknown agent {agent!r}; agents are named player_0, player_1 ...")
    return int(number)


def match_seed(options: dict[str, Any] | None, draw: Any) -> int:
    """The engine seed of a new episode: ``reset(options={"match_seed": s})`` plays that
    exact match (as ``skydeck.load(...).new(s)``: replays, benchmarks); otherwise one
    drawn from the environment's generator. Other reset options are ignored, as
    PettingZoo's API test expects."""
    if options and "match_seed" in options:
        seed = options["match_seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"match_seed must be a non-negative int, got {seed!r}")
        return seed
    return int(draw(SEED_RANGE))


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r}; choose one of {', '.join(REWARDS)}")
    return reward


class Match:
    """The engine side of an environment: one game, one state at a time."""

    def __init__(
        self, game_id: str, reward: str = "outcome", placement: str = "grid", **options: Any
    ) -> None:
        module = spec_module(game_id)
        self.module = module
        self.game: Game = load(game_id, **options)
        self.reward = check_reward(reward)
        if placement not in PLACEMENTS:
            raise ValueError(
                f"unknown placement {placement!r}; choose one of {', '.join(PLACEMENTS)}"
            )
        if placement == "continuous" and not hasattr(module, "continuous_action"):
            offering = [
                g for g in game_ids() if hasattr(game_module(g, "encode"), "continuous_action")
            ]
            raise ValueError(
                f"{game_id} has no continuous choices: placement='continuous' is for "
                f"{', '.join(offering) or 'no game'}"
            )
        self.cooperative: bool = module.COOPERATIVE
        self.simultaneous: bool = module.SIMULTANEOUS
        self.catalogue, self.observer = tables(self.game)
        self._actions = self.catalogue.actions
        #: continuous variant: one more index, ``place_any``, whose x, y, angle come in
        #: a Box beside the index (the action is the pair)
        self.continuous = placement == "continuous"
        self.place_any: int | None = self.catalogue.n if self.continuous else None
        self.n_actions = self.catalogue.n + (1 if self.continuous else 0)
        #: the index whose legality makes ``place_any`` legal (continuous variant)
        self._when = self.catalogue.encode(module.CONTINUOUS_WHEN) if self.continuous else -1
        #: a game's own way to the legal indexes of some positions, skipping the
        #: Actions (``indexer(game, catalogue)`` -> f(state, seat) -> list or None)
        make = getattr(module, "indexer", None)
        self._fast: Callable[[State, int], list[int] | None] | None = (
            make(self.game, self.catalogue) if make is not None else None
        )
        #: engines that use the core ``State.apply`` and either keep their legal list
        #: per position (``CACHED_LEGAL``: asking again is a copy) or count their moves
        #: (``moves(state)``): a step whose index was in the legal list just handed out,
        #: the position unchanged, skips the engine's re-validation (see ``play``)
        self._moves: Callable[[Any], int] | None = getattr(module, "moves", None)
        self._prove = bool(getattr(module, "CACHED_LEGAL", False)) or self._moves is not None
        #: (state, seat, the position's token: its legal list or its move count, the
        #: indexes handed out) of the last plain ``legal_indices``
        self._offered: tuple[State, int, Any, tuple[int, ...]] | None = None
        #: no indexer, no proof, no ``place_any``: the legal indexes are the catalogue's
        self._plain = self._fast is None and not self._prove and self._when < 0
        self._indices = self.catalogue.indices
        self._n = self.catalogue.n
        #: indexes of the actions a server's clock sends (Stellium's random draw when
        #: its 5 seconds run out): the engine accepts them, but never from an agent
        clocked = {ta.kind for ta in self.game.capabilities.timed_actions}
        self._clocked = frozenset(i for i, a in enumerate(self._actions) if a.kind in clocked)
        self.players = self.game.players
        self.state: State | None = None
        self.seed: int | None = None

    # --- episode --------------------------------------------------------------------
    def new(self, seed: int) -> State:
        self.seed = seed
        self.state = self.game.new(seed)
        self._offered = None
        if self._prove and type(self.state).apply is not State.apply:
            self._prove = False  # an engine with its own apply: always go through it
            self._plain = self._fast is None and self._when < 0
        return self.state

    @property
    def live(self) -> State:
        if self.state is None:
            from gymnasium.error import ResetNeeded

            raise ResetNeeded("call reset() before step(): no episode has started")
        return self.state

    # --- actions --------------------------------------------------------------------
    def mask(self, seat: int) -> np.ndarray:
        m = np.zeros(self.n_actions, dtype=np.int8)
        idx = self.legal_indices(seat)  # empty for a seat that may not act (contract)
        if idx:
            m[idx] = 1
        return m

    def legal_indices(self, seat: int) -> list[int]:
        state = self.state
        if state is None:
            state = self.live
        if self._plain:  # the common case, in as few steps as it takes
            return self._indices(state.legal_actions(seat))
        out = None if self._fast is None else self._fast(state, seat)
        if out is None:
            legal = state.legal_actions(seat)
            out = self._indices(legal)
            if self._prove:  # a copy: the caller may change the list it gets
                token = legal if self._moves is None else self._moves(state)
                self._offered = (state, seat, token, tuple(out))
        if self._when >= 0 and self._when in out:
            out.append(self.catalogue.n)  # place_any
        return out

    def _proven(self, state: State, seat: int, index: int) -> bool:
        """Is ``index`` legal for ``seat`` by the legal list this match last handed out?
        Only while the position is the same (anything may have moved the state since:
        the Gymnasium face's opponents apply to it directly): the engine still gives
        the same list (engines that keep it per position, where asking again is a
        copy), or its move count has not changed (engines that count their moves)."""
        offered = self._offered
        if offered is None or offered[0] is not state or offered[1] != seat:
            return False
        if index not in offered[3]:
            return False
        if self._moves is not None:
            return bool(self._moves(state) == offered[2])
        return bool(state.legal_actions(seat) == offered[2])

    def resolve(self, seat: int, action: Any) -> tuple[int, Action]:
        """(index, engine action) of an environment action: an index, or in the
        continuous variant an (index, [x, y, angle]) pair; IllegalAction naming the
        agent and the problem otherwise. ``wait`` (0) is refused here."""
        params = None
        if self.continuous and isinstance(action, tuple | list):
            if len(action) != 2:
                raise IllegalAction(
                    f"{agent_name(seat)}: a continuous action is (index, [x, y, angle]), "
                    f"got {action!r}"
                )
            action, params = action
        index = action
        if self.place_any is not None and index == self.place_any:
            if params is None:
                raise IllegalAction(
                    f"{agent_name(seat)}: action {index} (place_any) needs [x, y, angle]"
                )
            return index, self.module.continuous_action(params, self.game)
        try:
            engine_action = self.catalogue.decode(index)
        except IllegalAction as exc:
            raise IllegalAction(f"{agent_name(seat)}: {exc}") from None
        if index == 0:
            raise IllegalAction(
                f"{agent_name(seat)}: action 0 (wait) is only for a seat that may not act "
                "now in a parallel environment; this seat must act"
            )
        return int(index), engine_action

    def play(self, seat: int, action: Any) -> None:
        """Apply an environment action for ``seat``; OutsideMask (state untouched)
        when it is outside the mask, naming the index, the action and the reason;
        IllegalAction when it is not an action of the space at all."""
        if type(action) is int and 0 < action < self._n:  # the common case
            index = action
            engine_action = self._actions[action]
        else:
            index, engine_action = self.resolve(seat, action)
        if index in self._clocked:
            raise OutsideMask(
                f"{agent_name(seat)}: action {index} ('{engine_action}') is outside the "
                "action mask: it is the server clock's action, never an agent's"
            )
        state = self.state
        if state is None:
            state = self.live
        if self._prove and self._proven(state, seat, index):
            # legal by the list just handed out (the mask the agent chose from): the
            # engine's checks would only repeat it (State.apply = checks + _apply)
            state._apply(engine_action, seat)
            return
        try:
            state.apply(engine_action, seat)
        except IllegalAction as exc:
            raise OutsideMask(
                f"{agent_name(seat)}: action {index} ('{engine_action}') is outside the "
                f"action mask: {exc}"
            ) from None

    # --- observations and outcome ---------------------------------------------------
    def observe(self, seat: int) -> np.ndarray:
        """The seat's observation: what its view shows (``Observer.observe``: some
        games encode it straight from the state, equal by test)."""
        state = self.state
        if state is None:
            state = self.live
        return self.observer.observe(state, seat)

    def rewards(self) -> list[float]:
        """Final rewards per seat (0 while playing): win 1, draw 0, loss -1 (co-op: the
        team's result on every seat), or the score margin over the best other seat."""
        state = self.live
        n = self.players
        if not state.is_over:
            return [0.0] * n
        if self.reward == "margin":
            scores = [float(x) for x in state.scores]
            if n == 1 or self.cooperative:
                return scores
            return [s - max(scores[:i] + scores[i + 1 :]) for i, s in enumerate(scores)]
        winners = state.winners
        if self.cooperative or n == 1:
            return [1.0 if winners else -1.0] * n
        return [
            (1.0 if len(winners) == 1 else 0.0) if seat in winners else -1.0 for seat in range(n)
        ]

    def next_seat(self, after: int | None, movers: tuple[int, ...] | None = None) -> int:
        """Who acts next in a turn-based face: the first mover after ``after`` (round
        robin, so simultaneous phases interleave seats instead of letting seat 0 finish
        first)."""
        if movers is None:
            movers = self.live.to_move
        if after is not None:
            for seat in movers:
                if seat > after:
                    return seat
        return movers[0]
