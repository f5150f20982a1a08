"""Terrain brush (B) and eraser (E): a drag paints one undo step; Shift paints Clear
with the brush, the right button picks the terrain under the pointer (the Eraser
paints Clear with either button)."""

from __future__ import annotations

from ..geometry import brush_cells, line_cells
from .base import StrokeTool, ToolEvent


class BrushTool(StrokeTool):
    name = "brush"
    label = "Brush"
    shortcut = "B"
    tip = "Paint terrain (Shift: Clear; right-click picks the terrain under the pointer)"
    options: tuple[str, ...] = ("terrain_id", "brush_size")
    picks = "terrain"

    def paint_value(self) -> int:
        return 0 if self.erasing else self.state.terrain_id

    def footprint(self, tile):
        return brush_cells(self.model, tile, self.state.brush_size)

    def stroke_to(self, ev: ToolEvent) -> None:
        tile = ev.tile
        path = [tile] if self.last is None else line_cells(self.last, tile)
        self.last = tile
        cells = {c for t in path for c in self.footprint(t)}
        if cells:
            self.doc.paint_terrain(sorted(cells), self.paint_value(),
                                   "Erase Terrain" if self.paint_value() == 0 else "Paint Terrain")
        self.scene.hover.set_shape(self.footprint(tile))

    def hover(self, ev: ToolEvent) -> None:
        self.scene.hover.set_shape(self.footprint(ev.tile))


class EraserTool(BrushTool):
    name = "eraser"
    label = "Eraser"
    shortcut = "E"
    tip = "Erase terrain back to Clear (either button)"
    options = ("brush_size",)
    picks = ""  # nothing to pick: the right button paints Clear too

    def paint_value(self) -> int:
        return 0
