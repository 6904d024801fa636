"""Mission matching (every shape card, turned and mirrored), placement cards, the
discard-all-but-one rule, and completing several Missions in a turn."""

from __future__ import annotations

import pytest

from skydeck.core import IllegalAction
from skydeck.games.stellium.rules import CARDS
from tests.games.stellium.helpers import U, act, bodies, legal_texts, position

SHAPES = [c for c in CARDS if c.family == "shape"]
LETTER = {"P": "planet", "C": "comet", "S": "star", "N": "supernova"}


def turn_rows(rows: list[str], quarters: int) -> list[str]:
    """The card drawing turned clockwise (independent of the engine's own code)."""
    for _ in range(quarters):
        rows = ["".join(row[i] for row in reversed(rows)) for i in range(len(rows[0]))]
    return rows


def mirror(rows: list[str]) -> list[str]:
    return [row[::-1] for row in rows]


def lay(rows: list[str], top: int = 0, left: int = 2) -> dict[str, str]:
    out = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                out[U.names[(top + r) * U.width + left + c]] = LETTER[ch]
    return out


def missions_state(board: dict[str, str], hand: list[str], **kw):  # type: ignore[no-untyped-def]
    s = position(board=board, phase="missions", hands=[hand, []], **kw)
    s._advance([])
    return s


def completions(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {t for t in legal_texts(s) if t.startswith("complete")} if s.phase == 3 else set()


@pytest.mark.parametrize("card", SHAPES, ids=[c.id for c in SHAPES])
@pytest.mark.parametrize("quarters", [0, 1, 2, 3])
def test_every_shape_matches_in_each_quarter_turn(card, quarters: int) -> None:  # type: ignore[no-untyped-def]
    board = lay(turn_rows(list(card.shape), quarters))
    s = missions_state(board, [card.id])
    cells = ",".join(sorted(board, key=U.index_of.__getitem__))
    assert f"complete {card.id} ({cells})" in completions(s)


@pytest.mark.parametrize("card", SHAPES, ids=[c.id for c in SHAPES])
def test_a_shape_with_one_body_wrong_does_not_match(card) -> None:  # type: ignore[no-untyped-def]
    board = lay(list(card.shape))
    first = min(board, key=U.index_of.__getitem__)
    board[first] = "comet" if board[first] != "comet" else "star"
    s = missions_state(board, [card.id])
    assert not completions(s)


@pytest.mark.parametrize("card", SHAPES, ids=[c.id for c in SHAPES])
def test_a_mirror_image_matches_only_if_it_is_also_a_turn(card) -> None:  # type: ignore[no-untyped-def]
    rows = list(card.shape)
    turns = {tuple(turn_rows(rows, q)) for q in range(4)}
    flipped = mirror(rows)
    s = missions_state(lay(flipped), [card.id])
    assert bool(completions(s)) == (tuple(flipped) in turns)


def test_serpents_are_chiral() -> None:
    chiral = [c for c in SHAPES if c.kind == "s_shape"]
    for card in chiral:
        s = missions_state(lay(mirror(list(card.shape))), [card.id])
        assert not completions(s), card.id


def test_empty_cells_on_the_card_may_hold_anything() -> None:
    # m06 Green Tripod: P.P / ... / .P. ; fill the card's empty cells with bodies
    board = lay(["P.P", "...", ".P."])
    board.update({"d1": "star", "d2": "comet", "e2": "star"})
    s = missions_state(board, ["m06"])
    assert "complete m06 (c1,e1,d3)" in completions(s)


def test_shapes_may_use_black_holes_and_cross_galaxies() -> None:
    s = missions_state({"b4": "planet", "c4": "planet", "d4": "planet"}, ["m01"])
    assert "complete m01 (b4,c4,d4)" in completions(s)
    s = missions_state({"c1": "planet", "d1": "planet", "e1": "planet"}, ["m01"])
    assert "complete m01 (c1,d1,e1)" in completions(s)


def test_s_shape_needs_two_galaxies() -> None:
    # m27 Yellow Serpent .SS / SS. entirely inside the north Galaxy: no match
    s = missions_state(lay([".SS", "SS."], top=1, left=3), ["m27"])
    assert not completions(s)
    s = missions_state(lay([".SS", "SS."], top=1, left=2), ["m27"])
    assert completions(s) == {"complete m27 (d2,e2,c3,d3)"}


def test_across_needs_neighbours_in_two_different_galaxies() -> None:
    assert completions(missions_state({"c2": "planet", "d2": "star"}, ["m08"])) == {
        "complete m08 (c2,d2)"
    }
    assert completions(missions_state({"c2": "planet", "d3": "star"}, ["m08"]))  # diagonal
    assert not completions(missions_state({"b2": "planet", "c2": "star"}, ["m08"]))
    assert not completions(missions_state({"c4": "planet", "d4": "star"}, ["m08"]))


def test_centres_count() -> None:
    s = missions_state({"e2": "comet", "i6": "comet", "d2": "comet"}, ["m20"])
    assert completions(s) == {"complete m20 (e2,i6)"}
    assert not completions(missions_state({"e2": "comet", "d2": "comet"}, ["m20"]))


def test_own_colour_spaces_follow_the_turning_discs() -> None:
    # printed discs: b3 is yellow (Andromeda), f1 yellow (Sombrero), b1 green
    s = missions_state({"b3": "star", "f1": "star", "b1": "star"}, ["m29"])
    assert completions(s) == {"complete m29 (f1,b3)"}
    s = position(
        board={"b3": "star", "f1": "star", "e2": "planet"},
        phase="place",
        drawn="S",
        hands=[["m29"], []],
    )
    act(s, "place d1")
    act(s, "rotate 90")  # the north disc turns: f1 -> f3, its yellow hole with it
    assert bodies(s)["f3"] == "star" and s.colours[U.index_of["f3"]] == 3
    assert completions(s) == {"complete m29 (b3,f3)"}


def test_completing_discards_all_but_one_body_to_the_bag() -> None:
    board = {"c1": "planet", "d1": "planet", "e1": "planet", "h2": "star", "a3": "star"}
    s = missions_state(board, ["m01"])
    bag = s.bag[:]
    act(s, "complete m01 (c1,d1,e1)")
    assert s.phase == 4 and legal_texts(s) == {"keep c1", "keep d1", "keep e1"}
    assert s.points[0] == 3 and [CARDS[c].id for c in s.completed[0]] == ["m01"]
    act(s, "keep d1")
    assert bodies(s) == {"d1": "planet", "h2": "star", "a3": "star"}
    assert s.bag[1] == bag[1] + 2


def test_discarded_bodies_cannot_serve_another_mission_this_turn() -> None:
    # m01 (line of 3 Planets) on e1-e3, keeping e1: e2 and e3 go to the bag, so m09
    # (3 Planets on Galaxy centres b2, e2, h2) is out of reach this turn
    board = {"e1": "planet", "e2": "planet", "e3": "planet", "b2": "planet", "h2": "planet"}
    s = missions_state(board, ["m01", "m09"])
    act(s, "complete m01 (e1,e2,e3)")
    act(s, "keep e1")
    assert "e2" not in bodies(s) and "e3" not in bodies(s)
    assert s.phase == 6  # nothing left to complete: on to the New Mission step


def test_several_missions_in_one_turn_then_done() -> None:
    board = {
        "c1": "planet",
        "d1": "planet",
        "e1": "planet",
        "h1": "comet",
        "h2": "comet",
        "h3": "comet",
        "f3": "star",
    }
    s = missions_state(board, ["m01", "m11"], available=["m21"])
    act(s, "complete m01 (c1,d1,e1)")
    act(s, "keep c1")
    assert "complete m11 (h1,h2,h3)" in legal_texts(s) and "done" in legal_texts(s)
    act(s, "complete m11 (h1,h2,h3)")
    act(s, "keep h3")
    assert s.points[0] == 6 and s.phase == 6  # nothing left: on to New Mission


def test_done_stops_completing() -> None:
    s = missions_state({"c1": "planet", "d1": "planet", "e1": "planet"}, ["m01"])
    act(s, "done")
    assert s.phase == 6 and s.points[0] == 0


def test_a_mission_taken_this_turn_cannot_be_completed_this_turn() -> None:
    board = {"c1": "planet", "d1": "planet", "e1": "planet"}
    s = missions_state(board, [], available=["m01", "m02"])
    assert s.phase == 6  # nothing to complete yet
    act(s, "take m01")
    assert s.turn == 1  # taking the Mission ended the turn
    with pytest.raises(IllegalAction):
        act(s, "complete m01 (c1,d1,e1)", seat=0)


def test_players_start_without_missions_and_the_first_round_is_a_normal_turn() -> None:
    import skydeck

    s = skydeck.load("stellium", players=2).new(1)
    assert s.hands == [[], []] and s.phase == 0  # draw first; nothing to complete


def test_complete_refuses_a_card_not_in_hand_or_wrong_cells() -> None:
    s = missions_state({"c1": "planet", "d1": "planet", "e1": "planet"}, ["m01"])
    for text in ("complete m11 (c1,d1,e1)", "complete m01 (c1,d1)", "complete m01 (d1,c1,e1)"):
        with pytest.raises(IllegalAction):
            act(s, text)
