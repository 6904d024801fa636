"""The Gymnasium face: one learner seat, the other seats played by Skydeck agents.

``gym_env("stellarion")`` is solo Stellarion; ``gym_env("stellium", opponents="heuristic")``
seats the learner at ``seat`` and lets named agents (``skydeck.agents.make`` specs, one
for all or a list per other seat) play the rest. The observation is a flat Box; the mask
comes as ``info["action_mask"]`` and ``env.action_masks()`` (sb3-contrib's convention).
After the learner's action, every other seat that may act (a simultaneous phase
included) acts once, then they go on until the learner may act again or the match ends.

An action of the space outside the mask ends the episode there (``illegal="lose"``, the
default, PettingZoo classic's ``TerminateIllegalWrapper`` convention): reward -1,
``terminated``, and ``info["illegal_action"]`` names the action and why; the state is
not touched. ``illegal="raise"`` raises ``IllegalAction`` (a ValueError) instead, for
debugging. A value that is not an action of the space always raises. The action
space's ``sample()`` without a mask draws from the learner's legal actions.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from skydeck.rl.match import ILLEGAL_REWARD, Match, OutsideMask, check_illegal, match_seed
from skydeck.rl.render import RENDER_MODES, check_render_mode, render
from skydeck.rl.spaces import MaskedDiscrete, action_space


class SkydeckGym(gymnasium.Env):
    """``skydeck.rl.gym_env(game, seat=0, opponents="heuristic", **options)``."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        game: str = "stellarion",
        seat: int = 0,
        opponents: str | list[str] = "heuristic",
        render_mode: str | None = None,
        reward: str = "outcome",
        illegal: str = "lose",
        **options: Any,
    ) -> None:
        self.match = Match(game, reward=reward, **options)
        self.illegal = check_illegal(illegal)
        players = self.match.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1} for {players} player(s), got {seat!r}")
        self.seat = seat
        others = [s for s in range(players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(
                f"opponents lists {len(specs)} agent(s) but {len(others)} other seat(s) play"
            )
        from skydeck.agents import make

        for spec in specs:  # a bad spec fails now, naming itself
            make(spec, self.match.game, seed=0)
        self.specs = dict(zip(others, specs, strict=True))
        self.render_mode = check_render_mode(render_mode)
        n = self.match.n_actions
        self.observation_space = spaces.Box(
            -np.inf, np.inf, shape=(self.match.observer.size,), dtype=np.float32
        )
        self._mask = np.zeros(n, dtype=np.int8)
        self.action_space = action_space(self.match, MaskedDiscrete(n, self._mask))
        self._agents: dict[int, Any] = {}
        self._done = True
        self._started = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        from skydeck.agents import make

        game_seed = match_seed(options, self.np_random.integers)
        self.match.new(game_seed)
        self._agents = {
            s: make(spec, self.match.game, seed=game_seed + s) for s, spec in self.specs.items()
        }
        self._done = False
        self._started = True
        self._others_play(first=False)
        return self._obs(), self._info()

    def _obs(self) -> np.ndarray:
        self._mask[:] = self.match.mask(self.seat)
        return self.match.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "seed": self.match.seed}

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now (for maskable policies)."""
        return self._mask.astype(bool)

    def _others_play(self, first: bool) -> None:
        state = self.match.live
        seat = self.seat
        if first:  # a simultaneous phase: each other mover acts once after the learner
            for s in state.to_move:
                if s != seat and not state.is_over and s in state.to_move:
                    self._agent_move(s)
        while not state.is_over and seat not in state.to_move:
            self._agent_move(self.match.next_seat(None))

    def _agent_move(self, s: int) -> None:
        state = self.match.live
        legal = state.legal_actions(s)
        action = self._agents[s].choose(state.view(s), legal, s)
        state.apply(action, s)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise ResetNeeded("call reset() before step(): no episode has started")
        if self._done:
            raise ResetNeeded("the episode is over (terminated); call reset() to start another")
        try:
            self.match.play(self.seat, action)
        except OutsideMask as exc:
            if self.illegal == "raise":
                raise
            self._done = True
            self._mask[:] = 0
            info = {**self._info(), "illegal_action": str(exc)}
            return self.match.observe(self.seat), ILLEGAL_REWARD, True, False, info
        self._others_play(first=True)
        state = self.match.live
        over = state.is_over
        self._done = over
        reward = self.match.rewards()[self.seat] if over else 0.0
        return self._obs(), reward, over, False, self._info()

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        view = self.match.live.view(self.seat)
        return render(self.render_mode, self.match.game, view, self.seat)
