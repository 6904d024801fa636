"""Which clocks run in a given moment of a match.

Clocks are not rules (ARCHITECTURE.md): the engine offers the rule-defined consequence of
time running out as an action (Stellium's random draw, the end of Stellar Conflict's timed
deployment), and the server decides when to send it. A timed action is running whenever
the engine would accept it; each game declares its own (``Capabilities.timed_actions``).
The optional per-move clock works for every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skydeck.core import State
from skydeck.core.action import shared
from skydeck.core.capabilities import Capabilities


def with_reports(
    capabilities: Capabilities,
    key: str,
    action: dict[str, Any],
    held: dict[int, tuple[int, int, int]],
    to_move: tuple[int, ...],
) -> dict[str, Any]:
    """The action of clock ``key`` as sent when it expires: for a clock that reports
    cards, each seat still playing one adds ``seat, x, y, angle`` (seat order)."""
    label = key.split(":", 1)[0]
    if not any(ta.reports and ta.label == label for ta in capabilities.timed_actions):
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
    state: State,
    turn_start: dict[int, int],
    human_seats: set[int],
    move_seconds: float | None,
) -> list[Wanted]:
    """The clocks that should be running now. A key changes when a seat starts a new
    decision (``turn_start``), so a clock keeps its deadline while its key is unchanged.
    A timed action's seconds come from the match's options (``state.game.options``)."""
    options = state.game.options
    out: list[Wanted] = []
    to_move = state.to_move
    engine_timed: set[int] = set()
    for ta in state.game.capabilities.timed_actions:
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
