"""Magic wand (Q) and Select Same (Shift+Q), as Tiled's: a click selects the
contiguous tiles of the clicked tile's terrain and level (the area the Fill tool
would fill: 4-connected, stopped by borders), or every tile of that terrain and
level on the map.  Shift adds to the selection, Ctrl takes away from it (the
Select tool's rectangle drag does the same).  The selection is the one Copy,
Cut and Delete work on; it is kept in the
:class:`~.base.EditorState` (``region``: its bounding rectangle, ``region_mask``:
its tiles in that rectangle, None when it is the whole rectangle)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from ...engine.model import MapModel, Rect
from ..geometry import flood_region
from .base import EditorState, Selection, Tool, ToolEvent


def selection_mask(state: EditorState, model: MapModel) -> np.ndarray:
    """bool (H, W): the tiles selected now."""
    out = np.zeros(model.shape, bool)
    r = state.region
    if r is not None:
        out[r.y0:r.y1 + 1, r.x0:r.x1 + 1] = True if state.region_mask is None \
            else state.region_mask
    return out


def combine(state: EditorState, model: MapModel, new: np.ndarray,
            modifiers: Qt.KeyboardModifier) -> int:
    """Make ``new`` (bool (H, W)) the selection, or with Shift add it, with Ctrl take
    it away; the number of tiles selected."""
    if modifiers & Qt.KeyboardModifier.ShiftModifier:
        new = selection_mask(state, model) | new
    elif modifiers & Qt.KeyboardModifier.ControlModifier:
        new = selection_mask(state, model) & ~new
    set_selection(state, new)
    return int(new.sum())


def set_selection(state: EditorState, mask: np.ndarray) -> None:
    """The selection becomes the tiles of ``mask`` (bool (H, W)); none when empty."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        state.region, state.region_mask = None, None
        state.select(None)
        return
    rect = Rect(int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max()))
    inner = mask[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1]
    state.region, state.region_mask = rect, (None if inner.all() else inner.copy())
    state.select(Selection("region", rect, {} if state.region_mask is None
                           else {"tiles": int(inner.sum())}))


class WandTool(Tool):
    name = "wand"
    label = "Magic Wand"
    shortcut = "Q"
    tip = ("Select the contiguous tiles of one terrain and level (what Fill would fill); "
           "Shift adds, Ctrl takes away")
    cursor = Qt.CursorShape.PointingHandCursor
    contiguous = True

    def tiles(self, x: int, y: int) -> np.ndarray:
        m = self.model
        if self.contiguous:
            return flood_region(m, (x, y))
        return (m.terrain == m.terrain[y, x]) & (m.elevation == m.elevation[y, x])

    def press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        x, y = ev.tile
        m = self.model
        if not m.in_bounds(x, y):
            return
        n = combine(self.state, m, self.tiles(x, y), ev.modifiers)
        self.show()
        what = f"{m.registry[int(m.terrain[y, x])].name} at level {int(m.elevation[y, x])}"
        self.state.status.emit(f"{self.label}: {n} tile(s) selected ({what} "
                               f"{'contiguous to' if self.contiguous else 'like'} tile "
                               f"{x}, {y}); Ctrl+C copies, Ctrl+X cuts, Delete clears")

    def show(self) -> None:
        mask = selection_mask(self.state, self.model)
        ys, xs = np.nonzero(mask)
        self.scene.selection.set_shape(list(zip(xs.tolist(), ys.tolist(), strict=True)))

    def activate(self) -> None:
        super().activate()
        self.show()

    def cancel(self) -> None:
        """Escape: nothing selected."""
        set_selection(self.state, np.zeros(self.model.shape, bool))
        self.scene.selection.clear()

    def deactivate(self) -> None:
        """Another tool: the selection stays (the Select tool copies or drags it)."""
        self.scene.hover.clear()
        self.active = False


class SelectSameTool(WandTool):
    name = "select_same"
    label = "Select Same"
    shortcut = "Shift+Q"
    tip = ("Select every tile of the map with the clicked tile's terrain and level; "
           "Shift adds, Ctrl takes away")
    contiguous = False
