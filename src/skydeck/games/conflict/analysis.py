"""What the after-the-game analyser needs of Stellar Conflict (``skydeck analyse``).

Measured: each seat's win chance. A playout is the game's heuristic for every seat
(one per seat, choosing on that seat's view), played to the end of the battle.

Chance events: the cards each fleet draws from its deck during Deployment (and the
Meteor variant's meteors): every step that drew from the state's generator or turned
up what was hidden.

Thresholds (drop in win chance): inaccuracy 0.05, mistake 0.10, blunder 0.20.
The planted mistake: stopping the deployment ("done") while cards are still to place,
which forfeits the rest of the fleet.
"""

from __future__ import annotations

from skydeck.core import Action, Rng, State
from skydeck.core.analysis import AnalysisSupport


def bad_move(state: State, seat: int, legal: list[Action], rng: Rng) -> Action | None:
    places = [a for a in legal if a.kind == "place"]
    stops = [a for a in legal if a.kind == "done"]
    return stops[0] if places and stops else None


ANALYSIS = AnalysisSupport(
    measure="win chance; heuristic playouts to the end of the battle",
    playouts=24,
    width=4,
    chance="the cards drawn from each fleet's deck in Deployment, and meteors",
    bad_move=bad_move,
)
