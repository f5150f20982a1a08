"""Architecture contracts: the engine, battle and io layers never import Qt; layers
depend one way (editor -> io -> battle -> engine); no module imports itself through
others (an ast walk of the import graph); the editor's views never import the main
window."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "sodwa_editor"
QT_ROOTS = {"PySide6", "PyQt5", "PyQt6", "qtpy", "shiboken6"}


def imported_roots(path: Path) -> set[str]:
    """Top-level module names a source file imports (absolute and relative)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                names.add(node.module)
            elif node.level:
                pkg = path.parent.relative_to(PACKAGE.parent).parts
                base = pkg[: len(pkg) - node.level + 1]
                names.add(".".join([*base, *(node.module.split(".") if node.module else [])]))
    return names


def layer_files(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", ["engine", "battle", "io"])
def test_engine_battle_and_io_import_no_qt(layer):
    offenders = {
        str(p.relative_to(PACKAGE.parent)): sorted(n for n in imported_roots(p)
                                                     if n.split(".")[0] in QT_ROOTS)
        for p in layer_files(layer)
    }
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.parametrize(("layer", "forbidden"), [("engine", ("battle", "io", "editor", "cli")),
                                                  ("battle", ("io", "editor", "cli")),
                                                  ("io", ("editor", "cli"))])
def test_dependencies_point_one_way(layer, forbidden):
    bad = {}
    for p in layer_files(layer):
        hits = [n for n in imported_roots(p)
                if any(n.startswith(f"sodwa_editor.{f}") for f in forbidden)]
        if hits:
            bad[str(p)] = hits
    assert bad == {}


def test_importing_engine_battle_and_io_loads_no_qt_module():
    code = (
        "import sys, sodwa_editor.engine.los, sodwa_editor.engine.model, sodwa_editor.io;"
        "import pkgutil, importlib, sodwa_editor.engine as e, sodwa_editor.io as i;"
        "import sodwa_editor.battle as b;"
        "[importlib.import_module(m.name) for p in (e, b, i) for m in "
        "pkgutil.walk_packages(p.__path__, p.__name__ + '.')];"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(QT_ROOTS)!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_package_data_links_point_at_the_top_level_schemas_and_resources():
    """schemas/ and resources/ stay at the repository top; the package reaches them
    through sodwa_editor/data links that a wheel turns into copies (pyproject
    package-data; checked by hand with ``pip wheel .`` and a fresh venv)."""
    import tomllib

    from sodwa_editor.editor.roster import ROSTER_PATH
    from sodwa_editor.io.schemas import SCHEMA_DIR

    root = PACKAGE.parent
    assert SCHEMA_DIR.resolve() == root / "schemas"
    assert ROSTER_PATH.resolve() == root / "resources" / "roster.json"
    data = tomllib.loads((root / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["sodwa_editor"]
    for pattern in patterns:
        assert list(PACKAGE.glob(pattern)), pattern
    assert {p.name for p in PACKAGE.glob("data/schemas/*.json")} == {
        "ai-profile.schema.json", "map.schema.json", "mappack.schema.json",
        "replay.schema.json", "roster.schema.json", "rules.schema.json", "scenario.schema.json",
        "stamp-library.schema.json", "team.schema.json", "battle-log.schema.json"}
    assert {p.name for p in PACKAGE.glob("data/resources/*.json")} == {
        "ai-profile.json", "ai-profile-terrain.json", "roster.json", "rules.json"}


# ------------------------------------------------------------------ import graph
def module_name(path: Path, root: Path = PACKAGE) -> str:
    """``sodwa_editor/editor/docks/layers.py`` -> ``sodwa_editor.editor.docks.layers``
    (a package is its ``__init__``)."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports: every ``import`` and
    ``from ... import`` anywhere in the file (at the top, inside a function, under
    ``TYPE_CHECKING``), each resolved to the longest module of the package it names
    (``from .docks import layers`` -> ``...docks.layers``; ``from ..io import
    read_map`` -> ``...io``).  ``from . import kernels`` names the submodule only: the
    parent package is imported first for every submodule import alike (``from
    .kernels import x`` too), so it is no edge of its own."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: list[str] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                targets += [f"{module}.{alias.name}" if f"{module}.{alias.name}" in files
                            else module for alias in node.names]
        edges = set()
        for target in targets:
            while target and target not in files:
                target = target.rpartition(".")[0]
            if target and target != name:
                edges.add(target)
        graph[name] = edges
    return graph


def import_cycles(graph: dict[str, set[str]], within: str = "") -> list[list[str]]:
    """The import circles (strongly connected components of more than one module)
    among the modules whose names start with ``within``, largest first."""
    import networkx as nx

    g = nx.DiGraph()
    for name, edges in graph.items():
        if name.startswith(within):
            g.add_node(name)
            g.add_edges_from((name, t) for t in edges if t.startswith(within))
    cycles = [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1]
    return sorted(cycles, key=lambda c: (-len(c), c))


def test_the_import_graph_sees_lazy_and_type_checking_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    from .sub.b import B\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .. import a\n    from ..c import x\n")
    (pkg / "c.py").write_text("import pkg.sub\n")
    graph = import_graph(pkg)
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.a", "pkg.c"}
    assert graph["pkg.c"] == {"pkg.sub"}
    assert import_cycles(graph) == [["pkg.a", "pkg.sub.b"]]
    assert import_cycles(graph, within="pkg.sub") == []


#: The modules checked for import circles: the whole package (issue 23).
CIRCLE_FREE = "sodwa_editor"


def test_no_import_circle():
    """No module imports itself through others (lazy imports and ``TYPE_CHECKING``
    imports count: a circle of types is a circle of knowledge)."""
    assert import_cycles(import_graph(), within=CIRCLE_FREE) == []


#: Views and controllers that take the models they show, never the main window.
VIEWS = ("docks", "tools", "scene", "playtest", "balance")


def test_views_never_import_the_main_window():
    """Docks, tools, scene items, playtest panels and the balance dialog take their
    models (a document, the editing state, a playtest model...) and talk by signals;
    only the playtest controller that enters the mode may know the window
    (``TYPE_CHECKING`` imports count)."""
    graph = import_graph()
    window = "sodwa_editor.editor.main_window"
    allowed = {"sodwa_editor.editor.playtest.mode"}
    offenders = sorted(
        name for name, edges in graph.items() if window in edges and name not in allowed
        and any(name.startswith(f"sodwa_editor.editor.{v}") for v in VIEWS))
    assert offenders == []
