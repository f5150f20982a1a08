"""The adjacency graph: every adjacent pair of tiles (:mod:`.adjacency`'s rule) as a
networkx graph whose edges carry the crossing class and its reason, patched in
place when the map changes (an edit re-runs the rule on the edited window only).

>>> from sodwa_editor.engine.model import MapModel, Edge
>>> m = MapModel(3, 1)
>>> m.set_border(Edge(0, 0, "E"), m.registry.id_of("impeding"))
>>> AdjacencyGraph(m).graph.edges[(1, 0), (2, 0)]
{'crossing': 'clear', 'reason': ''}
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from itertools import islice
from typing import NoReturn

import networkx as nx
import numpy as np

from .adjacency import (
    _FORWARD,
    BLOCKED,
    CLEAR,
    DIRS,
    IMPEDED,
    LABELS,
    _pairs,
    _Reasons,
    _spread,
    pair_classes,
    steps,
)
from .model import Change, MapModel, Rect


class ReadOnlyAttrs(dict):
    """Attribute dict of an :class:`AdjacencyGraph` node or edge.  Equal attribute
    dicts are shared (all clear edges share one), so they are read-only; copies
    (``dict(a)``, ``a.copy()``, ``graph.copy()``, ``copy.deepcopy``, pickle) are
    ordinary dicts."""

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("AdjacencyGraph attributes are shared and read-only; "
                        "annotate a copy (graph.copy())")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _read_only
    __ior__ = _read_only

    def copy(self) -> dict:
        return dict(self)

    def __reduce__(self) -> tuple:
        return (dict, (dict(self),))


CLEAR_ATTRS = ReadOnlyAttrs(crossing="clear", reason="")


class AdjacencyGraph:
    """The adjacency graph of a map, kept up to date with the model.

    ``graph`` (a :class:`networkx.Graph`) has a node per tile ``(x, y)`` with
    attributes ``terrain`` and ``elevation``, and an edge per adjacent pair with
    attributes ``crossing`` (``"clear"`` or ``"impeded"``) and ``reason`` (``""``
    when clear).  Its attribute dicts are shared and read-only (annotate a
    ``graph.copy()`` instead).  The graph is patched in place after every model
    change that can affect adjacency: only the pairs with both tiles in the
    changed rectangle grown by one tile are recomputed.  The listener holds the
    graph weakly, so an unused ``AdjacencyGraph`` is simply garbage collected.
    """

    #: Model layers that cannot change adjacency.
    IGNORED_LAYERS = frozenset({"characters", "objects", "start_zones", "indoor", "setting"})

    def __init__(self, model: MapModel, *, listen: bool = True) -> None:
        self.model = model
        self.graph = nx.Graph()
        self.rebuild()
        self._listener = _weak_listener(self, model) if listen else None
        if self._listener is not None:
            model.add_listener(self._listener)

    def close(self) -> None:
        """Stop following the model."""
        if self._listener is not None:
            self.model.remove_listener(self._listener)
            self._listener = None

    def on_change(self, change: Change) -> None:
        if change.layer in self.IGNORED_LAYERS:
            return
        m, r = self.model, change.rect
        if (r is None or self.graph.number_of_nodes() != m.width * m.height
                or (r.x1 - r.x0 + 3) * (r.y1 - r.y0 + 3) * 8 > m.width * m.height):
            self.rebuild()
        else:
            self.patch(r)

    def rebuild(self) -> None:
        """Rebuild the whole graph: networkx's adjacency dicts are assembled in bulk (one
        ``dict`` per tile from numpy pair tables) with the garbage collector paused."""
        gc_on = gc.isenabled()
        gc.disable()
        try:
            self._rebuild()
        finally:
            if gc_on:
                gc.enable()

    def _rebuild(self) -> None:
        m, g = self.model, self.graph
        w, h = m.width, m.height
        nodes = list(zip(np.tile(np.arange(w), h).tolist(),
                         np.repeat(np.arange(h), w).tolist(), strict=True))
        keys, inverse = np.unique(m.terrain.astype(np.int32) * 256 + m.elevation,
                                  return_inverse=True)
        kinds = [ReadOnlyAttrs(terrain=k // 256, elevation=k % 256) for k in keys.tolist()]
        attrs = map(kinds.__getitem__, inverse.ravel().tolist())
        pc = steps(m).pairs
        # Number the adjacent forward pairs; one data dict per pair, shared by both ends.
        ids, n_edges = [], 0
        for name, *_ in _FORWARD:
            ok = getattr(pc, name) != BLOCKED
            idx = np.full(ok.shape, -1, np.int64)
            idx[ok] = np.arange(n_edges, n_edges := n_edges + int(ok.sum()))
            ids.append(idx)
        datas = [CLEAR_ATTRS] * n_edges
        reason = _Reasons(m, False)
        for (name, (fx, fy), (dx, dy)), idx in zip(_FORWARD, ids, strict=True):
            cls = getattr(pc, name)
            ys, xs = np.nonzero(cls == IMPEDED)
            for k, x, y, why in zip(idx[ys, xs].tolist(), (xs + fx).tolist(),
                                    (ys + fy).tolist(),
                                    getattr(pc, "why_" + name)[ys, xs].tolist(), strict=True):
                datas[k] = ReadOnlyAttrs(
                    crossing="impeded", reason=reason((x, y), (x + dx, y + dy), IMPEDED, why))
        # Tile-major, direction-minor table of pair ids: already grouped by tile.
        table = _spread(ids[0], ids[1], ids[2], ids[3], (h, w), -1, np.int64).reshape(8, -1).T
        ok = table >= 0
        offsets = np.array([dy * w + dx for dx, dy in DIRS], np.int64)
        dst = (np.arange(w * h)[:, None] + offsets)[ok].tolist()
        pairs = zip(map(nodes.__getitem__, dst), map(datas.__getitem__, table[ok].tolist()),
                    strict=True)
        inner = [dict(islice(pairs, k)) for k in ok.sum(axis=1).tolist()]
        g._node.clear()
        g._node.update(zip(nodes, attrs, strict=True))
        g._adj.clear()
        g._adj.update(zip(nodes, inner, strict=True))
        nx._clear_cache(g)

    def patch(self, rect: Rect) -> None:
        """Recompute the pairs with both tiles in ``rect`` grown by one tile."""
        m, adj = self.model, self.graph._adj
        for y in range(rect.y0, rect.y1 + 1):
            for x in range(rect.x0, rect.x1 + 1):
                self.graph._node[(x, y)] = ReadOnlyAttrs(terrain=int(m.terrain[y, x]),
                                                         elevation=int(m.elevation[y, x]))
        win = rect.grow(1, m.width, m.height)
        reason = _Reasons(m, False)
        for a, b, c, why in _pairs(pair_classes(m, rect=win), None, win.x0, win.y0):
            if c == BLOCKED:
                if b in adj[a]:
                    del adj[a][b], adj[b][a]
            else:
                adj[a][b] = adj[b][a] = (CLEAR_ATTRS if c == CLEAR else ReadOnlyAttrs(
                    crossing=LABELS[c], reason=reason(a, b, c, why)))
        nx._clear_cache(self.graph)


def _weak_listener(owner: AdjacencyGraph, model: MapModel) -> Callable[[Change], None]:
    ref, model_ref = weakref.ref(owner), weakref.ref(model)

    def listener(change: Change) -> None:
        if (target := ref()) is not None:
            target.on_change(change)
        elif (mdl := model_ref()) is not None:
            mdl.remove_listener(listener)
    return listener

