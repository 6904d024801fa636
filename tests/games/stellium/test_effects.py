"""Scenario tests: drawing, placing, and every body's effect (with and without tokens)."""

from __future__ import annotations

import pytest

from skydeck.core import IllegalAction
from tests.games.stellium.helpers import U, accounted, act, bodies, dump, legal_texts, position

ALL = 0b11110


def test_draw_is_a_choice_of_type_still_in_the_bag() -> None:
    s = position(board={"a1": "P"})
    s.bag = [0, 0, 3, 0, 1]
    # The clock's random draw is the server's to send, never offered as a choice.
    assert legal_texts(s) == {"draw comet", "draw supernova"}
    act(s, "draw supernova")
    assert s.drawn == 4 and s.bag[4] == 0 and s.phase == 1
    with pytest.raises(IllegalAction):
        act(position(board={"a1": "P"}, tokens=[ALL, ALL]), "draw nothing")


def test_timeout_draws_at_random_from_the_bag_and_uses_the_rng() -> None:
    s = position(board={"a1": "P"})
    s.bag = [0, 0, 0, 2, 0]
    draws = s.rng.draws
    act(s, "timeout")
    assert s.drawn == 3 and s.bag[3] == 1 and s.rng.draws == draws + 1
    with pytest.raises(IllegalAction, match="allows only"):
        act(s, "timeout")  # only a pending draw can time out


def test_empty_bag_skips_drawing_and_placing() -> None:
    s = position(
        board={"a1": "P"}, phase="new_mission", hands=[["m01"], []], available=["m02", "m03"]
    )
    act(s, "take m02")
    s.bag = [0, 0, 0, 0, 0]
    s.phase = 0
    s._advance([])
    # the next player cannot draw: straight to Missions (none completable) -> New Mission
    assert s.phase == 6


def test_a_body_goes_on_an_empty_galaxy_space_never_a_black_hole() -> None:
    s = position(board={"a1": "P"}, phase="place", drawn="S")
    legal = legal_texts(s)
    assert "place b2" in legal and "place a1" not in legal and "place a4" not in legal
    occupied = sum(1 for c in U.galaxy_spaces if s.board[c])
    assert len(legal) == 54 - occupied


def test_swap_moves_another_planet_with_a_neighbour_not_the_placed_one() -> None:
    s = position(board={"b2": "P", "c2": "S", "e2": "C"}, phase="place", drawn="P")
    act(s, "place d2")
    legal = legal_texts(s)
    assert "swap b2 c2" in legal
    assert not any(t.startswith("swap d2") for t in legal)  # the placed Planet stays put
    assert "swap b2 d2" not in legal
    act(s, "swap b2 c2")
    assert bodies(s) == {"b2": "star", "c2": "planet", "d2": "planet", "e2": "comet"}


def test_swap_never_moves_the_placed_planet_as_the_neighbour() -> None:
    s = position(board={"b2": "P"}, phase="place", drawn="P")
    act(s, "place c2")
    # the only neighbour of b2 is the placed Planet: no Swap is possible
    legal = legal_texts(s)
    assert "swap b2 c2" not in legal and "skip" in legal
    assert not any(t.startswith("swap") for t in legal)


def test_green_token_swaps_a_body_of_the_placed_type() -> None:
    s = position(board={"a1": "S", "b1": "C", "h2": "S"}, phase="place", drawn="S")
    act(s, "place e2")
    legal = legal_texts(s)
    assert "swap a1 b1" in legal  # another Star, with a green token
    act(s, "swap a1 b1")
    assert bodies(s)["a1"] == "comet" and bodies(s)["b1"] == "star"
    assert not s.tokens[0] & (1 << 1)  # green spent
    assert s.tokens[0] == ALL & ~(1 << 1)


def test_a_token_of_the_placed_bodys_own_colour_cannot_be_used() -> None:
    s = position(board={"a1": "P", "b1": "C"}, phase="place", drawn="P")
    act(s, "place e2")
    # Planet's own effect is Swap (green) and free: legal swaps cost no token
    act(s, "swap a1 b1")
    assert s.tokens[0] == ALL


def test_comet_collides_pushing_the_whole_line() -> None:
    s = position(board={"d2": "P", "e2": "S", "f2": "N"}, phase="place", drawn="C")
    assert "place d2" not in legal_texts(s) or s.tokens[0]  # empty space only with a token
    act(s, "place d2 e")
    assert bodies(s) == {"d2": "comet", "e2": "planet", "f2": "star", "g2": "supernova"}
    assert accounted(s) == [11, 10, 9, 8]


def test_comet_pushes_a_body_off_the_edge_back_to_the_bag() -> None:
    s = position(board={"h2": "P", "i2": "S"}, phase="place", drawn="C")
    bag_star = s.bag[3]
    act(s, "place h2 e")
    assert bodies(s) == {"h2": "comet", "i2": "planet"}
    assert s.bag[3] == bag_star + 1
    assert accounted(s) == [11, 10, 9, 8]


def test_push_off_through_an_outer_belt_notch() -> None:
    s = position(board={"b5": "P"}, phase="place", drawn="C")
    act(s, "place b5 w")  # a5 is Outer Belt, not a space
    assert bodies(s) == {"b5": "comet"} and s.bag[1] == 11


def test_comet_pushes_into_a_black_hole_and_it_still_counts() -> None:
    s = position(board={"c3": "P"}, phase="place", drawn="C")
    act(s, "place c3 s")
    assert bodies(s) == {"c3": "comet", "c4": "planet"}


def test_a_line_is_pushed_through_an_occupied_black_hole() -> None:
    s = position(board={"c3": "P", "c4": "S"}, phase="place", drawn="C")
    act(s, "place c3 s")
    assert bodies(s) == {"c3": "comet", "c4": "planet", "c5": "star"}


def test_comet_cannot_land_on_an_empty_space_without_a_token() -> None:
    s = position(board={"c3": "P"}, phase="place", drawn="C", tokens=[0, 0])
    legal = legal_texts(s)
    assert "place e2" not in legal and "place c3 s" in legal
    before = dump(s)
    with pytest.raises(IllegalAction):
        act(s, "place e2")
    assert dump(s) == before


def test_comet_with_a_token_lands_on_an_empty_space_and_must_use_it() -> None:
    s = position(board={"c3": "P"}, phase="place", drawn="C", tokens=[1 << 3, 0])
    act(s, "place e1")
    assert s.token_mode
    assert legal_texts(s) == {"rotate 90", "rotate 180", "rotate 270"}
    act(s, "rotate 90")
    assert s.tokens[0] == 0 and bodies(s)["c3"] == "planet" and bodies(s)["f2"] == "comet"
    assert "e1" not in bodies(s)


def test_comet_on_a_board_without_galaxy_bodies_has_no_effect() -> None:
    s = position(board={"a4": "P"}, phase="place", drawn="C", tokens=[0, 0], fill=False)
    assert "place e2" in legal_texts(s)
    act(s, "place e2")
    assert bodies(s) == {"a4": "planet", "e2": "comet"}
    assert s.phase == 5  # no effect; the five other (empty) Galaxies are refilled


def test_blue_token_collision_from_another_body() -> None:
    s = position(board={"e2": "P", "f2": "C"}, phase="place", drawn="S")
    act(s, "place d2")
    assert "push e" in legal_texts(s) and "push w" not in legal_texts(s)
    act(s, "push e")
    assert bodies(s) == {"e2": "star", "f2": "planet", "g2": "comet"}
    assert not s.tokens[0] & (1 << 2)


def test_rotation_turns_the_galaxy_with_its_bodies_and_colours() -> None:
    # north Galaxy d1-f3 holds Sombrero: d1 green, f1 yellow, d3 pink, f3 blue
    s = position(board={"d1": "P", "e1": "C", "e2": "N"}, phase="place", drawn="S")
    assert s.colours[3] == 1  # d1 is green before turning
    act(s, "place f1")
    assert legal_texts(s) >= {"rotate 90", "rotate 180", "rotate 270"}
    assert "rotate 360" not in legal_texts(s) and "rotate 0" not in legal_texts(s)
    act(s, "rotate 90")
    # clockwise: d1 -> f1, e1 -> f2, f1 -> f3, centre stays
    assert bodies(s) == {"f1": "planet", "f2": "comet", "f3": "star", "e2": "supernova"}
    from tests.games.stellium.helpers import cell

    assert s.colours[cell("f1")] == 1  # the green hole moved with the disc
    assert s.colours[cell("d1")] == 4  # pink came up from d3
    assert s.turns[1] == 1


def test_attraction_pulls_a_neighbour_into_an_empty_black_hole() -> None:
    s = position(board={"c3": "P", "d4": "S"}, phase="place", drawn="N")
    act(s, "place b3")
    legal = legal_texts(s)
    assert "pull b4 c3" in legal and "pull c4 c3" in legal
    assert not any(t.endswith(" b3") for t in legal if t.startswith("pull"))  # not itself
    assert "pull d4 c3" not in legal  # d4 already holds a body
    assert "pull c4 d4" in legal  # a body can go from one Black Hole to the next
    act(s, "pull b4 c3")
    assert bodies(s) == {"b4": "planet", "b3": "supernova", "d4": "star"}


def test_pink_token_cannot_pull_the_body_that_triggered_it() -> None:
    s = position(board={"h1": "P", "b3": "S"}, phase="place", drawn="P")
    act(s, "place a3")
    assert "pull a4 b3" in legal_texts(s)
    legal = legal_texts(s)
    assert not any(t.startswith("pull") and t.endswith("a3") for t in legal)


def test_mandatory_effect_without_target_is_skipped_or_replaced() -> None:
    s = position(board={"a1": "P"}, phase="place", drawn="N", tokens=[0, 0])
    act(s, "place e2")  # no body next to any Black Hole, no token: nothing happens
    assert s.phase == 6 and s.turn == 0 and s.tokens[0] == 0
    s = position(board={"a1": "P"}, phase="place", drawn="N", tokens=[1 << 3, 0])
    act(s, "place e2")
    assert legal_texts(s) == {"skip", "rotate 90", "rotate 180", "rotate 270"}
    act(s, "skip")
    assert s.tokens[0] == 1 << 3


def test_the_native_effect_is_mandatory_when_possible() -> None:
    s = position(board={"a1": "P", "b1": "S"}, phase="place", drawn="P")
    act(s, "place e2")
    assert "skip" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="skip"):
        act(s, "skip")


def test_effect_that_empties_a_galaxy_triggers_a_refill() -> None:
    s = position(board={"c3": "P", "a1": "S"}, phase="place", drawn="N")
    act(s, "place e5")
    act(s, "pull d4 c3")  # the north-west Galaxy still holds a1
    assert s.phase != 5
    s = position(board={"c3": "P", "e2": "S"}, phase="place", drawn="N")
    act(s, "place e5")
    act(s, "pull d4 c3")
    assert s.phase == 5 and s.refill_queue == [0]


def test_a_diagonal_push_stops_at_the_first_gap() -> None:
    s = position(board={"b1": "P", "c2": "S", "e4": "N"}, phase="place", drawn="C")
    act(s, "place b1 se")
    # b1 -> c2 -> d3 (empty): the line moves one step; e4 further on is untouched
    assert bodies(s) == {"b1": "comet", "c2": "planet", "d3": "star", "e4": "supernova"}


def test_a_long_chain_leaves_the_universe_at_the_far_end() -> None:
    row = {f"{c}2": "P" for c in "abcdefghi"}
    s = position(board=row, phase="place", drawn="C")
    bag = s.bag[1]
    act(s, "place a2 e")
    got = bodies(s)
    assert got["a2"] == "comet" and all(got[f"{c}2"] == "planet" for c in "bcdefghi")
    assert s.bag[1] == bag + 1  # i2's Planet went off the edge


def test_swap_can_move_bodies_into_and_out_of_black_holes() -> None:
    s = position(board={"c3": "P", "c4": "S", "h2": "C"}, phase="place", drawn="P")
    act(s, "place h1")
    assert "swap c3 c4" in legal_texts(s)
    act(s, "swap c3 c4")
    assert bodies(s)["c4"] == "planet" and bodies(s)["c3"] == "star"


def test_a_comet_cannot_collide_into_a_black_hole() -> None:
    s = position(board={"c4": "S", "c3": "P"}, phase="place", drawn="C")
    legal = legal_texts(s)
    assert not any(t.startswith("place c4") for t in legal)
    assert "place c3 s" in legal


def test_rotation_of_a_galaxy_carries_the_placed_body() -> None:
    s = position(board={"a1": "P", "b1": "C", "c1": "N", "b2": "S"}, phase="place", drawn="S")
    act(s, "place c3")
    act(s, "rotate 180")
    got = bodies(s)
    assert got == {"c3": "planet", "b3": "comet", "a3": "supernova", "b2": "star", "a1": "star"}
    assert s.placed == U.index_of["a1"]


def test_comet_with_only_a_green_token_needs_another_comet_to_swap() -> None:
    s = position(board={"c3": "P", "h2": "S"}, phase="place", drawn="C", tokens=[1 << 1, 0])
    assert "place e1" not in legal_texts(s)  # no other Comet: the green token has no use
    s = position(board={"c3": "P", "h2": "C"}, phase="place", drawn="C", tokens=[1 << 1, 0])
    assert "place e1" not in legal_texts(s)  # h2 has no body next to it
    s = position(
        board={"c3": "P", "h2": "C", "h3": "S"}, phase="place", drawn="C", tokens=[1 << 1, 0]
    )
    act(s, "place e1")
    assert legal_texts(s) == {"swap h2 h3"}
    act(s, "swap h2 h3")
    assert bodies(s)["h2"] == "star" and bodies(s)["h3"] == "comet" and s.tokens[0] == 0
