"""The published board (issue 16): six seven-hole Galaxies on one triangular lattice,
validated on load; rotation by sixths, six push directions, the 40 Missions redrawn
for the lattice and each placeable in every allowed turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skydeck.games.stellium.content import DATA, load_lattice_universe
from skydeck.games.stellium.missions import build_cards, shape_cells
from skydeck.games.stellium.universe import (
    LATTICE_DIRS,
    build_lattice_universe,
    load_published,
    turn_flower,
)

U = load_published()
CARDS = build_cards(U)
SHAPES = [c for c in CARDS if c.family == "shape"]
LETTER = {"P": 1, "C": 2, "S": 3, "N": 4}


def at(name: str) -> int:
    return U.index_of[name]


def test_six_flowers_of_seven_holes_ten_black_holes() -> None:
    assert len(U.slot_cells) == 6 and all(len(cells) == 7 for cells in U.slot_cells)
    assert len(U.galaxy_spaces) == 42 and len(U.holes) == 10
    assert U.full_turn == 6 and U.turn_degrees == 60 and len(U.dirs) == 6
    # the north-west flower: centre d2, ring clockwise from east
    assert [U.names[c] for c in U.slot_cells[0]] == ["d2", "f2", "e3", "c3", "b2", "c1", "e1"]


def test_every_space_has_up_to_six_neighbours_at_equal_distance() -> None:
    for i in U.spaces:
        r, c = divmod(i, U.width)
        assert 1 <= len(U.neighbours[i]) <= 6
        for j in U.neighbours[i]:
            rr, cc = divmod(j, U.width)
            assert (abs(rr - r), abs(cc - c)) in {(0, 2), (1, 1)}
    centre = U.centres[0]
    assert len(U.neighbours[centre]) == 6


def test_steps_run_along_three_lines_both_ways() -> None:
    names = [d for d, _, _ in U.dirs]
    assert names == ["e", "se", "sw", "w", "nw", "ne"]
    for i in U.spaces:
        for d in range(6):
            j = U.step[i][d]
            if j >= 0:
                assert U.step[j][(d + 3) % 6] == i  # the opposite direction comes back


def test_black_holes_lie_between_galaxies_and_never_touch_each_other() -> None:
    for h in U.holes:
        near = {U.galaxy_of[j] for j in U.neighbours[h]} - {-1}
        assert len(near) >= 2
        assert not any(U.is_hole[j] for j in U.neighbours[h])


def test_galaxies_touch_north_south_and_east_west() -> None:
    def touching(a: int, b: int) -> bool:
        for i in U.slot_cells[a]:
            for j in U.neighbours[i]:
                if U.galaxy_of[j] == b:
                    return True
                if U.is_hole[j] and any(U.galaxy_of[k] == b for k in U.neighbours[j]):
                    return True
        return False

    slot = {name: g for g, name in enumerate(U.slot_names)}
    for a, b in [
        ("north-west", "north"),
        ("north", "north-east"),
        ("south-west", "south"),
        ("south", "south-east"),
        ("north-west", "south-west"),
        ("north", "south"),
        ("north-east", "south-east"),
    ]:
        assert touching(slot[a], slot[b]), (a, b)
    # directly, not only through a Black Hole: d3/e3 (north-west) beside f4 (south-west)
    assert U.galaxy_of[at("e3")] == slot["north-west"]
    assert U.galaxy_of[at("f4")] == slot["south-west"] and at("f4") in U.neighbours[at("e3")]


@pytest.mark.parametrize("sixths", [1, 2, 3, 4, 5])
def test_rotation_by_each_sixth_moves_the_ring_and_keeps_the_centre(sixths: int) -> None:
    perm = U.turn_perm[sixths]
    assert perm[0] == 0
    ring = [perm[k] for k in range(1, 7)]
    assert ring == [1 + (k + sixths) % 6 for k in range(6)]
    # a full turn is the identity, and it is no rotation
    assert [turn_flower(p, 6) for p in range(7)] == list(range(7))
    # coloured holes turn with the disc: one of each colour on every turn
    for disc in range(6):
        colours = U.disc_colour[disc][sixths]
        assert colours[0] == 0 and sorted(c for c in colours if c) == [1, 2, 3, 4]
        assert len(U.disc_start[disc][sixths]) == 4 and 0 not in U.disc_start[disc][sixths]


def test_the_ring_turns_clockwise_by_a_sixth() -> None:
    # ring hole 1 is east of the centre; a clockwise sixth carries it south-east
    cells = U.slot_cells[0]
    east, south_east = cells[1], cells[2]
    assert U.step[cells[0]][0] == east and U.step[cells[0]][1] == south_east
    assert cells[U.turn_perm[1][1]] == south_east


def _shift_broken(tmp_path: Path, change: dict[str, object]) -> Path:
    raw = json.loads((DATA / "universe_published.json").read_text())
    raw.update(change)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(raw))
    return path


def test_a_hole_off_the_lattice_is_refused_naming_it(tmp_path: Path) -> None:
    raw = json.loads((DATA / "universe_published.json").read_text())
    rows = raw["map"]
    rows[0] = ".@" + rows[0][2:]  # b1: row 0 + column 1 is odd
    with pytest.raises(ValueError, match=r"off the lattice.*b1"):
        load_lattice_universe(_shift_broken(tmp_path, {"map": rows}))


def test_two_touching_black_holes_are_refused(tmp_path: Path) -> None:
    raw = json.loads((DATA / "universe_published.json").read_text())
    rows = raw["map"]
    rows[1] = rows[1][:19] + "@" + rows[1][20:]  # t2, beside s3's Black Hole
    model = load_lattice_universe(_shift_broken(tmp_path, {"map": rows, "black_holes": 11}))
    with pytest.raises(ValueError, match="Black Hole"):
        build_lattice_universe(model)


def test_a_wrong_black_hole_count_is_refused(tmp_path: Path) -> None:
    model = load_lattice_universe(_shift_broken(tmp_path, {"black_holes": 9}))
    with pytest.raises(ValueError, match="10 Black Holes, the board states 9"):
        build_lattice_universe(model)


def test_a_disc_without_one_of_each_colour_is_refused(tmp_path: Path) -> None:
    raw = json.loads((DATA / "universe_published.json").read_text())
    raw["discs"][0]["ring"] = "gg.yp."
    with pytest.raises(ValueError, match=r"discs\.0\.ring"):
        load_lattice_universe(_shift_broken(tmp_path, {"discs": raw["discs"]}))


# --- the Missions on the lattice ----------------------------------------------------


def _axial(r: int, c: int) -> tuple[int, int]:
    return (c - r) // 2, r


def _turn(cells: list[tuple[int, int, int]], sixths: int) -> list[tuple[int, int, int]]:
    """The drawing turned clockwise in cube coordinates (independent of the engine)."""
    r0, c0, _ = cells[0]
    out = []
    for r, c, b in cells:
        x, z = _axial(r - r0, c - c0)
        y = -x - z
        for _ in range(sixths):
            x, y, z = -z, -x, -y
        out.append((z, 2 * x + z, b))
    return out


def _mirror(cells: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    return [(r, -c, b) for r, c, b in cells]


def _place(cells: list[tuple[int, int, int]], two_galaxies: bool) -> dict[int, int] | None:
    """The first spot on the board where every body lands on a space."""
    for r0 in range(-6, U.height + 6):
        for c0 in range(-12, U.width + 12):
            spots = {}
            for r, c, b in cells:
                rr, cc = r0 + r, c0 + c
                if not (0 <= rr < U.height and 0 <= cc < U.width):
                    break
                i = rr * U.width + cc
                if not U.is_space[i]:
                    break
                spots[i] = b
            else:
                if two_galaxies and len({U.galaxy_of[i] for i in spots} - {-1}) < 2:
                    continue
                return spots
    return None


def _matches(card, board: list[int]) -> list[tuple[int, ...]]:  # type: ignore[no-untyped-def]
    return card.matches(board, [0] * U.size, U.centres)


@pytest.mark.parametrize("card", SHAPES, ids=[c.id for c in SHAPES])
@pytest.mark.parametrize("sixths", range(6))
def test_every_shape_card_is_completable_in_every_sixth(card, sixths: int) -> None:  # type: ignore[no-untyped-def]
    cells = _turn(shape_cells(list(card.shape)), sixths)
    spots = _place(cells, card.kind == "s_shape")
    assert spots is not None, f"{card.id} turned {sixths * 60} degrees fits nowhere"
    board = [0] * U.size
    for i, b in spots.items():
        board[i] = b
    assert tuple(sorted(spots)) in _matches(card, board)


@pytest.mark.parametrize("card", SHAPES, ids=[c.id for c in SHAPES])
def test_a_card_is_never_read_mirrored(card) -> None:  # type: ignore[no-untyped-def]
    """A mirror image matches only where it is also a turn of the card (S-shapes and the
    asymmetric Fields are chiral on the lattice)."""

    def canonical(cells: list[tuple[int, int, int]]) -> frozenset[tuple[int, int, int]]:
        r0, c0, _ = min(cells)
        return frozenset((r - r0, c - c0, b) for r, c, b in cells)

    base = shape_cells(list(card.shape))
    turns = [canonical(_turn(base, k)) for k in range(6)]
    mirrored = _mirror(base)
    key = canonical(mirrored)
    spots = _place(mirrored, card.kind == "s_shape")
    assert spots is not None
    board = [0] * U.size
    for i, b in spots.items():
        board[i] = b
    assert (tuple(sorted(spots)) in _matches(card, board)) == (key in turns)


def test_serpents_are_chiral_and_need_two_galaxies() -> None:
    serpents = [c for c in SHAPES if c.kind == "s_shape"]
    assert len(serpents) == 4
    for card in serpents:
        for cells, _ in card.placements:
            assert len({U.galaxy_of[i] for i in cells} - {-1}) >= 2


def test_shapes_cross_galaxies_and_black_holes() -> None:
    for card in SHAPES:
        across = [p for p in card.placements if len({U.galaxy_of[i] for i in p[0]} - {-1}) >= 2]
        through = [p for p in card.placements if any(U.is_hole[i] for i in p[0])]
        assert across and through, card.id


def test_no_mission_fits_wholly_inside_black_holes() -> None:
    for card in CARDS:
        for cells, _ in card.placements:
            assert not all(U.is_hole[i] for i in cells), card.id


def test_lines_run_in_all_three_directions() -> None:
    line = next(c for c in SHAPES if c.id == "m01")
    steps = set()
    for cells, _ in line.placements:
        a, b = divmod(cells[0], U.width), divmod(cells[1], U.width)
        steps.add((b[0] - a[0], b[1] - a[1]))
    assert steps == {(0, 2), (1, 1), (1, -1)}


def test_shapes_are_what_the_rulebook_names() -> None:
    def adjacent(cells: tuple[int, ...]) -> int:
        return sum(1 for a in cells for b in cells if a < b and b in U.neighbours[a])

    for card in SHAPES:
        cells = card.placements[0][0]
        pairs = adjacent(cells)
        if card.kind == "triangle":
            assert pairs == 3  # three mutually adjacent
        elif card.kind in ("line", "semicircle", "s_shape"):
            assert pairs == len(cells) - 1  # a path, no shortcut
        elif card.kind in ("rectangle", "diamond"):
            assert len(cells) == 4 and pairs == 5  # a rhombus: two triangles
        elif card.kind == "around":
            assert pairs == 0
            common = set(U.neighbours[cells[0]])
            for i in cells[1:]:
                common &= set(U.neighbours[i])
            assert common  # one space touches all three


def test_per_colour_counts_and_values_kept() -> None:
    from skydeck.games.stellium.universe import load

    square = build_cards(load())  # the cards of our first, square board

    assert [(c.id, c.colour, c.points, c.kind) for c in CARDS] == [
        (c.id, c.colour, c.points, c.kind) for c in square
    ]
    assert [sum(1 for c in CARDS if c.colour == k) for k in (1, 2, 3, 4)] == [10] * 4
    assert {c.points for c in CARDS} <= set(range(2, 8))


def test_directions_are_the_six_lattice_steps() -> None:
    assert [(dr, dc) for _, dr, dc in LATTICE_DIRS] == [
        (0, 2),
        (1, 1),
        (1, -1),
        (0, -2),
        (-1, -1),
        (-1, 1),
    ]
