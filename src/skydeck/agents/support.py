"""Per-game help for the search agents, kept out of the game folders.

The search is generic; what it cannot know about a game lives in a :class:`GameSupport`:

- ``from_view(game, view, seat, rng)``: build *one* full state consistent with a seat's
  view (the inverse of ``State.view``). A game that declares ``Game.has_from_view`` gets
  its engine's own ``Game.from_view`` here whenever its support names none (see
  :func:`support_for`); a support may still name its own. Without either, an agent falls
  back on a bound :class:`~skydeck.core.record.MatchRecord` (see :mod:`.belief`).
- ``rollout(state, seat, legal, rng)``: a cheap playout policy where random play is weak.
- ``evaluate(state)``: one reward in [0, 1] per seat, for finished states and for
  playouts cut short.
- ``candidates(game, view, legal, seat)``: the root actions worth searching when a
  decision offers hundreds (Stellar Conflict's placements).
- ``cooperative``: every seat shares one result (Stellarion two-player).
- ``flat``: search the root alone (flat Monte Carlo), every later decision and the other
  seats' simultaneous picks at the root played by ``rollout``: for games whose rollout
  policy models a player far better than a thin tree over hundreds of actions does.
- ``trust``: keep the first of ``candidates`` unless the search clearly beats it.
- ``playout(state, rng)``: a whole playout of the game's own making, for a cut-off a
  step count cannot express (Stellium: until the turn has gone round the table).

A game's ``ai`` module (``games/<g>/ai``) defines ``SUPPORT``, imported on first use.
A game defined outside Skydeck (a plug-in, a test game) may instead define
``SEARCH_SUPPORT`` in the module of its Game class; anyone can also :func:`register` a
support directly.
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from typing import Any

from skydeck.core import Action, Game, Rng, State
from skydeck.core.search import (
    Candidates,
    Evaluate,
    FromView,
    GameSupport,
    Playout,
    Rollout,
)
from skydeck.registry import game_class, game_module

__all__ = [
    "Candidates",
    "Evaluate",
    "FromView",
    "GameSupport",
    "Playout",
    "Rollout",
    "register",
    "support_for",
]

_SUPPORT: dict[str, GameSupport] = {}
_TRIED: set[str] = set()


def register(game_id: str, support: GameSupport) -> None:
    """Register (or replace) the support of a game; used by tests and plug-ins."""
    _SUPPORT[game_id] = support
    _TRIED.add(game_id)


def game_from_view(game: Game, view: dict[str, Any], seat: int, rng: Rng) -> State:
    """The engine's own view inversion, for games that declare ``has_from_view``."""
    return game.from_view(view, seat, rng)


def _declares_from_view(game: Game | str) -> bool:
    if isinstance(game, Game):
        return type(game).has_from_view
    try:
        return game_class(game).has_from_view
    except ValueError:  # not a registered game (a test game named by id)
        return False


def support_for(game: Game | str) -> GameSupport:
    """The game's support, its ``ai.SUPPORT`` (imported once) if it has one; its
    ``from_view`` is the game's own :meth:`Game.from_view` when the game declares the
    capability and the support names none."""
    game_id = game if isinstance(game, str) else game.id
    if game_id not in _TRIED:
        _TRIED.add(game_id)
        module = game_module(game, "ai")
        found_support = getattr(module, "SUPPORT", None)
        if found_support is None:
            if not isinstance(game, str):
                found = getattr(sys.modules[type(game).__module__], "SEARCH_SUPPORT", None)
                if isinstance(found, GameSupport):
                    _SUPPORT[game_id] = found
        else:
            _SUPPORT[game_id] = found_support
    support = _SUPPORT.get(game_id, GameSupport())
    if support.from_view is None and _declares_from_view(game):
        support = _SUPPORT[game_id] = replace(support, from_view=game_from_view)
    return support


def random_rollout(state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
    return legal[rng.below(len(legal))]


def default_evaluate(state: State, support: GameSupport) -> list[float]:
    """Rewards in [0, 1]: winning counts most; the score margin breaks ties and judges
    unfinished playouts, so the search still learns something when every line loses."""
    scores = state.scores
    n = len(scores)
    scale = support.score_scale
    if n == 1 or support.cooperative:
        shaped = [0.5 + 0.5 * math.tanh(s / scale) for s in scores]
    else:
        shaped = []
        for i, s in enumerate(scores):
            best_other = max(scores[j] for j in range(n) if j != i)
            shaped.append(0.5 + 0.5 * math.tanh((s - best_other) / scale))
    if not state.is_over:
        return shaped
    winners = state.winners
    return [(0.9 if i in winners else 0.0) + 0.1 * shaped[i] for i in range(n)]
