"""Readable sentences for actions, for menus and logs (``Game.describe``)."""

from __future__ import annotations

from skydeck.core import Action

_DIRS = {
    "n": "north",
    "ne": "north-east",
    "e": "east",
    "se": "south-east",
    "s": "south",
    "sw": "south-west",
    "w": "west",
    "nw": "north-west",
}


def describe(action: Action) -> str:
    k, a = action.kind, [str(x) for x in action.args]
    if k == "draw":
        return f"draw a {a[0].capitalize()} from the bag"
    if k == "timeout":
        return "time is up: draw a body at random"
    if k == "place" and len(a) == 2:
        return f"crash the Comet into {a[0]}, pushing {_DIRS.get(a[1], a[1])}"
    if k == "place":
        return f"place the body on {a[0]}"
    if k == "swap":
        return f"swap the bodies on {a[0]} and {a[1]}"
    if k == "push":
        return f"collide: push {_DIRS.get(a[0], a[0])}"
    if k == "rotate":
        return f"rotate the Galaxy {a[0]} degrees clockwise"
    if k == "pull":
        return f"Black Hole {a[0]} pulls in the body on {a[1]}"
    if k == "skip":
        return "the effect has no target"
    if k == "complete":
        cells = action.args[1]
        spaces = ", ".join(map(str, cells)) if isinstance(cells, tuple) else str(cells)
        return f"complete Mission {a[0]} with {spaces}"
    if k == "keep":
        return f"keep the body on {a[0]}, discard the rest"
    if k == "done":
        return "stop completing Missions"
    if k == "refill":
        return f"refill: place a {a[0].capitalize()} on {a[1]}"
    if k == "take" and len(a) == 2:
        return f"take Mission {a[0]}, discarding {a[1]}"
    if k == "take":
        return f"take Mission {a[0]}"
    if k == "pass":
        return "keep your three Missions"
    return str(action)
