"""Issue 49: the log names the cards a move used ("coordinates with the Beta Nebula and
the Delta Nebula"), not the deck positions ("the Beta top and the Delta top"), and only
cards every seat saw: the face-up tops taken, never the card left face down under one."""

from __future__ import annotations

from typing import Any

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
