"""Start zone tool (A): paint the current team's start zone (a tile belongs to
one team); Shift erases any team's zone, the right button picks the team.  Rectangle mode:
drag a rectangle of zone (one undo step)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ..geometry import Tile, brush_cells, line_cells, rect_cells
from .base import StrokeTool, Tool, ToolEvent

#: tool options bar choices of the Start Zone tool's shape
ZONE_MODES = ("brush", "rectangle")


class ZoneTool(StrokeTool):
    name = "zone"
    label = "Start Zone"
    shortcut = "A"
    tip = ("Paint a team's start zone, taking tiles from other teams (Shift erases; "
           "right-click picks the zone's team); Rectangle mode: drag a rectangle")
    options = ("zone_mode", "team", "brush_size")
    picks = "zone"

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.anchor: Tile | None = None  # Rectangle mode: the corner pressed

    def _rect(self, tile: Tile) -> list[Tile]:
        assert self.anchor is not None
        return [(x, y) for x, y in rect_cells(self.anchor, tile) if self.model.in_bounds(x, y)]

    def press(self, ev: ToolEvent) -> None:
        if self.state.zone_mode != "rectangle":
            super().press(ev)
        elif ev.button in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self.anchor, self.erasing = ev.tile, ev.erase
            self.scene.preview.set_shape(self._rect(ev.tile))

    def move(self, ev: ToolEvent) -> None:
        if self.anchor is None:
            super().move(ev)
        else:
            self.scene.preview.set_shape(self._rect(ev.tile))
            Tool.hover(self, ev)  # the hover square follows the pointer during the drag

    def release(self, ev: ToolEvent) -> None:
        if self.anchor is None:
            super().release(ev)
            return
        cells = self._rect(ev.tile)
        self.anchor = None
        self.scene.preview.clear()
        if cells:
            self.doc.set_zone_tiles(self.state.team, cells, not self.erasing)

    def cancel(self) -> None:
        if self.anchor is not None:
            self.anchor = None
            self.scene.preview.clear()
        super().cancel()

    def stroke_to(self, ev: ToolEvent) -> None:
        tile = ev.tile
        path = [tile] if self.last is None else line_cells(self.last, tile)
        self.last = tile
        cells = {c for t in path for c in brush_cells(self.model, t, self.state.brush_size)}
        if cells:
            self.doc.set_zone_tiles(self.state.team, cells, not self.erasing)
        self.hover(ev)

    def hover(self, ev: ToolEvent) -> None:
        if self.state.zone_mode == "rectangle":
            super().hover(ev)
        else:
            self.scene.hover.set_shape(brush_cells(self.model, ev.tile, self.state.brush_size))
