"""Flood fill (F): replace the clicked tile's contiguous same-terrain,
same-elevation region; borders stop the fill."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ..geometry import flood_region
from .base import Tool, ToolEvent


class FillTool(Tool):
    name = "fill"
    label = "Fill"
    shortcut = "F"
    tip = "Flood-fill a contiguous area (same terrain and elevation, stops at borders)"
    options = ("terrain_id",)

    def press(self, ev: ToolEvent) -> None:
        if ev.button not in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            return
        x, y = ev.tile
        if not self.model.in_bounds(x, y):
            return
        region = flood_region(self.model, (x, y))
        value = 0 if ev.erase else self.state.terrain_id
        self.doc.paint_terrain(region, value, "Fill Terrain")
