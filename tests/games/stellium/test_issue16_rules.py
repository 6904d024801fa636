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
from skydeck.games.stellium.rules.phases import advance
from skydeck.games.stellium.tables import CARDS
from skydeck.games.stellium.tables import UNIVERSE as U
from tests.games.stellium.helpers import act, bodies, legal_texts, position

ALL = 0b11110


def _next_to_a_black_hole() -> tuple[str, str, str]:
    """A Galaxy space g, its neighbouring Black Hole h and the direction g -> h."""
    for g in U.galaxy_spaces:
        for d, (name, _, _) in enumerate(U.dirs):
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


def test_in_random_play_no_blue_token_push_ends_in_a_black_hole() -> None:
    """The issue's line of play (a Star placed beside an occupied Black Hole, then
    ``push`` towards it) belonged to the old board; here every push offered in random
    games is tried and the placed body must never stand in a Black Hole after it."""
    from skydeck.core import Rng

    tried = 0
    for seed in range(6):
        s = skydeck.load("stellium", players=2).new(seed)
        rng = Rng(seed)
        while not s.is_over:
            seat = s.to_move[0]
            legal = s.legal_actions(seat)
            for a in legal:
                if a.kind == "push":
                    t = s.clone()
                    t.apply(a, seat)
                    assert not U.is_hole[t.placed], f"{a} carried the body into a Black Hole"
                    tried += 1
            s.apply(rng.choice(legal), seat)
    assert tried > 20


def test_the_kept_body_may_serve_another_mission_this_turn() -> None:
    # m01 (line of 3 Planets) on h2-j2-l2; m09 (3 Planets on Galaxy centres) on d2, j2, p2
    board = {"h2": "planet", "j2": "planet", "l2": "planet", "d2": "planet", "p2": "planet"}
    s = position(board=board, phase="missions", hands=[["m01", "m09"], []])
    advance(s, [])
    act(s, "complete m01 (h2,j2,l2)")
    act(s, "keep j2")
    assert bodies(s)["j2"] == "planet"
    assert "complete m09 (d2,j2,p2)" in legal_texts(s)
    act(s, "complete m09 (d2,j2,p2)")
    points = {c.id: c.points for c in CARDS}
    assert s.points[0] == points["m01"] + points["m09"]
