"""Regions: the connected components of the adjacency graph, as a label array.

Two tiles are in one region when a chain of adjacent tiles joins them (docs/rules.md
R1): a character on foot can get from one to the other over as many turns as it
takes, whatever the terrain costs on the way (Impeding crossings only end a move).
Tiles that cannot be occupied (Obstructing) belong to no region.  The step classes
come from the per-revision cache of :func:`.adjacency.steps`, so this is the same
adjacency rule the graph, movement and the editor's overlay use.

>>> from sodwa_editor.engine.model import MapModel, Edge
>>> m = MapModel(4, 1)
>>> m.set_terrain(1, 0, m.registry.id_of("obstructing"))
>>> m.set_border(Edge(2, 0, "E"), m.registry.id_of("impeding"))
>>> regions(m).tolist()
[[0, -1, 1, 1]]
>>> region_sizes(regions(m)).tolist()
[1, 2]
"""

from __future__ import annotations

import weakref

import numpy as np
from numba import njit

from . import adjacency as adj
from .model import MapModel

_DX = np.array([d[0] for d in adj.DIRS], np.int64)
_DY = np.array([d[1] for d in adj.DIRS], np.int64)


@njit(cache=True, nogil=True)
def _label(step, occupiable, ddx, ddy, blocked):  # pragma: no cover - compiled
    """Breadth-first labelling in row-major order of each region's first tile."""
    h, w = occupiable.shape
    label = np.full((h, w), -1, np.int32)
    queue = np.empty(h * w, np.int32)
    n = 0
    for y0 in range(h):
        for x0 in range(w):
            if not occupiable[y0, x0] or label[y0, x0] >= 0:
                continue
            label[y0, x0] = n
            queue[0] = y0 * w + x0
            head, tail = 0, 1
            while head < tail:
                k = queue[head]
                head += 1
                y, x = k // w, k % w
                for d in range(8):
                    if step[d, y, x] == blocked:
                        continue
                    nx, ny = x + ddx[d], y + ddy[d]
                    if occupiable[ny, nx] and label[ny, nx] < 0:
                        label[ny, nx] = n
                        queue[tail] = ny * w + nx
                        tail += 1
            n += 1
    return label


_CACHE: weakref.WeakKeyDictionary[MapModel, tuple[int, np.ndarray]] = (
    weakref.WeakKeyDictionary())


def regions(model: MapModel) -> np.ndarray:
    """Region label per tile (int32 ``[y, x]``, ``-1`` = cannot be occupied).

    Implements docs/rules.md R1 on the adjacency rule (A1-A9) for a character on
    foot: labels are ``0..n-1`` numbered in row-major order of each region's first
    (top-left-most) tile, so equal maps give equal arrays.  Cached per
    ``model.revision``; the returned array is read-only.
    """
    hit = _CACHE.get(model)
    if hit is not None and hit[0] == model.revision and hit[1].shape == model.shape:
        return hit[1]
    s = adj.steps(model)
    occupiable = s.inputs.tile != adj.BLOCKED
    label = _label(s.step, occupiable, _DX, _DY, adj.BLOCKED)
    label.flags.writeable = False
    _CACHE[model] = (model.revision, label)
    return label


def region_sizes(label: np.ndarray) -> np.ndarray:
    """Number of tiles of each region of a :func:`regions` array (index = label)."""
    return np.bincount(label[label >= 0].ravel(), minlength=int(label.max()) + 1)
