"""Mission matching through the game on the published board (every shape card in every
sixth, never mirrored), placement cards, the discard-all-but-one rule, and completing
several Missions in a turn. The board's picture is in test_effects.py."""

from __future__ import annotations

import pytest

from skydeck.core import IllegalAction
from skydeck.games.stellium.missions import shape_cells
from skydeck.games.stellium.rules.phases import advance
from skydeck.games.stellium.tables import CARDS
from tests.games.stellium.helpers import U, act, bodies, legal_texts, position
from tests.games.stellium.test_published_board import _mirror, _place, _turn

SHAPES = [c for c in CARDS if c.family == "shape"]
NAME = {1: "planet", 2: "comet", 3: "star", 4: "supernova"}


def missions_state(board: dict[str, str], hand: list[str], **kw):  # type: ignore[no-untyped-def]
    s = position(board=board, phase="missions", hands=[hand, []], **kw)
    advance(s, [])
    return s


def completions(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {t for t in legal_texts(s) if t.startswith("complete")} if s.phase == 3 else set()


def laid(card, cells: list[tuple[int, int, int]]) -> tuple[dict[str, str], str]:  # type: ignore[no-untyped-def]
    spots = _place(cells, card.kind == "s_shape")
    assert spots is not None, card.id
    board = {U.names[i]: NAME[b] for i, b in spots.items()}
    return board, ",".join(U.names[i] for i in sorted(spots))


@pytest.mark.parametrize("card", SHAPES, ids=[c.id for c in SHAPES])
@pytest.mark.parametrize("sixths", range(6))
def test_every_shape_matches_in_each_sixth(card, sixths: int) -> None:  # type: ignore[no-untyped-def]
    board, cells = laid(card, _turn(shape_cells(list(card.shape)), sixths))
    s = missions_state(board, [card.id])
    assert f"complete {card.id} ({cells})" in completions(s)


@pytest.mark.parametrize("card", SHAPES, ids=[c.id for c in SHAPES])
def test_a_shape_with_one_body_wrong_does_not_match(card) -> None:  # type: ignore[no-untyped-def]
    board, _ = laid(card, shape_cells(list(card.shape)))
    first = min(board, key=U.index_of.__getitem__)
    board[first] = "comet" if board[first] != "comet" else "star"
    s = missions_state(board, [card.id])
    assert not completions(s)


def test_serpents_are_chiral() -> None:
    chiral = [c for c in SHAPES if c.kind == "s_shape"]
    assert len(chiral) == 4
    for card in chiral:
        board, _ = laid(card, _mirror(shape_cells(list(card.shape))))
        assert not completions(missions_state(board, [card.id])), card.id


def test_empty_cells_on_the_card_may_hold_anything() -> None:
    # m06 Green Tripod: three Planets round d2 (e1, b2, e3); fill the rest with bodies
    board = {"e1": "planet", "b2": "planet", "e3": "planet"}
    board.update({"d2": "star", "f2": "comet", "c1": "star"})
    s = missions_state(board, ["m06"])
    assert "complete m06 (e1,b2,e3)" in completions(s)


def test_shapes_may_use_black_holes_and_cross_galaxies() -> None:
    s = missions_state({"e3": "planet", "g3": "planet", "i3": "planet"}, ["m01"])
    assert "complete m01 (e3,g3,i3)" in completions(s)  # through Black Hole g3
    s = missions_state({"f2": "planet", "h2": "planet", "j2": "planet"}, ["m01"])
    assert "complete m01 (f2,h2,j2)" in completions(s)  # north-west into north
    s = missions_state({"e3": "planet", "f4": "planet", "g5": "planet"}, ["m01"])
    assert "complete m01 (e3,f4,g5)" in completions(s)  # north-west into south-west


def test_s_shape_needs_two_galaxies() -> None:
    card = next(c for c in SHAPES if c.id == "m27")
    single = None
    for cells, bodies_ in _all_spots(card):
        galaxies = {U.galaxy_of[i] for i in cells} - {-1}
        if len(galaxies) == 1:
            single = (cells, bodies_)
            break
    assert single is not None  # one Galaxy plus Black Holes
    board = {U.names[i]: NAME[b] for i, b in zip(*single)}
    assert not completions(missions_state(board, ["m27"]))
    board = {"f2": "star", "h2": "star", "i3": "star", "k3": "star"}
    assert completions(missions_state(board, ["m27"])) == {"complete m27 (f2,h2,i3,k3)"}


def _all_spots(card):  # type: ignore[no-untyped-def]
    """Every spot where the card's turns land on spaces, ignoring the Galaxy rule."""
    for k in range(6):
        cells = _turn(shape_cells(list(card.shape)), k)
        for r0 in range(-6, U.height + 6):
            for c0 in range(-12, U.width + 12):
                spots = []
                for r, c, b in cells:
                    rr, cc = r0 + r, c0 + c
                    if not (0 <= rr < U.height and 0 <= cc < U.width):
                        break
                    i = rr * U.width + cc
                    if not U.is_space[i]:
                        break
                    spots.append((i, b))
                else:
                    yield tuple(i for i, _ in spots), tuple(b for _, b in spots)


def test_across_needs_neighbours_in_two_different_galaxies() -> None:
    assert completions(missions_state({"f2": "planet", "h2": "star"}, ["m08"])) == {
        "complete m08 (f2,h2)"
    }
    assert completions(missions_state({"e3": "planet", "f4": "star"}, ["m08"]))  # north-south
    assert not completions(missions_state({"d2": "planet", "f2": "star"}, ["m08"]))
    assert not completions(missions_state({"f2": "planet", "g3": "star"}, ["m08"]))


def test_centres_count() -> None:
    s = missions_state({"d2": "comet", "s5": "comet", "f2": "comet"}, ["m20"])
    assert completions(s) == {"complete m20 (d2,s5)"}
    assert not completions(missions_state({"d2": "comet", "f2": "comet"}, ["m20"]))


def test_own_colour_spaces_follow_the_turning_discs() -> None:
    # printed discs: b2 is yellow (Andromeda), i3 yellow (Sombrero), f2 green
    s = missions_state({"b2": "star", "i3": "star", "f2": "star"}, ["m29"])
    assert completions(s) == {"complete m29 (b2,i3)"}
    s = position(
        board={"b2": "star", "i3": "star", "j2": "planet"},
        phase="place",
        drawn="S",
        hands=[["m29"], []],
    )
    act(s, "place k1")
    act(s, "rotate 60")  # the north disc turns a sixth: i3 -> h2, its yellow hole with it
    assert bodies(s)["h2"] == "star" and s.colours[U.index_of["h2"]] == 3
    assert completions(s) == {"complete m29 (b2,h2)"}


def test_completing_discards_all_but_one_body_to_the_bag() -> None:
    board = {"b2": "planet", "d2": "planet", "f2": "planet", "k1": "star", "o3": "star"}
    s = missions_state(board, ["m01"])
    bag = s.bag[:]
    act(s, "complete m01 (b2,d2,f2)")
    assert s.phase == 4 and legal_texts(s) == {"keep b2", "keep d2", "keep f2"}
    assert s.points[0] == 3 and [CARDS[c].id for c in s.completed[0]] == ["m01"]
    act(s, "keep d2")
    assert bodies(s) == {"d2": "planet", "k1": "star", "o3": "star"}
    assert s.bag[1] == bag[1] + 2


def test_discarded_bodies_cannot_serve_another_mission_this_turn() -> None:
    # m01 (line of 3 Planets) on h2-j2-l2, keeping h2: j2 and l2 go to the bag, so m09
    # (3 Planets on Galaxy centres d2, j2, p2) is out of reach this turn
    board = {"h2": "planet", "j2": "planet", "l2": "planet", "d2": "planet", "p2": "planet"}
    s = missions_state(board, ["m01", "m09"])
    act(s, "complete m01 (h2,j2,l2)")
    act(s, "keep h2")
    assert "j2" not in bodies(s) and "l2" not in bodies(s)
    assert s.phase == 6  # nothing left to complete: on to the New Mission step


def test_several_missions_in_one_turn_then_done() -> None:
    board = {
        "b2": "planet",
        "d2": "planet",
        "f2": "planet",
        "i1": "comet",
        "j2": "comet",
        "k3": "comet",
        "o3": "star",
    }
    s = missions_state(board, ["m01", "m11"], available=["m21"])
    act(s, "complete m01 (b2,d2,f2)")
    act(s, "keep b2")
    assert "complete m11 (i1,j2,k3)" in legal_texts(s) and "done" in legal_texts(s)
    act(s, "complete m11 (i1,j2,k3)")
    act(s, "keep k3")
    assert s.points[0] == 6 and s.phase == 6  # nothing left: on to New Mission


def test_done_stops_completing() -> None:
    s = missions_state({"b2": "planet", "d2": "planet", "f2": "planet"}, ["m01"])
    act(s, "done")
    assert s.phase == 6 and s.points[0] == 0


def test_a_mission_taken_this_turn_cannot_be_completed_this_turn() -> None:
    board = {"b2": "planet", "d2": "planet", "f2": "planet"}
    s = missions_state(board, [], available=["m01", "m02"])
    assert s.phase == 6  # nothing to complete yet
    act(s, "take m01")
    assert s.turn == 1  # taking the Mission ended the turn
    with pytest.raises(IllegalAction):
        act(s, "complete m01 (b2,d2,f2)", seat=0)


def test_players_start_without_missions_and_the_first_round_is_a_normal_turn() -> None:
    import skydeck

    s = skydeck.load("stellium", players=2).new(1)
    assert s.hands == [[], []] and s.phase == 0  # draw first; nothing to complete


def test_complete_refuses_a_card_not_in_hand_or_wrong_cells() -> None:
    s = missions_state({"b2": "planet", "d2": "planet", "f2": "planet"}, ["m01"])
    for text in ("complete m11 (b2,d2,f2)", "complete m01 (b2,d2)", "complete m01 (d2,b2,f2)"):
        with pytest.raises(IllegalAction):
            act(s, text)
