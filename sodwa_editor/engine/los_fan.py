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
from .los_inputs import LOCAL, NO_LOS
from .los_kernel import cone
from .model import Change, MapModel, Rect


def cone_mask(shape: tuple[int, int], src: Tile, rect: Rect) -> np.ndarray:
    """bool ``[y, x]``: targets whose line from ``src`` (centre to centre) meets
    the closed square region of the tiles in ``rect`` (exact integer clipping,
    :func:`.los_kernel.cone`)."""
    mask = np.zeros(shape, np.bool_)
    cone(src[0], src[1], rect.x0, rect.y0, rect.x1, rect.y1, mask)
    return mask


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
        #: tiles whose class the last call may have changed (None: any)
        self.last_rect: Rect | None = None
        self._memo: tuple[tuple, np.ndarray] | None = None
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
        if self._memo is None or self._memo[0] != (src, d):
            self._memo = ((src, d), cone_mask(self.model.shape, src, d))
        return self._memo[1]

    def pending_count(self, src: Tile) -> int:
        """How many targets :meth:`fan` would compute for ``src``."""
        mask = self.pending(src)
        return self.model.width * self.model.height if mask is None else int(mask.sum())

    def fan(self, src: Tile) -> np.ndarray:
        """The fan from ``src`` (a new array when anything changed)."""
        mask = self.pending(src)
        if mask is None:
            self.current = los_fan(self.model, src)
            self.last_computed = self.current.size
            self.last_rect = None
        elif mask.any():
            assert self.current is not None
            self.current = los_fan(self.model, src, previous=self.current, mask=mask)
            self.last_computed = int(mask.sum())
            ys, xs = np.nonzero(mask)
            h, w = self.model.shape
            # the 3x3 around the viewer is always recomputed (adjacency exception)
            self.last_rect = Rect(max(0, min(int(xs.min()), src[0] - 1)),
                                  max(0, min(int(ys.min()), src[1] - 1)),
                                  min(w - 1, max(int(xs.max()), src[0] + 1)),
                                  min(h - 1, max(int(ys.max()), src[1] + 1)))
        else:
            self.last_computed = 0
            self.last_rect = Rect(src[0], src[1], src[0], src[1])
        self.src = src
        self.dirty = None
        self.everything = False
        assert self.current is not None
        return self.current
