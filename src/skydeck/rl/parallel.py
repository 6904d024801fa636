"""The PettingZoo parallel face, for games with simultaneous phases (Stellar
Conflict's deployment, Stellar Expedition's draft).

Every live agent sends an action each step; a seat that may not act now sends 0
(``wait``, its only legal action). The movers' actions are applied in seat order. When
an earlier seat's action makes a later one illegal (two ships aimed at one spot), the
later seat does not act this step: ``infos[agent]["collided"]`` says so and it chooses
again from its new observation. An action outside the mask it was offered ends the
episode (``illegal="lose"``, the default, PettingZoo classic's convention): that agent
-1, the others 0, all terminated, ``infos[agent]["illegal_action"]`` says why, and no
action of that step is applied; ``illegal="raise"`` raises instead. Malformed actions
(not an index, outside the space, a mover's ``wait``) always raise.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.error import ResetNeeded
from pettingzoo import ParallelEnv

from skydeck.core.errors import IllegalAction
from skydeck.rl.face import PettingZooFace
from skydeck.rl.match import (
    ILLEGAL_REWARD,
    OutsideMask,
    agent_name,
)
from skydeck.rl.render import RENDER_MODES


class SkydeckParallel(PettingZooFace, ParallelEnv):
    """``skydeck.rl.parallel_env(game, **options)``."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}

    name_suffix = "_parallel_v0"
    needs_simultaneous = True
    #: each seat's mask as last observed (set by ``reset``)
    _masks: list[np.ndarray]

    def _observe_all(self) -> dict[str, dict[str, np.ndarray]]:
        m = self.match
        self._masks = []
        out = {}
        for seat in range(m.players):
            mask = m.mask(seat)
            if seat not in m.live.to_move:
                mask[0] = 1  # wait
            self._masks.append(mask)
            out[agent_name(seat)] = {"observation": m.observe(seat), "action_mask": mask}
        return out

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self._new_episode(seed, options)
        return self._observe_all(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            if self.match.state is None:
                raise ResetNeeded("call reset() before step(): no episode has started")
            raise ResetNeeded("the episode is over; call reset() to start another")
        m = self.match
        state = m.live
        movers = state.to_move
        for agent in actions:
            if agent not in self.agents:
                raise ValueError(f"unknown or finished agent {agent!r}; live: {self.agents}")
        chosen: list[tuple[int, Any]] = []
        for seat in range(m.players):
            agent = agent_name(seat)
            act = actions.get(agent)
            index = act[0] if m.continuous and isinstance(act, tuple | list) and act else act
            if seat not in movers:
                if index is not None and not (type(index) is not bool and index == 0):
                    raise IllegalAction(
                        f"{agent} may not act now; its only action is 0 (wait), got {act!r}"
                    )
                continue
            if index is None:
                raise IllegalAction(
                    f"{agent} must act now (to move: {list(map(agent_name, movers))})"
                )
            index, action = m.resolve(seat, act)  # range and wait checks, naming the agent
            if index == m.place_any and self._masks[seat][index]:
                try:  # a free placement is checked on the table as the agent saw it
                    state.validate(action, seat)
                except IllegalAction as exc:
                    why = f"{agent}: '{action}' is not legal: {exc}"
                    if self.illegal == "raise":
                        raise OutsideMask(why) from None
                    return self._lose_illegal(agent, why)
            if not self._masks[seat][index]:
                why = f"{agent}: action {index} ('{action}') is outside the action mask"
                if self.illegal == "raise":
                    raise OutsideMask(why)
                return self._lose_illegal(agent, why)
            chosen.append((seat, action))
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        for seat, action in chosen:
            if seat not in state.to_move:
                infos[agent_name(seat)]["collided"] = True
                continue
            try:
                state.apply(action, seat)
            except IllegalAction:
                infos[agent_name(seat)]["collided"] = True
        self._steps += 1
        over = state.is_over
        truncated = not over and self.max_cycles is not None and self._steps >= self.max_cycles
        rewards = dict(zip(self.agents, m.rewards(), strict=True))
        obs = self._observe_all()
        terms = dict.fromkeys(self.agents, over)
        truncs = dict.fromkeys(self.agents, truncated)
        if over or truncated:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def _lose_illegal(self, agent: str, why: str) -> tuple[dict, dict, dict, dict, dict]:
        """The episode ends before any action of this step is applied: the offender
        -1, the others 0."""
        agents = self.agents
        rewards = {a: ILLEGAL_REWARD if a == agent else 0.0 for a in agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        infos[agent]["illegal_action"] = why
        obs = self._observe_all()
        terms = dict.fromkeys(agents, True)
        truncs = dict.fromkeys(agents, False)
        self.agents = []
        return obs, rewards, terms, truncs, infos
