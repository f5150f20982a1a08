"""Architecture contracts: the engine, battle and io layers never import Qt, and layers
depend one way (editor -> io -> battle -> engine)."""

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
        "replay.schema.json", "roster.schema.json", "rules.schema.json", "team.schema.json"}
    assert {p.name for p in PACKAGE.glob("data/resources/*.json")} == {
        "ai-profile.json", "roster.json", "rules.json"}
