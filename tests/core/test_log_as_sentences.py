"""Issue 49: the log reads as sentences. A move's command ("play Fia Rusk") is told
after the player's name as a sentence ("Player 2 plays Fia Rusk"), never as
"Player 2: play Fia Rusk"; and a count agrees with its verb ("1 cargo cube ... is
lost")."""

from __future__ import annotations

import pytest

from skydeck.core.game import third_person
from skydeck.registry import game_class

NAMES = ["Player 1", "Player 2"]


@pytest.mark.parametrize(
    ("command", "sentence"),
    [
        ("Play Fia Rusk", "plays Fia Rusk"),
        ("buy Signal Hijacker for 2 RM", "buys Signal Hijacker for 2 RM"),
        ("pass", "passes"),
        ("search the Alpha deck for Alpha Nebula", "searches the Alpha deck for Alpha Nebula"),
        ("Launch Alpha Colony with the Alpha top", "launches Alpha Colony with the Alpha top"),
        ("Warp Jump to Elder Grove", "Warp Jumps to Elder Grove"),
        ("re-roll die 1 for 1 Influence", "re-rolls die 1 for 1 Influence"),
        ("give up: take the Encounter's failure", "gives up: take the Encounter's failure"),
        ("carry the drone", "carries the drone"),
    ],
)
def test_a_command_becomes_a_sentence(command: str, sentence: str) -> None:
    assert third_person(command) == sentence


def test_stellarion_tells_a_move_as_a_sentence() -> None:
    game = game_class("stellarion")(players=2)
    text = game.describe_event({"kind": "action", "seat": 1, "action": "forfeit 2"}, NAMES)
    assert text.startswith("Player 2 forfeits the power"), text


def test_expedition_tells_a_move_as_a_sentence() -> None:
    game = game_class("expedition")(players=2)
    text = game.describe_event({"kind": "action", "seat": 0, "action": "pass"}, NAMES)
    assert text == "Player 1 passes", text


@pytest.mark.parametrize(("cubes", "verb"), [(1, "is"), (3, "are")])
def test_lost_cargo_agrees_with_its_count(cubes: int, verb: str) -> None:
    game = game_class("conflict")(players=2, scale="dispute")
    state = game.new(5)
    for why in ("own", "destroyed"):
        event = {"kind": "cubes", "from_card": 0, "to_card": None, "cubes": cubes, "why": why}
        text = game.describe_event(event, NAMES, state)
        assert f" {verb} lost" in text, text
