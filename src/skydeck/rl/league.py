"""The self-play league: who sits across from the learner in each training episode.

Opponents are the learner's past selves (snapshots saved every checkpoint, played as
``policy:PATH`` agents) and the game's own agents as anchors (``greedy``, ``heuristic``).
Past selves give an opponent that grows with the learner; the anchors keep it from
forgetting how to beat fixed play while it chases its own latest habits (the reason
AlphaStar's league kept "main exploiters" and older players). Every opponent, a snapshot
included, is an ordinary Skydeck agent: it is handed its own seat's view and legal
actions, never the state.

Each environment draws its opponents and the learner's seat from its own generator
(seeded by the run's seed and the environment's index) at each reset, so the sequence
of match-ups is the same on every backend.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np


class League:
    """Snapshots (paths) and anchors (agent specs), and how an opponent is drawn:
    an anchor with probability ``anchor_share``, else one of the last ``window``
    snapshots, uniformly."""

    def __init__(self, anchors: list[str], anchor_share: float, window: int) -> None:
        if not 0.0 <= anchor_share <= 1.0:
            raise ValueError(f"--anchor-share must be between 0 and 1, got {anchor_share}")
        if window < 1:
            raise ValueError(f"--league must be at least 1 snapshot, got {window}")
        self.anchors = list(anchors)
        self.anchor_share = anchor_share if anchors else 0.0
        self.window = window
        self.snapshots: list[str] = []

    def draw(self, rng: np.random.Generator) -> str:
        """One opponent spec: ``policy:PATH`` for a snapshot, else an anchor's spec."""
        recent = self.snapshots[-self.window :]
        if not recent or rng.random() < self.anchor_share:
            if not self.anchors:
                raise ValueError("the league is empty: no snapshot and no anchor")
            return self.anchors[int(rng.integers(len(self.anchors)))]
        return f"policy:{recent[int(rng.integers(len(recent)))]}"


class LeagueEnv(gymnasium.Wrapper):
    """A ``gym_env`` (possibly ``Shaped``) whose learner seat and opponents are drawn
    from the league at every reset; the episode's end ``info`` names the opponents."""

    def __init__(self, env: Any, league: League, rng: np.random.Generator) -> None:
        super().__init__(env)
        self.inner: Any = env.unwrapped  # the SkydeckGym
        self.league = league
        self.rng = rng
        self.opponents: dict[int, str] = {}

    def set_league(self, snapshots: list[str]) -> None:
        """The snapshots as they stand (the trainer broadcasts each new one); the next
        reset draws from them."""
        self.league.snapshots = list(snapshots)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        players = self.inner.match.players
        seat = int(self.rng.integers(players))
        self.opponents = {s: self.league.draw(self.rng) for s in range(players) if s != seat}
        self.inner.seat = seat
        self.inner.specs = dict(self.opponents)
        return self.env.reset(**kwargs)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            info = {**info, "opponents": [label(s) for s in self.opponents.values()]}
        return obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        mask: np.ndarray = self.inner.action_masks()
        return mask


def label(spec: str) -> str:
    """``policy:/x/league/step_001024.zip`` -> ``self@1024``; an anchor keeps its spec."""
    if spec.startswith("policy:"):
        name = spec.rsplit("/", 1)[-1].removesuffix(".zip")
        step = name.removeprefix("step_")
        return f"self@{int(step)}" if step.isdigit() else name
    return spec
