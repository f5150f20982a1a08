"""The batch modules import one way (issue 22): :mod:`.battle.batch` imports its
backends (:mod:`.battle.batch_pool`, :mod:`.battle.batch_ray`) and what they share
(:mod:`.battle.batch_play`); no backend imports ``batch``, and no import circle of
the package passes through a batch module -- imports inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "sodwa_editor"


def module_name(path: Path) -> str:
    parts = list(path.with_suffix("").relative_to(PACKAGE.parent).parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> nx.DiGraph:
    """Module -> module it imports, anywhere in its source (functions too)."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [source, *(f"{source}.{a.name}" for a in node.names)]
            else:
                continue
            graph.add_edges_from((name, t) for t in targets if t in modules and t != name)
    return graph


def test_no_import_circle_passes_through_a_batch_module():
    graph = import_graph()
    batch = sorted(n for n in graph if n.startswith("sodwa_editor.battle.batch"))
    assert {"sodwa_editor.battle.batch", "sodwa_editor.battle.batch_play",
            "sodwa_editor.battle.batch_pool", "sodwa_editor.battle.batch_ray"} <= set(batch)
    circles = {}
    for name in batch:
        back = [t for t in graph.successors(name) if nx.has_path(graph, t, name)]
        if back:
            circles[name] = back
    assert circles == {}
    for backend in ("batch_pool", "batch_ray", "batch_play"):
        assert "sodwa_editor.battle.batch" not in \
            nx.descendants(graph, f"sodwa_editor.battle.{backend}")
