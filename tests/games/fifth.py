"""The template copied as a fifth game, touching only its own folder (issue 47): shared
by the tests that show such a copy works in every front (tests/games/test_template.py)
and in the browser (tests/web/test_template_page.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import skydeck.games

TEMPLATE = Path(skydeck.games.__file__).parent / "_template"


@contextmanager
def copied_template(root: Path, game_id: str = "fifth", title: str = "Fifth") -> Iterator[str]:
    """The template copied as the game ``game_id`` in a folder of its own under
    ``root``, which joins the games' package path (as a folder dropped into ``games/``
    would) until the block ends."""
    folder = root / game_id
    shutil.copytree(TEMPLATE, folder)
    game_py = folder / "game.py"
    game_py.write_text(
        game_py.read_text()
        .replace('id = "template"', f'id = "{game_id}"')
        .replace('title = "High Card"', f'title = "{title}"')
    )
    skydeck.games.__path__.append(str(root))
    saved = skydeck.games._FOUND
    skydeck.games._FOUND = None
    try:
        yield game_id
    finally:
        skydeck.games.__path__.remove(str(root))
        skydeck.games._FOUND = saved
