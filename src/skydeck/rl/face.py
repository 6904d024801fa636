"""What the two PettingZoo faces (``aec.py``, ``parallel.py``) share: the match built
from the same arguments and checked in the same order, the agents' spaces, the seeded
start of an episode, rendering. Each face keeps only how a step is taken."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from skydeck.rl.match import Match, check_illegal, match_seed
from skydeck.rl.render import check_render_mode, render
from skydeck.rl.spaces import seat_spaces


class PettingZooFace:
    """Put before ``AECEnv`` or ``ParallelEnv`` in the bases, so these methods answer."""

    metadata: dict[str, Any]
    #: the environment's name is ``skydeck_{game}{name_suffix}``
    name_suffix = "_v0"
    #: the face steps every seat at once, so the game must have simultaneous phases
    needs_simultaneous = False

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        reward: str = "outcome",
        max_cycles: int | None = None,
        illegal: str = "lose",
        **options: Any,
    ) -> None:
        super().__init__()
        self.match = Match(game, reward=reward, **options)
        self.illegal = check_illegal(illegal)
        if self.needs_simultaneous and not self.match.simultaneous:
            raise ValueError(f"{game} has no simultaneous phases: use skydeck.rl.aec_env({game!r})")
        self.render_mode = check_render_mode(render_mode)
        self.max_cycles = max_cycles
        self.metadata = {**self.metadata, "name": f"skydeck_{game}{self.name_suffix}"}
        self.possible_agents, self.observation_spaces, self.action_spaces = seat_spaces(self.match)
        self.agents: list[str] = []
        self._rng = np.random.default_rng()
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _new_episode(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """A new match: seeded from ``seed`` (reseeding the face) or ``options``, every
        agent back, no step taken."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.match.new(match_seed(options, self._rng.integers))
        self.agents = self.possible_agents[:]
        self._steps = 0

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        return render(self.render_mode, self.match.game, self.match.live.view(None), None)

    def close(self) -> None:
        pass
