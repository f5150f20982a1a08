"""The LoS fan of one source kept up to date across edits, recomputing only
the targets whose line an edit can affect.

Every feature a line of sight reads (rulebook *Line of Sight*; docs/rules.md
L1-L11) belongs to a tile or to an edge or corner of it: the tile's terrain,
elevation, occupant and object, and the borders on its sides.  All of them lie
in the tile's closed square, so an edit inside a rectangle of tiles changes
only the lines from the source's centre that touch that closed rectangle (the
"shadow cone" of the edit), plus the adjacency exception around the source.
A change the tracker cannot place (a bulk change, the map setting, the terrain
types) recomputes the whole fan; edits of start zones and map properties do
not touch LoS and recompute nothing.

>>> from sodwa_editor.engine.model import MapModel
>>> m = MapModel(9, 1)
>>> t = FanTracker(m)
>>> t.fan((0, 0)).tolist()
[[0, 0, 0, 0, 0, 0, 0, 0, 0]]
>>> m.set_terrain(4, 0, m.registry.id_of("obstructing"))
>>> t.fan((0, 0)).tolist(), t.last_computed
([[0, 0, 0, 0, 2, 2, 2, 2, 2]], 5)
"""

from __future__ import annotations

import numpy as np

from .los import Tile, los_fan
from .model import Change, MapModel, Rect

#: change layers that cannot affect a line of sight
NO_LOS = frozenset({"start_zones", "properties"})
#: change layers whose rectangle bounds everything the change touched for LoS
LOCAL = frozenset({"terrain", "elevation", "borders", "characters", "objects", "transition",
                   "transition_borders", "indoor"})
#: margin (tiles) around a changed rectangle: lines through its corners count
EPS = 1e-6


def cone_mask(shape: tuple[int, int], src: Tile, rect: Rect) -> np.ndarray:
    """bool ``[y, x]``: targets whose line from ``src`` (centre to centre) meets
    the closed square region of the tiles in ``rect`` (Liang-Barsky clipping,
    vectorised over all targets)."""
    h, w = shape
    sx, sy = src[0] + 0.5, src[1] + 0.5
    ys, xs = np.mgrid[0:h, 0:w]
    dx = xs + 0.5 - sx
    dy = ys + 0.5 - sy
    lo = np.zeros(shape)
    hi = np.ones(shape)
    for d, s, a, b in ((dx, sx, rect.x0 - EPS, rect.x1 + 1 + EPS),
                       (dy, sy, rect.y0 - EPS, rect.y1 + 1 + EPS)):
        flat = d == 0
        with np.errstate(divide="ignore", invalid="ignore"):
            t1 = (a - s) / d
            t2 = (b - s) / d
        near = np.where(flat, -np.inf, np.minimum(t1, t2))
        far = np.where(flat, np.inf, np.maximum(t1, t2))
        outside = flat & ((s < a) | (s > b))
        lo = np.maximum(lo, near)
        hi = np.minimum(hi, far)
        hi[outside] = -1.0
    return lo <= hi


class FanTracker:
    """The LoS fan from one source at a time, updated incrementally.

    Listens to the model: edits are collected as one bounding rectangle (or
    "everything") until the next :meth:`fan`, which recomputes the targets in
    that rectangle's cone only.  ``last_computed`` is how many targets the last
    call computed (tests, benchmarks).  Call :meth:`close` to stop listening.
    """

    def __init__(self, model: MapModel) -> None:
        self.model = model
        self.src: Tile | None = None
        self.current: np.ndarray | None = None
        self.dirty: Rect | None = None
        self.everything = True
        self.last_computed = 0
        model.add_listener(self._on_change)

    def close(self) -> None:
        self.model.remove_listener(self._on_change)

    def _on_change(self, change: Change) -> None:
        if change.layer in NO_LOS or self.everything:
            return
        if change.rect is None or change.layer not in LOCAL:
            self.everything = True
            return
        r, d = change.rect, self.dirty
        self.dirty = r if d is None else Rect(min(r.x0, d.x0), min(r.y0, d.y0),
                                              max(r.x1, d.x1), max(r.y1, d.y1))

    def pending(self, src: Tile) -> np.ndarray | None:
        """Targets :meth:`fan` would compute for ``src`` (None: all of them)."""
        if self.everything or src != self.src or self.current is None:
            return None
        if self.dirty is None:
            return np.zeros(self.model.shape, bool)
        d = self.dirty
        if d.x0 <= src[0] <= d.x1 and d.y0 <= src[1] <= d.y1:
            return None  # the viewer's own tile changed: every line may differ
        return cone_mask(self.model.shape, src, d)

    def fan(self, src: Tile) -> np.ndarray:
        """The fan from ``src`` (a new array when anything changed)."""
        mask = self.pending(src)
        if mask is None:
            self.current = los_fan(self.model, src)
            self.last_computed = self.current.size
        elif mask.any():
            assert self.current is not None
            self.current = los_fan(self.model, src, previous=self.current, mask=mask)
            self.last_computed = int(mask.sum())
        else:
            self.last_computed = 0
        self.src = src
        self.dirty = None
        self.everything = False
        assert self.current is not None
        return self.current
