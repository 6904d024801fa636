"""Readable sentences for actions (menus, ``Game.describe``) and for events (the log,
``Game.describe_event``): body and Mission names, the spaces' printed coordinates."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from skydeck.core import Action
from skydeck.core.game import generic_event_sentence, seat_name
from skydeck.games.stellium.tables import CARDS

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


@cache
def _mission_names() -> dict[str, str]:
    return {c.id: c.name for c in CARDS}


def mission(mid: Any) -> str:
    """'Blue Border' for 'm19' (the id itself when unknown)."""
    return _mission_names().get(str(mid), str(mid))


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
        return f"complete Mission {mission(a[0])} with {spaces}"
    if k == "keep":
        return f"keep the body on {a[0]}, discard the rest"
    if k == "done":
        return "stop completing Missions"
    if k == "refill":
        return f"refill: place a {a[0].capitalize()} on {a[1]}"
    if k == "take" and len(a) == 2:
        return f"take Mission {mission(a[0])}, discarding {mission(a[1])}"
    if k == "take":
        return f"take Mission {mission(a[0])}"
    if k == "pass":
        return "keep your three Missions"
    return str(action)


def _bodies(counts: Mapping[str, int] | Sequence[str]) -> str:
    """{"comet": 2, "star": 1} or ["comet", "comet", "star"] -> '2 Comets and a Star'."""
    if not isinstance(counts, Mapping):
        tally: dict[str, int] = {}
        for b in counts:
            tally[str(b)] = tally.get(str(b), 0) + 1
        counts = tally
    parts = [
        f"a {b.capitalize()}" if n == 1 else f"{n} {b.capitalize()}s"
        for b, n in counts.items()
        if n
    ]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _effect(e: Mapping[str, Any], who: str) -> str:
    eff = e.get("effect")
    if eff == "none":
        return f"{who} places a body without effect"
    if eff == "swap":
        a, b = e["spaces"]
        return f"{who} swaps the bodies on {a} and {b} (Gravity)"
    if eff == "collision":
        d = _DIRS.get(str(e.get("direction")), str(e.get("direction")))
        off = (
            f"; a {str(e['off_edge']).capitalize()} leaves the Universe"
            if e.get("off_edge")
            else ""
        )
        return f"{who} pushes {d} with the Comet from {e['from']} (Collision){off}"
    if eff == "rotation":
        return f"{who} turns the {e['galaxy']} Galaxy {e['degrees']} degrees clockwise (Rotation)"
    if eff == "attraction":
        return (
            f"{who} pulls the body from {e['from']} into the Black Hole on {e['hole']} (Attraction)"
        )
    return generic_event_sentence(e, [])


def describe_event(e: Mapping[str, Any], names: Sequence[str]) -> str:
    """One log sentence for a Stellium event (all of them are public)."""
    k = e.get("kind")
    who = seat_name(names, e["seat"]) if e.get("seat") is not None else "The player"
    if k == "drew":
        return f"{who} draws a {str(e['body']).capitalize()} from the bag"
    if k == "timeout":
        return f"{who} ran out of time: a body is drawn at random"
    if k == "placed":
        return f"{who} places the {str(e['body']).capitalize()} on {e['space']}"
    if k == "refilled":
        return f"{who} refills {e['space']} with a {str(e['body']).capitalize()}"
    if k == "effect":
        return _effect(e, who)
    if k == "token":
        return f"{who} uses the {e['colour']} Influence token"
    if k == "completed":
        return (
            f"{who} completes Mission {mission(e['mission'])} with {', '.join(e['spaces'])} "
            f"({e['points']} Stelliums)"
        )
    if k == "discarded":
        back = e.get("to_bag") or []
        rest = f"; {_bodies(back)} go back to the bag" if back else ""
        return f"{who} keeps the body on {e['kept']}{rest}"
    if k == "missions_done":
        return f"{who} stops completing Missions"
    if k == "took":
        return f"{who} takes Mission {mission(e['mission'])}"
    if k == "mission_discarded":
        return f"{who} discards Mission {mission(e['mission'])}"
    if k == "kept_hand":
        return f"{who} takes no new Mission"
    if k == "revealed":
        return f"Mission {mission(e['mission'])} is turned up ({e['reserve']} left in the reserve)"
    if k == "final_round":
        if e.get("reason") == "target":
            return f"The final round begins: {who} reached the target"
        return "The final round begins: the Mission reserve is empty"
    if k == "turn":
        return f"{who}'s turn"
    if k == "bag_empty":
        return f"The bag is empty: {who} draws nothing"
    if k == "refill_drawn":
        order = ", ".join(seat_name(names, s) for s in e.get("order", []))
        return f"The {e['galaxy']} Galaxy is empty: {_bodies(e['bodies'])} drawn to refill it" + (
            f" (placed by {order})" if order else ""
        )
    if k == "refill_returned":
        return f"{_bodies(e['bodies'])} go back to the bag"
    if k == "refill_impossible":
        return f"The {e['galaxy']} Galaxy is empty but the bag cannot refill it"
    if k == "game_over":
        return _game_over(e, names)
    return generic_event_sentence(e, names)


def _game_over(e: Mapping[str, Any], names: Sequence[str]) -> str:
    winners = [seat_name(names, s) for s in e.get("winners", [])]
    scores = ", ".join(f"{seat_name(names, s)} {int(v)}" for s, v in enumerate(e.get("scores", [])))
    if not winners:
        return f"The game is over ({scores})"
    won = winners[0] if len(winners) == 1 else " and ".join(winners)
    return f"The game is over: {won} {'wins' if len(winners) == 1 else 'share the win'} ({scores})"
