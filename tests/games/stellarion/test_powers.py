"""The four Coordinate powers, minor and major, as sequences of choices."""

from __future__ import annotations

from collections import Counter

from tests.games.stellarion.helpers import act, deck, has, legal, pile, pos, top

SPARE = {"gamma": "*gamma.ship gamma.stars", "delta": "*delta.ship delta.stars"}
V = [["alpha1"], ["beta1"], [], []]


def test_ship_minor_search_puts_card_face_up_on_top() -> None:
    s = pos(
        decks={
            "alpha": "*alpha.ship alpha.nebula alpha.planet alpha.stars",
            "ship": "*beta.ship",
            **SPARE,
        },
        voyages=V,
        seed=3,
    )
    act(s, "coordinate (alpha,ship)")
    assert "forfeit" in legal(s)
    assert has(s, "search alpha alpha.planet") and has(s, "search gamma gamma.stars")
    act(s, "search alpha alpha.planet")
    assert top(s, "alpha") == "alpha.planet" and s.up[0] == 1
    assert Counter(deck(s, "alpha")) == Counter(["alpha.planet", "alpha.nebula", "alpha.stars"])
    assert s.phase == 0  # minor: one search, then the turn ends (nothing face down)


def test_ship_major_twice_on_another_deck() -> None:
    s = pos(
        decks={"alpha": "*alpha.ship alpha.nebula", "ship": "*alpha.ship beta.ship", **SPARE},
        voyages=V,
    )
    act(s, "coordinate (alpha,ship)")
    assert s.view(0)["pending"]["major"]
    act(s, "search gamma gamma.stars")
    opts = legal(s)
    assert "stop" in opts and "forfeit" not in opts
    assert not any(a.startswith("search gamma") for a in opts)  # another deck
    act(s, "search delta delta.stars")
    assert top(s, "gamma") == "gamma.stars" and top(s, "delta") == "delta.stars"
    assert s.phase != 2


def test_ship_major_may_stop_after_one() -> None:
    s = pos(
        decks={"alpha": "*alpha.ship alpha.nebula", "ship": "*alpha.ship beta.ship", **SPARE},
        voyages=V,
        reveal="one",  # the variant shows the two decks left to reveal as choices
    )
    act(s, "coordinate (alpha,ship)")
    act(s, "search gamma gamma.stars")
    act(s, "stop")
    assert s.phase == 5 and top(s, "gamma") == "gamma.stars"  # end: two decks to reveal
    assert sorted(legal(s)) == ["reveal alpha", "reveal ship"]


def test_ship_search_shuffles_a_revealed_top_away() -> None:
    s = pos(
        decks={
            "alpha": "*alpha.ship",
            "ship": "*beta.ship",
            "gamma": "*gamma.ship gamma.nebula gamma.stars gamma.planet",
            "delta": "*delta.ship delta.stars",
        },
        voyages=V,
    )
    act(s, "coordinate (alpha,ship)")
    act(s, "search gamma gamma.planet")
    assert top(s, "gamma") == "gamma.planet"
    assert s.ktop[2] == 1 and s.kbot[2] == 0  # the rest: unknown order again


def test_nebula_minor_shuffles_one_card_back() -> None:
    s = pos(
        decks={"alpha": "*alpha.nebula alpha.ship alpha.stars", "beta": "*beta.nebula", **SPARE},
        discards={"alpha": "alpha.planet"},
        voyages=V,
        seed=1,
    )
    act(s, "coordinate (alpha,beta)")
    assert has(s, "retrieve alpha (alpha.planet)")
    assert not has(s, "retrieve alpha (alpha.planet,alpha.nebula)")  # minor: one card
    act(s, "retrieve alpha (alpha.planet)")
    assert Counter(deck(s, "alpha")) == Counter(["alpha.ship", "alpha.stars", "alpha.planet"])
    assert pile(s, "alpha") == ["alpha.nebula"]
    assert s.view(0)["decks"][0]["known_top"] in ([], [top(s, "alpha")])  # shuffled


def test_nebula_may_take_the_card_just_discarded() -> None:
    s = pos(decks={"alpha": "*alpha.nebula alpha.ship", "beta": "*beta.nebula", **SPARE}, voyages=V)
    act(s, "coordinate (alpha,beta)")
    assert has(s, "retrieve alpha (alpha.nebula)") and has(s, "retrieve beta (beta.nebula)")


def test_nebula_major_two_cards_from_one_pile() -> None:
    s = pos(
        decks={"alpha": "*alpha.nebula alpha.ship", "nebula": "*alpha.nebula", **SPARE},
        discards={"alpha": "alpha.planet alpha.stars", "beta": "beta.ship"},
        voyages=V,
    )
    act(s, "coordinate (alpha,nebula)")
    assert has(s, "retrieve alpha (alpha.stars,alpha.planet)")
    assert has(s, "retrieve alpha (alpha.planet)")  # up to two
    assert not any("beta.ship" in a and "alpha" in a for a in legal(s))  # single pile
    act(s, "retrieve alpha (alpha.stars,alpha.planet)")
    assert Counter(deck(s, "alpha")) == Counter(["alpha.ship", "alpha.stars", "alpha.planet"])


def test_nebula_into_exhausted_deck_one_card_becomes_the_deck() -> None:
    s = pos(
        decks={"alpha": "*alpha.nebula", "beta": "*beta.nebula", **SPARE},
        discards={"alpha": "alpha.planet"},
        voyages=V,
    )
    act(s, "coordinate (alpha,beta)")
    assert s.decks[0] == []
    act(s, "retrieve alpha (alpha.planet)")
    # the single card is the deck; it was face down and gets revealed at the turn's end
    assert deck(s, "alpha") == ["alpha.planet"]
    assert s.up[0] == 1


def test_nebula_two_cards_into_exhausted_deck_random_order() -> None:
    orders = set()
    for seed in range(12):
        s = pos(
            decks={"alpha": "*alpha.nebula", "nebula": "*alpha.nebula", **SPARE},
            discards={"alpha": "alpha.planet alpha.stars"},
            voyages=V,
            seed=seed,
        )
        act(s, "coordinate (alpha,nebula)")
        act(s, "retrieve alpha (alpha.stars,alpha.planet)")
        assert sorted(deck(s, "alpha")) == ["alpha.planet", "alpha.stars"]
        orders.add(tuple(deck(s, "alpha")))
    assert len(orders) == 2


def test_stars_minor_two_looks_one_bottom_one_top() -> None:
    s = pos(
        decks={
            "alpha": "*alpha.stars",
            "beta": "*beta.stars",
            "gamma": "*gamma.ship gamma.nebula gamma.stars gamma.planet",
            "delta": "*delta.ship delta.stars",
            "ship": "*beta.ship",
        },
        voyages=V,
        seed=2,
    )
    act(s, "coordinate (alpha,beta)")
    act(s, "stars gamma")
    assert s.phase == 3 and s.up[2] == 0  # shuffled: the revealed top went face down
    seen = s.view(0)["decks"][2]["known_top"]
    assert len(seen) == 2
    act(s, f"place ({seen[1]}) ({seen[0]})")
    assert top(s, "gamma") == seen[1] and s.up[2] == 1
    assert deck(s, "gamma")[-1] == seen[0]
    assert s.view(0)["decks"][2]["known_bottom"] == [seen[0]]  # seen, face down at bottom
    assert "stop" in legal(s)  # second use available
    act(s, "stars gamma")  # the same deck again is allowed
    assert s.kbot[2] == 0  # shuffled again: the bottom card is unknown again
    seen = s.view(0)["decks"][2]["known_top"]
    act(s, f"place ({seen[0]}) ({seen[1]})")
    assert s.phase == 0  # two uses spent


def test_stars_major_four_times_different_decks() -> None:
    s = pos(
        decks={"alpha": "*alpha.stars alpha.ship", "stars": "*alpha.stars beta.stars", **SPARE},
        voyages=V,
    )
    act(s, "coordinate (alpha,stars)")
    for d in ["gamma", "delta", "alpha", "stars"]:
        assert s.phase == 2
        act(s, f"stars {d}")
        first = s.view(0)["decks"][
            ["alpha", "beta", "gamma", "delta", "ship", "nebula", "stars", "planet"].index(d)
        ]["known_top"]
        act(s, f"place ({first[0]}) ({first[-1]})" if len(first) == 2 else f"place ({first[0]}) ()")
    assert s.phase == 0


def test_stars_on_a_one_card_deck() -> None:
    s = pos(
        decks={"alpha": "*alpha.stars", "beta": "*beta.stars", "ship": "beta.ship", **SPARE},
        voyages=V,
    )
    act(s, "coordinate (alpha,beta)")
    act(s, "stars ship")
    assert legal(s) == ["place (beta.ship) ()"]
    act(s, "place (beta.ship) ()")
    assert s.up[4] == 1


def test_planet_minor_and_major() -> None:
    s = pos(
        decks={
            "alpha": "*alpha.planet",
            "beta": "*beta.planet",
            "ship": "*gamma.ship",
            "stars": "*gamma.stars",
            "nebula": "*delta.nebula",
            **SPARE,
        },
        voyages=V,
    )
    act(s, "coordinate (alpha,beta)")
    assert not any("," in a for a in legal(s) if a.startswith("outpost"))
    act(s, "outpost (ship)")
    assert [c & 31 for c in s.outpost] == [8] and s.decks[4] == []
    s = pos(
        decks={
            "alpha": "*alpha.planet",
            "planet": "*alpha.planet",
            "ship": "*gamma.ship",
            "stars": "*gamma.stars",
            "nebula": "*delta.nebula",
            **SPARE,
        },
        voyages=V,
    )
    act(s, "coordinate (alpha,planet)")
    assert has(s, "outpost (ship,stars)") and not has(s, "outpost (ship,nebula)")
    assert not has(s, "outpost (ship,gamma)")  # two identical cards may not both go
    act(s, "outpost (ship,stars)")
    assert sorted(c & 31 for c in s.outpost) == [8, 10]


def test_forfeit_is_always_offered_first() -> None:
    for cards in ["ship", "nebula", "stars", "planet"]:
        s = pos(decks={"alpha": f"*alpha.{cards}", "beta": f"*beta.{cards}", **SPARE}, voyages=V)
        act(s, "coordinate (alpha,beta)")
        assert "forfeit" in legal(s)


def coordinated(power: str, major: bool):  # type: ignore[no-untyped-def]
    """A position just after a Coordinate of two ``power`` cards: two Alphas (major, one
    from the Type deck) or an Alpha and a Beta (minor)."""
    second = power if major else "beta"
    top = f"*alpha.{power}" if major else f"*beta.{power}"
    s = pos(
        decks={"alpha": f"*alpha.{power}", second: top, **SPARE},
        discards={"alpha": "alpha.planet alpha.stars"},
        voyages=V,
    )
    act(s, f"coordinate (alpha,{second})")
    return s


def test_each_power_is_used_as_often_as_the_rule_allows() -> None:
    """Issue 49: a Nebula or Planet power said "2 uses left" (minor) or "4" (major), where
    the rule moves its card(s) once: one retrieval (Nebula) or one move to the Outpost
    (Planet) of 1 card (minor) or up to 2 (major). A Ship searches once (twice for the
    major), Stars look twice (four times). See RULINGS 37."""
    uses = {}
    for power in ("ship", "nebula", "stars", "planet"):
        for major in (False, True):
            p = coordinated(power, major).view(0)["pending"]
            assert p["power"] == power and p["major"] is major
            uses[power, major] = p["uses_left"]
    assert uses == {
        ("ship", False): 1,
        ("ship", True): 2,
        ("nebula", False): 1,
        ("nebula", True): 1,
        ("stars", False): 2,
        ("stars", True): 4,
        ("planet", False): 1,
        ("planet", True): 1,
    }
    # the one use is the whole power: retrieving two cards (major) ends it
    s = coordinated("nebula", True)
    act(s, "retrieve alpha (alpha.stars,alpha.planet)")
    assert s.view(0)["pending"] is None
