"""Terminal play driven by scripted input, as a person would type it."""

from __future__ import annotations

import io

from rich.console import Console

from skydeck.bench import bench_game
from skydeck.core import Rng
from skydeck.terminal import play
from tests.core.toygame import ToyGame


def run(lines: list[str], **kw) -> tuple[str, object]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    match = play(ToyGame(players=2), 3, iter(lines), console, **kw)
    return out.getvalue(), match


def test_numbers_help_undo_and_errors() -> None:
    text, match = run(["help", "0", "99", "mark 1", "undo", "bogus ((", "1", "quit"])
    assert "Type the number of an action" in text
    assert "Choose a number from 1 to" in text
    assert "Took back: mark 1" in text
    assert "bad" in text or "unclosed" in text
    assert len(match.record.entries) == 1
    assert match.record.entries[0].action.kind == "play"


def test_a_whole_game_against_the_ai_ends_with_a_score_screen() -> None:
    rng = Rng(0)
    ai = {1: lambda view, actions, seat: rng.choice([a for a in actions if a.kind == "play"])}
    text, match = run(["1"] * 40, ai=ai)
    assert match.state.is_over
    assert "Game over" in text
    assert "(AI)" in text


def test_save_writes_a_record(tmp_path) -> None:
    path = tmp_path / "rec.json"
    text, _ = run(["1", f"save {path}", "quit"])
    assert path.exists() and "Saved the match record" in text


def test_bench_reports_figures() -> None:
    result = bench_game(ToyGame(players=2), seconds=0.2)
    assert result.games >= 1 and result.steps >= result.games
    assert result.steps_per_s > 0 and result.clone_us > 0


def test_a_clock_action_is_never_offered_in_the_terminal() -> None:
    """Stellium's 5-second draw is the web server's clock: the terminal lists only the
    draws a player chooses."""
    import skydeck

    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    play(skydeck.load("stellium", players=2), 3, iter(["quit"]), console)
    text = out.getvalue()
    assert "draw" in text
    assert "timeout" not in text and "Time is up" not in text


def test_every_game_names_its_moves_in_one_place() -> None:
    """A move is described once, by ``Game.describe`` (given the seat's view for a menu):
    no game's terminal module keeps a second description of its actions."""
    from skydeck.registry import game_ids
    from skydeck.terminal import game_terminal

    for game_id in game_ids():
        module = game_terminal(game_id)
        assert module is None or not hasattr(module, "label"), f"{game_id}: terminal.label"
