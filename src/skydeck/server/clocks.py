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

from skydeck.core import State
from skydeck.core.action import shared

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
    #: The action carries where each seat is moving the card it is playing, as its
    #: client last reported (``hold`` messages, kept in ``Room.held``): Stellar
    #: Conflict's alarm deploys those cards where they are.
    reports: bool = False


def _conflict_seconds(options: dict[str, Any]) -> float | None:
    if options.get("deployment", "timed") != "timed" or options.get("clock", "model") != "real":
        return None  # Light Speed stops by itself; the time model needs no clock
    return CONFLICT_SECONDS.get(str(options.get("scale", "conflict")), 60.0)


def _conflict_stop(options: dict[str, Any]) -> float | None:
    """Light Speed on a real table: when a seat calls stop, the cards the others are
    moving are reported at once (they stay where they are)."""
    if options.get("deployment") != "light_speed" or options.get("clock", "model") != "real":
        return None
    return 0.0


TIMED_ACTIONS: dict[str, tuple[TimedAction, ...]] = {
    # Stellium: a seat has 5 seconds to pick a body from the bag, else it draws at random.
    "stellium": (TimedAction("timeout", lambda _o: 5.0, label="draw"),),
    # Stellar Conflict: the deployment ends for everybody when the battle's timer rings
    # (or, Light Speed, at once after a stop); the cards being moved land where they are.
    "conflict": (
        TimedAction("timeout", _conflict_seconds, scope="table", label="deployment", reports=True),
        TimedAction("timeout", _conflict_stop, scope="table", label="stop", reports=True),
    ),
}

#: Options a live server sets unless the match request names them: Stellar Conflict's
#: deployment runs on the server's real clock, not the engine's time model.
LIVE_OPTIONS: dict[str, dict[str, Any]] = {"conflict": {"clock": "real"}}


def takes_reports(game_id: str) -> bool:
    """Whether a game's clients report the card they are moving (``hold`` messages)."""
    return any(ta.reports for ta in TIMED_ACTIONS.get(game_id, ()))


def with_reports(
    game_id: str,
    key: str,
    action: dict[str, Any],
    held: dict[int, tuple[int, int, int]],
    to_move: tuple[int, ...],
) -> dict[str, Any]:
    """The action of clock ``key`` as sent when it expires: for a clock that reports
    cards, each seat still playing one adds ``seat, x, y, angle`` (seat order)."""
    label = key.split(":", 1)[0]
    if not any(ta.reports and ta.label == label for ta in TIMED_ACTIONS.get(game_id, ())):
        return action
    args = [v for seat in sorted(held) if seat in to_move for v in (seat, *held[seat])]
    return {**action, "args": args}


@dataclass(frozen=True)
class Wanted:
    key: str
    seat: int
    seconds: float
    action: dict[str, Any] | None
    #: Every seat the clock times (a table clock: all seats to move); () means (seat,).
    seats: tuple[int, ...] = ()


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
        action = shared(ta.kind)  # one object, made once
        if ta.scope == "table":
            if to_move and state.accepts(action, to_move[0]):
                key = f"{ta.label}:table"
                out.append(Wanted(key, to_move[0], seconds, action.to_json(), tuple(to_move)))
                engine_timed.update(to_move)
            continue
        for seat in to_move:
            if seat not in engine_timed and state.accepts(action, seat):
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
