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
from typing import NamedTuple, NoReturn

import networkx as nx
import numpy as np

from .adjacency import (
    _FORWARD,
    BLOCKED,
    CLEAR,
    DIRS,
    IMPEDED,
    LABELS,
    Tile,
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
        """Rebuild the whole graph with the garbage collector paused: each tile's
        neighbour dict is a copy of its all-clear template (:func:`_frame`), from
        which the non-adjacent neighbours are deleted and in which the impeded
        crossings are set, all picked out with numpy."""
        gc_on = gc.isenabled()
        gc.disable()
        try:
            self._rebuild()
        finally:
            if gc_on:
                gc.enable()

    def _rebuild(self) -> None:
        m, g = self.model, self.graph
        frame = _frame(m)
        nodes, w = frame.nodes, m.width
        key = (m.terrain.astype(np.int32) * 256 + m.elevation).ravel()
        keys = np.flatnonzero(np.bincount(key))  # the (terrain, elevation) kinds present
        kind_of = np.zeros(int(keys[-1]) + 1, np.intp)
        kind_of[keys] = np.arange(len(keys))
        kinds = np.empty(len(keys), object)
        kinds[:] = [ReadOnlyAttrs(terrain=k // 256, elevation=k % 256) for k in keys.tolist()]
        attrs = kinds[kind_of[key]].tolist()
        pc = steps(m).pairs
        step = steps(m).step.reshape(8, -1)
        linked = (step != BLOCKED).any(axis=0)  # tiles adjacent to something
        # Each tile's neighbours: a copy of its template ({} when it is adjacent to
        # nothing), less the non-adjacent neighbours, with the impeded crossings set.
        inner = list(map(dict.copy, np.where(linked, frame.full, frame.empty).tolist()))
        tiles, neighbours, _ = _entries(frame, (step == BLOCKED) & frame.inside & linked)
        for i, b in zip(tiles, neighbours, strict=True):
            del inner[i][b]
        # Impeded pairs: one data dict per pair, shared by both ends.
        reason = _Reasons(m, False)
        ids: list[np.ndarray] = []
        datas: list[ReadOnlyAttrs] = []
        for name, (fx, fy), (dx, dy) in _FORWARD:
            cls = getattr(pc, name)
            ys, xs = np.nonzero(cls == IMPEDED)
            ids.append(np.zeros(cls.shape, np.intp))
            ids[-1][ys, xs] = np.arange(len(datas), len(datas) + len(ys))
            datas += [ReadOnlyAttrs(crossing="impeded",
                                    reason=reason(nodes[i], nodes[i + dy * w + dx], IMPEDED, why))
                      for i, why in zip(((ys + fy) * w + xs + fx).tolist(),
                                        getattr(pc, "why_" + name)[ys, xs].tolist(), strict=True)]
        pair = _spread(ids[0], ids[1], ids[2], ids[3], m.shape, 0, np.intp).reshape(8, -1)
        tiles, neighbours, cells = _entries(frame, step == IMPEDED)
        for i, b, k in zip(tiles, neighbours, pair[cells].tolist(), strict=True):
            inner[i][b] = datas[k]
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


class _Frame(NamedTuple):
    """What a whole-map build needs that depends on the map's size only."""

    shape: tuple[int, int]
    nodes: list[Tile]  # row-major
    full: np.ndarray  # (h * w,) object: per tile {in-map neighbour: CLEAR_ATTRS}
    empty: np.ndarray  # (h * w,) object: the same empty dict, for tiles adjacent to nothing
    inside: np.ndarray  # (8, h * w) bool: the neighbour in direction d is on the map
    offsets: np.ndarray  # (8,) flat index step of each direction


_FRAMES: weakref.WeakKeyDictionary[MapModel, _Frame] = weakref.WeakKeyDictionary()


def _frame(model: MapModel) -> _Frame:
    """The model's :class:`_Frame`, kept while the model lives and its size stays (about
    the size of the graph itself: 7 MB at 128x128).  The templates in ``full`` list the
    neighbours in :data:`.adjacency.DIRS` order and are only ever copied (a copy reuses
    the keys' hashes: several times cheaper than building the dict)."""
    frame = _FRAMES.get(model)
    if frame is not None and frame.shape == model.shape:
        return frame
    h, w = model.shape
    xs, ys = np.tile(np.arange(w), h), np.repeat(np.arange(h), w)
    nodes = list(zip(xs.tolist(), ys.tolist(), strict=True))
    inside = np.array([(xs + dx >= 0) & (xs + dx < w) & (ys + dy >= 0) & (ys + dy < h)
                       for dx, dy in DIRS])
    offsets = np.array([dy * w + dx for dx, dy in DIRS], np.int64)
    neighbours = map(nodes.__getitem__,
                     (np.arange(w * h)[:, None] + offsets)[inside.T].tolist())
    full, empty = np.empty(w * h, object), np.empty(w * h, object)
    full[:] = [dict.fromkeys(islice(neighbours, k), CLEAR_ATTRS)
               for k in inside.sum(axis=0).tolist()]
    empty[:] = [{}] * (w * h)
    frame = _FRAMES[model] = _Frame(model.shape, nodes, full, empty, inside, offsets)
    return frame


def _entries(frame: _Frame, where: np.ndarray,
             ) -> tuple[list[int], list[Tile], tuple[np.ndarray, np.ndarray]]:
    """Tiles ``t`` and neighbours (in direction ``d``) of the true ``where[d, t]``
    (``(8, h * w)``), and those ``(d, t)`` cells, tile by tile (memory order: far fewer
    cache misses than direction by direction)."""
    t, d = np.nonzero(where.T)
    return (t.tolist(), list(map(frame.nodes.__getitem__, (t + frame.offsets[d]).tolist())),
            (d, t))


def _weak_listener(owner: AdjacencyGraph, model: MapModel) -> Callable[[Change], None]:
    ref, model_ref = weakref.ref(owner), weakref.ref(model)

    def listener(change: Change) -> None:
        if (target := ref()) is not None:
            target.on_change(change)
        elif (mdl := model_ref()) is not None:
            mdl.remove_listener(listener)
    return listener

