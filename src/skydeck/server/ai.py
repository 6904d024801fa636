"""AI seats: an agent from ``skydeck.agents`` when it exists, a seeded random one until then.

Agents see a view and the legal actions, never the state (the Agent protocol).
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

from skydeck.core import Action, Agent, Game, Rng


class RandomAgent:
    """Uniform among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal_actions: list[Action], seat: int) -> Action:
        return self.rng.choice(legal_actions)


#: where the server finds trained models (``skydeck serve --models DIR`` sets it)
MODELS_ENV = "SKYDECK_MODELS"
DEFAULT_MODELS = "skydeck-data/models"


def models_dir() -> Path:
    return Path(os.environ.get(MODELS_ENV) or DEFAULT_MODELS)


def model_specs(game_id: str) -> list[str]:
    """``policy:NAME`` for each model in the models folder trained for ``game_id``
    (a file that is not a Skydeck model is left out, not an error in the lobby)."""
    folder = models_dir()
    if not folder.is_dir():
        return []
    try:
        from skydeck.rl.train import read_meta
    except ImportError:  # the rl extra is not installed: no policies to offer
        return []
    out = []
    for path in sorted(folder.glob("*.zip")):
        try:
            if read_meta(path).get("game") == game_id:
                out.append(f"policy:{path.name}")
        except ValueError:
            continue
    return out


def model_path(spec: str) -> str:
    """``policy:NAME`` -> ``policy:<models folder>/NAME``. A lobby request names a model
    by file name only: loading a model unpickles code, so no other path is accepted."""
    name = spec[len("policy:") :]
    if not name or "/" in name or "\\" in name or name.startswith(".") or not name.endswith(
        ".zip"
    ):
        raise ValueError(
            f"policy: name a model in the server's models folder by file name "
            f"(e.g. policy:model.zip), got {name!r}"
        )
    path = models_dir() / name
    if not path.is_file():
        raise ValueError(f"policy: no model {name!r} in the server's models folder")
    return f"policy:{path}"


def available_specs(game_id: str) -> list[str]:
    """Agent specs the lobby offers for a game (``random`` always), then the trained
    models of the models folder for that game."""
    try:
        agents: Any = importlib.import_module("skydeck.agents")
        infos = agents.agents()
        specs = [str(i.spec) for i in infos if game_id in i.games]
    except Exception:  # an agents package mid-construction must not break the lobby
        return ["random"]
    specs = specs if "random" in specs else ["random", *specs]
    return specs + model_specs(game_id)


def make_agent(spec: str, game: Game, seed: int) -> Agent:
    """``skydeck.agents.make(spec, game, seed)`` if available; random otherwise."""
    try:
        agents: Any = importlib.import_module("skydeck.agents")
        make = agents.make
    except (ImportError, AttributeError):
        return RandomAgent(seed)
    if spec.startswith("policy:"):
        spec = model_path(spec)
    try:
        agent: Agent = make(spec, game, seed=seed)
    except (ValueError, KeyError, TypeError):
        if spec != "random":
            raise
        return RandomAgent(seed)
    return agent
