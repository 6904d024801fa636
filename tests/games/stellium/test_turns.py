"""New Mission step, refreshing from the Reserve, turn order and undo boundaries."""

from __future__ import annotations

import pytest

from skydeck.core import IllegalAction
from skydeck.core.record import Match
from skydeck.games.stellium.rules.phases import advance
from skydeck.games.stellium.state import StelliumState
from skydeck.games.stellium.tables import CARD_INDEX, CARDS
from tests.games.stellium.helpers import act, dump, legal_texts, position

BOARD = {"k1": "S", "o3": "S"}


def ids(cards: list[int]) -> list[str]:
    return [CARDS[c].id for c in cards]


def _two_on_offer() -> StelliumState:
    """One Mission in hand, two on offer, two in the Reserve."""
    return position(
        board=BOARD,
        phase="new_mission",
        hands=[["m01"], []],
        available=["m11", "m12"],
        reserve=["m13", "m14"],
    )


def test_taking_a_mission_is_compulsory_below_three() -> None:
    s = _two_on_offer()
    assert legal_texts(s) == {"take m11", "take m12"}
    act(s, "take m12")
    assert ids(s.hands[0]) == ["m01", "m12"]
    assert ids(s.available) == ["m11", "m14"]  # refreshed from the top of the Reserve
    assert ids(s.reserve) == ["m13"]


def test_with_three_missions_keep_them_or_swap_one_to_the_box() -> None:
    s = position(
        board=BOARD,
        phase="new_mission",
        hands=[["m01", "m02", "m03"], []],
        available=["m11"],
        reserve=["m13", "m14"],
    )
    assert legal_texts(s) == {"pass", "take m11 m01", "take m11 m02", "take m11 m03"}
    with pytest.raises(IllegalAction):
        act(s, "take m11")  # a fourth Mission is not allowed
    act(s, "take m11 m02")
    assert ids(s.hands[0]) == ["m01", "m03", "m11"]
    assert ids(s.boxed) == ["m02"] and ids(s.available) == ["m14"]


def test_keeping_a_full_hand_reveals_nothing() -> None:
    s = position(
        board=BOARD,
        phase="new_mission",
        hands=[["m01", "m02", "m03"], []],
        available=["m11"],
        reserve=["m13", "m14"],
    )
    reveals = s.reveals
    act(s, "pass")
    assert s.reveals == reveals and ids(s.available) == ["m11"] and s.turn == 1


def test_refreshing_reveals_hidden_information() -> None:
    s = position(
        board=BOARD, phase="new_mission", hands=[[], []], available=["m11"], reserve=["m13", "m14"]
    )
    reveals = s.reveals
    act(s, "take m11")
    assert s.reveals == reveals + 1


def test_no_available_mission_ends_the_turn() -> None:
    s = position(board=BOARD, phase="new_mission", hands=[[], []], available=[], reserve=[])
    advance(s, [])
    assert s.turn == 1


def test_turns_go_clockwise_from_the_first_player() -> None:
    s = position(
        players=4,
        board=BOARD,
        phase="new_mission",
        turn=3,
        first=3,
        available=["m11", "m12", "m13", "m14"],
        reserve=["m15", "m16"],
    )
    act(s, "take m11")
    assert s.turn == 0 and s.phase == 0
    assert s.turn_count == 1


def test_undo_is_possible_for_a_placement_but_not_across_a_reveal() -> None:
    import skydeck

    game = skydeck.load("stellium", players=2)
    m = Match(game, 3)
    seat = m.state.to_move[0]
    m.play(seat, "draw planet")
    assert m.can_undo()  # choosing a type by touch reveals nothing
    first = next(a for a in m.state.legal_actions(seat) if a.kind == "place")
    m.play(seat, first)
    assert m.can_undo()
    m.undo()
    assert dump(m.state) == dump(_replayed(game, [("draw planet", seat)]))
    m2 = Match(game, 3)
    m2.play(m2.state.to_move[0], "timeout")
    assert not m2.can_undo()  # a random draw


def _replayed(game, log):  # type: ignore[no-untyped-def]
    s = game.new(3)
    for text, seat in log:
        s.apply(game.parse_action(text), seat)
    return s


def test_illegal_messages_name_the_problem() -> None:
    s = position(board=BOARD, phase="draw")
    with pytest.raises(IllegalAction, match=r"draw step allows only draw$"):
        act(s, "place e2")
    before = dump(s)
    with pytest.raises(IllegalAction, match="may not act"):
        s.apply(s.legal_actions(0)[0], 1)
    assert dump(s) == before
    assert CARD_INDEX["m01"] == 0


def test_restore_refuses_a_malformed_state() -> None:
    import skydeck

    game = skydeck.load("stellium", players=2)
    good = game.new(1).to_json()
    with pytest.raises(ValueError, match="malformed"):
        game.restore({})
    bad = dict(good, board=[0, 1])
    with pytest.raises(ValueError, match="wrong size"):
        game.restore(bad)
    bad = dict(good, tokens="x")
    with pytest.raises(ValueError, match="malformed"):
        game.restore(bad)
    assert dump(game.restore(good)) == dump(game.new(1))


def test_asking_a_state_again_and_its_clone_gives_the_same_verdicts() -> None:
    """``validate`` looks along the legal list the first time and keeps a set after:
    every later question, and a clone's, gets the answer the first one did."""
    from skydeck.core import Action

    s = _two_on_offer()
    take, wrong = Action("take", ("m12",)), Action("take", ("m13",))
    for state in (s, s.clone(), s):
        state.validate(take, 0)  # legal: no error, first and later times
        with pytest.raises(IllegalAction, match="not a legal take"):
            state.validate(wrong, 0)
    twin = s.clone()
    twin.validate(take, 0)
    act(twin, "take m12")
    assert ids(twin.hands[0]) == ["m01", "m12"]


def test_a_move_read_from_json_is_the_engines_own_object() -> None:
    """The server reads each move from JSON; Stellium's actions are ``shared``, so the
    read hands back the engine's object and ``validate`` finds it by identity."""
    from skydeck.core import Action

    s = position(board=BOARD, phase="new_mission", hands=[["m01"], []], available=["m11"])
    for action in s.legal_actions(0):
        read = Action.from_json(action.to_json())
        assert read is action
        s.clone().validate(read, 0)
