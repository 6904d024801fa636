"""The game registry: ids, classes and ``load``, over the games ``skydeck.games`` finds.

It sits above core and the games (core imports nothing above it): core's match records
are given :func:`load` here (``record.use_loader``) instead of importing it, so that a
record can rebuild its game without core knowing where games live.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from skydeck.core import record
from skydeck.core.game import Game
from skydeck.games import discover


def game_ids() -> list[str]:
    return list(discover())


def game_class(game_id: str) -> type[Game]:
    games = discover()
    if game_id not in games:
        raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(games)}")
    return games[game_id]


def load(game_id: str, **options: Any) -> Game:
    """``skydeck.load("stellarion", players=1, expansions=[...])``; ValueError on bad options."""
    return game_class(game_id)(**options)


def game_package(game: type[Game] | Game) -> ModuleType:
    """The package a game's files live in: the one holding its Game class (the class's
    own module when that is the package's ``__init__``). Every role module and the web
    folder are found beside it, so a game outside ``skydeck.games`` (a plug-in, a copy
    of the template) works alike."""
    cls = game if isinstance(game, type) else type(game)
    home = sys.modules[cls.__module__]
    if hasattr(home, "__path__"):
        return home
    return sys.modules[home.__name__.rpartition(".")[0]]


def game_folder(game: type[Game] | Game) -> Path:
    """The folder of :func:`game_package` (its ``web/``, ``data/`` ...)."""
    return Path(game_package(game).__file__ or "").parent


def game_module(game: str | type[Game] | Game, role: str) -> ModuleType | None:
    """A game's module for one role, by its name beside the Game class (see
    games/CHECKLIST.md): ``ai`` (AGENTS, SUPPORT), ``encode`` (the RL catalogue and
    observer), ``terminal``, ``bench``, ``svg``, ``analysis`` (ANALYSIS, for
    ``skydeck analyse``). None when the game has none, or when ``game`` is an id no
    registered game has. Found in :func:`game_package`."""
    if isinstance(game, str):
        try:
            cls: type[Game] = game_class(game)
        except ValueError:
            return None
    else:
        cls = game if isinstance(game, type) else type(game)
    name = f"{game_package(cls).__name__}.{role}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and name.startswith(exc.name):
            return None
        raise


def with_games(
    *extra: type[Game],
) -> tuple[Callable[[str], type[Game]], Callable[[], list[str]]]:
    """A ``game_class`` and a ``game_ids`` that also know ``extra`` (games outside the
    package, e.g. a server's benchmark game or a test's toy game), for ``create_app``'s
    ``games`` and ``list_games``; the registry itself is left as it is."""
    added = {cls.id: cls for cls in extra}

    def classes(game_id: str) -> type[Game]:
        found = added.get(game_id)
        return found if found is not None else game_class(game_id)

    def ids() -> list[str]:
        return [*game_ids(), *added]

    return classes, ids


record.use_loader(load)
