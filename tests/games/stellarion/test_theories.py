"""Theories and Breakthroughs: proving, the extra victory condition, and the four
Breakthrough upgrades."""

from __future__ import annotations

from collections import Counter

from tests.games.stellarion.helpers import act, deck, has, legal, pile, pos, top

TH = ["theories"]
SPARE = {"gamma": "*gamma.ship gamma.stars", "delta": "*delta.ship delta.stars"}
V = [["alpha1"], ["beta1"], [], []]
ORDER = ["theory_ship", "theory_planet", "theory_stars", "theory_nebula"]


def three_ships(**kw):  # type: ignore[no-untyped-def]
    decks = {
        "alpha": "*alpha.ship",
        "beta": "*beta.ship",
        "ship": "*gamma.ship alpha.ship",
        **SPARE,
    }
    return pos(expansions=TH, decks=decks, voyages=V, theories=ORDER, **kw)


def test_prove_with_three_observatory_cards_is_free() -> None:
    s = three_ships()
    assert has(s, "prove")
    act(s, "prove")
    assert s.view(0)["theories"]["top"] == "theory_planet" and s.phase == 0
    assert s.turns == 1 and not any(s.discards)  # no card discarded, not an action


def test_outpost_and_discards_do_not_count_for_theories() -> None:
    s = pos(
        expansions=TH,
        decks={
            "alpha": "*alpha.ship",
            "beta": "*beta.ship",
            "gamma": "*gamma.stars",
            "delta": "*delta.stars",
        },
        outpost=["gamma.ship/ship"],
        discards={"ship": "delta.ship"},
        voyages=V,
        theories=ORDER,
    )
    assert not has(s, "prove")


def test_several_theories_in_one_turn() -> None:
    decks = {
        "alpha": "*alpha.ship",
        "beta": "*beta.ship",
        "ship": "*gamma.ship",
        "gamma": "*gamma.planet gamma.ship",
        "delta": "*delta.planet",
        "planet": "*alpha.planet",
    }
    s = pos(expansions=TH, decks=decks, voyages=V, theories=ORDER)
    act(s, "prove")
    act(s, "prove")
    assert s.view(0)["theories"]["left"] == 2


def test_no_proving_during_a_coordinate() -> None:
    s = three_ships()
    act(s, "coordinate (alpha,beta)")
    assert "prove" not in legal(s)


def test_mirrors_do_not_count_for_theories() -> None:
    decks = {
        "alpha": "*alpha.ship",
        "beta": "*beta.ship",
        "ship": "*mirror gamma.ship",
        "gamma": "*gamma.stars",
        "delta": "*delta.stars",
    }
    s = pos(
        expansions=["theories", "mirrors"], decks=decks, voyages=[["alpha1"], []], theories=ORDER
    )
    assert not has(s, "prove")


def test_all_voyages_is_not_enough_while_theories_remain() -> None:
    decks = {
        "alpha": "*alpha.ship",
        "nebula": "*alpha.nebula",
        "stars": "*alpha.stars",
        "planet": "*alpha.planet",
        "beta": "*beta.ship",
        "ship": "*gamma.ship",
        "gamma": "*gamma.planet",
        "delta": "*delta.planet",
    }
    s = pos(
        expansions=TH, decks=decks, voyages=[["alpha1"], [], [], []], theories=["theory_planet"]
    )
    act(s, "launch alpha1 (alpha,nebula,stars,planet)")
    assert not s.is_over  # Theory stack not empty
    s = pos(expansions=TH, decks=decks, voyages=[[], [], [], []], theories=["theory_ship"])
    act(s, "prove")  # beta, ship(gamma), alpha: three Ships
    assert s.is_over and s.winners == (0,)


def test_theory_stack_empty_first_then_last_voyage_wins() -> None:
    decks = {
        "alpha": "*alpha.ship",
        "nebula": "*alpha.nebula",
        "stars": "*alpha.stars",
        "planet": "*alpha.planet",
        **SPARE,
    }
    s = pos(expansions=TH, decks=decks, voyages=[["alpha1"], [], [], []], theories=[])
    act(s, "launch alpha1 (alpha,nebula,stars,planet)")
    assert s.is_over and s.winners == (0,)


def test_proving_reveals_the_next_token() -> None:
    s = three_ships()
    before = s.reveals
    act(s, "prove")
    assert s.reveals == before + 1
    assert s.view(0)["theories"]["proven"] == ["theory_ship"]


def test_reversible_thrusters() -> None:
    decks = {"alpha": "*alpha.ship alpha.nebula", "ship": "*beta.ship", **SPARE}
    s = pos(
        expansions=TH,
        decks=decks,
        voyages=V,
        breakthrough="reversible_thrusters",
        theories=["theory_nebula"],
    )
    act(s, "coordinate (alpha,ship)")
    assert sorted(legal(s)) == ["bottom alpha alpha.ship", "bottom ship beta.ship", "discard"]
    act(s, "bottom ship beta.ship")
    assert pile(s, "ship") == [] and pile(s, "alpha") == ["alpha.ship"]
    assert deck(s, "ship") == ["beta.ship"] and s.view(0)["decks"][4]["known_top"] == ["beta.ship"]
    assert "forfeit" in legal(s)  # then the Ship power as usual


def test_thrusters_keep_bottom_card_known() -> None:
    decks = {
        "alpha": "*alpha.ship alpha.nebula alpha.stars alpha.planet",
        "ship": "*beta.ship delta.ship",
        **SPARE,
    }
    s = pos(
        expansions=TH,
        decks=decks,
        voyages=V,
        breakthrough="reversible_thrusters",
        theories=["theory_nebula"],
    )
    act(s, "coordinate (alpha,ship)")
    act(s, "bottom alpha alpha.ship")
    assert deck(s, "alpha") == ["alpha.nebula", "alpha.stars", "alpha.planet", "alpha.ship"]
    assert s.view(0)["decks"][0]["known_bottom"] == ["alpha.ship"]


def test_time_shift_radar_puts_cards_on_top_in_chosen_order() -> None:
    decks = {"alpha": "*alpha.nebula alpha.ship", "nebula": "*alpha.nebula", **SPARE}
    s = pos(
        expansions=TH,
        decks=decks,
        discards={"alpha": "alpha.planet alpha.stars"},
        voyages=V,
        breakthrough="time_shift_radar",
        theories=["theory_ship"],
    )
    act(s, "coordinate (alpha,nebula)")
    assert has(s, "retrieve alpha (alpha.planet,alpha.stars) top")
    assert has(s, "retrieve alpha (alpha.stars,alpha.planet) top")
    act(s, "retrieve alpha (alpha.planet,alpha.stars) top")
    assert deck(s, "alpha") == ["alpha.planet", "alpha.stars", "alpha.ship"]
    assert s.up[0] == 1 and s.view(0)["decks"][0]["known_top"] == [
        "alpha.planet",
        "alpha.stars",
        "alpha.ship",
    ]


def test_reflection_amplifier_both_top_or_both_bottom() -> None:
    decks = {
        "alpha": "*alpha.stars",
        "beta": "*beta.stars",
        "gamma": "*gamma.ship gamma.nebula gamma.stars gamma.planet",
        "delta": "*delta.ship",
        "ship": "*beta.ship",
    }
    s = pos(
        expansions=TH,
        decks=decks,
        voyages=V,
        breakthrough="reflection_amplifier",
        theories=["theory_nebula"],
        seed=4,
    )
    act(s, "coordinate (alpha,beta)")
    act(s, "stars gamma")
    a, b = s.view(0)["decks"][2]["known_top"]
    assert has(s, f"place ({a},{b}) ()") and has(s, f"place () ({b},{a})")
    act(s, f"place () ({a},{b})")
    assert deck(s, "gamma")[-2:] == [a, b] and s.up[2] == 0
    assert s.view(0)["decks"][2]["known_bottom"] == [b, a]


def test_inflatable_biodomes_outpost_mixes_galaxies_but_no_copies() -> None:
    decks = {
        "alpha": "*alpha.planet",
        "planet": "*alpha.planet",
        "beta": "*beta.ship",
        "ship": "*gamma.ship",
        "stars": "*alpha.stars",
        **SPARE,
    }
    s = pos(
        expansions=TH,
        decks=decks,
        outpost=["alpha.stars/alpha"],
        voyages=V,
        breakthrough="inflatable_biodomes",
        theories=["theory_nebula"],
    )
    act(s, "coordinate (alpha,planet)")
    assert has(s, "outpost (beta,ship)")  # two Galaxies, neither the Outpost's
    assert not has(s, "outpost (stars)")  # alpha.stars already there
    act(s, "outpost (beta,ship)")
    assert Counter(c & 31 for c in s.outpost) == Counter([2, 4, 8])
    assert top(s, "beta") is None


def test_either_player_proves_and_both_use_the_breakthrough() -> None:
    decks = {
        "alpha": "*alpha.ship",
        "beta": "*beta.ship",
        "ship": "*gamma.ship alpha.ship",
        "gamma": "*gamma.planet gamma.stars",
        "delta": "*delta.planet delta.stars",
        "planet": "*alpha.planet beta.planet",
    }
    s = pos(
        players=2,
        expansions=TH,
        decks=decks,
        voyages=V,
        theories=ORDER,
        turn=1,
        breakthrough="inflatable_biodomes",
        outpost=["delta.nebula/delta"],
    )
    act(s, "prove")
    assert s.view(0)["theories"]["proven"] == ["theory_ship"]
    act(s, "coordinate (gamma,delta)")
    assert has(s, "outpost (alpha,beta)") is False  # minor: one card
    assert has(s, "outpost (alpha)")  # another Galaxy than the Outpost's: biodomes
