"""docs/rl.md documents each game's action blocks and observation pieces: every block
and piece the code makes is named there (sizes follow the content files, so the test
checks the names; ``skydeck.rl.describe`` regenerates the tables)."""

from __future__ import annotations

from pathlib import Path

import pytest

import skydeck
from skydeck.encoding import tables

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
DOCUMENTED = [
    ("stellarion", {"players": 1}),
    ("stellium", {"players": 2}),
    ("expedition", {"players": 2}),
    ("conflict", {"players": 2}),
]


@pytest.mark.parametrize(("game", "options"), DOCUMENTED)
def test_docs_name_every_block_and_piece(game: str, options: dict[str, int]) -> None:
    g = skydeck.load(game, **options)
    text = DOC.read_text()
    section = text[text.index(f"### {g.title} (") :]
    end = section.find("\n### ", 4)  # the next game's heading
    section = section if end < 0 else section[:end]
    assert f"Options {{'players': {options['players']}" in section
    catalogue, observer = tables(g)
    for name, *_ in catalogue.describe():
        assert f"| {name} |" in section, name
    for name, *_ in observer.describe():
        assert f"| {name} |" in section, name
