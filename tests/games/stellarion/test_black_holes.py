"""Black Holes and Revelations: Traverse, restrictions, co-op donation, loss check."""

from __future__ import annotations

from collections import Counter

from tests.games.stellarion.helpers import act, has, legal, pile, pos

BH = ["black_holes"]
HOLES = {
    "alpha": "*blackhole alpha.ship",
    "beta": "*blackhole",
    "gamma": "*blackhole gamma.ship",
    "delta": "*blackhole delta.ship",
    "ship": "*beta.ship gamma.ship",
}
VOY = [["alpha2", "alpha1"], ["beta1"], ["gamma1"], ["delta1"]]


def test_traverse_takes_any_three_voyages() -> None:
    s = pos(expansions=BH, decks=HOLES, voyages=VOY)
    assert has(s, "traverse (alpha,beta,gamma,delta)")
    act(s, "traverse (alpha,beta,gamma,delta)")
    assert pile(s, "alpha") == ["blackhole"] and s.phase == 4
    assert sorted(legal(s)) == ["take alpha1", "take beta1", "take delta1", "take gamma1"]
    act(s, "take alpha1")
    act(s, "take alpha2")  # the same Galaxy twice is fine
    act(s, "take delta1")
    assert s.view(0)["victory"] == [["alpha1", "alpha2", "delta1"]]
    assert s.phase != 4


def test_traverse_with_fewer_than_three_left_takes_them_all_and_wins() -> None:
    s = pos(expansions=BH, decks=HOLES, voyages=[["alpha1"], ["beta1"], [], []])
    act(s, "traverse (alpha,beta,gamma,delta)")
    act(s, "take alpha1")
    act(s, "take beta1")
    assert s.is_over and s.winners == (0,)


def test_black_holes_cannot_be_retrieved_by_nebula() -> None:
    s = pos(
        expansions=BH,
        decks={
            "alpha": "*alpha.nebula alpha.ship",
            "beta": "*beta.nebula",
            "gamma": "*gamma.ship gamma.ship",
            "delta": "*delta.ship",
        },
        discards={"alpha": "blackhole alpha.planet"},
        voyages=VOY,
    )
    act(s, "coordinate (alpha,beta)")
    assert has(s, "retrieve alpha (alpha.planet)")
    assert not any("blackhole" in a for a in legal(s))


def test_black_holes_cannot_go_to_the_outpost_nor_coordinate() -> None:
    s = pos(
        expansions=BH,
        decks={
            "alpha": "*alpha.planet",
            "beta": "*beta.planet",
            "gamma": "*blackhole gamma.ship",
            "delta": "*blackhole",
            "ship": "*gamma.ship delta.ship",
        },
        voyages=VOY,
    )
    assert not any("gamma" in a and "delta" in a for a in legal(s))  # two Black Holes
    act(s, "coordinate (alpha,beta)")
    assert "outpost (gamma)" not in legal(s) and "outpost (ship)" in legal(s)


def test_loss_check_counts_traverse() -> None:
    s = pos(
        expansions=BH,
        decks={
            "alpha": "*blackhole",
            "beta": "*blackhole",
            "gamma": "*blackhole",
            "delta": "*blackhole",
        },
        voyages=VOY,
    )
    assert not s.is_over and legal(s) == ["traverse (alpha,beta,gamma,delta)"]
    s = pos(
        expansions=BH,
        decks={"alpha": "*blackhole", "beta": "*blackhole", "gamma": "*blackhole"},
        voyages=VOY,
    )
    assert s.is_over


def test_traverse_donation_in_coop() -> None:
    s = pos(
        players=2, expansions=BH, decks=HOLES, voyages=VOY, piles=[["alpha2", "beta2"], ["gamma2"]]
    )
    act(s, "traverse (alpha,beta,gamma,delta)")
    opts = legal(s)
    assert "take alpha1 0" in opts and "take alpha1 1" in opts
    assert "take gamma1 0" not in opts  # seat 0 already holds two Galaxies
    act(s, "take gamma1 1")
    act(s, "take delta1 1")
    assert "take beta1 1" not in legal(s)  # now seat 1 holds gamma and delta
    act(s, "take beta1 0")
    assert Counter(s.view(0)["victory"][1]) == Counter(["gamma2", "gamma1", "delta1"])


def test_traverse_choice_of_four_among_more_black_holes() -> None:
    holes = {**HOLES, "nebula": "*blackhole"}
    s = pos(expansions=BH, decks=holes, voyages=VOY)
    assert sum(a.startswith("traverse") for a in legal(s)) == 5  # C(5, 4)
