"""Flood fill (F): replace the clicked tile's contiguous same-terrain,
same-elevation region; borders stop the fill.  Hovering shows the region the
click would fill and the status bar says how many tiles it would change (a fill
that leaks through a door gap shows before it happens, as in Tiled)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from ..geometry import Tile, flood_region
from .base import Tool, ToolEvent


class FillTool(Tool):
    name = "fill"
    label = "Fill"
    shortcut = "F"
    tip = "Flood-fill a contiguous area (same terrain and elevation, stops at borders)"
    options = ("terrain_id",)

    def __init__(self, *args) -> None:
        super().__init__(*args)
        #: (model revision, region) of the last hover: moving inside it recomputes nothing
        self._shown: tuple[int, np.ndarray] | None = None

    def region(self, tile: Tile) -> np.ndarray:
        m = self.model
        if self._shown is not None and self._shown[0] == m.revision \
                and self._shown[1].shape == m.shape and self._shown[1][tile[1], tile[0]]:
            return self._shown[1]
        return flood_region(m, tile)

    def press(self, ev: ToolEvent) -> None:
        if ev.button not in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            return
        x, y = ev.tile
        if not self.model.in_bounds(x, y):
            return
        value = 0 if ev.erase else self.state.terrain_id
        self.doc.paint_terrain(self.region((x, y)), value, "Fill Terrain")
        self._clear()

    def hover(self, ev: ToolEvent) -> None:
        x, y = ev.tile
        m = self.model
        if not m.in_bounds(x, y):
            self._clear()
            return
        region = self.region((x, y))
        if self._shown is not None and self._shown[1] is region:
            return  # the same area as shown
        self._shown = (m.revision, region)
        self.scene.preview.set_mask(region)
        here = m.registry[int(m.terrain[y, x])].name
        new = m.registry[self.state.terrain_id].name \
            if 0 <= self.state.terrain_id < len(m.registry) else "?"
        n = int(region.sum())
        if new == here:
            self.state.hint.emit(f"Fill: these {n} {here} tile(s) are already {new}")
        else:
            self.state.hint.emit(f"Fill: click changes {n} {here} tile(s) to {new} "
                                 "(right button: to clear)")

    def _clear(self) -> None:
        self._shown = None
        self.scene.preview.clear()

    def leave(self) -> None:
        super().leave()
        self._clear()

    def deactivate(self) -> None:
        self._clear()
        super().deactivate()
