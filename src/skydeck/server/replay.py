"""Replays: a match's log stepped through from one seat's point of view."""

from __future__ import annotations

from typing import Any

from skydeck.core import filter_events
from skydeck.server.room import Room


def replay_steps(room: Room, seat: int | None, everyone: bool = False) -> dict[str, Any]:
    """Every step of the match as ``seat`` saw it (None: a spectator). Move names are
    shown for that seat's own moves, and for everybody's once the match is over or
    where no choice is secret (``Game.public_actions``). ``everyone`` (finished matches
    only): every seat's view at every step, all events."""
    named = room.names_every_move
    game = room.game
    state = game.new(room.stored.seed)
    seats = range(len(room.seats))
    names = [s["name"] for s in room.seats]

    def views() -> dict[str, Any]:
        return {str(s): state.view(s) for s in seats}

    first: dict[str, Any] = {"n": 0, "seat": None, "label": None, "events": []}
    if everyone:
        first["views"] = views()
    else:
        first["view"] = state.view(seat)
    steps: list[dict[str, Any]] = [first]
    for i, entry in enumerate(room.match.record.entries):
        events = state.apply(entry.action, entry.seat)
        step: dict[str, Any] = {
            "n": i + 1,
            "seat": entry.seat,
            "t": entry.t,
            "label": game.describe(entry.action) if (named or entry.seat == seat) else None,
            "to_move": list(state.to_move),
        }
        if everyone:
            shown = [{"kind": e.kind, **e.data} for e in events]
            step["views"] = views()
        else:
            shown = filter_events(events, seat)
            step["view"] = state.view(seat)
        step["events"] = [{**e, "text": game.describe_event(e, names, state)} for e in shown]
        steps.append(step)
    out: dict[str, Any] = {
        "match": room.header(),
        "seat": "everyone" if everyone else seat,
        "steps": steps,
    }
    if state.is_over:
        out["scores"] = list(state.scores)
        out["winners"] = list(state.winners)
    return out
