"""Line segments of the adjacency graph preview, from the engine's
:class:`~sodwa_editor.engine.adjacency.AdjacencyGraph` and its blocked pairs."""

from __future__ import annotations

from PySide6.QtCore import QLineF

from ..engine.model import MapModel
from .style import TILE

TICK = 0.18  # half length of a "not adjacent" tick, in tiles


def graph_lines(model: MapModel) -> dict[str, list[QLineF]]:
    from ..engine.adjacency import AdjacencyGraph, blocked_pairs

    out: dict[str, list[QLineF]] = {"clear": [], "impeded": [], "blocked": []}
    graph = AdjacencyGraph(model).graph
    for a, b, crossing in graph.edges(data="crossing"):
        kind = "impeded" if str(crossing) in ("impeded", "1", "Crossing.IMPEDED") else "clear"
        out[kind].append(QLineF((a[0] + 0.5) * TILE, (a[1] + 0.5) * TILE,
                                (b[0] + 0.5) * TILE, (b[1] + 0.5) * TILE))
    for pair in blocked_pairs(model):
        a, b = pair[0], pair[1]
        mx, my = (a[0] + b[0] + 1) / 2, (a[1] + b[1] + 1) / 2
        dx, dy = b[0] - a[0], b[1] - a[1]
        # tick perpendicular to the pair direction
        px, py = -dy, dx
        norm = (px * px + py * py) ** 0.5 or 1
        px, py = px / norm * TICK, py / norm * TICK
        out["blocked"].append(QLineF((mx - px) * TILE, (my - py) * TILE,
                                     (mx + px) * TILE, (my + py) * TILE))
    return out
