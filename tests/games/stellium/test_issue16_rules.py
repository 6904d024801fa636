"""Issue 16: two rules corrected against the rulebook, each from its exact situation.

- "These are spaces between Galaxies where Celestial Bodies cannot be placed. However, a
  Celestial Body can be pushed or pulled into a Black Hole": a blue-token Collision moves
  the *placed* body onto the space it pushed from, so it may not take a Black Hole.
- After a Mission, the *discarded* bodies "go back into the bag and cannot be used to
  complete another Mission this turn": the one kept stays and may serve again.
"""

from __future__ import annotations

import pytest

import skydeck
from skydeck.core import IllegalAction
from skydeck.games.stellium.rules import CARDS
from skydeck.games.stellium.rules import UNIVERSE as U
from tests.games.stellium.helpers import act, bodies, legal_texts, position

ALL = 0b11110


def _next_to_a_black_hole() -> tuple[str, str, str]:
    """A Galaxy space g, its neighbouring Black Hole h and the direction g -> h."""
    from skydeck.games.stellium.universe import DIRS

    for g in U.galaxy_spaces:
        for d, (name, _, _) in enumerate(DIRS):
            h = U.step[g][d]
            if h >= 0 and U.is_hole[h]:
                return U.names[g], U.names[h], name
    raise AssertionError("no Galaxy space touches a Black Hole")


def test_a_blue_token_collision_cannot_carry_the_placed_body_into_a_black_hole() -> None:
    g, h, d = _next_to_a_black_hole()
    s = position(board={h: "C"}, phase="place", drawn="S", tokens=[ALL, ALL])
    act(s, f"place {g}")
    assert f"push {d}" not in legal_texts(s)
    with pytest.raises(IllegalAction):
        act(s, f"push {d}")
    assert bodies(s)[g] == "star" and bodies(s)[h] == "comet"


def test_a_comet_may_still_collide_a_body_into_a_black_hole() -> None:
    g, h, d = _next_to_a_black_hole()
    s = position(board={g: "P"}, phase="place", drawn="C", tokens=[ALL, ALL])
    act(s, f"place {g} {d}")
    assert bodies(s)[g] == "comet" and bodies(s)[h] == "planet"


def test_issue_16_replay_the_star_stays_out_of_the_black_hole() -> None:
    """The issue's own line of play (seed 0, 2 players) on the board it was found on."""
    s = skydeck.load("stellium", players=2).new(0)
    moves = ["draw supernova", "place c1", "pull a4 b3", "take m18", "draw star", "place a3"]
    try:
        for text in moves:
            act(s, text)
    except IllegalAction:
        pytest.skip("the line of play belongs to the old square board")
    assert "push s" not in legal_texts(s)
    for a in s.legal_actions(s.to_move[0]):
        if a.kind == "push":
            t = s.clone()
            t.apply(a, t.to_move[0])
            assert not U.is_hole[t.placed], f"{a} carried the Star into a Black Hole"


def test_the_kept_body_may_serve_another_mission_this_turn() -> None:
    # m01 (line of 3 Planets) on e1-e3; m09 (3 Planets on Galaxy centres) on b2, e2, h2
    board = {"e1": "planet", "e2": "planet", "e3": "planet", "b2": "planet", "h2": "planet"}
    s = position(board=board, phase="missions", hands=[["m01", "m09"], []])
    s._advance([])
    act(s, "complete m01 (e1,e2,e3)")
    act(s, "keep e2")
    assert bodies(s)["e2"] == "planet"
    assert "complete m09 (b2,e2,h2)" in legal_texts(s)
    act(s, "complete m09 (b2,e2,h2)")
    points = {c.id: c.points for c in CARDS}
    assert s.points[0] == points["m01"] + points["m09"]
