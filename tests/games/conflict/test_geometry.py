"""Hand-computed geometry cases: every expected number below was worked out on paper
from the card size (63 x 88 mm, half-extents 63 x 88 in half millimetres)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skydeck.games.conflict import geometry as g

MM, U = g.MM, 1  # U: one world unit, the smallest possible nudge
HW, HL = 63, 88
UP, RIGHT, LEFT, DOWN = g.heading(0), g.heading(270), g.heading(90), g.heading(180)


def pt(x: float, y: float) -> g.Point:
    return (round(x * MM), round(y * MM))


def card(x: int, y: int, a: int = 0) -> g.Rect:
    return g.card_rect(x, y, a, HW, HL)


def hit_point_mm(p: g.Point, d: g.Point, t: g.Frac) -> tuple[float, float]:
    x, y, den = g.point_at(p, d, t)
    return (x / den / MM, y / den / MM)


def test_headings_are_exact_on_quarter_turns() -> None:
    assert UP == (0, g.ONE) and LEFT == (-g.ONE, 0)
    assert DOWN == (0, -g.ONE) and RIGHT == (g.ONE, 0)
    # 45 degrees: both components equal, so the diagonal is exact
    assert g.heading(315) == (741455, 741455)


def test_axis_aligned_card_corners() -> None:
    # centre (100, 100), 63 wide, 88 long: x 68.5..131.5, y 56..144
    assert card(100, 100) == (pt(68.5, 56), pt(131.5, 56), pt(131.5, 144), pt(68.5, 144))


def test_quarter_turn_swaps_the_extents() -> None:
    # at 90 degrees the nose points to -x: x 156..244, y 168.5..231.5
    xs = sorted(p[0] for p in card(200, 200, 90))
    ys = sorted(p[1] for p in card(200, 200, 90))
    assert (xs[0], xs[-1]) == (pt(156, 0)[0], pt(244, 0)[0])
    assert (ys[0], ys[-1]) == (pt(0, 168.5)[1], pt(0, 231.5)[1])


def test_straight_hit_on_the_back_edge() -> None:
    p = pt(100, 0)
    t = g.ray_rect(p, UP, card(100, 100))
    assert t is not None and t[0] * g.ONE == 56 * MM * t[1]  # 56 mm at speed ONE
    assert hit_point_mm(p, UP, t) == (100, 56)


def test_ray_pointing_away_misses() -> None:
    assert g.ray_rect(pt(100, 0), DOWN, card(100, 100)) is None


def test_grazing_a_corner_is_a_hit_and_one_unit_off_is_not() -> None:
    # the 45-degree line through the top-left corner (68.5, 144) only touches the card
    d = g.heading(315)
    p = pt(18.5, 94)
    t = g.ray_rect(p, d, card(100, 100))
    assert t is not None and hit_point_mm(p, d, t) == (68.5, 144)
    assert g.ray_rect((p[0], p[1] + U), d, card(100, 100)) is None  # just above: misses
    t2 = g.ray_rect((p[0], p[1] - U), d, card(100, 100))  # just below: enters the left edge
    assert t2 is not None
    x, y, den = g.point_at((p[0], p[1] - U), d, t2)
    assert x == pt(68.5, 0)[0] * den and y == (pt(0, 144)[1] - U) * den


def test_ray_along_an_edge_hits_at_the_near_corner() -> None:
    p = pt(0, 56)  # on the line of the bottom edge, going +x
    t = g.ray_rect(p, RIGHT, card(100, 100))
    assert t is not None and hit_point_mm(p, RIGHT, t) == (68.5, 56)
    assert g.ray_rect((p[0], p[1] - U), RIGHT, card(100, 100)) is None  # parallel below
    t2 = g.ray_rect((p[0], p[1] + U), RIGHT, card(100, 100))  # parallel just inside
    assert t2 is not None and hit_point_mm((p[0], p[1] + U), RIGHT, t2)[0] == 68.5


def test_ray_through_a_gap_between_two_cards() -> None:
    # A spans x 68.5..131.5, B (centre 165) spans x 133.5..196.5: a 2 mm gap
    rects = [card(100, 100), card(165, 100)]
    assert g.first_hit(pt(132.5, 0), UP, rects) is None
    edge = g.first_hit(pt(131.5, 0), UP, rects)  # slides along A's right edge
    assert edge is not None and edge[0] == 0
    assert hit_point_mm(pt(131.5, 0), UP, edge[1]) == (131.5, 56)
    hit = g.first_hit(pt(133.5, 0), UP, rects)
    assert hit is not None and hit[0] == 1


def test_first_hit_is_the_nearest_card() -> None:
    rects = [card(100, 400), card(100, 200)]  # the second is nearer to y=0
    hit = g.first_hit(pt(100, 0), UP, rects)
    assert hit is not None and hit[0] == 1
    assert hit_point_mm(pt(100, 0), UP, hit[1]) == (100, 156)


def test_ray_starting_next_to_another_card() -> None:
    # shooter's front exit at (100, 144); the target's back edge 1 mm ahead at y=145
    rects = [card(100, 100), card(100, 189)]
    p = pt(100, 144)
    hit = g.first_hit(p, UP, rects, skip=0)
    assert hit is not None and hit[0] == 1
    assert hit_point_mm(p, UP, hit[1]) == (100, 145)
    # a card right beside the exit point but not ahead is not hit
    side = [card(100, 100), card(164, 144)]  # x 132.5..195.5, 1 mm right of the shooter
    assert g.first_hit(p, UP, side, skip=0) is None


def test_the_firing_card_is_never_its_own_target() -> None:
    rects = [card(100, 100)]
    assert g.first_hit(pt(100, 144), UP, rects, skip=0) is None


def test_shield_segment_covers_its_closed_span() -> None:
    # back edge of a card at (100, 100) is y=56; a shield from x 90 to 110
    a, b = pt(90, 56), pt(110, 56)
    for x, covered in ((100, True), (110, True), (90, True), (115, False), (89.5, False)):
        p = pt(x, 0)
        t = g.ray_rect(p, UP, card(100, 100))
        assert t is not None
        assert g.on_segment(g.point_at(p, UP, t), a, b) is covered, x


def test_touching_cards_are_not_clear() -> None:
    assert not g.rects_clear(card(100, 100), card(163, 100))  # edges meet at x=131.5
    assert g.rects_clear(card(100, 100), card(164, 100))
    assert not g.rects_clear(card(100, 100), card(120, 120))  # overlap
    assert not g.rects_clear(card(100, 100), card(163, 188))  # corners meet at (131.5, 144)


def test_rotated_card_clearance() -> None:
    # at 45 degrees the leftmost corner lies 151 * 741455 units left of the centre,
    # i.e. 53.385 mm: clear of x=131.5 from a centre at 185 mm, touching-or-over at 184
    assert g.rects_clear(card(100, 100), card(185, 100, 45))
    assert not g.rects_clear(card(100, 100), card(184, 100, 45))


def test_inside_table() -> None:
    assert g.inside_table(card(32, 100), 900, 600)  # left edge at 0.5 mm
    assert not g.inside_table(card(31, 100), 900, 600)  # -0.5 mm
    assert g.inside_table(card(44, 100, 90), 900, 600)  # touches the border: allowed
    assert not g.inside_table(card(43, 100, 90), 900, 600)


def test_table_exit() -> None:
    p = pt(100, 100)
    t = g.table_exit(p, RIGHT, 900, 600)
    assert hit_point_mm(p, RIGHT, t) == (900, 100)
    t = g.table_exit(p, g.heading(315), 900, 600)  # diagonal up-right: leaves at the top
    assert hit_point_mm(p, g.heading(315), t)[1] == 600


def test_bounding_circle_never_rejects_a_real_hit() -> None:
    r = card(300, 300, 30)
    c, r2 = g.bounding_radius2(r)
    for ang in range(0, 360, 7):
        d = g.heading(ang)
        p = pt(100, 120)
        if g.ray_rect(p, d, r) is not None:
            assert g.may_hit(p, d, c, r2)


# --- properties -------------------------------------------------------------------

coords = st.integers(min_value=60, max_value=840)
ycoords = st.integers(min_value=60, max_value=540)
angles = st.integers(min_value=0, max_value=359)


@given(coords, ycoords, angles, coords, ycoords, angles)
def test_clearance_is_symmetric(x1: int, y1: int, a1: int, x2: int, y2: int, a2: int) -> None:
    a, b = card(x1, y1, a1), card(x2, y2, a2)
    assert g.rects_clear(a, b) == g.rects_clear(b, a)


@given(coords, ycoords, angles, coords, ycoords, angles, st.integers(-50, 50), st.integers(-50, 50))
def test_hits_are_translation_invariant(
    x1: int, y1: int, a: int, x2: int, y2: int, b: int, dx: int, dy: int
) -> None:
    p, d = pt(x1, y1), g.heading(a)
    t1 = g.ray_rect(p, d, card(x2, y2, b))
    t2 = g.ray_rect((p[0] + dx * MM, p[1] + dy * MM), d, card(x2 + dx, y2 + dy, b))
    assert t1 == t2


@given(coords, ycoords, angles, coords, ycoords, angles)
def test_quarter_turn_of_everything_gives_the_same_hit(
    x1: int, y1: int, a: int, x2: int, y2: int, b: int
) -> None:
    # rotate the whole scene by 90 degrees about the origin: (x, y) -> (-y, x)
    p, d = pt(x1, y1), g.heading(a)
    t1 = g.ray_rect(p, d, card(x2, y2, b))
    t2 = g.ray_rect(pt(-y1, x1), g.heading(a + 90), card(-y2, x2, b + 90))
    assert (t1 is None) == (t2 is None)
    if t1 is not None and t2 is not None:
        assert t1[0] * t2[1] == t2[0] * t1[1]


@given(coords, ycoords, angles, st.lists(st.tuples(coords, ycoords, angles), max_size=6))
def test_first_hit_is_deterministic_and_filter_safe(
    x: int, y: int, a: int, cards: list[tuple[int, int, int]]
) -> None:
    rects = [card(cx, cy, ca) for cx, cy, ca in cards]
    p, d = pt(x, y), g.heading(a)
    rects = [r for r in rects if g.ray_rect(p, (1, 0), r) != (0, 1)]  # p not on a card edge
    circles = [g.bounding_radius2(r) for r in rects]
    plain = g.first_hit(p, d, rects)
    assert plain == g.first_hit(p, d, rects)
    assert plain == g.first_hit(p, d, rects, circles=circles)


def test_trig_table_is_pinned() -> None:
    # Every cos(d) * 2**20 lies at least 0.0064 from a rounding tie, so libm differences
    # (1e-10 here) cannot change the table; these sums pin it for every platform.
    assert sum(g.COS[:91]) == 60601740
    assert sum(i * c for i, c in enumerate(g.COS)) == -188743680
    assert sum(i * s for i, s in enumerate(g.SIN)) == -21627882720
    for d in range(360):  # exact symmetries
        assert g.COS[d] == g.SIN[(d + 90) % 360]
        assert g.COS[(d + 180) % 360] == -g.COS[d]


# --- the float-guided search (battle hot path) must give the exact answer ------------


def _near_inputs(rects: list[g.Rect]) -> tuple[list, list]:
    circles = [(i, *g.float_circle(g.bounding_radius2(r))) for i, r in enumerate(rects)]
    return circles, [g.float_frame(r) for r in rects]


@given(
    st.lists(
        st.tuples(
            st.integers(40, 860), st.integers(40, 560), st.sampled_from([0, 45, 90, 17, 271])
        ),
        min_size=2,
        max_size=12,
    ),
    st.integers(0, 359),
    st.integers(-63, 63),
    st.integers(-88, 88),
)
def test_first_hit_near_equals_first_hit(
    spots: list[tuple[int, int, int]], heading: int, lx: int, ly: int
) -> None:
    """Random cards (overlaps allowed: only the ray search is under test), a ray from
    a point of the first card in any whole-degree direction."""
    rects = [card(x, y, a) for x, y, a in spots]
    x, y, a = spots[0]
    p, d = g.to_world(x, y, a, lx, ly), g.heading(heading)
    circles, frames = _near_inputs(rects)
    exact = g.first_hit(p, d, rects, 0)
    assert g.first_hit_near(p, d, g.float_ray(p, d), rects, 0, circles, frames) == exact


def test_first_hit_near_on_grazing_rays_falls_back_to_exact() -> None:
    """Rays along an edge, through a corner, or between two cards one world unit apart
    are too close to call with floats: the answer must still be the exact one."""
    cases = [
        # along the left edge of the card at (100, 300): x = 68.5
        ([card(100, 100), card(100, 300)], pt(68.5, 150), UP),
        # exactly through the corner (131.5, 256) from the lower left at 45 degrees
        ([card(100, 100), card(100, 300)], pt(131.5 - 50, 256 - 50), g.heading(315)),
        # one unit beside the corner: a miss
        ([card(100, 100), card(100, 300)], (pt(131.5, 256)[0] + U, pt(131.5, 206)[1]), UP),
        # two touching cards, the ray up their common edge: a tie, the lower index wins
        ([card(500, 500), card(200, 300), card(263, 300)], pt(231.5, 150), UP),
    ]
    for rects, p, d in cases:
        circles, frames = _near_inputs(rects)
        exact = g.first_hit(p, d, rects, 0)
        near = g.first_hit_near(p, d, g.float_ray(p, d), rects, 0, circles, frames)
        assert near == exact, (p, d, exact, near)
    rects, p, d = cases[0]
    assert g.first_hit(p, d, rects, 0) is not None
    rects, p, d = cases[3]
    hit = g.first_hit(p, d, rects, 0)
    assert hit is not None and hit[0] == 1 and hit_point_mm(p, d, hit[1]) == (231.5, 256)
