"""Issue 49: the log names the cards a move used ("coordinates with the Beta Nebula and
the Delta Nebula"), not the deck positions ("the Beta top and the Delta top"), and only
cards every seat saw: the face-up tops taken, never the card left face down under one."""

from __future__ import annotations

import random
from typing import Any

import skydeck
from tests.games.stellarion.helpers import pos

SPARE = {"gamma": "*gamma.ship gamma.stars", "delta": "*delta.ship delta.stars"}
NAMES = ["Player 1", "Player 2"]


def told(s: Any, text: str) -> str:
    """The log's sentence for the action ``text``, from its event as a spectator sees it."""
    events = s.apply(s.game.parse_action(text), s.to_move[0])
    shown = [e.for_seat(None) for e in events]
    action = next(e for e in shown if e and e["kind"] == "action")
    sentence: str = s.game.describe_event(action, NAMES, s)
    return sentence


def test_a_coordinate_names_the_two_cards_and_not_the_one_below() -> None:
    s = pos(
        decks={"beta": "*beta.nebula beta.planet", "nebula": "*delta.nebula gamma.nebula", **SPARE},
        voyages=[["alpha1"], ["beta1"], [], []],
    )
    said = told(s, "coordinate (beta,nebula)")
    assert said == "Player 1 coordinates with the Beta Nebula and the Delta Nebula"
    assert "Planet" not in said and "Gamma" not in said  # the face-down cards below


def test_two_identical_tops_and_an_outpost_card() -> None:
    s = pos(
        decks={**SPARE, "delta": "*delta.planet delta.ship", "planet": "*delta.planet"},
        voyages=[["alpha1"], [], [], ["delta1"]],
    )
    assert told(s, "coordinate (delta,planet)") == "Player 1 coordinates with two Delta Planets"
    s = pos(
        decks={"gamma": "*gamma.stars gamma.ship", "delta": "*delta.ship"},
        outpost=["beta.stars/beta"],
        voyages=[["alpha1"], [], [], []],
    )
    said = told(s, "coordinate (gamma,out:beta.stars)")
    assert said == "Player 1 coordinates with the Gamma Stars and the Beta Stars from the Outpost"


def test_a_launch_and_a_move_to_the_outpost_name_their_cards() -> None:
    s = pos(
        stars=1,
        decks={
            "alpha": "*alpha.ship alpha.nebula",
            "nebula": "*alpha.nebula",
            "planet": "*alpha.planet",
            **SPARE,
        },
        voyages=[["alpha1"], ["beta1"], [], []],
    )
    launch = next(str(a) for a in s.legal_actions(0) if str(a).startswith("launch alpha1"))
    said = told(s, launch)
    assert said.startswith("Player 1 launches Alpha Survey with ")
    assert " top" not in said and "the Alpha Ship" in said, said
    s = pos(
        decks={"alpha": "*alpha.planet", "beta": "*beta.planet", "ship": "*gamma.ship", **SPARE},
        voyages=[["alpha1"], [], [], []],
    )
    s.apply(s.game.parse_action("coordinate (alpha,beta)"), 0)
    assert told(s, "outpost (ship)") == "Player 1 moves the Gamma Ship to the Outpost"


def test_a_menu_names_each_card_and_its_deck() -> None:
    """The menu (``describe`` with the seat's view) names the card on each top used and
    which top it is: two decks showing a Delta Planet give two different Launches, and
    their sentences must differ ("the Delta Planet (Delta top)", "... (Planet top)")."""
    s = pos(
        stars=1,
        decks={
            "delta": "*delta.planet delta.ship",
            "planet": "*delta.planet",
            "ship": "*delta.ship",
            "stars": "*delta.stars",
            **{k: v for k, v in SPARE.items() if k != "delta"},
        },
        voyages=[[], [], [], ["delta1"]],
    )
    view = s.view(0)
    menu = {s.game.describe(a, view): str(a) for a in s.legal_actions(0)}
    assert len(menu) == len(s.legal_actions(0)), "two moves read alike in the menu"
    launches = [m for m in menu if m.startswith("Launch")]
    assert any("the Delta Planet (Delta top)" in m for m in launches), launches
    assert any("the Delta Planet (Planet top)" in m for m in launches), launches


def test_every_move_of_a_menu_reads_differently_along_random_games() -> None:
    """Over seeded random games of each expansion, every legal move of the seat to move
    has its own sentence in the menu, from the view as from the action alone."""
    every = ["black_holes", "theories", "mirrors", "glaucous_sun"]
    for options in ({"players": 1}, {"players": 2, "expansions": every}):
        game = skydeck.load("stellarion", **options)
        for seed in range(3):
            s, rng = game.new(seed), random.Random(seed)
            while not s.is_over:
                seat = s.to_move[0]
                legal, view = s.legal_actions(seat), s.view(seat)
                for said in (
                    [game.describe(a, view) for a in legal],
                    [game.describe(a) for a in legal],
                ):
                    assert len(set(said)) == len(legal), sorted(said)
                s.apply(rng.choice(legal), seat)
