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

from collections.abc import Iterable, Sequence
from itertools import combinations, compress, count
from operator import ne
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
        # the state path's tables (``observe``): the same indexes by the state's ints
        names = u.names
        self.target = game.target
        self.cell_body = _by_int(self.board_at, names, BODIES)
        self.cell_colour = _by_int(self.colour_at, names, COLOURS)
        self.spaces = sorted(self.cell_body)
        self.phase_int = [self.phase_at[p] for p in PHASES]
        self.drawn_int = [self.drawn_at.get(b) for b in BODIES]
        self.placed_int = [self.placed_at.get(name) for name in names]
        self.keep_int = [self.keep_at.get(name) for name in names]
        self.bag_int = [self.o_bag + self.body_index[b] for b in bodies]
        #: the misc entries then the bag's, in ``_rest``'s order
        self.misc_int = (*range(self.o_misc, self.o_misc + 5), *self.bag_int)
        #: per seat: its points, score and reached-target entries
        self.points_int = [
            tuple(range(self.o_points + k * 3, self.o_points + k * 3 + 3)) for k in range(n)
        ]
        self.slot_int = [self.slot_index.get(name) for name in u.slot_names]
        colour_bits = [(1 << b, COLOURS[b]) for b in (1, 2, 3, 4)]
        self.tokens_int = [
            [_known(at, [c for bit, c in colour_bits if t & bit]) for t in range(32)]
            for at in self.tokens_at
        ]
        self.hands_int = [[at.get(m) for m in missions] for at in self.hands_at]
        self.done_int = [[at.get(m) for m in missions] for at in self.done_at]
        self.avail_int = [self.avail_at.get(m) for m in missions]
        self.boxed_int = [self.boxed_at.get(m) for m in missions]
        #: the last observation made and what it came from (see ``observe``)
        self._memo: tuple[Any, ...] | None = None

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """``encode(state.view(seat), seat)`` without the view, from what changed: the
        observer keeps the four parts' encoding (board, hole colours, Influence tokens,
        Missions) and copies of what it came from, and rewrites only the parts that
        differ (most moves change one or none); the rest, a few dozen entries, is
        written from the state into a copy each time. tests/rl/test_state_observers.py
        proves it equal to the view's encoding. The memory is shared by the
        environments of one game and option set: compared by value, it serves any
        state. Its vector is never handed out (each observation is a copy), so it is
        edited in place, with the memory dropped meanwhile: a failure half-way leaves no
        memory, never a stale one."""
        s = state
        missions = (s.hands, s.completed, s.available, s.boxed)
        sources: tuple[Any, ...] = (s.board, s.colours, s.tokens, missions)
        memo = self._memo
        if memo is not None and len(s.board) != len(memo[0][0]):
            memo = self._memo = None  # cell by cell needs the same Universe (it is, by game)
        if memo is None:
            base = np.zeros(self.size, dtype=np.float32)
            kept: list[Any] = [None] * 4
            parts: list[np.ndarray] = [self._part(s, k) for k in range(4)]
            for at in parts:
                base[at] = 1.0
        elif sources != memo[0]:
            self._memo = None
            kept, parts, base = list(memo[0]), list(memo[1]), memo[2]
            for k in range(4):
                if sources[k] != kept[k]:
                    if k < 2:  # a move changes a cell or two: only those are rewritten
                        self._cells(base, k, kept[k], sources[k])
                    else:
                        base[parts[k]] = 0.0
                        at = parts[k] = self._part(s, k)
                        base[at] = 1.0
                    kept[k] = None
        else:
            base = memo[2]
            kept = []
        if self._memo is None:
            for k in range(4):
                if kept[k] is None:  # made from the state's lists, which change in place
                    kept[k] = _copy(sources[k]) if k == 3 else sources[k][:]
            self._memo = (tuple(kept), parts, base)
        idx, val = self._rest(s, seat)
        out = base.copy()
        out[np.array(idx, dtype=np.intp)] = np.array(val, dtype=np.float32)
        return out

    def _cells(self, base: np.ndarray, k: int, old: list[int], new: list[int]) -> None:
        """Rewrite in ``base`` the cells of the board (``k`` 0) or the hole colours (1)
        that differ between ``old`` and ``new`` (found in C: most moves change one or
        two of the Universe's cells, and rebuilding all of them cost 6 µs)."""
        cells = self.cell_body if k == 0 else self.cell_colour
        for c in compress(count(), map(ne, old, new)):
            row = cells.get(c)
            if row is not None:  # only the Universe's spaces are encoded
                if old[c]:
                    base[row[old[c]]] = 0.0
                if new[c]:
                    base[row[new[c]]] = 1.0

    def _part(self, s: Any, k: int) -> np.ndarray:
        """The indexes of the ones of part ``k``: board, colours, tokens, Missions."""
        if k < 2:  # only the Universe's spaces are encoded
            board = s.board if k == 0 else s.colours
            cells = self.cell_body if k == 0 else self.cell_colour
            at = [cells[c][board[c]] for c in self.spaces if board[c]]
        elif k == 2:
            at = []
            for tokens, t in zip(self.tokens_int, s.tokens, strict=True):
                at += tokens[t & 30]
        else:
            at = []
            for table, held in (
                *zip(self.hands_int, s.hands),
                *zip(self.done_int, s.completed),
                (self.avail_int, s.available),
                (self.boxed_int, s.boxed),
            ):
                at += [i for i in map(table.__getitem__, held) if i is not None]
        return np.array(at, dtype=np.intp)

    def _rest(self, s: Any, seat: int) -> tuple[list[int], list[float]]:
        """Every entry but the four parts': (indexes, values), no index twice. The
        ones come first, each list grown in place (the profile's largest Python part
        of an observation)."""
        idx = [self.o_seat + seat, self.o_turn + s.turn, self.o_first + s.first]
        idx.append(self.phase_int[s.phase])
        o_move = self.o_move
        idx.extend([o_move + m for m in s.to_move])
        i = self.drawn_int[s.drawn]
        if i is not None:
            idx.append(i)
        if s.placed >= 0:
            i = self.placed_int[s.placed]
            if i is not None:
                idx.append(i)
        if s.keep_cells:
            idx.extend([i for i in map(self.keep_int.__getitem__, s.keep_cells) if i is not None])
        val = [1.0] * len(idx)
        idx.extend(self.misc_int)
        bag = s.bag
        val.extend(
            (
                self.target / 30.0,
                s.turn_count / 100.0,
                float(s.final),
                float(s.token_mode),
                len(s.reserve) / 40.0,
                bag[1] / 10.0,
                bag[2] / 10.0,
                bag[3] / 10.0,
                bag[4] / 10.0,
            )
        )
        if s.refill_seats:
            slot = self.slot_int[s.refill_queue[0]]
            if slot is not None:
                idx.append(self.o_refill + slot)
                val.append(1.0)
            pool = s.refill_pool
            for b in (1, 2, 3, 4):
                if pool[b]:
                    idx.append(self.o_refill + 6 + b - 1)
                    val.append(pool[b] / 5.0)
        reached, points, total = s.reached, s.points, s.total
        for k, p in enumerate(self.points_int):
            idx.extend(p)
            val.extend((points[k] / 30.0, total(k) / 30.0, 1.0 if k in reached else 0.0))
        return idx, val

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


def _copy(missions: tuple[Any, ...]) -> tuple[Any, ...]:
    """A copy of (hands, completed, available, boxed) that the game cannot change."""
    hands, completed, available, boxed = missions
    return ([h[:] for h in hands], [h[:] for h in completed], available[:], boxed[:])


def _by_int(
    table: dict[tuple[str, str], int], names: Sequence[str], values: tuple[str, ...]
) -> dict[int, list[int]]:
    """cell -> (value int -> flat index) for the cells the view's (name, value name)
    table encodes: a state's list encodes through it without names."""
    return {
        c: [-1] + [table[name, v] for v in values[1:]]  # value 0 (none) is never read
        for c, name in enumerate(names)
        if all((name, v) in table for v in values[1:])
    }


def _known(table: dict[Any, int], keys: Iterable[Any]) -> list[int]:
    """The flat indexes of ``keys`` (those the table lacks are left out)."""
    return [i for i in map(table.get, keys) if i is not None]


OBSERVER = StelliumObserver
