"""Which clocks run in a given moment of a match.

Clocks are not rules (ARCHITECTURE.md): the engine offers the rule-defined consequence of
time running out as an action (Stellium's random draw, the end of Stellar Conflict's timed
deployment), and the server decides when to send it. Each game's timed actions are listed
here; the optional per-move clock works for every turn-based game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skydeck.core import Action, State

#: Seconds of Stellar Conflict's timed deployment per battle scale.
CONFLICT_SECONDS = {"dispute": 30.0, "conflict": 60.0, "war": 120.0}


@dataclass(frozen=True)
class TimedAction:
    """An engine action sent by the server when a seat's time is up."""

    kind: str
    seconds: Callable[[dict[str, Any]], float | None]


def _conflict_seconds(options: dict[str, Any]) -> float | None:
    if options.get("deployment", "timed") != "timed":
        return None
    return CONFLICT_SECONDS.get(str(options.get("scale", "conflict")), 60.0)


TIMED_ACTIONS: dict[str, tuple[TimedAction, ...]] = {
    # Stellium: a seat has 5 seconds to pick a body from the bag, else it draws at random.
    "stellium": (TimedAction("timeout", lambda _o: 5.0),),
    # Stellar Conflict: the deployment ends when the battle-size timer runs out.
    "conflict": (
        TimedAction("end_deployment", _conflict_seconds),
        TimedAction("time_up", _conflict_seconds),
        TimedAction("timeout", _conflict_seconds),
    ),
}


@dataclass(frozen=True)
class Wanted:
    key: str
    seat: int
    seconds: float
    action: dict[str, Any] | None


def wanted_clocks(
    game_id: str,
    options: dict[str, Any],
    state: State,
    turn_start: dict[int, int],
    human_seats: set[int],
    move_seconds: float | None,
    legal: Callable[[int], list[Action]],
) -> list[Wanted]:
    """The clocks that should be running now. A key changes when a seat starts a new
    decision (``turn_start``), so a clock keeps its deadline while its key is unchanged."""
    out: list[Wanted] = []
    timed = TIMED_ACTIONS.get(game_id, ())
    for seat in state.to_move:
        start = turn_start.get(seat, 0)
        engine_clock = False
        if timed:
            kinds = {a.kind: a for a in legal(seat)}
            for ta in timed:
                if ta.kind in kinds:
                    seconds = ta.seconds(options)
                    if seconds is not None:
                        out.append(
                            Wanted(
                                f"{ta.kind}:{seat}:{start}",
                                seat,
                                seconds,
                                kinds[ta.kind].to_json(),
                            )
                        )
                        engine_clock = True
                    break
        if move_seconds and seat in human_seats and not engine_clock:
            out.append(Wanted(f"move:{seat}:{start}", seat, float(move_seconds), None))
    return out
