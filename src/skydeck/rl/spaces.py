"""The environments' spaces: the observation Dict (PettingZoo) and the action space,
Discrete over the catalogue or, in Stellar Conflict's continuous variant, the index
with a Box of x, y, angle. Gymnasium only: the Gymnasium face needs no PettingZoo."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from skydeck.rl.match import Match, agent_name


class MaskedDiscrete(spaces.Discrete):
    """A Discrete space whose ``sample()`` without a mask keeps to the legal actions of
    the environment's current position (the mask array is shared and updated in place)."""

    def __init__(self, n: int, mask: np.ndarray) -> None:
        super().__init__(n)
        self.legal = mask

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self.legal.any():
            mask = self.legal
        return super().sample(mask=mask, probability=probability)


class IndexAndPlacement(spaces.Tuple):
    """(index, [x, y, angle]) whose ``sample(mask)`` takes the plain action mask (as
    PettingZoo's tests and masked samplers pass it) for the index."""

    def sample(self, mask: Any = None, probability: Any = None) -> tuple[Any, ...]:
        if isinstance(mask, np.ndarray):
            mask = (mask, None)
        return super().sample(mask=mask, probability=probability)


def action_space(match: Match, index_space: spaces.Discrete | None = None) -> spaces.Space:
    """Discrete(n), or in the continuous variant (Discrete(n + 1), Box(x, y, angle))."""
    index = index_space or spaces.Discrete(match.n_actions)
    if not match.continuous:
        return index
    low, high = match.module.continuous_box(match.game)
    box = spaces.Box(np.array(low, np.float32), np.array(high, np.float32), dtype=np.float32)
    return IndexAndPlacement((index, box))


def make_spaces(match: Match) -> tuple[spaces.Dict, spaces.Space]:
    obs = spaces.Dict(
        {
            "observation": spaces.Box(
                -np.inf, np.inf, shape=(match.observer.size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, shape=(match.n_actions,), dtype=np.int8),
        }
    )
    return obs, action_space(match)


def seat_spaces(match: Match) -> tuple[list[str], dict[str, spaces.Space], dict[str, spaces.Space]]:
    """PettingZoo's per-agent tables (both faces share them): the agents' names, then each
    agent's observation and action space (every seat has the same ones)."""
    names = [agent_name(s) for s in range(match.players)]
    obs_space, act_space = make_spaces(match)
    return names, dict.fromkeys(names, obs_space), dict.fromkeys(names, act_space)
