"""Empty-Galaxy refills, the final round, scoring and ties."""

from __future__ import annotations

import pytest

from skydeck.core import IllegalAction
from skydeck.games.stellium.rules.phases import advance
from skydeck.games.stellium.tables import CARD_INDEX, OVER
from tests.games.stellium.helpers import U, accounted, act, bodies, legal_texts, position

NW = U.slot_cells[0]


def emptied(players: int, turn: int, bag: list[int] | None = None):  # type: ignore[no-untyped-def]
    """Seat ``turn`` places a Supernova and pulls the north-west Galaxy's only body
    (c3) into Black Hole d4, emptying that Galaxy."""
    s = position(players=players, board={"c3": "P", "j2": "S"}, phase="place", drawn="N", turn=turn)
    if bag is not None:
        s.bag = bag
    act(s, "place k5")
    act(s, "pull d4 c3")
    return s


@pytest.mark.parametrize(
    ("players", "turn", "order"),
    [(2, 0, [1, 0]), (3, 1, [0, 2, 1]), (4, 2, [1, 0, 3, 2]), (4, 0, [3, 2, 1, 0])],
)
def test_refill_order_previous_player_then_counter_clockwise(players, turn, order) -> None:  # type: ignore[no-untyped-def]
    s = emptied(players, turn)
    assert s.phase == 5 and s.refill_queue == [0]
    assert sum(s.refill_pool) == 5
    seen = []
    while s.phase == 5:
        seat = s.to_move[0]
        seen.append(seat)
        texts = legal_texts(s)
        assert all(t.split()[2] in {U.names[c] for c in NW} for t in texts)
        act(s, sorted(texts)[0])
        assert accounted(s) == [11, 10, 9, 8]
    assert seen == order
    assert sum(1 for c in NW if s.board[c]) == players
    assert s.refill_pool == [0] * 5 and s.turn == turn  # back to the same turn


def test_refill_places_on_any_space_of_the_empty_galaxy_only() -> None:
    s = emptied(2, 0)
    with pytest.raises(IllegalAction):
        act(s, "refill planet h2")  # the north Galaxy is not the empty one
    s.refill_pool = [0, 5, 0, 0, 0]
    s._legal = None
    s._legal_set = None
    assert legal_texts(s) == {f"refill planet {U.names[c]}" for c in NW}
    act(s, "refill planet d2")  # the centre is a space like any other
    assert bodies(s)["d2"] == "planet"


def test_refill_leftovers_go_back_to_the_bag() -> None:
    s = emptied(2, 0)
    bag_before = sum(s.bag)
    act(s, sorted(legal_texts(s))[0])
    act(s, sorted(legal_texts(s))[0])
    assert sum(s.bag) == bag_before + 3  # 5 drawn, 2 placed
    assert s.phase != 5


def test_refill_with_a_short_bag_and_with_an_empty_bag() -> None:
    s = emptied(4, 0, bag=[0, 0, 2, 0, 0])
    assert sum(s.refill_pool) == 2
    act(s, sorted(legal_texts(s))[0])
    act(s, sorted(legal_texts(s))[0])
    assert s.phase != 5 and sum(1 for c in NW if s.board[c]) == 2
    s = emptied(2, 0, bag=[0, 0, 0, 0, 0])
    assert s.phase != 5 and not any(s.board[c] for c in NW)  # stays empty, play goes on


def test_discard_keeping_a_black_hole_body_empties_the_galaxy() -> None:
    # a line f2-e3-d4 completed keeping d4 (a Black Hole) leaves the Galaxy empty
    s = position(
        board={"f2": "P", "e3": "P", "d4": "P", "j2": "S"}, phase="missions", hands=[["m01"], []]
    )
    advance(s, [])
    act(s, "complete m01 (f2,e3,d4)")
    act(s, "keep d4")
    assert s.phase == 5 and s.refill_queue == [0] and s.to_move == (1,)


def finish_turn(s) -> None:  # type: ignore[no-untyped-def]
    """Play the current seat's turn to its end with the first legal choices."""
    seat = s.turn
    while not s.is_over and s.turn == seat:
        texts = sorted(legal_texts(s))
        pick = next((t for t in texts if t.startswith("done")), texts[0])
        act(s, pick)


def test_reaching_the_target_starts_a_final_round_for_equal_turns() -> None:
    s = position(
        players=3,
        board={"b2": "P", "d2": "P", "f2": "P", "k1": "S", "o3": "S"},
        phase="missions",
        turn=1,
        first=0,
        hands=[[], ["m01"], []],
        available=["m11", "m12", "m13"],
    )
    s.points[1] = s.game.target - 3
    advance(s, [])
    act(s, "complete m01 (b2,d2,f2)")
    assert s.final and s.reached == [1]
    act(s, "keep b2")
    finish_turn(s)
    assert s.turn == 2 and not s.is_over  # seat 2 has not played this round
    finish_turn(s)
    assert s.is_over and s.phase == OVER and s.turn_count == 2


def test_reaching_the_target_on_the_last_seat_of_the_round_ends_at_once() -> None:
    s = position(
        players=3,
        board={"b2": "P", "d2": "P", "f2": "P", "k1": "S", "o3": "S"},
        phase="missions",
        turn=2,
        first=0,
        hands=[[], [], ["m01"]],
        available=["m11", "m12"],
    )
    s.points[2] = s.game.target
    advance(s, [])
    act(s, "complete m01 (b2,d2,f2)")
    act(s, "keep b2")
    finish_turn(s)
    assert s.is_over


def test_colour_bonuses_do_not_count_for_the_target() -> None:
    s = position(
        players=2,
        board={"b2": "P", "d2": "P", "f2": "P", "k1": "S", "o3": "S"},
        phase="missions",
        hands=[["m01"], []],
        available=["m11"],
    )
    s.points[0] = s.game.target - 4  # +3 from m01, +1 colour bonus would reach it
    advance(s, [])
    act(s, "complete m01 (b2,d2,f2)")
    assert not s.final and s.total(0) >= s.game.target


def test_an_emptied_reserve_starts_the_final_round() -> None:
    s = position(
        players=2,
        board={"k1": "S", "o3": "S"},
        phase="new_mission",
        turn=1,
        first=0,
        hands=[[], []],
        available=["m11", "m12"],
        reserve=["m13"],
    )
    act(s, "take m11")
    assert s.final and s.reserve == [] and CARD_INDEX["m13"] in s.available
    assert s.is_over  # seat 1 was the last of the round


def test_the_first_game_target_is_lower() -> None:
    s = position(players=4, first_game=True)
    assert s.game.target == 25


def test_score_missions_tokens_and_colours() -> None:
    s = position(players=2)
    # the rulebook's example: 3 + 4 + 7 + 5 = 19 from Missions, 2 tokens, 3 colours = 24
    s.completed[0] = [CARD_INDEX[c] for c in ("m01", "m12", "m27", "m16")]  # g, b, y, b
    s.points[0] = 19
    s.tokens[0] = 0b00110
    assert s.total(0) == 19 + 2 + 3
    assert s.scores[0] == 24.0


def over(s, totals_points: list[int], reached: list[int]):  # type: ignore[no-untyped-def]
    s.points = totals_points
    s.tokens = [0] * len(totals_points)
    s.completed = [[] for _ in totals_points]
    s.reached = reached
    s.phase = OVER
    return s


def test_highest_score_wins() -> None:
    assert over(position(players=3), [10, 12, 9], []).winners == (1,)


def test_a_tie_goes_to_who_reached_the_target_first() -> None:
    assert over(position(players=3), [22, 22, 5], [1, 0]).winners == (1,)
    assert over(position(players=3), [22, 22, 5], [0, 1]).winners == (0,)


def test_a_tie_where_only_one_reached_the_target() -> None:
    assert over(position(players=3), [22, 22, 5], [0]).winners == (0,)


def test_a_tie_with_nobody_at_the_target_has_no_winner() -> None:
    assert over(position(players=2), [12, 12], []).winners == ()
    assert over(position(players=3), [12, 12, 25], []).winners == (2,)


def test_no_winner_while_playing() -> None:
    assert position(players=2).winners == ()
