"""What a game declares to the fronts beyond its rules, in one place (OpenSpiel's
``GameType``): the server's clocks, a study's columns, the RL environment's id and
shaping, the solver the command line offers.

Why one declaration on the Game: before it, each front kept a table keyed by game id
(``server/clocks.py``, ``sim/facets.py``, ``rl/__init__.py``, ``rl/train.py``,
``cli.py``), and a new game left out of one failed silently. Now a front reads
``game.capabilities`` and a game is complete when its own folder is.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skydeck.core.game import State


@dataclass(frozen=True)
class TimedAction:
    """An engine action the server sends when time is up (clocks are not rules: the
    engine offers the rule's consequence of time running out as an action, the server
    decides when to send it; it runs whenever the engine would accept it).

    ``scope`` is ``"seat"`` when each seat's decision has its own clock (restarting with
    every new decision), or ``"table"`` for one clock shared by everyone that runs as
    long as the engine accepts the action (a simultaneous phase).
    """

    kind: str
    #: Seconds for a match's options; None: no clock in this set-up.
    seconds: Callable[[dict[str, Any]], float | None]
    scope: str = "seat"
    #: What the clock times, shown to the players ("draw", "deployment").
    label: str = "clock"
    #: The action carries where each seat is moving the card it is playing, as its
    #: client last reported (``hold`` messages): Stellar Conflict's alarm deploys those
    #: cards where they are.
    reports: bool = False


@dataclass(frozen=True)
class SeatFacets:
    """A seat's side in a match: ``faction`` (Stellar Conflict's race, Stellar
    Expedition's faction), ``powers`` (Expedition's player powers) and ``order`` (0 for
    the first player, 1 for the next ...; None where the game has no first player)."""

    faction: str | None = None
    powers: tuple[str, ...] = ()
    order: int | None = None


@dataclass(frozen=True)
class Uses:
    """Which actions use a card or component: their kinds (None: every kind) and the
    shape of a component's id among the action's arguments."""

    kinds: frozenset[str] | None
    pattern: re.Pattern[str] = field(default=re.compile(r"[A-Za-z_][\w.]*\Z"))


#: Reads a seat's facets from the spectator's view of the final state (public only).
Facets = Callable[[dict[str, Any], int], list[SeatFacets]]
#: A number in [0, 1] or a value from a state, for RL reward shaping.
Measure = Callable[["State"], float]


def resolve(reference: str) -> Any:
    """``"package.module:name"`` -> the object (imported only when asked for: a solver
    is heavy and a command line that never solves should not load it)."""
    module, _, name = reference.partition(":")
    if not module or not name:
        raise ValueError(f"a reference is 'package.module:name', got {reference!r}")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Capabilities:
    """Everything a front needs to know of a game that is not the contract itself.
    Every field has a working default, so a new game declares only what it has."""

    #: Gymnasium's id for the game's environment (``skydeck/Stellium-v0``); None: made
    #: from the game's id.
    env_id: str | None = None
    #: Actions the server sends on time (Stellium's 5-second draw, Conflict's timer).
    timed_actions: tuple[TimedAction, ...] = ()
    #: Options a live server sets unless the match request names them.
    live_options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: A seat's faction, powers and place in the turn order, for study tables.
    facets: Facets | None = None
    #: Which actions use which components, for the study's usage table.
    uses: Uses | None = None
    #: Share of the goal done (RL's ``progress`` potential and learning curve).
    progress: Measure | None = None
    #: ``"module:function"`` of the heuristic's position value (RL's ``heuristic``
    #: potential): it lives with the game's AI, imported only when asked for.
    value: str | None = None
    #: ``"module:function"`` of ``skydeck solve GAME``: ``function(options, seed, budget,
    #: nodes, as_json, planner=...) -> exit code``.
    solver: str | None = None
    #: ``"module:function"`` drawing a view as an SVG picture (``function(view) -> str``),
    #: for RL's ``rgb_array``; None: the terminal's text, drawn as an SVG.
    picture: str | None = None
    #: The seats play together against the game (Stellarion): no ranking between them,
    #: so no rating; the server counts results per set-up instead.
    cooperative: bool = False

    def environment_id(self, game_id: str) -> str:
        return self.env_id or f"skydeck/{game_id.capitalize()}-v0"

    def takes_reports(self) -> bool:
        """Whether the game's clients report the card they are moving (``hold``)."""
        return any(ta.reports for ta in self.timed_actions)
