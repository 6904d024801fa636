"""Two-player co-op: own victory piles, two Galaxies each, shared Shooting Stars,
team victory, shared information."""

from __future__ import annotations

from tests.games.stellarion.helpers import act, has, legal, pos

SPARE = {"gamma": "*gamma.ship gamma.stars gamma.ship", "delta": "*delta.ship delta.stars"}
ALPHA = {
    "alpha": "*alpha.ship alpha.nebula",
    "nebula": "*alpha.nebula",
    "stars": "*alpha.stars",
    "planet": "*alpha.planet",
    **SPARE,
}


def test_turns_alternate_and_each_has_own_pile() -> None:
    s = pos(players=2, decks=ALPHA, voyages=[["alpha2", "alpha1"], ["beta1"], [], []])
    assert s.to_move == (0,)
    act(s, "launch alpha1 (alpha,nebula,stars,planet)")
    assert s.view(1)["victory"] == [["alpha1"], []]
    assert s.to_move == (1,) and s.legal_actions(0) == []


def test_at_most_two_galaxies_per_player() -> None:
    s = pos(
        players=2,
        decks=ALPHA,
        voyages=[["alpha1"], ["beta1"], [], []],
        piles=[["beta2", "gamma1"], []],
    )
    assert not any(a.startswith("launch") for a in legal(s))
    s = pos(
        players=2,
        decks=ALPHA,
        voyages=[["alpha1"], ["beta1"], [], []],
        piles=[["alpha2", "gamma1"], []],
    )
    assert has(s, "launch alpha1 (alpha,nebula,stars,planet)")


def test_shooting_stars_are_shared() -> None:
    s = pos(
        players=2,
        stars=3,
        decks={
            "alpha": "*alpha.ship",
            "nebula": "*alpha.nebula",
            "planet": "*alpha.planet",
            "beta": "*beta.ship",
            "ship": "*beta.ship",
            **SPARE,
        },
        voyages=[["alpha2", "alpha1"], [], [], []],
    )
    act(s, "launch alpha1 (alpha,nebula,star,planet)")
    assert s.stars == 2 and s.turn == 1
    assert s.view(1)["shooting_stars"] == 2


def test_team_victory() -> None:
    s = pos(
        players=2,
        decks=ALPHA,
        voyages=[["alpha1"], [], [], []],
        turn=1,
        piles=[["beta1", "beta2", "gamma1", "gamma2"], ["alpha2", "delta1", "delta2"]],
    )
    act(s, "launch alpha1 (alpha,nebula,stars,planet)")
    assert s.is_over and s.winners == (0, 1) and s.scores == [1.0, 1.0]


def test_both_players_see_the_same() -> None:
    s = pos(players=2, decks=ALPHA, voyages=[["alpha1"], [], [], []], known={"gamma": (1, 1)})
    v0, v1, vn = s.view(0), s.view(1), s.view(None)
    for v in (v1, vn):
        assert {k: x for k, x in v.items() if k != "seat"} == {
            k: x for k, x in v0.items() if k != "seat"
        }
    assert v0["decks"][2]["known_bottom"] == ["gamma.ship"]
