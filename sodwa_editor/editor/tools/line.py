"""Line tool (L): drag a straight line of terrain (brush-sized)."""

from __future__ import annotations

from ..geometry import Tile, brush_cells, line_cells
from .rect import ShapeTool


class LineTool(ShapeTool):
    name = "line"
    label = "Line"
    shortcut = "L"
    tip = "Paint a straight line of terrain (Shift: Clear; right-click picks the terrain)"
    options = ("terrain_id", "brush_size")
    picks = "terrain"
    command_text = "Paint Line"

    def cells(self, a: Tile, b: Tile) -> list[Tile]:
        size = self.state.brush_size
        out: dict[Tile, None] = {}
        for t in line_cells(a, b):
            for c in brush_cells(self.model, t, size) if size > 1 else [t]:
                out[c] = None
        return list(out)
