"""Finds the games: every sub-package of ``skydeck.games`` that exposes ``GAME``.

Discovery instead of a hand-kept list lets each game live in its own folder and be
added without touching shared files.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

from skydeck.core.game import Game

_GAMES: dict[str, type[Game]] | None = None


def _discover() -> dict[str, type[Game]]:
    global _GAMES
    if _GAMES is None:
        import skydeck.games as package

        found: dict[str, type[Game]] = {}
        for info in pkgutil.iter_modules(package.__path__):
            if not info.ispkg:
                continue
            module = importlib.import_module(f"skydeck.games.{info.name}")
            cls = getattr(module, "GAME", None)
            if cls is not None:
                found[cls.id] = cls
        _GAMES = dict(sorted(found.items()))
    return _GAMES


def game_ids() -> list[str]:
    return list(_discover())


def game_class(game_id: str) -> type[Game]:
    games = _discover()
    if game_id not in games:
        raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(games)}")
    return games[game_id]


def load(game_id: str, **options: Any) -> Game:
    """``skydeck.load("stellarion", players=1, expansions=[...])``; ValueError on bad options."""
    return game_class(game_id)(**options)


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
