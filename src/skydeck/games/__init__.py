"""The four games, one sub-package each.

``skydeck.games`` is both this package and, per the engine contract, a function:
``skydeck.games()`` lists the registered game ids. A plain function would be shadowed
by this package as soon as a game module is imported, so the module itself is callable.
"""

from __future__ import annotations

import sys
import types


class _GamesModule(types.ModuleType):
    def __call__(self) -> list[str]:
        from skydeck.core.registry import game_ids

        return game_ids()


sys.modules[__name__].__class__ = _GamesModule
