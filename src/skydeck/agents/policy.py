"""``policy:PATH``: a policy trained by `skydeck train` playing as an ordinary agent.

It sees what every agent sees, the seat's view and the legal actions: the view goes
through the game's RL observer (the same encoding the policy learned from), the legal
list becomes the action mask, and the policy's most likely masked index is decoded back
to the engine's action. So a trained model plays in tournaments, simulations, the
terminal and the lobby like any other agent.

A model is bound to the game and option set it was trained on (its observation and
action sizes depend on them): loading it for another raises ValueError naming the
difference. Loading unpickles code (Stable-Baselines3 zips), so the server only loads
models from its own models folder, by name (``server/ai.py``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from skydeck.core import Action, Game


@lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int) -> Any:
    """One loaded model per file version (a tournament makes an agent per match;
    ``predict`` keeps no state between calls, so they share it)."""
    from skydeck.agents.model_file import require_trainer

    require_trainer()
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # one move is a tiny forward pass; threads only contend
    return MaskablePPO.load(path, device="cpu")


class PolicyAgent:
    """Plays the argmax of a trained MaskablePPO policy over the legal actions."""

    def __init__(self, game: Game, path: str | Path, seed: int = 0) -> None:
        from skydeck.agents.model_file import read_meta
        from skydeck.encoding import tables

        meta = read_meta(path)
        if meta.get("game") != game.id:
            raise ValueError(
                f"policy: {str(path)!r} was trained for {meta.get('game')!r}, not {game.id!r}"
            )
        if meta.get("options") != game.options:
            raise ValueError(
                f"policy: {str(path)!r} was trained with options {meta.get('options')}, "
                f"this match has {game.options}"
            )
        self.catalogue, self.observer = tables(game)
        if (meta.get("actions"), meta.get("observation")) != (
            self.catalogue.n,
            self.observer.size,
        ):
            raise ValueError(
                f"policy: {str(path)!r} expects {meta.get('actions')} actions and "
                f"{meta.get('observation')} observation values; this Skydeck's "
                f"{game.id} has {self.catalogue.n} and {self.observer.size} (retrain it)"
            )
        self.model = _load(str(Path(path).resolve()), Path(path).stat().st_mtime_ns)
        self.meta = meta
        self.path = str(path)
        self.name = f"policy:{Path(path).name}"

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        obs = self.observer.encode(view, seat)
        legal = self.catalogue.indices(legal_actions)
        if not legal:
            raise ValueError(
                f"policy: none of the {len(legal_actions)} legal actions is in the "
                f"{self.catalogue.game_id} action catalogue"
            )
        mask = np.zeros(self.catalogue.n, dtype=bool)
        mask[legal] = True
        index, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        return self.catalogue.actions[int(index)]  # engines compare actions by value
