"""The package's import graph, built from the source: every ``import`` of a skydeck
module, those inside functions included (they run too, only later), those under
``if TYPE_CHECKING:`` left out (they never run), and for an import of a submodule from
outside its package the package itself too (importing ``skydeck.rl.match`` runs
``skydeck/rl/__init__.py`` first).

The layers are ``core <- games <- {agents, sim, rl, server, cli, ...}``: core imports
nothing above it, a game imports core and its own package, never another game. Issue 47
asks for no cycle and no import against the layers: the last cycles (Stellarion's
lookahead/pimc/solve; agents.policy -> rl.train -> agents) are gone, so any cycle fails.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

#: Imports against the layers, as of issue 46's session.
KNOWN_AGAINST_LAYERS: set[tuple[str, str]] = set()


def _modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "skydeck").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of the imports under ``if TYPE_CHECKING:``."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if isinstance(sub, ast.Import | ast.ImportFrom):
                        lines.add(sub.lineno)
    return lines


def import_graph() -> dict[str, set[str]]:
    """Module -> the skydeck modules it imports (a name imported from a package counts
    as its submodule when it is one, else as the package)."""
    modules = _modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        skip = _type_checking_only(tree)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found: set[str | None] = set()
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skip:
                continue
            if isinstance(node, ast.Import):
                found.update(known(a.name) for a in node.names if a.name.startswith("skydeck"))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    target = node.module or ""
                if target.split(".")[0] != "skydeck":
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    found.add(sub if sub in modules else known(target))
        found.discard(None)
        found.discard(module)
        imported = {m for m in found if m is not None}
        graph[module] = imported | {
            p for m in imported for p in _packages(m) if p in modules and not _inside(module, p)
        }
    return graph


def _packages(module: str) -> list[str]:
    """The packages below ``skydeck`` that importing ``module`` runs first."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(2, len(parts))]


def _inside(module: str, package: str) -> bool:
    """Whether ``module`` is ``package`` or one of its modules: those run while the
    package's ``__init__`` imports them, the ordinary shape of a package, no cycle."""
    return module == package or module.startswith(package + ".")


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.add(frozenset(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in graph:
            if v not in index:
                visit(v)
    finally:
        # Put it back: the server's tests rely on the default limit to refuse JSON
        # nested too deeply, and they may run in this process next.
        sys.setrecursionlimit(limit)
    return out


def _layer(module: str) -> int:
    if module.startswith("skydeck.core"):
        return 0
    if module.startswith("skydeck.games"):
        return 1
    return 2


def against_layers(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Imports of a higher layer, and of one game by another."""
    out = set()
    for module, targets in graph.items():
        for target in targets:
            if _layer(target) > _layer(module) or (
                _layer(module) == _layer(target) == 1
                and target != "skydeck.games"
                and module.split(".")[2:3] != target.split(".")[2:3]
            ):
                out.add((module, target))
    return out


def test_the_graph_sees_imports_inside_functions_and_not_type_checking_ones():
    graph = import_graph()
    # core.registry imports the games inside a function (issue 47's hidden cycle)
    assert "skydeck.games" in graph["skydeck.registry"]
    # server.ai imports Settings under TYPE_CHECKING only
    assert "skydeck.server.settings" not in graph["skydeck.server.ai"]
    assert "skydeck.server.guard" in graph["skydeck.server.app"]


def test_the_graph_counts_the_package_an_import_from_outside_runs():
    graph = import_graph()
    # encoding imports skydeck.core.catalogue, a submodule: skydeck/core/__init__.py
    # runs first
    assert "skydeck.core" in graph["skydeck.encoding"]
    # a module inside a package does not count its own package (that is no cycle)
    assert "skydeck.rl" not in graph["skydeck.rl.match"]


def test_cycles_finds_a_cycle_and_only_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {frozenset("abc")}
    assert cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == set()


def test_no_import_cycle():
    found = cycles(import_graph())
    assert not found, f"import cycles (imports inside functions count): {found}"


def test_no_new_import_against_the_layers_and_each_known_one_still_listed():
    found = against_layers(import_graph())
    new = found - KNOWN_AGAINST_LAYERS
    assert not new, f"imports against core <- games <- the rest: {sorted(new)}"
    gone = KNOWN_AGAINST_LAYERS - found
    assert not gone, f"these are gone: take them off KNOWN_AGAINST_LAYERS: {gone}"
