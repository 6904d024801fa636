"""docs/architecture.md stays true: every module and folder it names exists."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"


def _named_paths() -> list[str]:
    """Paths of the layout block (folders, and every file name on a line, joined to its
    folder by indentation; deeper lines continue the last folder) and of the prose."""
    text = DOC.read_text()
    layout = text.split("```")[1]
    names = []
    folder: list[str] = []
    for line in layout.splitlines():
        if not line.strip():
            continue
        depth = (len(line) - len(line.lstrip())) // 2
        first = line.split()[0]
        if first.endswith("/") and depth <= len(folder):
            folder = [*folder[:depth], first.rstrip("/")]
            names.append("/".join(folder))
            context = folder
            tokens = line.split()[1:]
        else:
            context = folder[:depth] if depth <= len(folder) else folder
            tokens = line.split()
        for token in tokens:
            token = token.strip("(),:")
            if re.fullmatch(r"\w[\w.]*\.(py|md)", token):
                names.append("/".join([*context, token]))
    for ref in re.findall(r"`((?:core|server|sim|rl|games)/[\w/]+\.py)`", text):
        names.append(f"src/skydeck/{ref}")
    for ref in re.findall(r"`(tests/[\w/]+\.py)`", text):
        names.append(ref)
    return names


def test_the_architecture_page_names_only_what_exists():
    named = _named_paths()
    assert len(named) > 15
    missing = [n for n in named if "<" not in n and not (ROOT / n).exists()]
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_a_wrong_path_would_be_caught(tmp_path, monkeypatch):
    fake = tmp_path / "architecture.md"
    fake.write_text(DOC.read_text().replace("capabilities.py", "abilities.py", 1))
    monkeypatch.setattr(sys.modules[__name__], "DOC", fake)
    named = _named_paths()
    assert any(n.endswith("abilities.py") and not (ROOT / n).exists() for n in named)
