"""The games, one sub-package each; a sub-package that exposes ``GAME`` is a game.

Discovery instead of a hand-kept list lets each game live in its own folder and be
added without touching shared files (``skydeck.registry`` builds on it).

``skydeck.games`` is both this package and, per the engine contract, a function:
``skydeck.games()`` lists the game ids. A plain function would be shadowed by this
package as soon as a game module is imported, so the module itself is callable.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import types

from skydeck.core.game import Game

_FOUND: dict[str, type[Game]] | None = None


def discover() -> dict[str, type[Game]]:
    """Every game of this package by id, sorted (imported once, on first use)."""
    global _FOUND
    if _FOUND is None:
        found: dict[str, type[Game]] = {}
        for info in pkgutil.iter_modules(__path__):
            if info.ispkg and not info.name.startswith("_"):
                cls = getattr(importlib.import_module(f"{__name__}.{info.name}"), "GAME", None)
                if cls is not None:
                    found[cls.id] = cls
        _FOUND = dict(sorted(found.items()))
    return _FOUND


class _GamesModule(types.ModuleType):
    def __call__(self) -> list[str]:
        return list(discover())


sys.modules[__name__].__class__ = _GamesModule
