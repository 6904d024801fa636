"""The methods a server or a search calls on every move import nothing when they run.

An import statement inside a function runs on every call; for a module that is not a
package it also looks up the module's ``__path__``, raising and dropping an
AttributeError each time (about 600 ns; it was 3% of the server's instructions a
Stellium move before the imports moved to the modules' tops)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "src" / "skydeck" / "games"
#: Called once or more on every move by the server, the agents or the simulations.
HOT = {
    "apply",
    "_apply",
    "validate",
    "accepts",
    "legal_actions",
    "describe",
    "describe_event",
    "view",
    "from_view",
    "resample",
    "clone",
    "settle",
}


def _hot_methods() -> list[tuple[str, ast.FunctionDef]]:
    out = []
    for path in sorted(GAMES.glob("*/*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef) and fn.name in HOT:
                    out.append((f"{path.parent.name}/{path.name}:{cls.name}.{fn.name}", fn))
    return out


def test_the_games_have_hot_methods_to_check() -> None:
    names = {name.split(":")[1] for name, _ in _hot_methods()}
    assert {"StelliumState.view", "StelliumGame.describe", "StellarionGame.from_view"} <= names


def _id(value: object) -> str:
    return value if isinstance(value, str) else ""


@pytest.mark.parametrize(("where", "fn"), _hot_methods(), ids=_id)
def test_a_hot_method_imports_nothing_when_it_runs(where: str, fn: ast.FunctionDef) -> None:
    inner = [n for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not inner, f"{where} imports at line {inner[0].lineno}: import at the module's top"
