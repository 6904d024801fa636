"""The web page keeps no table keyed by game id (issue 47): each game's drawing, rules
in short, walk-through and panels live in its own ``web`` folder and ``GET /api/games``
names them, so a new game's folder is all the page needs. A game id written in the
page's shared JavaScript or HTML (a key, a string, a comparison) is a fact kept in the
wrong place."""

from __future__ import annotations

import re
from pathlib import Path

import skydeck
from skydeck.registry import game_ids

WEB = Path(skydeck.__file__).parent / "web"


def _offenders(text: str, name: str, ids: list[str]) -> list[str]:
    words = "|".join(map(re.escape, ids))
    # a quoted id ("stellium", 'conflict', `expedition`), or a bare key/method name
    named = re.compile(rf"""["'`]({words})["'`]|^\s*({words})\s*[:(]|[{{,]\s*({words})\s*:""")
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        code = line.split("//", 1)[0] if name.endswith(".js") else line
        if named.search(code):
            found.append(f"{name}:{n}: {line.strip()[:100]}")
    return found


def test_the_shared_page_names_no_game():
    ids = game_ids()
    assert ids, "no game is registered"
    offenders = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix in (".js", ".html"):
            offenders += _offenders(path.read_text(), str(path.relative_to(WEB)), ids)
    assert not offenders, "\n".join(offenders)


def test_the_check_catches_a_table_keyed_by_game_id():
    """The check can fail: the shapes the page used to have are each caught."""
    ids = ["stellium", "conflict"]
    assert _offenders('export const T = { stellium: "Stellium" };', "x.js", ids)
    assert _offenders("  conflict(view, seat) {", "x.js", ids)
    assert _offenders('if (header.game === "conflict") x();', "x.js", ids)
    assert _offenders('const COOPERATIVE = ["stellium"];', "x.js", ids)
    assert not _offenders("// Stellium's drawing, in the conflict phase", "x.js", ids)
    assert not _offenders("const phase = view.conflict_phase;", "x.js", ids)
