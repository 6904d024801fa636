"""Placed cards as geometry: rectangles, laser rays and shield segments in world units,
plus the legality of a placement and the finite placement grid agents choose from.

A card's shape depends only on (card, x, y, angle), so it is computed once per game and
shared by every clone of every state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TypeVar

from skydeck.core import Action
from skydeck.games.conflict import geometry as g
from skydeck.games.conflict.content import Content


@dataclass(frozen=True, slots=True)
class Shape:
    rect: g.Rect
    circle: tuple[g.Point, int]
    #: (exit point, direction, strength, kind) per laser, in data order
    lasers: tuple[tuple[g.Point, g.Point, int, str], ...]
    shields: tuple[tuple[g.Point, g.Point], ...]
    #: each laser's exit point in millimetres, rounded for display (shot records)
    origins_mm: tuple[tuple[float, float], ...] = ()
    #: ``circle`` and each laser as floats, for ``geometry.first_hit_near``
    near: tuple[float, float, float] = (0.0, 0.0, 0.0)
    rays: tuple[tuple[float, float, float, float], ...] = ()
    frame: tuple[float, ...] = ()
    # (where a laser leaves the table, for a shot that meets no card: ``Shapes.exit_mm``,
    # asked for the few such shots rather than made for every laser of every shape)


@dataclass(frozen=True, slots=True)
class Outline:
    """A placed card's rectangle, bounding circle (``geometry.bounding_radius2``),
    lasers (exit point, direction, strength, kind) and shields, in world units: what
    ``Shape`` holds for hitting and being hit (``Shapes.outline``)."""

    rect: g.Rect
    circle: tuple[g.Point, int]
    lasers: tuple[tuple[g.Point, g.Point, int, str], ...]
    shields: tuple[tuple[g.Point, g.Point], ...]

    def moved(self, dx: int, dy: int) -> Outline:
        """This outline moved by (dx, dy) world units (even numbers: a whole number of
        millimetres, so the circle's rounded centre moves exactly too)."""
        (cx, cy), r2 = self.circle
        (ax, ay), (bx, by), (qx, qy), (ex, ey) = self.rect
        return Outline(
            ((ax + dx, ay + dy), (bx + dx, by + dy), (qx + dx, qy + dy), (ex + dx, ey + dy)),
            ((cx + dx, cy + dy), r2),
            tuple([((px + dx, py + dy), d, s, k) for (px, py), d, s, k in self.lasers]),
            tuple([((px + dx, py + dy), (qx + dx, qy + dy)) for (px, py), (qx, qy) in self.shields])
            if self.shields
            else (),
        )


#: a card at the origin: its outline, float circle, laser rays and frame (``Shape.near``,
#: ``rays``, ``frame``)
_Origin = tuple[
    "Outline",
    tuple[float, float, float],
    tuple[tuple[float, float, float, float], ...],
    tuple[float, ...],
]

#: Ship shapes kept before the older half is dropped (about 2.8 KB each). A match uses a few
#: dozen; every ship on every grid spot would be ~28,000 shapes, ~55 MB, which a
#: long-running server fills only slowly (the soak read it as a leak).
SHAPES_KEPT = 4096


class Shapes:
    """Geometry cache and placement rules for one content pack."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.hw, self.hl = content.half_w, content.half_l
        t = content.table
        self.width, self.height = t.table.width_mm, t.table.height_mm
        # two cards whose centres are further apart than this cannot touch (mm^2)
        self.clear_d2 = t.card.width_mm**2 + t.card.length_mm**2
        self._cache: dict[tuple[int, int, int, int], Shape] = {}
        self._rects: dict[tuple[int, int, int], g.Rect] = {}
        self.grid = self._grid()
        #: one shared ``place`` Action per grid spot, so legal_actions builds none
        self.place_action = {p: Action("place", p) for p in self.grid}
        self._blocked: dict[tuple[int, int, int], frozenset[tuple[int, int, int]]] = {}
        self._outlines: dict[tuple[int, int], Outline] = {}
        self._origins: dict[tuple[int, int], _Origin] = {}
        #: grid spot -> its bit in a free-spot mask (bit i: ``grid[i]`` is free)
        self.spot_bit = {p: i for i, p in enumerate(self.grid)}
        self.all_free = (1 << len(self.grid)) - 1
        self._blocked_bits: dict[tuple[int, int, int], int] = {}
        self._mask_bytes = (len(self.grid) + 7) // 8
        #: per byte of a mask, per value of that byte: its free spots and their
        #: ``place`` Actions, in grid order (``mask_spots``, ``mask_actions``)
        self._spot_bytes = _byte_tables(self.grid)
        self._action_bytes = _byte_tables([self.place_action[p] for p in self.grid])

    def rect(self, x: int, y: int, angle: int) -> g.Rect:
        key = (x, y, angle)
        r = self._rects.get(key)
        if r is None:
            r = self._rects[key] = g.card_rect(x, y, angle, self.hw, self.hl)
        return r

    def shape(self, ship: int, x: int, y: int, angle: int) -> Shape:
        key = (ship, x, y, angle)
        s = self._cache.get(key)
        if s is None:
            if len(self._cache) >= SHAPES_KEPT:
                # keep the newer half (insertion order): random play returns to the
                # spots of its recent matches, and a clean start lost them all
                kept = self._cache
                self._cache = dict(islice(kept.items(), len(kept) // 2, None))
            # what hits and is hit: the outline (moved as ``Outline.moved`` moves it,
            # without building one); then the parts for display and the battle's float
            # pre-filters, moved from the card's at the origin: world units over ``MM``
            # (a power of two) are exact floats, and so are their sums with whole
            # millimetres, so ``g.float_ray(p + (x, y) * MM, d)`` is the ray at the
            # origin plus (x, y), to the last bit (and so on for the others)
            o, near, rays, frame = self._origin(ship, angle)
            dx, dy = x * g.MM, y * g.MM
            (cx, cy), r2 = o.circle
            (ax, ay), (bx, by), (qx, qy), (ex, ey) = o.rect
            # one loop for the lasers (a card has one or two: a comprehension each
            # cost more than its work)
            lasers, moved, origins = [], [], []
            for ((px, py), d, strength, kind), (fx, fy, ux, uy) in zip(o.lasers, rays):
                lasers.append(((px + dx, py + dy), d, strength, kind))
                fx, fy = fx + x, fy + y
                moved.append((fx, fy, ux, uy))
                origins.append((round(fx, 2), round(fy, 2)))  # as g.to_mm
            s = self._cache[key] = Shape(
                ((ax + dx, ay + dy), (bx + dx, by + dy), (qx + dx, qy + dy), (ex + dx, ey + dy)),
                ((cx + dx, cy + dy), r2),
                tuple(lasers),
                tuple(
                    [((px + dx, py + dy), (qx + dx, qy + dy)) for (px, py), (qx, qy) in o.shields]
                )
                if o.shields
                else (),
                tuple(origins),
                (near[0] + x, near[1] + y, near[2]),
                tuple(moved),
                (frame[0] + x, frame[1] + y, *frame[2:]),
            )
        return s

    def _origin(self, ship: int, angle: int) -> _Origin:
        """The outline, ``float_circle``, the ``float_ray`` of each laser and
        ``float_frame`` of a card at the origin, cached per design and angle."""
        out = self._origins.get((ship, angle))
        if out is None:
            o = self._at_origin(ship, angle)
            out = self._origins[(ship, angle)] = (
                o,
                g.float_circle(o.circle),
                tuple([g.float_ray(p, d) for p, d, _s, _k in o.lasers]),
                g.float_frame(o.rect),
            )
        return out

    def outline(self, ship: int, x: int, y: int, angle: int) -> Outline:
        """What decides what a card hits and what hits it (rectangle, bounding circle,
        lasers, shields): the core of ``shape(ship, x, y, angle)``, without the display
        parts and without filling the shape cache. World points are integers, so a card
        moved by (x, y) is its shape at the origin moved by (x * MM, y * MM), exactly:
        one outline per ship and angle is kept, and moved. Why: the heuristic weighs
        every free grid spot for its hand card at each decision, thousands of spots that
        ``shape`` would cache only to evict (it keeps 4,096)."""
        return self._at_origin(ship, angle).moved(x * g.MM, y * g.MM)

    def _at_origin(self, ship: int, angle: int) -> Outline:
        """The outline of a card of design ``ship`` turned ``angle`` at (0, 0), cached."""
        at_origin = self._outlines.get((ship, angle))
        if at_origin is None:
            card = self.content.ships[ship]
            rect = g.card_rect(0, 0, angle, self.hw, self.hl)
            at_origin = self._outlines[(ship, angle)] = Outline(
                rect,
                g.bounding_radius2(rect),
                tuple(
                    (
                        g.to_world(0, 0, angle, lz.lx, lz.ly),
                        g.heading(angle + lz.direction),
                        lz.strength,
                        lz.kind,
                    )
                    for lz in card.lasers
                ),
                tuple(
                    (g.to_world(0, 0, angle, a, b), g.to_world(0, 0, angle, c, d))
                    for a, b, c, d in card.shields
                ),
            )
        return at_origin

    def exit_mm(self, p: g.Point, d: g.Point) -> tuple[float, float]:
        """Where a laser leaves the table, in mm as shot records round it: the point
        ``g.point_at(p, d, g.table_exit(p, d, width, height))``, inlined (each shot
        that meets no card asks for it)."""
        (px, py), (dx, dy) = p, d
        n = den = 0  # the exit as a fraction n / den of d, den > 0 once found
        if dx > 0:
            n, den = self.width * g.MM - px, dx
        elif dx < 0:
            n, den = px, -dx
        if dy:
            m, e = (self.height * g.MM - py, dy) if dy > 0 else (py, -dy)
            if not den or m * den < n * e:
                n, den = m, e
        assert den, "a ray needs a direction"
        mm = g.MM
        return (round((px * den + n * dx) / den / mm, 2), round((py * den + n * dy) / den / mm, 2))

    # --- placement ----------------------------------------------------------------

    def placement_error(
        self, x: int, y: int, angle: int, others: list[tuple[int, int, int]]
    ) -> str | None:
        """Why a card may not go at (x, y, angle) among ``others`` (x, y, angle), or None."""
        rect = self.rect(x, y, angle)
        if not g.inside_table(rect, self.width, self.height):
            return (
                f"a card at ({x}, {y}) turned {angle} would leave the "
                f"{self.width} x {self.height} mm table"
            )
        d2 = self.clear_d2
        for ox, oy, oa in others:
            dx, dy = ox - x, oy - y
            if dx * dx + dy * dy > d2:
                continue
            if not g.rects_clear(rect, self.rect(ox, oy, oa)):
                return (
                    f"a card at ({x}, {y}) turned {angle} would touch or overlap "
                    f"the card at ({ox}, {oy})"
                )
        return None

    def _grid(self) -> tuple[tuple[int, int, int], ...]:
        """Grid positions x angles that lie on the table, centred on it."""
        grid = self.content.table.grid
        out = []
        xs = _axis(self.width, grid.margin_mm, grid.step_mm)
        ys = _axis(self.height, grid.margin_mm, grid.step_mm)
        for y in ys:
            for x in xs:
                for a in range(0, 360, grid.angle_step):
                    if g.inside_table(self.rect(x, y, a), self.width, self.height):
                        out.append((x, y, a))
        return tuple(out)

    def free_grid(
        self,
        others: list[tuple[int, int, int]],
        among: Sequence[tuple[int, int, int]] | None = None,
    ) -> list[tuple[int, int, int]]:
        """The grid placements (or those of ``among``) still legal among ``others``."""
        d2 = self.clear_d2
        out = []
        for x, y, a in self.grid if among is None else among:
            ok = True
            for ox, oy, oa in others:
                dx, dy = ox - x, oy - y
                if dx * dx + dy * dy > d2:
                    continue
                if not g.rects_clear(self.rect(x, y, a), self.rect(ox, oy, oa)):
                    ok = False
                    break
            if ok:
                out.append((x, y, a))
        return out

    def free_after(
        self, spot: tuple[int, int, int], free: list[tuple[int, int, int]]
    ) -> list[tuple[int, int, int]]:
        """``free`` minus the grid spots a new card at ``spot`` rules out. For a grid spot
        the answer is cached once per game, so random play pays one set lookup."""
        if spot not in self.place_action:
            return self.free_grid([spot], free)
        blocked = self._blocked.get(spot)
        if blocked is None:
            ok = set(self.free_grid([spot]))
            blocked = self._blocked[spot] = frozenset(p for p in self.grid if p not in ok)
        return [p for p in free if p not in blocked]

    # --- free spots as a bit mask (random play's Deployment) --------------------------
    # Why: a Deployment step used to filter a list of up to 320 spots and map it to
    # Actions, twice; a mask is updated with one ``&`` and read back with table lookups.

    def blocked_bits(self, spot: tuple[int, int, int]) -> int:
        """The mask of grid spots a card at ``spot`` rules out (``free_grid([spot])``'s
        complement), cached for grid spots (a few hundred)."""
        bits = self._blocked_bits.get(spot)
        if bits is None:
            bit = self.spot_bit
            bits = self.all_free
            for p in self.free_grid([spot]):
                bits ^= 1 << bit[p]
            if spot in bit:
                self._blocked_bits[spot] = bits
        return bits

    def free_mask(self, others: list[tuple[int, int, int]]) -> int:
        """``free_grid(others)`` as a mask."""
        mask = self.all_free
        for spot in others:
            mask &= ~self.blocked_bits(spot)
        return mask

    def mask_spots(self, mask: int) -> list[tuple[int, int, int]]:
        """The grid spots of ``mask``, in grid order."""
        return self._read(self._spot_bytes, mask)

    def mask_actions(self, mask: int) -> list[Action]:
        """The shared ``place`` Actions of ``mask``'s spots, in grid order."""
        return self._read(self._action_bytes, mask)

    def _read(self, tables: tuple[tuple[tuple[_T, ...], ...], ...], mask: int) -> list[_T]:
        out: list[_T] = []
        extend = out.extend  # (quicker than list(chain(...)): each extend is one copy)
        for table, byte in zip(tables, mask.to_bytes(self._mask_bytes, "little")):
            extend(table[byte])
        return out


_T = TypeVar("_T")


def _byte_tables(items: Sequence[_T]) -> tuple[tuple[tuple[_T, ...], ...], ...]:
    """For each run of 8 items (a byte of a mask), the items each of the 256 values
    of that byte selects, in order (a value is its lowest item before the value
    without that bit)."""
    out = []
    for start in range(0, len(items), 8):
        run = items[start : start + 8]
        table: list[tuple[_T, ...]] = [()]
        for value in range(1, 256):
            low = value & -value
            k = low.bit_length() - 1
            table.append((run[k], *table[value ^ low]) if k < len(run) else table[value ^ low])
        out.append(tuple(table))
    return tuple(out)


def _axis(length: int, margin: int, step: int) -> list[int]:
    span = length - 2 * margin
    if span < 0:
        return [length // 2]
    n = span // step + 1
    start = margin + (span - (n - 1) * step) // 2
    return [start + i * step for i in range(n)]
