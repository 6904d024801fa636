"""What the after-the-game analyser needs to know of a game: :class:`AnalysisSupport`,
declared by each game in its ``analysis`` role module (``games/<g>/analysis.py``,
exported as ``ANALYSIS`` and found by ``registry.game_module(game, "analysis")``).

Here in core, beside :class:`~skydeck.core.search.GameSupport`, so that a game declares
it importing core only; the analyser itself (``skydeck.analysis``) is generic: it
determinises a seat's view with the game's search support (``from_view`` /
``resample``), plays each position out to the end with the policy named here, and
counts wins.

Why a policy of its own rather than the search's rollout: the analyser's numbers are
*win chances*, so a playout must end the match the way players of the heuristic's
strength would (a cheap rollout that wastes the game underrates every position). Games
whose heuristic decides on a full state (Stellium's ``decide``) name that fast form.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skydeck.core.action import Action
from skydeck.core.game import Game, State
from skydeck.core.rng import Rng

#: A playout policy: ``choose(state, seat, legal, rng)``, made fresh for every playout
#: (a heuristic with memory keeps it for one playout only).
Policy = Callable[[State, int, list[Action], Rng], Action]
PolicyMaker = Callable[[Game], Policy]
#: A clearly bad legal move for planted-mistake tests, or None where there is none.
#: Each seat's win chance in a position not yet over (summing to 1 unless co-op).
Judge = Callable[[State], list[float]]
BadMove = Callable[[State, int, list[Action], Rng], Action | None]


@dataclass(frozen=True)
class AnalysisSupport:
    """Every field has a default that works; a game declares what differs."""

    #: What the chance numbers mean, in one sentence (shown in reports and the docs).
    measure: str = "win chance: the share of playouts the seat wins (a shared win: 1/k)"
    #: Every seat wins or loses together (co-op): a win is 1 for every seat.
    cooperative: bool = False
    #: The playout policy; None: the game's heuristic agent, one per seat per playout,
    #: choosing on each seat's view of the playout's state.
    policy: PolicyMaker | None = None
    #: Drops in win chance (0-1) from which a move is an inaccuracy, a mistake, a
    #: blunder; a drop also has to exceed two standard errors of its estimate.
    thresholds: tuple[float, float, float] = (0.05, 0.10, 0.20)
    #: Playouts per decision by default (half to pick the best move, half to measure).
    playouts: int = 32
    #: Moves weighed besides the one played (the search support's candidates first).
    width: int = 4
    #: Steps after which a playout is stopped and counted as a draw (1/players each).
    max_steps: int = 3000
    #: Policy steps a playout runs before ``judge`` gives the chances (None: to the
    #: end of the match, where the win is counted). A short playout judged by a
    #: position value is many times cheaper and less noisy, at the value's own bias.
    depth: int | None = None
    #: Each seat's win chance in a position not yet over (for ``depth``).
    judge: Judge | None = None
    #: Which events of the game are chance events, in words (the analyser finds them
    #: as steps where the state drew from its Rng or revealed hidden information).
    chance: str = "draws from hidden decks and random rolls"
    #: A clearly bad legal move, for the planted-mistake measurement.
    bad_move: BadMove | None = None
    #: ``"module:function"``: ``function(states, actions, seconds) -> dict``, whether the
    #: deal was winnable and the first move after which it no longer was (clairvoyant).
    solver: str | None = None
