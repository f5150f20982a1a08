"""Adjacency graph preview: a line between the centres of every adjacent pair
of tiles (dark blue clear, dark vermillion impeded) and a black tick across
every pair of neighbours that is *not* adjacent (walls, diagonal walls,
elevation changes), all on a white halo.

Shown with the LoS fan, the graph leaves out the clear pairs (a pair without a
mark is adjacent): their lines, as dark and as diagonal as the fan's hatching,
made both unreadable on a busy map; the ticks and the impeded pairs, the
graph's news, stay.

Pair classes come from the engine's adjacency rule
(:func:`sodwa_editor.engine.adjacency.pair_classes`, the same vectorised rule
the :class:`~sodwa_editor.engine.adjacency_graph.AdjacencyGraph` is built from),
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
from .layers import CHUNK, ChunkedPathLayer, full_rect

TICK = 0.2  # half length of a "not adjacent" tick, in tiles
#: forward pairs: field, offset of the first tile in its 2x2 block, step to the second
FORWARD = (("e", (0, 0), (1, 0)), ("s", (0, 0), (0, 1)),
           ("se", (0, 0), (1, 1)), ("sw", (1, 0), (-1, 1)))
#: the same as the kernel's arrays: (fx, fy, dx, dy) and the half vector of a tick
_FORWARD = np.array([(fx, fy, dx, dy) for _n, (fx, fy), (dx, dy) in FORWARD], np.float64)
_TICKS = np.array([(-dy / (dx * dx + dy * dy) ** 0.5 * TICK, dx / (dx * dx + dy * dy) ** 0.5 * TICK)
                   for _n, _f, (dx, dy) in FORWARD], np.float64)


#: maps up to this many tiles a side draw the graph in 4x4-tile chunks (none:
#: drawn in planes, a chunk is up to six items, and such small chunks cost more
#: in items than they save in lines; see GraphLayer.bind)
TINY_CHUNKS_UP_TO = 0
#: maps up to this many tiles a side draw the graph in 8x8-tile chunks
SMALL_CHUNKS_UP_TO = 64

Window = tuple[Rect, Any]  # a window of tiles and the adjacency rule's pair classes in it


def pair_lines(model: MapModel, rect: Rect,
               window: Window | None = None) -> dict[int, list[np.ndarray]]:
    """Segments (tile units) per Crossing for the pairs whose 2x2 block has its
    top-left tile in ``rect``: centre-to-centre for adjacent pairs, a tick
    across the middle for blocked ones.  ``window``: the pair classes of a
    window holding ``rect`` and one tile more (a pair's class depends on its
    2x2 block only), else they are computed for that."""
    from ...engine.adjacency import pair_classes

    need = Rect(rect.x0, rect.y0, min(rect.x1 + 1, model.width - 1),
                min(rect.y1 + 1, model.height - 1))
    if window is None or not _holds(window[0], need):
        window = (need, pair_classes(model, rect=need))
    win, pc = window
    oy, ox = rect.y0 - win.y0, rect.x0 - win.x0
    limit = (rect.y1 - rect.y0 + 1, rect.x1 - rect.x0 + 1)
    cut = np.s_[oy:oy + limit[0], ox:ox + limit[1]]
    segs = pair_segments((pc.e[cut], pc.s[cut], pc.se[cut], pc.sw[cut]), limit, _FORWARD,
                         _TICKS, rect.x0, rect.y0, len(Crossing))
    assert int(Crossing.BLOCKED) == len(Crossing) - 1  # the kernel ticks the last class
    return {int(c): [segs[int(c)]] if len(segs[int(c)]) else [] for c in Crossing}


def _holds(outer: Rect, inner: Rect) -> bool:
    return (outer.x0 <= inner.x0 and outer.y0 <= inner.y0 and outer.x1 >= inner.x1
            and outer.y1 >= inner.y1)


class GraphLayer(ChunkedPathLayer):
    layers = frozenset({"terrain", "elevation", "transition", "borders", "transition_borders"})
    grow = 0  # the blocks an edit can change are found by refresh
    lazy = True
    min_px = 6.0  # too dense to read below that
    planed = True  # a chunk's halos never cover another chunk's lines

    def plane(self, style: Any, pen: int) -> int:
        """Clear pairs' halos, then their lines, then the impeded pairs' halos and
        lines, then the ticks' (the order one chunk draws them in), each over
        every chunk."""
        return 2 * int(style) + pen

    def bind(self, model: MapModel) -> None:
        """Chunks of 8x8 tiles on maps up to SMALL_CHUNKS_UP_TO a side, 16x16
        above.  The graph's pens are cosmetic, so the pixmap of a chunk an edit
        touches is drawn again whole (see PathChunk.set_groups), and the
        smaller the chunk the less a stroke step draws; but each chunk is up to
        six items (its planes), and the fewer the items, the less a repaint
        and a stroke step cost (bench/editor_latency.py, ABBA pairs: with
        planes, 16x16 chunks on 128x128 were faster than 8x8, and 8x8 on 64x64
        than 4x4, which 8f7fa07 had chosen for one item per chunk)."""
        side = max(model.shape)
        self.chunk = (CHUNK // 4 if side <= TINY_CHUNKS_UP_TO
                      else CHUNK // 2 if side <= SMALL_CHUNKS_UP_TO else CHUNK)
        super().bind(model)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._window: Window | None = None  # pair classes of the chunks being rebuilt
        #: shown with the LoS fan: the clear pairs are left out (see the module docstring)
        self.with_fan = False

    def set_with_fan(self, on: bool) -> None:
        """Leave the clear pairs out (``on``: the LoS fan is shown) or draw them."""
        if on == self.with_fan:
            return
        self.with_fan = on
        if self.model is not None:
            self.refresh(None)  # (a hidden layer only notes that it is stale)

    def refresh(self, rect: Rect | None) -> None:
        """Rebuild the chunks holding the pairs an edit of ``rect`` can change,
        with the adjacency rule run once on all of them (a stroke step on a
        chunk's first row or column touches two to four chunks).

        A pair's class depends on its 2x2 block only, and the pairs are kept
        with the block's top-left tile: the blocks holding a tile of ``rect``
        start one tile up and left of it, not one beyond its far side (a
        tile on a chunk's last column rebuilds that chunk alone)."""
        m = self.model
        if m is not None and rect is not None:
            rect = Rect(max(0, rect.x0 - 1), max(0, rect.y0 - 1), rect.x1, rect.y1)
        if m is not None and self.isVisible():
            r = full_rect(m) if rect is None else rect
            n = self.chunk
            win = Rect(r.x0 // n * n, r.y0 // n * n, min(m.width - 1, (r.x1 // n + 1) * n),
                       min(m.height - 1, (r.y1 // n + 1) * n))
            from ...engine.adjacency import pair_classes

            self._window = (win, pair_classes(m, rect=win))
        try:
            super().refresh(rect)
        finally:
            self._window = None

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[Any, list[np.ndarray]]:
        lines = pair_lines(model, rect, self._window)
        if self.with_fan:
            lines[int(Crossing.CLEAR)] = []
        return lines

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
