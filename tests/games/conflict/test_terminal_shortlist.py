"""The terminal shows a shortlist of placements while deploying; every number plays."""

from __future__ import annotations

import io

from rich.console import Console

import skydeck
from skydeck.terminal import play


def test_shortlist_hides_the_grid_but_any_number_plays() -> None:
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None)
    game = skydeck.load("conflict", players=2)
    lines = iter(["ready", "ready", "2", "quit"])  # both seats ready, then grid spot #2
    match = play(game, 1, lines, console)
    text = out.getvalue()
    assert "more legal actions: any number 1-" in text
    placed = [e.action for e in match.record.entries if e.action.kind == "place"]
    assert placed, "the hidden number 2 must still play a placement"
    shown_rows = [line for line in text.splitlines() if "facing" in line]
    assert 0 < len(shown_rows) < 40  # a shortlist, not the ~300-row grid
