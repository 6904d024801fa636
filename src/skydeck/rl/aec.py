"""The PettingZoo AEC face: one agent acts per ``step``.

Agents are ``player_0`` ... ``player_{n-1}``. In a simultaneous phase the movers take
turns round robin (seat order after the last one to act), each seeing its own view.
Rewards arrive at the end only (see ``Match.rewards``). No PettingZoo wrappers: the
checks they add (order, bounds, illegal moves) are done inline, so a step costs the
engine's step plus a mask. An action outside the mask ends the episode as
``TerminateIllegalWrapper`` does (``illegal="lose"``, the default): that agent's reward
is -1, every other agent's 0, all terminate, and ``infos[agent]["illegal_action"]``
says what was refused; ``illegal="raise"`` raises instead (debugging).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv

from skydeck.core.errors import IllegalAction
from skydeck.rl.face import PettingZooFace
from skydeck.rl.match import (
    ILLEGAL_REWARD,
    OutsideMask,
    agent_name,
    seat_of,
)
from skydeck.rl.render import RENDER_MODES


class SkydeckAEC(PettingZooFace, AECEnv):
    """``skydeck.rl.aec_env(game, **options)``: a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "is_parallelizable": False}

    #: the seat whose agent is selected (set by ``reset``)
    _seat = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_episode(seed, options)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._seat = self.match.next_seat(None)
        self.agent_selection = agent_name(self._seat)

    def _seat_of(self, agent: str | None) -> int:
        if agent is None or agent == self.agent_selection:
            return self._seat
        return seat_of(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of(agent)
        return {"observation": self.match.observe(seat), "action_mask": self.match.mask(seat)}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The mask alone (cheaper than ``observe`` when the observation is not needed)."""
        return self.match.mask(self._seat_of(agent))

    def legal_indices(self, agent: str | None = None) -> list[int]:
        """The legal action indexes (the mask's non-zeros), cheapest of all: for agents
        that pick among legal moves without a network (random, scripted)."""
        return self.match.legal_indices(self._seat if agent is None else self._seat_of(agent))

    def step(self, action: Any) -> None:
        if not self.agents:
            if self.match.state is None:
                raise ResetNeeded("call reset() before step(): no episode has started")
            raise ResetNeeded(
                "the episode is over and every agent has left; call reset() to start another"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent}: None is only the action of a finished agent")
        seat = self._seat
        match = self.match
        try:
            match.play(seat, action)
        except OutsideMask as exc:
            if self.illegal == "raise":
                raise
            self._lose_illegal(agent, str(exc))
            return
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        movers = match.state.to_move  # type: ignore[union-attr]  # play needs a state
        if not movers:  # over: rewards come only now, so only now are they accumulated
            for a, r in zip(self.agents, match.rewards(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
            return
        if self.max_cycles is not None and self._steps >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True
        if len(movers) == 1:
            seat = movers[0]
        else:
            seat = match.next_seat(seat, movers)
        if seat != self._seat:
            self._seat = seat
            self.agent_selection = self.possible_agents[seat]

    def _lose_illegal(self, agent: str, why: str) -> None:
        """The episode ends: the offender -1, the others 0 (the state is untouched)."""
        for a in self.agents:
            self.rewards[a] = ILLEGAL_REWARD if a == agent else 0.0
            self.terminations[a] = True
        self.infos[agent] = {**self.infos[agent], "illegal_action": why}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
