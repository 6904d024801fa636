"""Mirrors and Orbits: Voyage columns, accessibility, Mirror Coordinates and every
Mirror restriction."""

from __future__ import annotations

from tests.games.stellarion.helpers import act, has, legal, pos

MI = ["mirrors"]
SPARE = {"gamma": "*gamma.ship gamma.stars", "delta": "*delta.ship delta.stars"}
ALPHA = {
    "alpha": "*alpha.ship alpha.nebula",
    "nebula": "*alpha.nebula",
    "stars": "*alpha.stars",
    "planet": "*alpha.planet",
    **SPARE,
}


def test_only_the_uncovered_voyage_can_be_launched() -> None:
    s = pos(expansions=MI, decks=ALPHA, voyages=[["alpha1", "beta1"], ["gamma1", "alpha2"]])
    assert has(s, "launch alpha2 (alpha,nebula,stars,planet)")
    assert not has(s, "launch alpha1 (alpha,nebula,stars,planet)")  # covered by beta1
    s = pos(expansions=MI, decks=ALPHA, voyages=[["beta1", "alpha1"], ["gamma1", "alpha2"]])
    assert has(s, "launch alpha1 (alpha,nebula,stars,planet)")
    assert has(s, "launch alpha2 (alpha,nebula,stars,planet)")  # both uncovered: a choice


def test_taking_a_voyage_uncovers_the_next() -> None:
    s = pos(expansions=MI, decks=ALPHA, voyages=[["alpha1", "beta1"], ["gamma1", "alpha2"]])
    act(s, "launch alpha2 (alpha,nebula,stars,planet)")
    assert s.view(0)["voyages"]["accessible"] == ["beta1", "gamma1"]


def test_mirror_with_any_card_is_a_minor_coordinate_of_its_type() -> None:
    s = pos(
        expansions=MI,
        decks={"alpha": "*mirror alpha.ship", "planet": "*beta.planet", **SPARE},
        voyages=[["alpha1"], []],
    )
    assert has(s, "coordinate (alpha,planet)")
    act(s, "coordinate (alpha,planet)")
    p = s.view(0)["pending"]
    assert p["power"] == "planet" and p["major"] is False


def test_mirror_with_outpost_card() -> None:
    s = pos(
        expansions=MI,
        decks={"alpha": "*mirror alpha.ship", **SPARE},
        outpost=["beta.stars/beta"],
        voyages=[["alpha1"], []],
    )
    act(s, "coordinate (alpha,out:beta.stars)")
    assert s.view(0)["pending"]["power"] == "stars" and s.view(0)["pending"]["uses_left"] == 2


def test_no_pair_of_mirrors_and_no_mirror_launch() -> None:
    s = pos(
        expansions=MI,
        stars=1,
        decks={
            "alpha": "*mirror alpha.ship",
            "beta": "*mirror",
            "nebula": "*alpha.nebula",
            "stars": "*alpha.stars",
            "planet": "*alpha.planet",
            **SPARE,
        },
        voyages=[["alpha1"], []],
    )
    assert "coordinate (alpha,beta)" not in legal(s)
    assert not any(a.startswith("launch") and "(alpha," in a for a in legal(s))
    assert has(s, "launch alpha1 (star,nebula,stars,planet)")


def test_mirrors_cannot_be_retrieved_or_put_in_the_outpost() -> None:
    s = pos(
        expansions=MI,
        decks={
            "alpha": "*alpha.nebula alpha.ship",
            "beta": "*beta.nebula",
            "gamma": "*mirror gamma.ship",
            "delta": "*delta.ship",
            "ship": "*beta.ship",
        },
        discards={"alpha": "mirror alpha.planet"},
        voyages=[["alpha1"], []],
    )
    act(s, "coordinate (alpha,beta)")
    assert not any("mirror" in a for a in legal(s))
    s = pos(
        expansions=MI,
        decks={
            "alpha": "*alpha.planet",
            "beta": "*beta.planet",
            "gamma": "*mirror gamma.ship",
            "delta": "*delta.ship",
            "ship": "*beta.ship",
        },
        voyages=[["alpha1"], []],
    )
    act(s, "coordinate (alpha,beta)")
    assert "outpost (gamma)" not in legal(s) and "outpost (delta)" in legal(s)


def test_traverse_voyages_must_each_be_accessible_one_at_a_time() -> None:
    holes = {
        "alpha": "*blackhole",
        "beta": "*blackhole",
        "gamma": "*blackhole gamma.ship",
        "delta": "*blackhole delta.ship",
        "ship": "*beta.ship alpha.ship",
    }
    s = pos(
        expansions=["black_holes", "mirrors"],
        decks=holes,
        voyages=[["alpha1", "beta1", "gamma1"], ["delta1", "alpha2"]],
    )
    act(s, "traverse (alpha,beta,gamma,delta)")
    assert sorted(legal(s)) == ["take alpha2", "take gamma1"]
    act(s, "take gamma1")
    assert "take beta1" in legal(s)  # uncovered by the first take
    act(s, "take beta1")
    act(s, "take alpha1")
    assert s.view(0)["voyages"]["columns"] == [[], ["delta1", "alpha2"]]


def test_meteor_voyage_must_be_accessible() -> None:
    s = pos(
        expansions=["mirrors", "glaucous_sun"],
        decks=ALPHA,
        held=2,
        voyages=[["alpha1", "beta1"], ["gamma1", "alpha2"]],
    )
    meteors = sorted(a for a in legal(s) if a.startswith("meteor"))
    assert meteors == ["meteor alpha2", "meteor beta1"]
