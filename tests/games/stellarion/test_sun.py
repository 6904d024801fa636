"""The Glaucous Sun: movements, forfeiting backward, Meteors, the final space, and its
interactions with Mirrors and Black Holes."""

from __future__ import annotations

from tests.games.stellarion.helpers import act, has, legal, pos

SU = ["glaucous_sun"]
SPARE = {"gamma": "*gamma.ship gamma.stars gamma.ship", "delta": "*delta.ship delta.stars"}
ALPHA = {
    "alpha": "*alpha.ship alpha.nebula",
    "nebula": "*alpha.nebula",
    "stars": "*alpha.stars",
    "planet": "*alpha.planet",
    **SPARE,
}
V = [["alpha2", "alpha1"], ["beta1"], [], []]


def test_launch_moves_sun_four() -> None:
    s = pos(expansions=SU, decks=ALPHA, voyages=V, sun=3)
    act(s, "launch alpha1 (alpha,nebula,stars,planet)")
    assert s.sun == 7


def test_used_coordinates_move_sun_two_or_one() -> None:
    s = pos(
        expansions=SU, decks={"alpha": "*alpha.ship", "ship": "*alpha.ship", **SPARE}, voyages=V
    )
    act(s, "coordinate (alpha,ship)")
    assert s.sun == 0  # nothing yet: forfeit still possible
    act(s, "search gamma gamma.stars")
    assert s.sun == 2
    s = pos(expansions=SU, decks={"alpha": "*alpha.ship", "ship": "*beta.ship", **SPARE}, voyages=V)
    act(s, "coordinate (alpha,ship)")
    act(s, "search gamma gamma.stars")
    assert s.sun == 1


def test_forfeit_moves_back_up_to_eight_or_four_fewer_allowed() -> None:
    s = pos(
        expansions=SU,
        decks={"alpha": "*alpha.ship", "ship": "*alpha.ship", **SPARE},
        voyages=V,
        sun=20,
        meteors=[],
    )
    act(s, "coordinate (alpha,ship)")
    assert [a for a in legal(s) if a.startswith("forfeit")] == [f"forfeit {n}" for n in range(9)]
    act(s, "forfeit 3")
    assert s.sun == 17
    s = pos(
        expansions=SU,
        decks={"alpha": "*alpha.ship", "ship": "*beta.ship", **SPARE},
        voyages=V,
        sun=2,
        meteors=[],
    )
    act(s, "coordinate (alpha,ship)")
    assert [a for a in legal(s) if a.startswith("forfeit")] == [
        "forfeit 0",
        "forfeit 1",
        "forfeit 2",
    ]  # not past start


def test_landing_backward_on_a_meteor_takes_it() -> None:
    s = pos(
        expansions=SU,
        decks={"alpha": "*alpha.ship", "ship": "*beta.ship", **SPARE},
        voyages=V,
        sun=14,
        meteors=[5, 11, 18, 26],
    )
    act(s, "coordinate (alpha,ship)")
    act(s, "forfeit 3")
    assert s.held == 1 and s.meteors == [5, 18, 26]


def test_passing_a_meteor_does_not_take_it() -> None:
    s = pos(
        expansions=SU,
        decks={"alpha": "*alpha.ship", "ship": "*beta.ship", **SPARE},
        voyages=V,
        sun=14,
        meteors=[5, 11, 18, 26],
    )
    act(s, "coordinate (alpha,ship)")
    act(s, "forfeit 4")
    assert s.held == 0 and s.sun == 10
    s = pos(expansions=SU, decks=ALPHA, voyages=V, sun=7, meteors=[11])
    act(s, "launch alpha1 (alpha,nebula,stars,planet)")
    assert s.sun == 11 and s.held == 0  # moving forward never lands on a token


def test_two_meteors_buy_a_voyage_as_a_free_action() -> None:
    s = pos(expansions=SU, decks=ALPHA, voyages=V, sun=9, held=3)
    assert has(s, "meteor alpha1") and has(s, "meteor beta1")
    act(s, "meteor beta1")
    assert s.held == 1 and s.sun == 9 and s.turns == 1 and s.phase == 0
    assert s.view(0)["victory"] == [["beta1"]]


def test_final_space_loses() -> None:
    s = pos(expansions=SU, decks=ALPHA, voyages=V, sun=37)
    act(s, "launch alpha1 (alpha,nebula,stars,planet)")
    assert s.is_over and s.winners == () and "Sun" in s.reason


def test_winning_launch_on_final_space_still_wins() -> None:
    s = pos(expansions=SU, decks=ALPHA, voyages=[["alpha1"], [], [], []], sun=38)
    act(s, "launch alpha1 (alpha,nebula,stars,planet)")
    assert s.is_over and s.winners == (0,)


def test_mirror_coordinate_moves_like_a_minor_one() -> None:
    decks = {"alpha": "*mirror alpha.ship", "planet": "*alpha.planet", **SPARE}
    s = pos(
        expansions=["glaucous_sun", "mirrors"],
        decks=decks,
        voyages=[["alpha1"], []],
        sun=10,
        meteors=[],
    )
    act(s, "coordinate (alpha,planet)")
    assert [a for a in legal(s) if a.startswith("forfeit")][-1] == "forfeit 4"
    act(s, "outpost (gamma)")
    assert s.sun == 11


def test_traverse_does_not_move_the_sun() -> None:
    holes = {
        "alpha": "*blackhole",
        "beta": "*blackhole",
        "gamma": "*blackhole gamma.ship",
        "delta": "*blackhole delta.ship",
        "ship": "*beta.ship alpha.ship",
    }
    s = pos(
        expansions=["black_holes", "glaucous_sun"],
        decks=holes,
        sun=6,
        voyages=[["alpha1"], ["beta1"], ["gamma1"], ["delta1"]],
    )
    act(s, "traverse (alpha,beta,gamma,delta)")
    act(s, "take alpha1")
    act(s, "take beta1")
    act(s, "take gamma1")
    assert s.sun == 6


def test_coop_meteors_shared_and_sun_shared() -> None:
    s = pos(players=2, expansions=SU, decks=ALPHA, voyages=V, sun=5, held=2, turn=1)
    assert has(s, "meteor alpha1")
    act(s, "meteor alpha1")
    assert s.view(0)["victory"] == [[], ["alpha1"]] and s.view(0)["sun"]["meteors_held"] == 0


def test_meteors_that_take_the_last_voyage_win_instead_of_a_turn_start_loss() -> None:
    """Two Meteors buy a Voyage "whenever you choose" and the game is won "as soon as"
    every Voyage is acquired: a turn with no Launch or Coordinate is not lost while the
    Meteors can still take the last Voyage (two players, one Voyage left)."""
    s = pos(
        players=2,
        expansions=SU,
        decks={"alpha": "*alpha.ship"},  # one card: neither a Launch nor a Coordinate
        voyages=[["alpha1"], [], [], []],
        piles=[["beta1"], ["gamma1"]],
        held=2,
        turn=1,
    )
    # either player may spend the shared Meteors (issue 54, item 6)
    assert not s.is_over and legal(s) == ["meteor alpha1", "meteor alpha1 0"]
    act(s, "meteor alpha1")
    assert s.is_over and s.winners == (0, 1)


def test_a_stuck_turn_is_still_lost_when_the_meteors_cannot_finish() -> None:
    """Two Voyages left and Meteors for only one: the free action cannot win, so the
    turn-start loss stands (RULINGS 8)."""
    s = pos(
        players=2,
        expansions=SU,
        decks={"alpha": "*alpha.ship"},
        voyages=[["alpha1"], ["beta1"], [], []],
        held=3,
    )
    assert s.is_over and s.winners == () and "neither Launch nor Coordinate" in s.reason


def test_the_partner_may_spend_the_shared_meteors_in_the_turn() -> None:
    """Issue 54, item 6: "Acquired Meteor tokens can be used by both players" and are
    spent "whenever you choose": in Player 2's turn the partner may trade two of them
    for a Voyage of its own Galaxies (``meteor <voyage> <seat>``, a free action, taken
    by the team at the table: RULINGS 18)."""
    s = pos(
        players=2,
        expansions=SU,
        decks=ALPHA,
        voyages=[["alpha1"], ["beta1"], [], []],
        piles=[["gamma1"], ["alpha2", "delta1"]],
        held=2,
        turn=1,
        sun=5,
    )
    # Player 2 holds two Galaxies (alpha, delta): beta is only for Player 1
    assert has(s, "meteor alpha1") and has(s, "meteor alpha1 0") and has(s, "meteor beta1 0")
    assert not has(s, "meteor beta1")
    act(s, "meteor beta1 0")
    view = s.view(1)
    assert view["victory"] == [["gamma1", "beta1"], ["alpha2", "delta1"]]
    assert view["sun"]["meteors_held"] == 0 and s.turn == 1 and s.sun == 5
    assert not has(s, "meteor alpha1 0")


def test_a_stuck_seat_wins_when_its_partner_can_take_the_last_voyage_with_meteors() -> None:
    """Issue 54, item 6: Player 2 can neither Launch nor Coordinate and may not take the
    last Voyage (a third Galaxy), but Player 1 may, with the two shared Meteors: the turn
    is not lost, the partner's trade wins (before it: declared lost)."""
    s = pos(
        players=2,
        expansions=SU,
        decks={"alpha": "*alpha.ship"},  # one card: neither a Launch nor a Coordinate
        voyages=[["alpha1"], [], [], []],
        piles=[["alpha2"], ["beta1", "gamma1"]],
        held=2,
        turn=1,
    )
    assert not s.is_over and legal(s) == ["meteor alpha1 0"]
    act(s, "meteor alpha1 0")
    assert s.is_over and s.winners == (0, 1)
