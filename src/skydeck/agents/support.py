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

Modules in :mod:`skydeck.agents.policies` named after a game id are imported on first
use and must define ``SUPPORT``. A game defined outside Skydeck (a plug-in, a test game)
may instead define ``SEARCH_SUPPORT`` in the module of its Game class; anyone can also
:func:`register` a support directly.
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from skydeck.core import Action, Game, Rng, State
from skydeck.registry import game_class

FromView = Callable[[Game, dict[str, Any], int, Rng], State]
Rollout = Callable[[State, int, list[Action], Rng], Action]
Evaluate = Callable[[State], list[float]]
Playout = Callable[[State, Rng], list[float]]
Candidates = Callable[[Game, dict[str, Any], list[Action], int], list[Action]]


@dataclass(frozen=True)
class GameSupport:
    from_view: FromView | None = None
    rollout: Rollout | None = None
    evaluate: Evaluate | None = None
    #: the root actions worth searching (from the view), where there are too many
    candidates: Candidates | None = None
    cooperative: bool = False
    #: how many steps a playout runs before ``evaluate`` judges it (None: to the end)
    rollout_depth: int | None = None
    #: the scale of a meaningful score difference, for the default evaluation
    score_scale: float = 10.0
    #: the tree is the root alone; the rollout policy plays everything else
    flat: bool = False
    #: keep the first of ``candidates`` unless the search is clearly better
    trust: bool = True
    #: the game's own playout (policy and cut-off together: "play until the turn has
    #: gone round the table, then judge"), in place of ``rollout`` + ``rollout_depth`` +
    #: ``evaluate`` whenever a level plays the game's policy and sets no ``depth``
    playout: Playout | None = None


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
    """The game's support, importing ``skydeck.agents.policies.<id>`` once if present;
    its ``from_view`` is the game's own :meth:`Game.from_view` when the game declares
    the capability and the support names none."""
    game_id = game if isinstance(game, str) else game.id
    if game_id not in _TRIED:
        _TRIED.add(game_id)
        try:
            module = importlib.import_module(f"skydeck.agents.policies.{game_id}")
        except ModuleNotFoundError as exc:
            if exc.name != f"skydeck.agents.policies.{game_id}":
                raise
            if not isinstance(game, str):
                found = getattr(sys.modules[type(game).__module__], "SEARCH_SUPPORT", None)
                if isinstance(found, GameSupport):
                    _SUPPORT[game_id] = found
        else:
            _SUPPORT[game_id] = module.SUPPORT
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
