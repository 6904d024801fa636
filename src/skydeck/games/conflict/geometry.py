"""Exact, deterministic table geometry: cards are rectangles, lasers are rays.

Why integers: a laser that grazes a corner or runs along an edge must give the same
answer on every machine and every replay, so every decision here is exact integer
arithmetic. (Floats appear only in ``first_hit_near``'s conservative pre-filter, which
can drop a card only when a ray passes it by a wide margin, and in display helpers.)

Units. Positions on the table are whole millimetres and angles whole degrees. A point in
"card space" (relative to the card's centre, the nose along +y) is given in half
millimetres, so a 63 x 88 mm card has half-extents (63, 88). World points are integers
in units of ``1 / 2**(SCALE_BITS + 1)`` mm: a table millimetre times ``MM`` plus a card
space offset rotated by the fixed-point cosine/sine table below. Rotating with a rounded
(cos, sin) pair keeps the two card axes exactly perpendicular and of equal length, so a
placed card is an exact rectangle (scaled by less than one part in a million).

Angles are counter-clockwise, 0 = pointing to +y (table coordinates: x right, y up).
Rays hit the *closed* rectangle: touching a corner or sliding along an edge is a hit.
Ray parameters are exact fractions ``(num, den)`` with ``den > 0``.
"""

from __future__ import annotations

import math

SCALE_BITS = 20
ONE = 1 << SCALE_BITS
MM = 2 * ONE  # world units per table millimetre

Point = tuple[int, int]
Rect = tuple[Point, Point, Point, Point]  # corners counter-clockwise
Frac = tuple[int, int]  # num / den, den > 0


def _trig_table() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """cos/sin of every whole degree, rounded to ``ONE``; symmetric by construction."""
    first = [round(math.cos(math.radians(d)) * ONE) for d in range(91)]
    first[90] = 0
    first[0] = ONE
    cos = [0] * 360
    sin = [0] * 360
    for d in range(360):
        q, r = divmod(d, 90)
        c, s = first[r], first[90 - r]
        # rotate (c, s) by q quarter turns: exact
        for _ in range(q):
            c, s = -s, c
        cos[d], sin[d] = c, s
    return tuple(cos), tuple(sin)


COS, SIN = _trig_table()


def heading(angle: int) -> Point:
    """Unit direction (scaled by ONE) of a heading; 0 = +y, counter-clockwise."""
    a = angle % 360
    return (-SIN[a], COS[a])


def to_world(x: int, y: int, angle: int, lx: int, ly: int) -> Point:
    """Card-space point (half millimetres) of a card at (x, y, angle) in world units."""
    a = angle % 360
    c, s = COS[a], SIN[a]
    return (x * MM + lx * c - ly * s, y * MM + lx * s + ly * c)


def card_rect(x: int, y: int, angle: int, half_w: int, half_l: int) -> Rect:
    """The four corners (counter-clockwise) of a card; half-extents in half millimetres."""
    return (
        to_world(x, y, angle, -half_w, -half_l),
        to_world(x, y, angle, half_w, -half_l),
        to_world(x, y, angle, half_w, half_l),
        to_world(x, y, angle, -half_w, half_l),
    )


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


# --- cards against cards and the table ----------------------------------------------


def rects_clear(a: Rect, b: Rect) -> bool:
    """True when two rectangles neither overlap nor touch (a strictly separating axis).

    Separating-axis test over the four edge normals; for closed convex polygons a gap
    along one of them exists exactly when they are disjoint."""
    for rect in (a, b):
        for i in (0, 1):
            p, q = rect[i], rect[i + 1]
            nx, ny = q[1] - p[1], p[0] - q[0]  # a normal of edge p->q
            amin = amax = a[0][0] * nx + a[0][1] * ny
            for k in (1, 2, 3):
                v = a[k][0] * nx + a[k][1] * ny
                if v < amin:
                    amin = v
                elif v > amax:
                    amax = v
            bmin = bmax = b[0][0] * nx + b[0][1] * ny
            for k in (1, 2, 3):
                v = b[k][0] * nx + b[k][1] * ny
                if v < bmin:
                    bmin = v
                elif v > bmax:
                    bmax = v
            if amax < bmin or bmax < amin:
                return True
    return False


def inside_table(rect: Rect, width_mm: int, height_mm: int) -> bool:
    """True when every corner lies on the table (touching its border is allowed)."""
    w, h = width_mm * MM, height_mm * MM
    return all(0 <= px <= w and 0 <= py <= h for px, py in rect)


# --- rays -------------------------------------------------------------------------


def _less(a: Frac, b: Frac) -> bool:
    return a[0] * b[1] < b[0] * a[1]


def ray_segment(p: Point, d: Point, a: Point, b: Point) -> Frac | None:
    """Smallest t >= 0 with p + t*d on the closed segment a-b, or None."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    wx, wy = a[0] - p[0], a[1] - p[1]
    den = _cross(d[0], d[1], ex, ey)
    if den != 0:
        tn = _cross(wx, wy, ex, ey)
        un = _cross(wx, wy, d[0], d[1])
        if den < 0:
            den, tn, un = -den, -tn, -un
        if tn < 0 or un < 0 or un > den:
            return None
        return (tn, den)
    if _cross(wx, wy, d[0], d[1]) != 0:
        return None  # parallel, not on the same line
    # collinear: the ray meets the segment at its nearer end ahead (or at p if inside)
    dd = d[0] * d[0] + d[1] * d[1]
    ta = wx * d[0] + wy * d[1]
    tb = (b[0] - p[0]) * d[0] + (b[1] - p[1]) * d[1]
    lo, hi = (ta, tb) if ta <= tb else (tb, ta)
    if hi < 0:
        return None
    return (max(lo, 0), dd)


def ray_rect(p: Point, d: Point, rect: Rect) -> Frac | None:
    """Where a ray first meets a closed rectangle (p outside it), or None."""
    px, py = p
    dx, dy = d
    # which side of the ray's line each corner lies on: an edge whose two ends lie
    # strictly on one side cannot meet the ray, so only the others are solved exactly
    s0, s1, s2, s3 = (dx * (qy - py) - dy * (qx - px) for qx, qy in rect)
    if (s0 > 0 and s1 > 0 and s2 > 0 and s3 > 0) or (s0 < 0 and s1 < 0 and s2 < 0 and s3 < 0):
        return None
    sides = (s0, s1, s2, s3, s0)
    best: Frac | None = None
    for i in range(4):
        a, b = sides[i], sides[i + 1]
        if (a > 0 and b > 0) or (a < 0 and b < 0):
            continue
        t = ray_segment(p, d, rect[i], rect[(i + 1) % 4])
        if t is not None and (best is None or _less(t, best)):
            best = t
    return best


def bounding_radius2(rect: Rect) -> tuple[Point, int]:
    """Centre (rounded) and a squared radius that surely covers the rectangle."""
    cx = (rect[0][0] + rect[2][0]) // 2
    cy = (rect[0][1] + rect[2][1]) // 2
    r2 = max((px - cx) ** 2 + (py - cy) ** 2 for px, py in rect)
    return (cx, cy), r2 + 4 * (abs(rect[0][0] - rect[2][0]) + abs(rect[0][1] - rect[2][1]) + 4)


def may_hit(p: Point, d: Point, centre: Point, r2: int) -> bool:
    """Cheap, conservative reject: False only when the ray surely misses the circle."""
    wx, wy = centre[0] - p[0], centre[1] - p[1]
    along = wx * d[0] + wy * d[1]
    dd = d[0] * d[0] + d[1] * d[1]
    if along < 0:
        return wx * wx + wy * wy <= r2
    cr = _cross(d[0], d[1], wx, wy)
    return cr * cr <= r2 * dd


def first_hit(
    p: Point,
    d: Point,
    rects: list[Rect],
    skip: int = -1,
    circles: list[tuple[Point, int]] | None = None,
) -> tuple[int, Frac] | None:
    """Index of the first rectangle the ray meets (ties: the lowest index) and where.

    ``skip`` is the firing card itself; ``circles`` (from bounding_radius2) speeds up
    the search without changing its answer."""
    best_i = -1
    best_t: Frac | None = None
    px, py = p
    dx, dy = d
    dd = dx * dx + dy * dy
    for i, rect in enumerate(rects):
        if i == skip:
            continue
        if circles is not None:  # may_hit, inlined: this loop is the battle's hot path
            (cx, cy), r2 = circles[i]
            wx, wy = cx - px, cy - py
            if wx * dx + wy * dy < 0:
                if wx * wx + wy * wy > r2:
                    continue
            else:
                cr = dx * wy - dy * wx
                if cr * cr > r2 * dd:
                    continue
        t = ray_rect(p, d, rect)
        if t is not None and (best_t is None or t[0] * best_t[1] < best_t[0] * t[1]):
            best_i, best_t = i, t
    if best_t is None:
        return None
    return best_i, best_t


def float_circle(circle: tuple[Point, int]) -> tuple[float, float, float]:
    """A bounding circle in millimetres as floats, widened by a margin far above any
    rounding error, for ``first_hit_near``'s quick rejection."""
    (cx, cy), r2 = circle
    return (cx / MM, cy / MM, math.sqrt(r2) / MM + 1e-3)


def float_ray(p: Point, d: Point) -> tuple[float, float, float, float]:
    """A ray's start (mm) and unit direction as floats, for ``first_hit_near``."""
    n = math.hypot(d[0], d[1])
    return (p[0] / MM, p[1] / MM, d[0] / n, d[1] / n)


NEAR_T = 1e-2  # mm: float answers this close to a tie are decided exactly
PARALLEL = 1e-9  # a direction component this small counts as parallel to the edge


def nearest_card(
    ray: tuple[float, float, float, float],
    skip: int,
    circles: list[tuple[int, float, float, float]],
    frames: list[tuple[float, ...]],
    alive: list[int] | None = None,
) -> tuple[int, int, float, float] | None:
    """The card a ray enters first, found with floats: (index, edge of entry, distance
    in mm, the ray's slope across that edge: the sine of the angle between them), None
    when it meets none, or ``TOO_CLOSE`` when the floats cannot tell.

    This is the battle's hot loop, and the exact big integers cost ~10x more than
    floats. Floats (``float_circle``, ``float_ray``, ``float_frame``, all converted
    from the exact geometry, so off by ~1e-12 mm) drop the cards a ray passes by a wide
    margin and find which card it enters first, through which edge (slab test in the
    card's frame). They are too close to call when an edge lies within ``NEAR_T`` of
    the ray, or entry points lie within ``NEAR_T`` of each other, of the start or of
    the exit: then the caller traces the ray exactly. ``circles``: (index,
    ``float_circle``) per card; a radius below 0 leaves the card out, and so does a
    false ``alive[index]``."""
    px, py, ux, uy = ray
    best_t = second = math.inf
    best_i = best_e = -1
    best_s = 0.0
    a0, b0 = px * ux + py * uy, px * uy - py * ux
    # cards whose bounding circle the ray comes near and not wholly behind its start
    for i, cx, cy, r in circles:
        # (-r <= x <= r is abs(x) <= r without the call: this loop is the hot path)
        if not (-r <= cx * uy - cy * ux - b0 <= r and cx * ux + cy * uy + r >= a0) or i == skip:
            continue
        if alive is not None and not alive[i]:
            continue
        # the ray in the card's own frame (x across, y along the card), slab by slab
        cx, cy, ax, ay, hw, hl = frames[i]  # the card's long axis is (-ay, ax)
        ox, oy = px - cx, py - cy
        lx, ly = ox * ax + oy * ay, oy * ax - ox * ay
        dx, dy = ux * ax + uy * ay, uy * ax - ux * ay
        if dx > PARALLEL:
            tx0, tx1, ex = (-hw - lx) / dx, (hw - lx) / dx, 3
        elif dx < -PARALLEL:
            tx0, tx1, ex = (hw - lx) / dx, (-hw - lx) / dx, 1
        else:  # runs along the card's long edges
            gap = abs(lx) - hw
            if gap > NEAR_T:
                continue
            if gap > -NEAR_T:
                return TOO_CLOSE
            tx0, tx1, ex = -math.inf, math.inf, -1
        if dy > PARALLEL:
            ty0, ty1, ey = (-hl - ly) / dy, (hl - ly) / dy, 0
        elif dy < -PARALLEL:
            ty0, ty1, ey = (hl - ly) / dy, (-hl - ly) / dy, 2
        else:  # runs along the card's short edges
            gap = abs(ly) - hl
            if gap > NEAR_T:
                continue
            if gap > -NEAR_T:
                return TOO_CLOSE
            ty0, ty1, ey = -math.inf, math.inf, -1
        t_in, edge, slope = (tx0, ex, dx) if tx0 > ty0 else (ty0, ey, dy)
        t_out = tx1 if tx1 < ty1 else ty1
        if t_in - t_out > NEAR_T or t_out < -NEAR_T:
            continue  # passes beside the card, or the card is behind the ray
        if t_out - t_in <= NEAR_T or t_in <= NEAR_T or abs(tx0 - ty0) <= NEAR_T:
            return TOO_CLOSE  # too close to call
        if t_in < best_t:
            best_t, second, best_i, best_e, best_s = t_in, best_t, i, edge, slope
        elif t_in < second:
            second = t_in
    if best_i < 0:
        return None
    if second - best_t <= NEAR_T:
        return TOO_CLOSE
    return best_i, best_e, best_t, abs(best_s)


def first_hit_near(
    p: Point,
    d: Point,
    ray: tuple[float, float, float, float],
    rects: list[Rect],
    skip: int,
    circles: list[tuple[int, float, float, float]],
    frames: list[tuple[float, ...]],
) -> tuple[int, Frac] | None:
    """``first_hit``'s answer: ``nearest_card`` with floats, the point exactly (the
    entry edge's ``ray_segment``), and the exact search when the floats cannot tell."""
    near = nearest_card(ray, skip, circles, frames)
    if near is None:
        return None
    i, edge, _t, _slope = near
    if i >= 0:
        rect = rects[i]
        t = ray_segment(p, d, rect[edge], rect[(edge + 1) % 4])
        if t is not None:  # always, given the margins; stay exact regardless
            return i, t
    return first_hit_exact(p, d, rects, skip, circles)


TOO_CLOSE = (-1, -1, 0.0, 0.0)  # nearest_card: the floats cannot tell


def first_hit_exact(
    p: Point,
    d: Point,
    rects: list[Rect],
    skip: int,
    circles: list[tuple[int, float, float, float]],
) -> tuple[int, Frac] | None:
    """``first_hit`` with the float bounding circles as its only short cut (a circle is
    dropped only when the ray misses it by more than its margin)."""
    n = math.hypot(d[0], d[1])
    px, py, ux, uy = p[0] / MM, p[1] / MM, d[0] / n, d[1] / n
    best_i = -1
    best_t: Frac | None = None
    for i, cx, cy, r in circles:
        wx, wy = cx - px, cy - py
        if wx * ux + wy * uy < -r or abs(wx * uy - wy * ux) > r or i == skip:
            continue
        t = ray_rect(p, d, rects[i])
        if t is not None and (best_t is None or t[0] * best_t[1] < best_t[0] * t[1]):
            best_i, best_t = i, t
    if best_t is None:
        return None
    return best_i, best_t


def float_frame(rect: Rect) -> tuple[float, ...]:
    """A rectangle as floats in millimetres: centre, unit axis across the card (the
    axis along it is that turned a quarter counter-clockwise) and half-extents, for
    ``first_hit_near``'s slab test."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ((x / MM, y / MM) for x, y in rect)
    w, length = math.hypot(x1 - x0, y1 - y0), math.hypot(x3 - x0, y3 - y0)
    return ((x0 + x2) / 2, (y0 + y2) / 2, (x1 - x0) / w, (y1 - y0) / w, w / 2, length / 2)


def point_at(p: Point, d: Point, t: Frac) -> tuple[int, int, int]:
    """The exact point p + t*d as (X, Y, den): the point is (X/den, Y/den)."""
    n, den = t
    return (p[0] * den + n * d[0], p[1] * den + n * d[1], den)


def on_segment(q: tuple[int, int, int], a: Point, b: Point) -> bool:
    """Is the exact point q (as from point_at) on the closed segment a-b?"""
    qx, qy, den = q
    ax, ay, bx, by = a[0] * den, a[1] * den, b[0] * den, b[1] * den
    if _cross(bx - ax, by - ay, qx - ax, qy - ay) != 0:
        return False
    dot = (qx - ax) * (bx - ax) + (qy - ay) * (by - ay)
    return 0 <= dot <= (bx - ax) ** 2 + (by - ay) ** 2


def table_exit(p: Point, d: Point, width_mm: int, height_mm: int) -> Frac:
    """Where a ray from a point on the table leaves it (for drawing misses)."""
    w, h = width_mm * MM, height_mm * MM
    best: Frac | None = None
    for lim, pc, dc in ((w, p[0], d[0]), (h, p[1], d[1])):
        if dc > 0:
            t = (lim - pc, dc)
        elif dc < 0:
            t = (pc, -dc)
        else:
            continue
        if best is None or _less(t, best):
            best = t
    assert best is not None, "a ray needs a direction"
    return best


def to_mm(v: int | float) -> float:
    """World units to millimetres, rounded for display."""
    return round(v / MM, 2)
