"""Scenario tests: drawing, placing, and every body's effect (with and without tokens),
on the published board (RULINGS 1b):

     a b c d e f g h i j k l m n o p q r s t u
  1      o   o   @   o   o   @   o   o
  2    o   1   o   o   2   o   o   3   o          1 d2, 2 j2, 3 p2: northern centres
  3      o   o   @   o   o   @   o   o   @        4 g5, 5 m5, 6 s5: southern centres
  4        @   o   o   @   o   o   @   o   o      @ Black Hole
  5          o   4   o   o   5   o   o   6   o
  6            o   o   @   o   o   @   o   o
"""

from __future__ import annotations

import pytest

from skydeck.core import IllegalAction
from skydeck.games.stellium.rules.phases import advance
from tests.games.stellium.helpers import (
    U,
    accounted,
    act,
    bodies,
    cell,
    dump,
    legal_texts,
    position,
)

ALL = 0b11110


def test_draw_is_a_choice_of_type_still_in_the_bag() -> None:
    s = position(board={"b2": "P"})
    s.bag = [0, 0, 3, 0, 1]
    # The clock's random draw is the server's to send, never offered as a choice.
    assert legal_texts(s) == {"draw comet", "draw supernova"}
    act(s, "draw supernova")
    assert s.drawn == 4 and s.bag[4] == 0 and s.phase == 1
    with pytest.raises(IllegalAction):
        act(position(board={"b2": "P"}, tokens=[ALL, ALL]), "draw nothing")


def test_timeout_draws_at_random_from_the_bag_and_uses_the_rng() -> None:
    s = position(board={"b2": "P"})
    s.bag = [0, 0, 0, 2, 0]
    draws = s.rng.draws
    act(s, "timeout")
    assert s.drawn == 3 and s.bag[3] == 1 and s.rng.draws == draws + 1
    with pytest.raises(IllegalAction, match="allows only"):
        act(s, "timeout")  # only a pending draw can time out


def test_empty_bag_skips_drawing_and_placing() -> None:
    s = position(
        board={"b2": "P"}, phase="new_mission", hands=[["m01"], []], available=["m02", "m03"]
    )
    act(s, "take m02")
    s.bag = [0, 0, 0, 0, 0]
    s.phase = 0
    advance(s, [])
    # the next player cannot draw: straight to Missions (none completable) -> New Mission
    assert s.phase == 6


def test_a_body_goes_on_an_empty_galaxy_space_never_a_black_hole() -> None:
    s = position(board={"d2": "P"}, phase="place", drawn="S")
    legal = legal_texts(s)
    assert "place f2" in legal and "place d2" not in legal and "place d4" not in legal
    occupied = sum(1 for c in U.galaxy_spaces if s.board[c])
    assert len(legal) == 42 - occupied


def test_swap_moves_another_planet_with_a_neighbour_not_the_placed_one() -> None:
    s = position(board={"b2": "P", "c3": "S", "f2": "C"}, phase="place", drawn="P")
    act(s, "place d2")
    legal = legal_texts(s)
    assert "swap b2 c3" in legal
    assert not any(t.startswith("swap d2") for t in legal)  # the placed Planet stays put
    assert "swap b2 d2" not in legal
    act(s, "swap b2 c3")
    assert bodies(s) == {"b2": "star", "c3": "planet", "d2": "planet", "f2": "comet"}


def test_swap_never_moves_the_placed_planet_as_the_neighbour() -> None:
    s = position(board={"b2": "P"}, phase="place", drawn="P")
    act(s, "place c1")
    # the only neighbour of b2 holding a body is the placed Planet: no Swap is possible
    legal = legal_texts(s)
    assert "swap b2 c1" not in legal and "skip" in legal
    assert not any(t.startswith("swap") for t in legal)


def test_green_token_swaps_a_body_of_the_placed_type() -> None:
    s = position(board={"b2": "S", "c1": "C", "p2": "S"}, phase="place", drawn="S")
    act(s, "place k5")
    legal = legal_texts(s)
    assert "swap b2 c1" in legal  # another Star, with a green token
    act(s, "swap b2 c1")
    assert bodies(s)["b2"] == "comet" and bodies(s)["c1"] == "star"
    assert not s.tokens[0] & (1 << 1)  # green spent
    assert s.tokens[0] == ALL & ~(1 << 1)


def test_a_token_of_the_placed_bodys_own_colour_cannot_be_used() -> None:
    s = position(board={"b2": "P", "c1": "C"}, phase="place", drawn="P")
    act(s, "place k5")
    # Planet's own effect is Swap (green) and free: legal swaps cost no token
    act(s, "swap b2 c1")
    assert s.tokens[0] == ALL


def test_comet_collides_pushing_the_whole_line() -> None:
    s = position(board={"b2": "P", "d2": "S", "f2": "N"}, phase="place", drawn="C")
    act(s, "place b2 e")
    assert bodies(s) == {"b2": "comet", "d2": "planet", "f2": "star", "h2": "supernova"}
    assert accounted(s) == [11, 10, 9, 8]


@pytest.mark.parametrize("direction", ["e", "se", "sw", "w", "nw", "ne"])
def test_a_comet_pushes_along_each_of_the_six_lattice_directions(direction: str) -> None:
    s = position(board={"j2": "P"}, phase="place", drawn="C")
    d = [name for name, _, _ in U.dirs].index(direction)
    target = U.names[U.step[cell("j2")][d]]
    act(s, f"place j2 {direction}")
    assert bodies(s) == {"j2": "comet", target: "planet"}


@pytest.mark.parametrize(
    ("start", "direction"),
    [("r2", "e"), ("u5", "se"), ("f6", "sw"), ("b2", "w"), ("c1", "nw"), ("q1", "ne")],
)
def test_a_push_off_the_edge_in_each_direction_sends_the_body_to_the_bag(
    start: str, direction: str
) -> None:
    s = position(board={start: "P"}, phase="place", drawn="C")
    bag = s.bag[1]
    act(s, f"place {start} {direction}")
    assert bodies(s) == {start: "comet"} and s.bag[1] == bag + 1
    assert accounted(s) == [11, 10, 9, 8]


def test_comet_pushes_a_body_off_the_edge_back_to_the_bag() -> None:
    s = position(board={"p2": "P", "r2": "S"}, phase="place", drawn="C")
    bag_star = s.bag[3]
    act(s, "place p2 e")
    assert bodies(s) == {"p2": "comet", "r2": "planet"}
    assert s.bag[3] == bag_star + 1
    assert accounted(s) == [11, 10, 9, 8]


def test_push_off_through_the_outer_belt_beside_a_black_hole() -> None:
    s = position(board={"e5": "P"}, phase="place", drawn="C")
    act(s, "place e5 w")  # c5 is Outer Belt, not a space (d4 is a Black Hole above)
    assert bodies(s) == {"e5": "comet"} and s.bag[1] == 11


def test_comet_pushes_into_a_black_hole_and_it_still_counts() -> None:
    s = position(board={"c3": "P"}, phase="place", drawn="C")
    act(s, "place c3 se")
    assert bodies(s) == {"c3": "comet", "d4": "planet"}


def test_a_line_is_pushed_through_an_occupied_black_hole_and_out_of_it() -> None:
    s = position(board={"c3": "P", "d4": "S"}, phase="place", drawn="C")
    act(s, "place c3 se")
    assert bodies(s) == {"c3": "comet", "d4": "planet", "e5": "star"}


def test_a_body_in_a_black_hole_can_be_pushed_off_the_board() -> None:
    s = position(board={"e3": "P", "d4": "S"}, phase="place", drawn="C")
    bag = s.bag[3]
    act(s, "place e3 sw")  # e3 -> d4 -> (c5: Outer Belt)
    assert bodies(s) == {"e3": "comet", "d4": "planet"} and s.bag[3] == bag + 1


def test_comet_cannot_land_on_an_empty_space_without_a_token() -> None:
    s = position(board={"c3": "P"}, phase="place", drawn="C", tokens=[0, 0])
    legal = legal_texts(s)
    assert "place d2" not in legal and "place c3 se" in legal
    before = dump(s)
    with pytest.raises(IllegalAction):
        act(s, "place d2")
    assert dump(s) == before


def test_comet_with_a_token_lands_on_an_empty_space_and_must_use_it() -> None:
    s = position(board={"c3": "P"}, phase="place", drawn="C", tokens=[1 << 3, 0])
    act(s, "place e1")
    assert s.token_mode
    assert legal_texts(s) == {"rotate 60", "rotate 120", "rotate 180", "rotate 240", "rotate 300"}
    act(s, "rotate 60")  # one sixth clockwise: c3 (south-west) -> b2, e1 (north-east) -> f2
    assert s.tokens[0] == 0 and bodies(s)["b2"] == "planet" and bodies(s)["f2"] == "comet"
    assert "e1" not in bodies(s) and "c3" not in bodies(s)


def test_comet_on_a_board_without_galaxy_bodies_has_no_effect() -> None:
    s = position(board={"d4": "P"}, phase="place", drawn="C", tokens=[0, 0], fill=False)
    assert "place d2" in legal_texts(s)
    act(s, "place d2")
    assert bodies(s) == {"d4": "planet", "d2": "comet"}
    assert s.phase == 5  # no effect; the five other (empty) Galaxies are refilled


def test_blue_token_collision_from_another_body() -> None:
    s = position(board={"f2": "P", "h2": "C"}, phase="place", drawn="S")
    act(s, "place d2")
    assert "push e" in legal_texts(s) and "push w" not in legal_texts(s)
    act(s, "push e")
    assert bodies(s) == {"f2": "star", "h2": "planet", "j2": "comet"}
    assert not s.tokens[0] & (1 << 2)


def test_rotation_turns_the_galaxy_with_its_bodies_and_colours() -> None:
    # the north Galaxy (centre j2) holds Sombrero: l2 green, i3 yellow, h2 pink, k1 blue
    s = position(board={"h2": "P", "i1": "C", "j2": "N"}, phase="place", drawn="S")
    assert s.colours[cell("h2")] == 4  # h2 is pink before turning
    act(s, "place k1")
    sixths = {"rotate 60", "rotate 120", "rotate 180", "rotate 240", "rotate 300"}
    assert legal_texts(s) >= sixths
    assert "rotate 360" not in legal_texts(s) and "rotate 0" not in legal_texts(s)
    assert "rotate 90" not in legal_texts(s)
    act(s, "rotate 60")
    # clockwise by a sixth: h2 -> i1, i1 -> k1, k1 -> l2, the centre stays
    assert bodies(s) == {"i1": "planet", "k1": "comet", "l2": "star", "j2": "supernova"}
    assert s.colours[cell("i1")] == 4  # the pink hole moved with the disc
    assert s.colours[cell("h2")] == 3  # yellow came round from i3
    assert s.turns[1] == 1


RING = ["f2", "e3", "c3", "b2", "c1", "e1"]  # the north-west flower, clockwise from east


@pytest.mark.parametrize("sixths", [1, 2, 3, 4, 5])
def test_rotation_by_each_sixth(sixths: int) -> None:
    s = position(board={"f2": "P", "c3": "C", "d2": "N"}, phase="place", drawn="S")
    act(s, "place e1")
    before = s.colours[:]
    act(s, f"rotate {sixths * 60}")
    moved = {RING[(0 + sixths) % 6]: "planet", RING[(2 + sixths) % 6]: "comet"}
    moved[RING[(5 + sixths) % 6]] = "star"
    assert bodies(s) == {**moved, "d2": "supernova"}
    for k, name in enumerate(RING):
        assert s.colours[cell(RING[(k + sixths) % 6])] == before[cell(name)]
    assert s.turns[0] == sixths and s.placed == cell(RING[(5 + sixths) % 6])


def test_attraction_pulls_a_neighbour_into_an_empty_black_hole() -> None:
    s = position(board={"e3": "P", "f4": "S"}, phase="place", drawn="N")
    act(s, "place c3")
    legal = legal_texts(s)
    assert {"pull d4 e3", "pull g3 e3", "pull d4 f4", "pull g3 f4"} <= legal
    assert not any(t.endswith(" c3") for t in legal if t.startswith("pull"))  # not itself
    act(s, "pull g3 e3")
    assert bodies(s) == {"g3": "planet", "c3": "supernova", "f4": "star"}


def test_an_occupied_black_hole_pulls_nothing() -> None:
    s = position(board={"e3": "P", "d4": "S", "k5": "C"}, phase="place", drawn="N")
    act(s, "place c3")
    legal = legal_texts(s)
    assert not any(t.startswith("pull d4") for t in legal)  # d4 already holds a body
    assert "pull g3 e3" in legal and "pull j4 k5" in legal


def test_pink_token_cannot_pull_the_body_that_triggered_it() -> None:
    s = position(board={"k1": "P", "e3": "S"}, phase="place", drawn="P")
    act(s, "place c3")
    legal = legal_texts(s)
    assert "pull d4 e3" in legal
    assert not any(t.startswith("pull") and t.endswith("c3") for t in legal)


def test_mandatory_effect_without_target_is_skipped_or_replaced() -> None:
    s = position(board={"b2": "P"}, phase="place", drawn="N", tokens=[0, 0])
    act(s, "place d2")  # no body next to any Black Hole, no token: nothing happens
    assert s.phase == 6 and s.turn == 0 and s.tokens[0] == 0
    s = position(board={"b2": "P"}, phase="place", drawn="N", tokens=[1 << 3, 0])
    act(s, "place d2")
    assert legal_texts(s) == {
        "skip",
        "rotate 60",
        "rotate 120",
        "rotate 180",
        "rotate 240",
        "rotate 300",
    }
    act(s, "skip")
    assert s.tokens[0] == 1 << 3


def test_the_native_effect_is_mandatory_when_possible() -> None:
    s = position(board={"b2": "P", "c1": "S"}, phase="place", drawn="P")
    act(s, "place p2")
    assert "skip" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="skip"):
        act(s, "skip")


def test_effect_that_empties_a_galaxy_triggers_a_refill() -> None:
    s = position(board={"c3": "P", "b2": "S"}, phase="place", drawn="N")
    act(s, "place k5")
    act(s, "pull d4 c3")  # the north-west Galaxy still holds b2
    assert s.phase != 5
    s = position(board={"c3": "P", "j2": "S"}, phase="place", drawn="N")
    act(s, "place k5")
    act(s, "pull d4 c3")
    assert s.phase == 5 and s.refill_queue == [0]


def test_a_diagonal_push_stops_at_the_first_gap() -> None:
    s = position(board={"c1": "P", "d2": "S", "f4": "N"}, phase="place", drawn="C")
    act(s, "place c1 se")
    # c1 -> d2 -> e3 (empty): the line moves one step; f4 further on is untouched
    assert bodies(s) == {"c1": "comet", "d2": "planet", "e3": "star", "f4": "supernova"}


def test_a_long_chain_leaves_the_universe_at_the_far_end() -> None:
    row = {f"{c}2": "P" for c in "bdfhjlnpr"}
    s = position(board=row, phase="place", drawn="C")
    bag = s.bag[1]
    act(s, "place b2 e")
    got = bodies(s)
    assert got["b2"] == "comet" and all(got[f"{c}2"] == "planet" for c in "dfhjlnpr")
    assert s.bag[1] == bag + 1  # r2's Planet went off the edge


def test_swap_never_moves_a_body_into_or_out_of_a_black_hole() -> None:
    # issue 16: a body gets into a Black Hole only when pushed or pulled
    s = position(board={"c3": "P", "d4": "S", "b2": "C"}, phase="place", drawn="P")
    act(s, "place i1")
    legal = legal_texts(s)
    assert "swap c3 b2" in legal
    assert "swap c3 d4" not in legal and "swap d4 c3" not in legal
    s = position(board={"d4": "P", "c3": "S", "k1": "C"}, phase="place", drawn="P")
    act(s, "place i1")  # the only other Planet stands in a Black Hole: no Swap
    assert not any(t.startswith("swap") for t in legal_texts(s))


def test_a_comet_cannot_collide_into_a_black_hole() -> None:
    s = position(board={"d4": "S", "c3": "P"}, phase="place", drawn="C")
    legal = legal_texts(s)
    assert not any(t.startswith("place d4") for t in legal)
    assert "place c3 se" in legal


def test_rotation_of_a_galaxy_carries_the_placed_body() -> None:
    s = position(board={"b2": "P", "c1": "C", "e1": "N", "d2": "S"}, phase="place", drawn="S")
    act(s, "place c3")
    act(s, "rotate 180")
    got = bodies(s)
    assert got == {"f2": "planet", "e3": "comet", "c3": "supernova", "d2": "star", "e1": "star"}
    assert s.placed == U.index_of["e1"]


def test_comet_with_only_a_green_token_needs_another_comet_to_swap() -> None:
    s = position(board={"c3": "P", "k1": "S"}, phase="place", drawn="C", tokens=[1 << 1, 0])
    assert "place e1" not in legal_texts(s)  # no other Comet: the green token has no use
    s = position(board={"c3": "P", "k1": "C"}, phase="place", drawn="C", tokens=[1 << 1, 0])
    assert "place e1" not in legal_texts(s)  # k1 has no body next to it
    s = position(
        board={"c3": "P", "k1": "C", "l2": "S"}, phase="place", drawn="C", tokens=[1 << 1, 0]
    )
    act(s, "place e1")
    assert legal_texts(s) == {"swap k1 l2"}
    act(s, "swap k1 l2")
    assert bodies(s)["k1"] == "star" and bodies(s)["l2"] == "comet" and s.tokens[0] == 0
