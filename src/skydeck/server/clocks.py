"""Which clocks run in a given moment of a match.

Clocks are not rules (ARCHITECTURE.md): the engine offers the rule-defined consequence of
time running out as an action (Stellium's random draw, the end of Stellar Conflict's timed
deployment), and the server decides when to send it. A timed action is running whenever
the engine would accept it; each game's timed actions are listed here. The optional
per-move clock works for every game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skydeck.core import Action, IllegalAction, State

#: Seconds of Stellar Conflict's timed deployment per battle scale.
CONFLICT_SECONDS = {"dispute": 30.0, "conflict": 60.0, "war": 120.0}


@dataclass(frozen=True)
class TimedAction:
    """An engine action the server sends when time is up.

    ``scope`` is ``"seat"`` when each seat's decision has its own clock (restarting with
    every new decision), or ``"table"`` for one clock shared by everyone that runs as
    long as the engine accepts the action (a simultaneous phase).
    """

    kind: str
    seconds: Callable[[dict[str, Any]], float | None]
    scope: str = "seat"
    #: What the clock times, shown to the players ("draw", "deployment").
    label: str = "clock"


def _conflict_seconds(options: dict[str, Any]) -> float | None:
    if options.get("deployment", "timed") != "timed":
        return None  # Light Speed: the engine stops when a seat deploys its last card
    return CONFLICT_SECONDS.get(str(options.get("scale", "conflict")), 60.0)


TIMED_ACTIONS: dict[str, tuple[TimedAction, ...]] = {
    # Stellium: a seat has 5 seconds to pick a body from the bag, else it draws at random.
    "stellium": (TimedAction("timeout", lambda _o: 5.0, label="draw"),),
    # Stellar Conflict: the deployment ends for everybody when the battle's timer rings.
    "conflict": (TimedAction("timeout", _conflict_seconds, scope="table", label="deployment"),),
}


@dataclass(frozen=True)
class Wanted:
    key: str
    seat: int
    seconds: float
    action: dict[str, Any] | None
    #: Every seat the clock times (a table clock: all seats to move); () means (seat,).
    seats: tuple[int, ...] = ()


def _accepts(state: State, action: Action, seat: int) -> bool:
    try:
        state.validate(action, seat)
    except IllegalAction:
        return False
    return True


def wanted_clocks(
    game_id: str,
    options: dict[str, Any],
    state: State,
    turn_start: dict[int, int],
    human_seats: set[int],
    move_seconds: float | None,
) -> list[Wanted]:
    """The clocks that should be running now. A key changes when a seat starts a new
    decision (``turn_start``), so a clock keeps its deadline while its key is unchanged."""
    out: list[Wanted] = []
    to_move = state.to_move
    engine_timed: set[int] = set()
    for ta in TIMED_ACTIONS.get(game_id, ()):
        seconds = ta.seconds(options)
        if seconds is None:
            continue
        action = Action(ta.kind)
        if ta.scope == "table":
            if to_move and _accepts(state, action, to_move[0]):
                key = f"{ta.label}:table"
                out.append(Wanted(key, to_move[0], seconds, action.to_json(), tuple(to_move)))
                engine_timed.update(to_move)
            continue
        for seat in to_move:
            if seat not in engine_timed and _accepts(state, action, seat):
                start = turn_start.get(seat, 0)
                key = f"{ta.label}:{seat}:{start}"
                out.append(Wanted(key, seat, seconds, action.to_json()))
                engine_timed.add(seat)
    if move_seconds:
        for seat in to_move:
            if seat in human_seats and seat not in engine_timed:
                start = turn_start.get(seat, 0)
                out.append(Wanted(f"move:{seat}:{start}", seat, float(move_seconds), None))
    return out
