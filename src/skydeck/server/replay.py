"""Replays: a match's log stepped through from one seat's point of view."""

from __future__ import annotations

from typing import Any

from skydeck.core import filter_events
from skydeck.server.room import Room


def replay_steps(room: Room, seat: int | None) -> dict[str, Any]:
    """Every step of the match as ``seat`` saw it (None: a spectator). Move names are
    shown for that seat's own moves, and for everybody's once the match is over."""
    over = room.status != "live"
    game = room.game
    state = game.new(room.stored.seed)
    steps: list[dict[str, Any]] = [
        {"n": 0, "seat": None, "label": None, "events": [], "view": state.view(seat)}
    ]
    for i, entry in enumerate(room.match.record.entries):
        events = state.apply(entry.action, entry.seat)
        steps.append(
            {
                "n": i + 1,
                "seat": entry.seat,
                "t": entry.t,
                "label": game.describe(entry.action) if (over or entry.seat == seat) else None,
                "events": filter_events(events, seat),
                "view": state.view(seat),
                "to_move": list(state.to_move),
            }
        )
    out: dict[str, Any] = {"match": room.header(), "seat": seat, "steps": steps}
    if state.is_over:
        out["scores"] = list(state.scores)
        out["winners"] = list(state.winners)
    return out
