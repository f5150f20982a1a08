"""Elevation tool (H): raise or lower tiles by one level, set a level, or drag
a rectangular plateau.  Each tile changes at most once per stroke."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from ...engine.model import MAX_ELEVATION
from ..geometry import Tile, brush_cells, line_cells, rect_cells
from .base import StrokeTool, Tool, ToolEvent

MODES = ("raise", "lower", "set", "plateau")


class ElevationTool(StrokeTool):
    name = "elevation"
    label = "Elevation"
    shortcut = "H"
    tip = ("Raise (Shift: lower) tiles one level, set a level, or drag a plateau of the "
           "set level; right-click picks the level")
    options = ("elevation_mode", "elevation_level", "brush_size")
    picks = "level"

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.start_levels: np.ndarray | None = None
        self.anchor: Tile | None = None

    def _mode(self) -> str:
        mode = self.state.elevation_mode
        if self.erasing:
            return {"raise": "lower", "lower": "raise"}.get(mode, mode)
        return mode

    def press(self, ev: ToolEvent) -> None:
        if self.state.elevation_mode == "plateau":
            if ev.button in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
                self.anchor = ev.tile
                self.erasing = ev.erase
                self._preview(ev)
            return
        self.start_levels = self.model.elevation.copy()
        super().press(ev)

    def _plateau_cells(self, ev: ToolEvent) -> list[Tile]:
        if self.anchor is None:
            return []
        return [(x, y) for x, y in rect_cells(self.anchor, ev.tile)
                if self.model.in_bounds(x, y)]

    def _preview(self, ev: ToolEvent) -> None:
        self.scene.preview.set_shape(self._plateau_cells(ev))

    def move(self, ev: ToolEvent) -> None:
        if self.anchor is not None:
            self._preview(ev)
            Tool.hover(self, ev)  # the hover square follows the pointer during the drag
        else:
            super().move(ev)

    def release(self, ev: ToolEvent) -> None:
        if self.anchor is not None:
            cells = self._plateau_cells(ev)
            self.anchor = None
            self.scene.preview.clear()
            level = 0 if self.erasing else self.state.elevation_level
            self.doc.set_elevation(cells, level, "Paint Plateau")
            return
        super().release(ev)

    def cancel(self) -> None:
        self.anchor = None
        self.scene.preview.clear()
        super().cancel()

    def stroke_to(self, ev: ToolEvent) -> None:
        tile = ev.tile
        path = [tile] if self.last is None else line_cells(self.last, tile)
        self.last = tile
        cells = sorted({c for t in path for c in brush_cells(self.model, t, self.state.brush_size)})
        self.scene.hover.set_shape(brush_cells(self.model, tile, self.state.brush_size))
        if not cells:
            return
        base = self.start_levels if self.start_levels is not None else self.model.elevation
        old = np.array([base[y, x] for x, y in cells], np.int32)
        mode = self._mode()
        if mode == "raise":
            new = np.minimum(old + 1, MAX_ELEVATION)
            if (old == MAX_ELEVATION).any():
                self.message(f"level {MAX_ELEVATION} is the highest a map holds")
        elif mode == "lower":
            new = np.maximum(old - 1, 0)
        else:
            new = np.full(len(cells), 0 if self.erasing else self.state.elevation_level)
        text = {"raise": "Raise Terrain", "lower": "Lower Terrain"}.get(mode, "Set Elevation")
        self.doc.set_elevation(cells, new, text)

    def hover(self, ev: ToolEvent) -> None:
        if self.state.elevation_mode == "plateau":
            super().hover(ev)
            return
        self.scene.hover.set_shape(brush_cells(self.model, ev.tile, self.state.brush_size))
