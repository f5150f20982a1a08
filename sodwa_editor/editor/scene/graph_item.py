"""Adjacency graph preview: a line between the centres of every adjacent pair
of tiles (dark blue clear, dark vermillion impeded) and a black tick across
every pair of neighbours that is *not* adjacent (walls, diagonal walls,
elevation changes), all on a white halo.

Pair classes come from the engine's adjacency rule
(:func:`sodwa_editor.engine.adjacency.pair_classes`, the same vectorised rule
the :class:`~sodwa_editor.engine.adjacency.AdjacencyGraph` is built from),
computed per 16x16 chunk, so an edit only recomputes the chunks around it.
The layer computes nothing while it is hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtGui import QPen

from ...engine.model import MapModel, Rect
from ...engine.terrain import Crossing
from .. import style
from .kernels import pair_segments
from .layers import ChunkedPathLayer

TICK = 0.2  # half length of a "not adjacent" tick, in tiles
#: forward pairs: field, offset of the first tile in its 2x2 block, step to the second
FORWARD = (("e", (0, 0), (1, 0)), ("s", (0, 0), (0, 1)),
           ("se", (0, 0), (1, 1)), ("sw", (1, 0), (-1, 1)))
#: the same as the kernel's arrays: (fx, fy, dx, dy) and the half vector of a tick
_FORWARD = np.array([(fx, fy, dx, dy) for _n, (fx, fy), (dx, dy) in FORWARD], np.float64)
_TICKS = np.array([(-dy / (dx * dx + dy * dy) ** 0.5 * TICK, dx / (dx * dx + dy * dy) ** 0.5 * TICK)
                   for _n, _f, (dx, dy) in FORWARD], np.float64)


def pair_lines(model: MapModel, rect: Rect) -> dict[int, list[np.ndarray]]:
    """Segments (tile units) per Crossing for the pairs whose 2x2 block has its
    top-left tile in ``rect``: centre-to-centre for adjacent pairs, a tick
    across the middle for blocked ones."""
    from ...engine.adjacency import pair_classes

    win = Rect(rect.x0, rect.y0, min(rect.x1 + 1, model.width - 1),
               min(rect.y1 + 1, model.height - 1))
    pc = pair_classes(model, rect=win)
    limit = (rect.y1 - win.y0 + 1, rect.x1 - win.x0 + 1)
    segs = pair_segments((pc.e, pc.s, pc.se, pc.sw), limit, _FORWARD, _TICKS,
                         win.x0, win.y0, len(Crossing))
    assert int(Crossing.BLOCKED) == len(Crossing) - 1  # the kernel ticks the last class
    return {int(c): [segs[int(c)]] if len(segs[int(c)]) else [] for c in Crossing}


class GraphLayer(ChunkedPathLayer):
    layers = frozenset({"terrain", "elevation", "transition", "borders", "transition_borders"})
    grow = 1
    lazy = True
    min_px = 6.0  # too dense to read below that

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[Any, list[np.ndarray]]:
        return pair_lines(model, rect)

    def pens(self, crossing: Any) -> Sequence[QPen]:
        color = (style.GRAPH_CLEAR, style.GRAPH_IMPEDED, style.GRAPH_BLOCKED)[int(crossing)]
        # integer widths: the raster engine's fast path
        widths = {Crossing.CLEAR: [3, 1], Crossing.IMPEDED: [4, 2], Crossing.BLOCKED: [4, 2]}
        pens = []
        for i, w in enumerate(widths[Crossing(int(crossing))]):
            last = i == len(widths[Crossing(int(crossing))]) - 1
            pen = QPen(color if last else style.HALO, w)
            pen.setCosmetic(True)
            pens.append(pen)
        return pens
