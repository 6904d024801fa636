"""What a generic search cannot know about a game: :class:`GameSupport`, declared by
each game beside its AI (``games/<g>/ai/support.py``, exported as ``ai.SUPPORT``).

Here in core, not in ``skydeck.agents``, so that a game's AI can declare it while
importing only core; ``skydeck.agents.support`` finds and completes it (see there for
what each field does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skydeck.core.action import Action
from skydeck.core.game import Game, State
from skydeck.core.rng import Rng

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
