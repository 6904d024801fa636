"""`skydeck play stellarion`: a newcomer's terminal game, driven by scripted input."""

from __future__ import annotations

import io
import subprocess
import sys

from rich.console import Console

import skydeck
from skydeck.games.stellarion import terminal as st_terminal
from skydeck.games.stellarion.describe import face
from skydeck.terminal import action_label, play


def run(lines: list[str], seed: int = 4, **options) -> tuple[str, object]:
    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None)
    game = skydeck.load("stellarion", **options)
    match = play(game, seed, iter(lines), console)
    return out.getvalue(), match


def test_board_shows_observatory_outpost_voyages_and_expansions() -> None:
    text, _ = run(["quit"], expansions=["black_holes", "theories", "mirrors", "glaucous_sun"])
    for piece in (
        "Observatory",
        "Outpost",
        "Shooting Stars",
        "Voyages",
        "left column",
        "Theories",
        "Breakthrough",
        "Glaucous Sun",
        "Player 1 to play",
    ):
        assert piece in text, piece
    assert "Coordinate" in text  # legal actions are listed with readable names


def test_actions_name_the_real_cards() -> None:
    """The menu's line is the game's one description, given the seat's view: it names
    the face-up tops a Coordinate would use; without the view (a log) only their decks."""
    game = skydeck.load("stellarion")
    state = game.new(4)
    view = state.view(0)
    tops = {d["name"]: d["top"] for d in view["decks"]}
    action = next(a for a in state.legal_actions(0) if a.kind == "coordinate")
    label = action_label(game, action, view)
    first_deck = str(action.args[0][0])  # type: ignore[index]
    assert label == game.describe(action, view)
    assert f"the {face(tops[first_deck])}" in label  # 'the Gamma Ship'
    assert f"the {first_deck.capitalize()} top" in game.describe(action)
    assert face(tops[first_deck]) not in game.describe(action)


def test_help_undo_and_a_clear_error() -> None:
    text, match = run(["help", "launch nowhere (a,b,c,d)", "1", "undo", "quit"])
    assert "Type the number of an action" in text
    assert "'launch nowhere (a,b,c,d)' is not a legal action" in text
    # choosing a Coordinate reveals nothing before its power is used: undo takes it back
    assert "Took back: Coordinate" in text
    assert match.record.entries == []  # type: ignore[attr-defined]


def test_a_whole_game_reaches_the_end_screen() -> None:
    text, match = run(["1"] * 3000, seed=9)
    assert match.state.is_over  # type: ignore[attr-defined]
    assert "Game over" in text
    assert ("Won by Player" in text) or ("lost" in text)


def test_command_line_options_and_errors() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    st_terminal.add_arguments(parser)
    args = parser.parse_args(["--expansions", "mirrors,black_holes", "--stars", "2"])
    assert st_terminal.options_from_args(args) == {
        "expansions": ["mirrors", "black_holes"],
        "shooting_stars": 2,
    }
    args = parser.parse_args(["--expansions", "all"])
    assert len(st_terminal.options_from_args(args)["expansions"]) == 4
    proc = subprocess.run(
        [sys.executable, "-m", "skydeck.cli", "play", "stellarion", "--expansions", "wormholes"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "wormholes" in proc.stdout


def test_cli_plays_from_stdin() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "skydeck.cli", "play", "stellarion", "--seed", "3"],
        input="1\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Observatory" in proc.stdout and "Leaving the game" in proc.stdout


def test_the_pending_power_says_what_the_rule_allows() -> None:
    """Issue 49: "Minor Nebula power, 2 use(s) left" where the rule moves one card."""
    from tests.games.stellarion.test_powers import coordinated

    said = {  # what it says of the power, before the cards seen
        (power, major): st_terminal._pending_text(coordinated(power, major).view(0)["pending"])
        .split(": seen")[0]
        .rstrip(".")
        for power in ("ship", "nebula", "stars", "planet")
        for major in (False, True)
    }
    assert said[("nebula", False)] == "Minor Nebula power, take back 1 card from one discard pile"
    assert (
        said[("nebula", True)]
        == "Major Nebula power, take back up to 2 cards from one discard pile"
    )
    assert said[("planet", False)] == "Minor Planet power, move 1 card to the Outpost"
    assert said[("planet", True)] == "Major Planet power, move up to 2 cards to the Outpost"
    assert said[("ship", False)] == "Minor Ship power, 1 search left"
    assert said[("ship", True)] == "Major Ship power, 2 searches left"
    assert said[("stars", True)] == "Major Stars power, 4 looks left"
