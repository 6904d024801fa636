"""Stellium for RL: the action catalogue and the observer.

Actions: ``draw`` (a body by touch, or ``timeout``), ``place`` (each Galaxy space, and
a Comet's collision towards each of 8 directions), the effects (``swap`` and ``pull``
over neighbouring spaces, ``push``, ``rotate``, ``skip``), ``complete`` (each Mission
with each set of spaces that can ever complete it: the shape cards' placements, every
choice of Galaxy centres, every choice among the spaces a disc can colour), ``keep``,
``done``, ``refill`` (a body on a Galaxy space), ``take`` (a Mission, or a Mission and
the card it replaces) and ``pass``. Everything but the Mission Reserve's order is
public, and the view leaves that out.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from skydeck.core.action import Action
from skydeck.games.stellium.content import BODIES, COLOURS
from skydeck.games.stellium.notation import DONE, DRAW, PASS, PUSH, ROTATE, SKIP
from skydeck.games.stellium.rules import CARDS, NOTATION, PHASES, UNIVERSE
from skydeck.rl.observer import Observer, Vec, mark, one_hot

COOPERATIVE = False
SIMULTANEOUS = False
#: the engine keeps its legal list per position (``legal_actions`` is a copy of it), so
#: the step proves an action legal by asking again instead of re-validating it
CACHED_LEGAL = True


def _colourable() -> dict[int, list[int]]:
    """Cells a disc can give each colour, in any slot and orientation."""
    u = UNIVERSE
    out: dict[int, set[int]] = {}
    for cells in u.slot_cells:
        for disc in u.disc_colour:
            for row in disc:
                for local, colour in enumerate(row):
                    if colour:
                        out.setdefault(colour, set()).add(cells[local])
    return {c: sorted(v) for c, v in out.items()}


def catalogue(game: Any) -> list[tuple[str, Iterable[Action]]]:
    u = UNIVERSE
    names = u.names
    galaxy = u.galaxy_spaces
    complete: list[Action] = []
    colourable = _colourable()
    for card in CARDS:
        if card.kind == "centres":
            sets: Iterable[tuple[int, ...]] = combinations(sorted(u.centres), card.count)
        elif card.kind == "colour_spaces":
            sets = combinations(colourable.get(card.colour, []), card.count)
        else:
            sets = sorted({cells for cells, _ in card.placements})
        complete.extend(Action("complete", (card.id, tuple(names[i] for i in s))) for s in sets)
    ids = [c.id for c in CARDS]
    return [
        ("draw", list(DRAW)),
        ("place", [NOTATION.place[c] for c in galaxy]),
        ("place_collide", [a for c in galaxy for a in NOTATION.place_dir[c]]),
        ("swap", list(NOTATION.swap.values())),
        ("push", list(PUSH)),
        ("rotate", list(ROTATE[1:])),
        ("pull", list(NOTATION.pull.values())),
        ("skip", [SKIP]),
        ("complete", complete),
        ("keep", [NOTATION.keep[c] for c in u.spaces]),
        ("done", [DONE]),
        ("refill", [NOTATION.refill[b][c] for b in range(1, 5) for c in galaxy]),
        ("take", [Action("take", (m,)) for m in ids]),
        ("take_replace", [Action("take", (m, h)) for m in ids for h in ids if m != h]),
        ("pass", [PASS]),
    ]


class StelliumObserver(Observer):
    def __init__(self, game: Any) -> None:
        super().__init__()
        n = game.players
        self.players = n
        u = UNIVERSE
        self.space = {u.names[c]: i for i, c in enumerate(u.spaces)}
        ns = len(self.space)
        self.missions = {c.id: i for i, c in enumerate(CARDS)}
        nm = len(self.missions)
        self.body = {b: i for i, b in enumerate(BODIES[1:])}
        self.colour = {c: i for i, c in enumerate(COLOURS[1:])}
        self.o_seat = self.add("seat", n, "one-hot: this seat")
        self.o_turn = self.add("turn", n, "one-hot: whose turn it is")
        self.o_move = self.add("to_move", n, "one-hot: the seat that must act")
        self.o_first = self.add("first_player", n, "one-hot: the first player")
        self.o_phase = self.add("phase", len(PHASES), "one-hot: " + ", ".join(PHASES))
        self.o_misc = self.add(
            "misc", 5, "target / 30, turns / 100, final round, must use a token, reserve / 40"
        )
        self.o_board = self.add(
            "board", (ns, 4), "per Universe space: body one-hot (planet comet star supernova)"
        )
        self.o_colours = self.add(
            "colours", (ns, 4), "per space: hole colour one-hot (green blue yellow pink)"
        )
        self.o_bag = self.add("bag", 4, "bodies left in the bag / 10")
        self.o_drawn = self.add("drawn", 4, "one-hot body drawn, not yet placed")
        self.o_placed = self.add("placed", ns, "one-hot space of the body placed this turn")
        self.o_spent = self.add("spent", ns, "spaces already used for a Mission this turn")
        self.o_keep = self.add("keep", ns, "cells of the Mission just completed (keep step)")
        self.o_refill = self.add(
            "refill", 6 + 4, "refill: one-hot Galaxy slot, bodies drawn per type / 5"
        )
        self.o_tokens = self.add("tokens", (n, 4), "per seat: unused Influence tokens")
        self.o_hands = self.add("hands", (n, nm), "per seat: Missions held (public)")
        self.o_done = self.add("completed", (n, nm), "per seat: Missions completed")
        self.o_points = self.add(
            "points", (n, 3), "per seat: Mission Stelliums / 30, score / 30, reached target"
        )
        self.o_avail = self.add("available", nm, "Available Missions")
        self.o_boxed = self.add("boxed", nm, "Missions discarded to the box")

    def fill(self, view: dict[str, Any], seat: int, vec: Vec) -> None:
        n = self.players
        space, missions, body, colour = self.space, self.missions, self.body, self.colour
        one_hot(vec, self.o_seat, seat)
        one_hot(vec, self.o_turn, view["turn"])
        for s in view["to_move"]:
            vec[self.o_move + s] = 1.0
        one_hot(vec, self.o_first, view["first_player"])
        one_hot(vec, self.o_phase, PHASES.index(view["phase"]))
        m = self.o_misc
        vec[m] = view["target"] / 30.0
        vec[m + 1] = view["turn_count"] / 100.0
        vec[m + 2] = float(view["final_round"])
        vec[m + 3] = float(view["must_use_token"])
        vec[m + 4] = view["reserve"] / 40.0
        for name, b in view["board"].items():
            i = space.get(name)
            if i is not None:
                vec[self.o_board + i * 4 + body[b]] = 1.0
        for name, c in view["colours"].items():
            i = space.get(name)
            if i is not None:
                vec[self.o_colours + i * 4 + colour[c]] = 1.0
        for b, k in view["bag"].items():
            vec[self.o_bag + body[b]] = k / 10.0
        if view["drawn"]:
            one_hot(vec, self.o_drawn, body[view["drawn"]])
        if view["placed"]:
            one_hot(vec, self.o_placed, space.get(view["placed"]))
        mark(vec, self.o_spent, view["spent"], space)
        mark(vec, self.o_keep, view["keep"], space)
        refill = view["refill"]
        if refill:
            slots = UNIVERSE.slot_names
            if refill["galaxy"] in slots:
                vec[self.o_refill + slots.index(refill["galaxy"])] = 1.0
            for b, k in refill["bodies"].items():
                vec[self.o_refill + 6 + body[b]] = k / 5.0
        nm = len(missions)
        for s in range(n):
            mark(vec, self.o_tokens + s * 4, view["tokens"][s], colour)
            mark(vec, self.o_hands + s * nm, view["hands"][s], missions)
            mark(vec, self.o_done + s * nm, view["completed"][s], missions)
            vec[self.o_points + s * 3] = view["mission_points"][s] / 30.0
            vec[self.o_points + s * 3 + 1] = view["scores"][s] / 30.0
            vec[self.o_points + s * 3 + 2] = float(s in view["reached_target"])
        mark(vec, self.o_avail, view["available"], missions)
        mark(vec, self.o_boxed, view["boxed"], missions)


OBSERVER = StelliumObserver
