"""A game's RL encoding as tables: its action catalogue and observer for an option set.

Built from the game's ``encode`` module (found through the registry) and the generic
pieces in core, once per game and option set. Apart from ``rl/`` because a trained
policy playing as an ordinary agent (``agents/policy.py``) needs the same tables, and
the ``rl`` package reaches the agents (its environments' opponents): reading them
from there made ``agents -> rl -> agents`` an import cycle (issue 47).
"""

from __future__ import annotations

import json
from functools import lru_cache
from types import ModuleType

from skydeck.core.catalogue import ActionCatalogue
from skydeck.core.game import Game
from skydeck.core.observer import Observer
from skydeck.registry import game_ids, game_module, load


def spec_module(game_id: str) -> ModuleType:
    """The RL encoding of a game (its ``encode`` module): catalogue, OBSERVER, flags."""
    if game_id not in game_ids():
        raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
    module = game_module(game_id, "encode")
    if module is None:
        raise ValueError(f"game {game_id!r} has no RL encoding (no encode module)")
    return module


@lru_cache(maxsize=64)
def _tables(game_id: str, options_json: str) -> tuple[ActionCatalogue, Observer]:
    game = load(game_id, **json.loads(options_json))
    module = spec_module(game_id)
    return ActionCatalogue(game_id, module.catalogue(game)), module.OBSERVER(game)


def tables(game: Game) -> tuple[ActionCatalogue, Observer]:
    """The catalogue and observer of a game and option set (built once, then shared)."""
    return _tables(game.id, json.dumps(game.options, sort_keys=True))
