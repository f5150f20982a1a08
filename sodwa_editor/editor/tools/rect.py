"""Rectangle tool (R): drag a rectangle, release to fill it with the terrain."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ..geometry import Tile, rect_cells
from .base import Tool, ToolEvent


class ShapeTool(Tool):
    """Drag from an anchor tile; a preview shows the shape; release commits it
    as one command; Escape drops it."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.anchor: Tile | None = None
        self.erasing = False

    def cells(self, a: Tile, b: Tile) -> list[Tile]:
        raise NotImplementedError

    def _clip(self, cells: list[Tile]) -> list[Tile]:
        return [(x, y) for x, y in cells if self.model.in_bounds(x, y)]

    def press(self, ev: ToolEvent) -> None:
        if ev.button not in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            return
        self.anchor = ev.tile
        self.erasing = ev.erase
        self.scene.preview.set_shape(self._clip(self.cells(self.anchor, ev.tile)))

    def move(self, ev: ToolEvent) -> None:
        if self.anchor is None:
            self.hover(ev)
            return
        self.scene.preview.set_shape(self._clip(self.cells(self.anchor, ev.tile)))
        Tool.hover(self, ev)  # the hover square follows the pointer during the drag

    def release(self, ev: ToolEvent) -> None:
        if self.anchor is None:
            return
        cells = self._clip(self.cells(self.anchor, ev.tile))
        self.anchor = None
        self.scene.preview.clear()
        if cells:
            self.commit(cells)

    def commit(self, cells: list[Tile]) -> None:
        value = 0 if self.erasing else self.state.terrain_id
        self.doc.paint_terrain(cells, value, self.command_text)

    command_text = "Paint Terrain"

    def cancel(self) -> None:
        self.anchor = None
        self.scene.preview.clear()


class RectTool(ShapeTool):
    name = "rect"
    label = "Rectangle"
    shortcut = "R"
    tip = "Fill a rectangle with terrain (Shift: Clear; right-click picks the terrain)"
    options = ("terrain_id",)
    picks = "terrain"
    command_text = "Paint Rectangle"

    def cells(self, a: Tile, b: Tile) -> list[Tile]:
        return rect_cells(a, b)
