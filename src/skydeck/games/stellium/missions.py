"""Mission cards and exact shape matching.

Every shape card is turned, once at load time, into the full list of its placements on
the Universe: each quarter-turn of the card at each position where all its bodies land
on spaces. Matching is then a scan of ``board[cell] == body`` checks. Placement cards
(Galaxy centres, coloured spaces) depend on where the discs have turned, so they are
matched against the current colours instead.

Ruling (RULINGS.md): a card may be turned a quarter, half or three-quarter turn, but
never mirrored (a card cannot be read from its back).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from skydeck.games.stellium.content import (
    BODY_CODE,
    DATA,
    SHAPE_CODE,
    AcrossMission,
    CountMission,
    ShapeMission,
    load_missions,
)
from skydeck.games.stellium.universe import Universe

Placement = tuple[tuple[int, ...], tuple[int, ...]]  # (cells, bodies), cells sorted


def shape_cells(rows: list[str]) -> list[tuple[int, int, int]]:
    """The bodies drawn on a card: (row, col, body code)."""
    return [
        (r, c, SHAPE_CODE[ch])
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch != "."
    ]


def turned(cells: list[tuple[int, int, int]], quarters: int) -> list[tuple[int, int, int]]:
    """The card turned clockwise ``quarters`` times, moved back to row/col 0."""
    out = cells
    for _ in range(quarters % 4):
        out = [(c, -r, b) for r, c, b in out]
    r0 = min(r for r, _, _ in out)
    c0 = min(c for _, c, _ in out)
    return sorted((r - r0, c - c0, b) for r, c, b in out)


def turned_sixths(cells: list[tuple[int, int, int]], sixths: int) -> list[tuple[int, int, int]]:
    """The card, drawn in doubled columns, turned clockwise by ``sixths`` sixths of a
    turn about its first body, moved back to row/col 0 (placing it tries every shift,
    and only those that keep the lattice's parity land on spaces)."""
    r0, c0, _ = cells[0]
    out = []
    for r, c, b in cells:
        q, rr = (c - c0 - (r - r0)) // 2, r - r0  # axial coordinates about the first body
        for _ in range(sixths % 6):
            q, rr = -rr, q + rr  # (q, r, s) -> (-r, -s, -q): a clockwise sixth
        out.append((rr, 2 * q + rr, b))
    top = min(r for r, _, _ in out)
    left = min(c for _, c, _ in out)
    return sorted((r - top, c - left, b) for r, c, b in out)


@dataclass(frozen=True)
class Card:
    index: int
    id: str
    name: str
    colour: int  # body code of the card's colour
    points: int
    kind: str
    family: str  # "shape" or "placement"
    shape: tuple[str, ...]  # the drawing (empty for counting cards)
    bodies: tuple[int, ...]  # across: the two bodies; counting: (colour,)
    count: int  # bodies a counting card needs
    placements: tuple[Placement, ...]  # static placements (shape and across cards)
    #: placements grouped by their first cell and its body (key cell * 5 + body), so
    #: a check only looks at placements anchored on a body that is really there; each
    #: as (cells, the other (cell, body) pairs to check: the anchor already matches)
    by_anchor: dict[int, tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], ...]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        groups: dict[int, list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]] = {}
        for cells, bodies in self.placements:
            rest = tuple(zip(cells[1:], bodies[1:]))
            groups.setdefault(cells[0] * 5 + bodies[0], []).append((cells, rest))
        self.by_anchor.update({k: tuple(v) for k, v in groups.items()})

    @property
    def size(self) -> int:
        """How many bodies completing this card takes."""
        return self.count or len(self.placements[0][0])

    def matches(
        self,
        board: list[int],
        colours: list[int],
        centres: tuple[int, ...],
        occupied: list[int] | None = None,
    ) -> list[tuple[int, ...]]:
        """Every set of cells (sorted) that completes this card now. Any body on the
        board may serve, the one kept from an earlier Mission this turn included (only
        the discarded ones are barred, and they are in the bag). ``occupied`` (cell * 5
        + body for each body on the board) may be passed in when several cards are
        checked against one board."""
        if self.kind == "centres":
            ok = [i for i in centres if board[i] == self.colour]
            return list(combinations(ok, self.count)) if len(ok) >= self.count else []
        if self.kind == "colour_spaces":
            want = self.colour
            ok = [i for i, col in enumerate(colours) if col == want and board[i] == want]
            return list(combinations(ok, self.count)) if len(ok) >= self.count else []
        if occupied is None:
            occupied = occupied_keys(board)
        found = []
        index = self.by_anchor
        for key in occupied:
            group = index.get(key)
            if group is None:
                continue
            for cells, rest in group:
                for i, b in rest:
                    if board[i] != b:
                        break
                else:
                    found.append(cells)
        return found

    def to_json(self, names: tuple[str, ...] | None = None) -> dict[str, object]:
        out: dict[str, object] = {
            "id": self.id,
            "name": self.name,
            "colour": self.colour,
            "points": self.points,
            "kind": self.kind,
            "family": self.family,
        }
        if self.shape:
            out["shape"] = list(self.shape)
        if self.kind == "across":
            out["bodies"] = list(self.bodies)
        if self.count:
            out["count"] = self.count
        return out


def occupied_keys(board: list[int]) -> list[int]:
    """``cell * 5 + body`` for every body on the board, in cell order."""
    return [i * 5 + b for i, b in enumerate(board) if b]


def orientations(u: Universe, rows: list[str]) -> list[list[tuple[int, int, int]]]:
    """The card in each of its allowed turns on this board (quarters on the square
    grid, sixths on the triangular lattice); never mirrored."""
    base = shape_cells(rows)
    if u.lattice == "triangular":
        return [turned_sixths(base, k) for k in range(6)]
    return [turned(base, q) for q in range(4)]


def _shape_placements(u: Universe, rows: list[str], two_galaxies: bool) -> tuple[Placement, ...]:
    seen: set[frozenset[tuple[int, int]]] = set()
    out: list[Placement] = []
    for cells in orientations(u, rows):
        for r0 in range(u.height):
            for c0 in range(u.width):
                idx = []
                for r, c, _ in cells:
                    rr, cc = r0 + r, c0 + c
                    if not (rr < u.height and cc < u.width and u.is_space[rr * u.width + cc]):
                        break
                    idx.append(rr * u.width + cc)
                else:
                    pairs = sorted(zip(idx, (b for _, _, b in cells)))
                    key = frozenset(pairs)
                    if key in seen:
                        continue
                    if two_galaxies:
                        gals = {u.galaxy_of[i] for i in idx} - {-1}
                        if len(gals) < 2:
                            continue
                    seen.add(key)
                    out.append((tuple(i for i, _ in pairs), tuple(b for _, b in pairs)))
    return tuple(out)


def _across_placements(u: Universe, x: int, y: int) -> tuple[Placement, ...]:
    out: dict[frozenset[tuple[int, int]], Placement] = {}
    for a in u.galaxy_spaces:
        for b in u.neighbours[a]:
            ga, gb = u.galaxy_of[a], u.galaxy_of[b]
            if gb < 0 or ga == gb:
                continue
            pairs = sorted([(a, x), (b, y)])
            out.setdefault(
                frozenset(pairs), (tuple(i for i, _ in pairs), tuple(t for _, t in pairs))
            )
    return tuple(out.values())


def build_cards(u: Universe, path: Path | None = None) -> tuple[Card, ...]:
    """The 40 cards placed on ``u``; the published board reads its own drawings
    (``missions_published.json``, doubled columns) unless ``path`` names a file."""
    if path is None and u.lattice == "triangular":
        path = DATA / "missions_published.json"
    source = path.name if path else "missions.json"
    model = load_missions(path)
    cards = []
    for n, m in enumerate(model.missions):
        colour = BODY_CODE[m.colour]
        if isinstance(m, ShapeMission) and u.lattice == "triangular":
            parity = {(r + c) % 2 for r, c, _ in shape_cells(m.shape)}
            if len(parity) != 1:
                raise ValueError(
                    f"{source}: field missions.{n}.shape: bodies off the lattice "
                    "(in doubled columns every body's row + column has one parity)"
                )
        # what differs by family: (family, drawing, bodies, count, static placements)
        parts: tuple[str, tuple[str, ...], tuple[int, ...], int, tuple[Placement, ...]]
        if isinstance(m, ShapeMission):
            placements = _shape_placements(u, m.shape, m.kind == "s_shape")
            if not placements:
                raise ValueError(f"{source}: field missions.{n}.shape: fits nowhere")
            parts = ("shape", tuple(m.shape), (), 0, placements)
        elif isinstance(m, AcrossMission):
            x, y = BODY_CODE[m.bodies[0]], BODY_CODE[m.bodies[1]]
            parts = ("placement", (), (x, y), 0, _across_placements(u, x, y))
        else:
            assert isinstance(m, CountMission)
            parts = ("placement", (), (colour,), m.count, ())
        cards.append(Card(n, m.id, m.name, colour, m.points, m.kind, *parts))
    return tuple(cards)
