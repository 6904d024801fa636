"""The Universe's geometry, turned once into plain lookup tables.

Two boards can be read: the published one (``build_lattice_universe``: six seven-hole
flowers on a triangular lattice, drawn in doubled columns, turning by sixths), which the
game plays on (``played()``), and our first square grid (``build_universe``), kept as a
second content pack. Spaces are indexed ``row * width + col`` and named like a chess
square (``e3``: column e, row 3 from the top). Everything a rule needs (neighbours,
straight lines for pushes, which Galaxy a space belongs to, how a disc turns, which
colour a hole has) is a list lookup, so the rules never do geometry on the hot path.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from skydeck.games.stellium.content import (
    COLOUR_CODE,
    LatticeUniverseModel,
    UniverseModel,
    load_lattice_universe,
    load_universe,
)

#: The eight straight directions (grid lines and diagonals), clockwise from north.
DIRS: tuple[tuple[str, int, int], ...] = (
    ("n", -1, 0),
    ("ne", -1, 1),
    ("e", 0, 1),
    ("se", 1, 1),
    ("s", 1, 0),
    ("sw", 1, -1),
    ("w", 0, -1),
    ("nw", -1, -1),
)
DIR_INDEX = {name: i for i, (name, _, _) in enumerate(DIRS)}


def turn_local(pos: int, quarters: int) -> int:
    """Where hole ``pos`` (0..8, row-major in a 3x3 disc) lands after ``quarters``
    clockwise quarter turns about the centre (4)."""
    r, c = divmod(pos, 3)
    for _ in range(quarters % 4):
        r, c = c, 2 - r
    return r * 3 + c


@dataclass(frozen=True)
class Universe:
    name: str
    height: int
    width: int
    size: int
    names: tuple[str, ...]
    index_of: dict[str, int]
    is_space: tuple[bool, ...]
    is_hole: tuple[bool, ...]
    spaces: tuple[int, ...]
    holes: tuple[int, ...]
    galaxy_spaces: tuple[int, ...]
    galaxy_of: tuple[int, ...]
    slot_names: tuple[str, ...]
    slot_cells: tuple[tuple[int, ...], ...]
    centres: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    step: tuple[tuple[int, ...], ...]
    disc_names: tuple[str, ...]
    #: disc_colour[disc][orientation][local hole] -> colour code (0 plain)
    disc_colour: tuple[tuple[tuple[int, ...], ...], ...]
    #: disc_start[disc][orientation] -> local holes marked as starting spaces
    disc_start: tuple[tuple[tuple[int, ...], ...], ...]
    #: turn_perm[q][local] -> local after q clockwise turns (quarters, or sixths on
    #: the triangular lattice)
    turn_perm: tuple[tuple[int, ...], ...]
    #: "square" (our first board) or "triangular" (the published board)
    lattice: str = "square"
    #: the straight directions (name, row step, column step), clockwise
    dirs: tuple[tuple[str, int, int], ...] = DIRS
    #: how many turns make a full turn (4 quarters, or 6 sixths)
    full_turn: int = 4
    #: the angle of one turn, in degrees
    turn_degrees: int = 90

    def cell(self, row: int, col: int) -> int:
        return row * self.width + col

    def pos(self, index: int) -> tuple[int, int]:
        return divmod(index, self.width)


def _name(row: int, col: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


class _Board:
    """The map of either board read into cells, with what both builders do alike: claim
    each Galaxy's cells, check that every Galaxy cell was claimed, and assemble the
    Universe. ``word`` is what a cell is called in errors: a "space" on the square grid,
    a "hole" on the published board."""

    def __init__(self, rows: list[str], source: str, word: str) -> None:
        self.source, self.word = source, word
        self.h, self.w = len(rows), len(rows[0])
        self.size = self.h * self.w
        self.names = tuple(_name(*divmod(i, self.w)) for i in range(self.size))
        self.index_of = {n: i for i, n in enumerate(self.names)}
        self.kind = [rows[i // self.w][i % self.w] for i in range(self.size)]
        self.is_space = tuple(k != "." for k in self.kind)
        self.is_hole = tuple(k == "@" for k in self.kind)
        self.galaxy_of = [-1] * self.size
        self.slot_cells: list[tuple[int, ...]] = []

    def fail(self, msg: str) -> ValueError:
        return ValueError(f"{self.source}: {msg}")

    def claim(self, g: int, cells: tuple[int, ...]) -> None:
        """Galaxy slot ``g`` takes ``cells``: each a Galaxy cell ('#') of no other Galaxy."""
        for i in cells:
            if self.kind[i] != "#":
                raise self.fail(
                    f"field galaxies.{g}: {self.names[i]} is not a Galaxy {self.word} ('#')"
                )
            if self.galaxy_of[i] != -1:
                raise self.fail(
                    f"field galaxies.{g}: {self.names[i]} already belongs to another Galaxy"
                )
            self.galaxy_of[i] = g
        self.slot_cells.append(cells)

    def check_claimed(self, discs: int) -> None:
        """No Galaxy cell outside every disc, and one disc for each Galaxy slot."""
        stray = [
            self.names[i]
            for i in range(self.size)
            if self.kind[i] == "#" and self.galaxy_of[i] == -1
        ]
        if stray:
            raise self.fail(
                f"field map: Galaxy {self.word}s outside every disc: {', '.join(stray)}"
            )
        if discs != len(self.slot_cells):
            raise self.fail(f"field discs: {discs} discs for {len(self.slot_cells)} Galaxy slots")

    def universe(
        self,
        model: UniverseModel | LatticeUniverseModel,
        centres: tuple[int, ...],
        neighbours: list[tuple[int, ...]],
        steps: list[tuple[int, ...]],
        discs: tuple[list[tuple[tuple[int, ...], ...]], list[tuple[tuple[int, ...], ...]]],
        turn_perm: tuple[tuple[int, ...], ...],
        **shape: Any,
    ) -> Universe:
        """The tables; ``discs`` as ``_disc_tables`` gives them, ``shape`` the lattice
        fields when they are not the square grid's defaults."""
        spaces = tuple(i for i in range(self.size) if self.is_space[i])
        return Universe(
            name=model.name,
            height=self.h,
            width=self.w,
            size=self.size,
            names=self.names,
            index_of=self.index_of,
            is_space=self.is_space,
            is_hole=self.is_hole,
            spaces=spaces,
            holes=tuple(i for i in spaces if self.is_hole[i]),
            galaxy_spaces=tuple(i for i in spaces if self.galaxy_of[i] >= 0),
            galaxy_of=tuple(self.galaxy_of),
            slot_names=tuple(s.slot for s in model.galaxies),
            slot_cells=tuple(self.slot_cells),
            centres=centres,
            neighbours=tuple(neighbours),
            step=tuple(steps),
            disc_names=tuple(d.name for d in model.discs),
            disc_colour=tuple(discs[0]),
            disc_start=tuple(discs[1]),
            turn_perm=turn_perm,
            **shape,
        )


def build_universe(model: UniverseModel, source: str = "universe.json") -> Universe:
    """Check the geometry beyond field types and build the lookup tables."""
    board = _Board(model.map, source, "space")
    h, w, index_of, is_space = board.h, board.w, board.index_of, board.is_space
    for g, slot in enumerate(model.galaxies):
        if slot.centre not in index_of:
            raise board.fail(f"field galaxies.{g}.centre: {slot.centre!r} is not on the map")
        r, c = divmod(index_of[slot.centre], w)
        if not (1 <= r < h - 1 and 1 <= c < w - 1):
            raise board.fail(
                f"field galaxies.{g}.centre: the 3x3 disc round {slot.centre} leaves the map"
            )
        board.claim(g, tuple((r - 1 + lr) * w + (c - 1 + lc) for lr in range(3) for lc in range(3)))
    board.check_claimed(len(model.discs))

    steps: list[tuple[int, ...]] = []
    neighbours: list[tuple[int, ...]] = []
    for i in range(board.size):
        r, c = divmod(i, w)
        row_steps = []
        for _, dr, dc in DIRS:
            rr, cc = r + dr, c + dc
            ok = 0 <= rr < h and 0 <= cc < w and is_space[rr * w + cc]
            row_steps.append(rr * w + cc if ok else -1)
        steps.append(tuple(row_steps))
        neighbours.append(tuple(j for j in row_steps if j >= 0) if is_space[i] else ())

    turn_perm = tuple(tuple(turn_local(p, q) for p in range(9)) for q in range(4))
    discs = _disc_tables(
        [
            (
                [COLOUR_CODE.get(ch, 0) for row in disc.colours for ch in row],
                [p for p, ch in enumerate("".join(disc.start)) if ch == "x"],
            )
            for disc in model.discs
        ],
        turn_perm,
    )
    centres = tuple(cells[4] for cells in board.slot_cells)
    return board.universe(model, centres, neighbours, steps, discs, turn_perm)


#: The six lattice directions in doubled columns, clockwise from east. A flower's ring
#: is listed in the same order, so ring hole k of a disc lies towards LATTICE_DIRS[k].
LATTICE_DIRS: tuple[tuple[str, int, int], ...] = (
    ("e", 0, 2),
    ("se", 1, 1),
    ("sw", 1, -1),
    ("w", 0, -2),
    ("nw", -1, -1),
    ("ne", -1, 1),
)


def turn_flower(local: int, sixths: int) -> int:
    """Where hole ``local`` of a flower (0 the centre, 1..6 the ring clockwise from
    east) lands after ``sixths`` clockwise sixths of a turn about the centre."""
    return 0 if local == 0 else 1 + (local - 1 + sixths) % 6


def build_lattice_universe(
    model: LatticeUniverseModel, source: str = "universe_published.json"
) -> Universe:
    """The published board: check what the rulebook asks of it and build the tables.

    Checks beyond field types: every disc a centre and a full ring of Galaxy holes, no
    hole in two discs, no Galaxy hole outside a disc, the stated number of Black Holes,
    each Black Hole between at least two Galaxies and beside no other Black Hole (no
    Mission can lie wholly in Black Holes), and every Galaxy reachable from every
    other through neighbouring holes or a Black Hole."""

    board = _Board(model.map, source, "hole")
    h, w, size, names = board.h, board.w, board.size, board.names
    index_of, is_space, is_hole, galaxy_of = (
        board.index_of,
        board.is_space,
        board.is_hole,
        board.galaxy_of,
    )

    def step_of(i: int, dr: int, dc: int) -> int:
        r, c = divmod(i, w)
        rr, cc = r + dr, c + dc
        return rr * w + cc if 0 <= rr < h and 0 <= cc < w and is_space[rr * w + cc] else -1

    for g, slot in enumerate(model.galaxies):
        if slot.centre not in index_of or not is_space[index_of[slot.centre]]:
            raise board.fail(
                f"field galaxies.{g}.centre: {slot.centre!r} is not a space on the map"
            )
        centre = index_of[slot.centre]
        ring = [step_of(centre, dr, dc) for _, dr, dc in LATTICE_DIRS]
        if -1 in ring:
            raise board.fail(f"field galaxies.{g}: the ring round {slot.centre} leaves the map")
        board.claim(g, (centre, *ring))
    board.check_claimed(len(model.discs))

    steps = [
        tuple(step_of(i, dr, dc) for _, dr, dc in LATTICE_DIRS) if is_space[i] else (-1,) * 6
        for i in range(size)
    ]
    neighbours = [tuple(j for j in steps[i] if j >= 0) for i in range(size)]
    holes = [i for i in range(size) if is_hole[i]]
    if len(holes) != model.black_holes:
        raise board.fail(
            f"field map: {len(holes)} Black Holes, the board states {model.black_holes}"
        )
    slot_cells = board.slot_cells
    touch: dict[int, set[int]] = {g: set() for g in range(len(slot_cells))}
    for i in holes:
        near = {galaxy_of[j] for j in neighbours[i]} - {-1}
        if len(near) < 2:
            raise board.fail(f"field map: Black Hole {names[i]} is not between two Galaxies")
        if any(is_hole[j] for j in neighbours[i]):
            raise board.fail(f"field map: Black Hole {names[i]} touches another Black Hole")
        for g in near:
            touch[g] |= near - {g}
    for i in range(size):
        if galaxy_of[i] >= 0:
            touch[galaxy_of[i]] |= {galaxy_of[j] for j in neighbours[i]} - {-1, galaxy_of[i]}
    reach, todo = {0}, [0]
    while todo:
        for g in touch[todo.pop()] - reach:
            reach.add(g)
            todo.append(g)
    if len(reach) != len(slot_cells):
        raise board.fail("field galaxies: some Galaxies touch no other, even through a Black Hole")

    turn_perm = tuple(tuple(turn_flower(p, k) for p in range(7)) for k in range(6))
    discs = _disc_tables(
        [
            (
                [0] + [COLOUR_CODE.get(ch, 0) for ch in disc.ring],
                [1 + k for k, ch in enumerate(disc.start) if ch == "x"],
            )
            for disc in model.discs
        ],
        turn_perm,
    )
    return board.universe(
        model,
        tuple(cells[0] for cells in slot_cells),
        neighbours,
        steps,
        discs,
        turn_perm,
        lattice="triangular",
        dirs=LATTICE_DIRS,
        full_turn=6,
        turn_degrees=60,
    )


def load_published(path: Path | None = None) -> Universe:
    """The published board (``data/universe_published.json``)."""
    model = load_lattice_universe(path)
    return build_lattice_universe(model, path.name if path else "universe_published.json")


def load(path: Path | None = None) -> Universe:
    model = load_universe(path)
    return build_universe(model, path.name if path else "universe.json")


@cache
def played() -> Universe:
    """The board the game is played on: the published one (issue 16). Loaded once;
    the rules, the notation and every front read this one."""
    return load_published()


def _disc_tables(
    discs: list[tuple[list[int], list[int]]], turn_perm: tuple[tuple[int, ...], ...]
) -> tuple[list[tuple[tuple[int, ...], ...]], list[tuple[tuple[int, ...], ...]]]:
    """Each disc's hole colours and starting holes after every turn, from its printed
    colours and starting marks (local hole numbers) and the board's turn permutations."""
    colours, starts = [], []
    for printed, marks in discs:
        by_turn, start = [], []
        for perm in turn_perm:
            col = [0] * len(printed)
            for p, c in enumerate(printed):
                col[perm[p]] = c
            by_turn.append(tuple(col))
            start.append(tuple(sorted(perm[p] for p in marks)))
        colours.append(tuple(by_turn))
        starts.append(tuple(start))
    return colours, starts
