"""Base game: Launch, Shooting Stars, Coordinate, the Outpost, the end of a turn,
winning and losing. One test per rule; each builds the exact position."""

from __future__ import annotations

import pytest

import skydeck
from skydeck.core import IllegalAction
from tests.games.stellarion.helpers import act, deck, has, legal, pile, pos, top

LAUNCH_ALPHA = "launch alpha1 (alpha,nebula,stars,planet)"
# spare Coordinates so the game goes on after the tested turn
SPARE = {"gamma": "*gamma.ship gamma.stars", "delta": "*delta.ship delta.stars"}


def alpha_launch_position(voyages=None, **kw):  # type: ignore[no-untyped-def]
    return pos(
        decks={
            "alpha": "*alpha.ship alpha.nebula",
            "nebula": "*alpha.nebula gamma.nebula",
            "stars": "*alpha.stars",
            "planet": "*alpha.planet delta.planet",
            **SPARE,
        },
        voyages=voyages or [["alpha2", "alpha1"], ["beta1"], [], []],
        **kw,
    )


def test_launch_discards_four_cards_and_takes_a_voyage() -> None:
    s = alpha_launch_position()
    assert has(s, LAUNCH_ALPHA)
    act(s, LAUNCH_ALPHA)
    assert s.view(0)["victory"] == [["alpha1"]]
    assert pile(s, "alpha") == ["alpha.ship"] and pile(s, "nebula") == ["alpha.nebula"]
    assert pile(s, "stars") == ["alpha.stars"] and pile(s, "planet") == ["alpha.planet"]
    assert s.view(0)["voyages"]["columns"][0] == ["alpha2"]


def test_launch_needs_one_galaxy_and_four_types() -> None:
    s = pos(
        decks={
            "alpha": "*alpha.ship",
            "nebula": "*alpha.nebula",
            "stars": "*beta.stars",
            "planet": "*alpha.planet",
            **SPARE,
        },
        voyages=[["alpha1"], ["beta1"], [], []],
        stars=0,
    )
    assert not any(a.startswith("launch") for a in legal(s))


def test_shooting_star_replaces_one_card_and_is_removed() -> None:
    s = pos(
        decks={
            "alpha": "*alpha.ship",
            "nebula": "*alpha.nebula",
            "planet": "*alpha.planet",
            **SPARE,
        },
        voyages=[["alpha1"], [], [], []],
        stars=2,
    )
    assert has(s, "launch alpha1 (alpha,nebula,star,planet)")
    act(s, "launch alpha1 (alpha,nebula,star,planet)")
    assert s.stars == 1 and s.view(0)["victory"] == [["alpha1"]]


def test_shooting_star_may_replace_a_card_that_is_there() -> None:
    s = alpha_launch_position()
    assert has(s, "launch alpha1 (star,nebula,stars,planet)")


def test_only_one_shooting_star_per_launch() -> None:
    s = pos(
        decks={"alpha": "*alpha.ship", "nebula": "*alpha.nebula", **SPARE},
        voyages=[["alpha1"], [], [], []],
        stars=4,
    )
    assert not any(a.startswith("launch") for a in legal(s))
    with pytest.raises(IllegalAction):
        act(s, "launch alpha1 (alpha,nebula,star,star)")


def test_launch_with_outpost_card_and_used_card_goes_to_its_pile() -> None:
    s = pos(
        decks={"alpha": "*alpha.ship", "nebula": "*alpha.nebula", "stars": "*alpha.stars", **SPARE},
        outpost=["alpha.planet/alpha", "alpha.stars/alpha"],
        voyages=[["alpha1"], ["beta1"], [], []],
    )
    act(s, "launch alpha1 (alpha,nebula,stars,out:alpha.planet)")
    assert [c & 31 for c in s.outpost] == [2]  # alpha.stars stays: not all must be used
    assert pile(s, "alpha") == ["alpha.ship", "alpha.planet"]


def test_cards_in_discard_piles_cannot_be_used() -> None:
    s = pos(
        decks={"alpha": "*alpha.ship", "nebula": "*alpha.nebula", "stars": "*alpha.stars", **SPARE},
        discards={"planet": "alpha.planet"},
        voyages=[["alpha1"], [], [], []],
        stars=0,
    )
    assert not any(a.startswith("launch") for a in legal(s))


def test_no_launch_without_a_voyage_of_that_galaxy() -> None:
    s = alpha_launch_position(voyages=[[], ["beta1"], [], []], piles=[["alpha1", "alpha2"]])
    assert not any(a.startswith("launch") for a in legal(s))


def test_coordinate_minor_and_major() -> None:
    decks = {"alpha": "*alpha.planet", "planet": "*beta.planet", "beta": "*beta.planet", **SPARE}
    s = pos(decks=decks, voyages=[["alpha1"], [], [], []])
    assert has(s, "coordinate (alpha,planet)") and has(s, "coordinate (planet,beta)")
    assert not has(s, "coordinate (alpha,gamma)")  # different Types
    act(s, "coordinate (alpha,planet)")
    assert s.view(0)["pending"]["major"] is False
    s = pos(decks=decks, voyages=[["alpha1"], [], [], []])
    act(s, "coordinate (planet,beta)")  # two identical cards from different decks
    assert s.view(0)["pending"]["major"] is True
    assert pile(s, "planet") == ["beta.planet"] and pile(s, "beta") == ["beta.planet"]


def test_coordinate_with_outpost_card() -> None:
    s = pos(
        decks={"alpha": "*alpha.nebula", **SPARE},
        outpost=["beta.nebula/nebula"],
        voyages=[["alpha1"], [], [], []],
    )
    act(s, "coordinate (alpha,out:beta.nebula)")
    assert s.outpost == [] and pile(s, "nebula") == ["beta.nebula"]


def test_end_of_turn_reveal_choice() -> None:
    """The "one" variant: the player picks the single deck to reveal."""
    s = pos(
        decks={"alpha": "*alpha.nebula alpha.ship", "beta": "*beta.nebula beta.ship", **SPARE},
        voyages=[["alpha1"], [], [], []],
        reveal="one",
    )
    act(s, "coordinate (alpha,beta)")
    act(s, "forfeit")
    assert sorted(legal(s)) == ["reveal alpha", "reveal beta"]
    act(s, "reveal beta")
    assert s.up[1] == 1 and s.up[0] == 0 and top(s, "beta") == "beta.ship"
    assert s.phase == 0 and s.turns == 2


def test_single_reveal_is_automatic() -> None:
    """The "one" variant: with a single face-down top the reveal plays itself."""
    s = pos(
        decks={"alpha": "*alpha.nebula alpha.ship", "beta": "*beta.nebula", **SPARE},
        voyages=[["alpha1"], [], [], []],
        reveal="one",
    )
    act(s, "coordinate (alpha,beta)")
    act(s, "forfeit")
    assert s.up[0] == 1 and top(s, "alpha") == "alpha.ship"
    assert s.phase == 0 and s.turns == 2 and not s.is_over


def test_exhausted_deck_is_skipped() -> None:
    s = pos(
        decks={"alpha": "*alpha.nebula", "beta": "*beta.nebula", **SPARE},
        voyages=[["alpha1"], [], [], []],
    )
    act(s, "coordinate (alpha,beta)")
    act(s, "forfeit")
    assert s.decks[0] == [] and s.decks[1] == [] and s.phase == 0 and s.turns == 2
    assert not any(a.endswith(("alpha", "beta")) for a in legal(s))
    assert has(s, "coordinate (gamma,delta)")


def test_lose_when_no_launch_or_coordinate_at_start_of_turn() -> None:
    s = pos(
        decks={"alpha": "*alpha.nebula", "beta": "*beta.nebula", "gamma": "*gamma.ship"},
        voyages=[["alpha1"], [], [], []],
    )
    act(s, "coordinate (alpha,beta)")
    act(s, "forfeit")
    assert s.is_over and s.winners == () and s.scores == [0.0]
    assert "neither" in s.reason and s.legal_actions(0) == []


def test_lost_immediately_if_first_turn_impossible() -> None:
    s = pos(decks={"alpha": "*alpha.nebula", "gamma": "*gamma.ship"}, voyages=[["alpha1"]])
    assert s.is_over and s.view(None)["outcome"] == "lost"


def test_win_when_all_voyages_taken() -> None:
    s = alpha_launch_position(voyages=[["alpha1"], [], [], []], piles=[["alpha2"]])
    act(s, LAUNCH_ALPHA)
    assert s.is_over and s.winners == (0,) and s.scores == [1.0]
    assert s.view(0)["outcome"] == "won"


def test_outpost_single_galaxy_and_no_duplicates() -> None:
    s = pos(
        decks={
            "alpha": "*alpha.planet",
            "planet": "*beta.planet",
            "beta": "*beta.ship",
            "ship": "*alpha.ship",
            "stars": "*alpha.stars",
            **SPARE,
        },
        outpost=["alpha.stars/alpha"],
        voyages=[["alpha1"], [], [], []],
    )
    act(s, "coordinate (alpha,planet)")
    opts = legal(s)
    assert "outpost (ship)" in opts  # same Galaxy
    assert "outpost (beta)" not in opts  # another Galaxy
    assert "outpost (stars)" not in opts  # a copy of alpha.stars is already there


def test_forfeit_leaves_everything_but_the_discards() -> None:
    s = pos(
        decks={"alpha": "*alpha.ship alpha.nebula", "ship": "*beta.ship gamma.ship", **SPARE},
        voyages=[["alpha1"], [], [], []],
    )
    before = (deck(s, "gamma"), s.outpost[:])
    act(s, "coordinate (alpha,ship)")
    act(s, "forfeit")
    assert (deck(s, "gamma"), s.outpost) == before
    assert pile(s, "alpha") == ["alpha.ship"] and pile(s, "ship") == ["beta.ship"]


def test_typed_order_of_cards_does_not_matter() -> None:
    s = pos(
        decks={"alpha": "*alpha.nebula", "beta": "*beta.nebula", **SPARE},
        voyages=[["alpha1"], [], [], []],
    )
    act(s, "coordinate (beta,alpha)")
    assert s.phase == 2


def test_illegal_action_message_and_state_unchanged() -> None:
    s = alpha_launch_position()
    before = s.to_json()
    with pytest.raises(IllegalAction, match="not a legal action"):
        act(s, "launch alpha2 (alpha,nebula,stars,planet)")  # alpha2 is covered
    with pytest.raises(IllegalAction, match="may not act"):
        act(s, LAUNCH_ALPHA, seat=1)
    assert s.to_json() == before


def test_reveal_all_reading_turns_up_every_face_down_top() -> None:
    s = pos(
        decks={"alpha": "*alpha.nebula alpha.ship", "beta": "*beta.nebula beta.ship", **SPARE},
        voyages=[["alpha1"], [], [], []],
        reveal="all",
    )
    act(s, "coordinate (alpha,beta)")
    act(s, "forfeit")
    assert s.up[0] == 1 and s.up[1] == 1 and s.turns == 2 and s.phase == 0


def test_content_switch_for_the_reveal_reading(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from skydeck.games.stellarion.content import DATA, load_content

    bad = tmp_path / "c.toml"
    bad.write_text(
        DATA.read_text().replace('end_of_turn_reveal = "all"', 'end_of_turn_reveal = "some"')
    )
    with pytest.raises(ValueError, match="end_of_turn_reveal"):
        load_content(bad)


def test_reveal_option_defaults_to_all_and_refuses_other_readings() -> None:
    assert skydeck.load("stellarion").options["reveal"] == "all"
    assert skydeck.load("stellarion", reveal="one").reveal_all is False  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="reveal must be 'all' or 'one'"):
        skydeck.load("stellarion", reveal="some")


def test_every_default_is_the_rulebook_reveal(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Ruling 6: "all" is the rule itself, so every place that picks a default picks it."""
    from skydeck.games.stellarion.content import DATA, TableRules, load_content
    from skydeck.games.stellarion.measure import make_game

    assert TableRules().end_of_turn_reveal == "all"
    no_rules = tmp_path / "c.toml"
    no_rules.write_text(DATA.read_text().replace('end_of_turn_reveal = "all"', ""))
    assert load_content(no_rules).rules.end_of_turn_reveal == "all"
    assert make_game().reveal_all
    assert pos(decks=SPARE, voyages=[["alpha1"], [], [], []]).game.reveal_all
