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

import numpy as np

from skydeck.core.action import Action
from skydeck.core.observer import Observer, put
from skydeck.games.stellium.content import BODIES, COLOURS
from skydeck.games.stellium.notation import DONE, DRAW, PASS, PUSH, ROTATE, SKIP
from skydeck.games.stellium.tables import CARDS, NOTATION, PHASES, UNIVERSE

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
        n = self.players = game.players
        u = UNIVERSE
        space_names = [u.names[c] for c in u.spaces]
        ns = len(space_names)
        missions = [c.id for c in CARDS]
        nm = len(missions)
        bodies, colours = BODIES[1:], COLOURS[1:]
        self.o_seat = self.add("seat", n, "one-hot: this seat")
        self.o_turn = self.add("turn", n, "one-hot: whose turn it is")
        self.o_move = self.add("to_move", n, "one-hot: the seat that must act")
        self.o_first = self.add("first_player", n, "one-hot: the first player")
        self.o_phase = self.add("phase", len(PHASES), "one-hot: " + ", ".join(PHASES))
        self.o_misc = self.add(
            "misc", 5, "target / 30, turns / 100, final round, must use a token, reserve / 40"
        )
        o_board = self.add(
            "board", (ns, 4), "per Universe space: body one-hot (planet comet star supernova)"
        )
        o_colours = self.add(
            "colours", (ns, 4), "per space: hole colour one-hot (green blue yellow pink)"
        )
        self.o_bag = self.add("bag", 4, "bodies left in the bag / 10")
        o_drawn = self.add("drawn", 4, "one-hot body drawn, not yet placed")
        o_placed = self.add("placed", ns, "one-hot space of the body placed this turn")
        o_keep = self.add("keep", ns, "cells of the Mission just completed (keep step)")
        self.o_refill = self.add(
            "refill", 6 + 4, "refill: one-hot Galaxy slot, bodies drawn per type / 5"
        )
        o_tokens = self.add("tokens", (n, 4), "per seat: unused Influence tokens")
        o_hands = self.add("hands", (n, nm), "per seat: Missions held (public)")
        o_done = self.add("completed", (n, nm), "per seat: Missions completed")
        self.o_points = self.add(
            "points", (n, 3), "per seat: Mission Stelliums / 30, score / 30, reached target"
        )
        o_avail = self.add("available", nm, "Available Missions")
        o_boxed = self.add("boxed", nm, "Missions discarded to the box")
        # Flat indexes of every (name, value) a view can hold, made once: filling is
        # then a dict look-up per item, gathered in lists written by one assignment.
        self.phase_at = {p: self.o_phase + i for i, p in enumerate(PHASES)}
        self.board_at = {
            (name, b): o_board + i * 4 + k
            for i, name in enumerate(space_names)
            for k, b in enumerate(bodies)
        }
        self.colour_at = {
            (name, c): o_colours + i * 4 + k
            for i, name in enumerate(space_names)
            for k, c in enumerate(colours)
        }
        self.body_index = {b: k for k, b in enumerate(bodies)}
        self.drawn_at = {b: o_drawn + k for k, b in enumerate(bodies)}
        self.placed_at = {name: o_placed + i for i, name in enumerate(space_names)}
        self.keep_at = {name: o_keep + i for i, name in enumerate(space_names)}
        self.slot_index = {name: i for i, name in enumerate(u.slot_names)}
        self.tokens_at = [
            {c: o_tokens + s * 4 + k for k, c in enumerate(colours)} for s in range(n)
        ]
        self.hands_at = [
            {m: o_hands + s * nm + i for i, m in enumerate(missions)} for s in range(n)
        ]
        self.done_at = [{m: o_done + s * nm + i for i, m in enumerate(missions)} for s in range(n)]
        self.avail_at = {m: o_avail + i for i, m in enumerate(missions)}
        self.boxed_at = {m: o_boxed + i for i, m in enumerate(missions)}

    def fill(self, view: dict[str, Any], seat: int, out: np.ndarray) -> None:
        n = self.players
        ones = [self.o_seat + seat, self.o_turn + view["turn"]]
        ones += [self.o_move + s for s in view["to_move"]]
        ones.append(self.o_first + view["first_player"])
        ones.append(self.phase_at[view["phase"]])
        ones += _known(self.board_at, view["board"].items())
        ones += _known(self.colour_at, view["colours"].items())
        if view["drawn"]:
            ones.append(self.drawn_at[view["drawn"]])
        if view["placed"]:
            ones += _known(self.placed_at, (view["placed"],))
        ones += _known(self.keep_at, view["keep"])
        for s in range(n):
            ones += _known(self.tokens_at[s], view["tokens"][s])
            ones += _known(self.hands_at[s], view["hands"][s])
            ones += _known(self.done_at[s], view["completed"][s])
        ones += _known(self.avail_at, view["available"])
        ones += _known(self.boxed_at, view["boxed"])
        m = self.o_misc
        at = [m, m + 1, m + 2, m + 3, m + 4]
        values = [
            view["target"] / 30.0,
            view["turn_count"] / 100.0,
            float(view["final_round"]),
            float(view["must_use_token"]),
            view["reserve"] / 40.0,
        ]
        body = self.body_index
        for b, k in view["bag"].items():
            at.append(self.o_bag + body[b])
            values.append(k / 10.0)
        refill = view["refill"]
        if refill:
            slot = self.slot_index.get(refill["galaxy"])
            if slot is not None:
                at.append(self.o_refill + slot)
                values.append(1.0)
            for b, k in refill["bodies"].items():
                at.append(self.o_refill + 6 + body[b])
                values.append(k / 5.0)
        reached = view["reached_target"]
        for s in range(n):
            p = self.o_points + s * 3
            at += (p, p + 1, p + 2)
            values += (
                view["mission_points"][s] / 30.0,
                view["scores"][s] / 30.0,
                float(s in reached),
            )
        put(out, ones)
        put(out, at, values)


def _known(table: dict[Any, int], keys: Iterable[Any]) -> list[int]:
    """The flat indexes of ``keys`` (those the table lacks are left out)."""
    return [i for i in map(table.get, keys) if i is not None]


OBSERVER = StelliumObserver
