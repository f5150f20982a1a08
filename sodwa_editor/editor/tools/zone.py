"""Start zone tool (A): paint the current team's start zone (a tile belongs to
one team); right button (or Shift) erases any team's zone."""

from __future__ import annotations

from ..geometry import brush_cells, line_cells
from .base import StrokeTool, ToolEvent


class ZoneTool(StrokeTool):
    name = "zone"
    label = "Start Zone"
    shortcut = "A"
    tip = "Paint a team's start zone, taking tiles from other teams (right button erases)"
    options = ("team", "brush_size")

    def stroke_to(self, ev: ToolEvent) -> None:
        tile = ev.tile
        path = [tile] if self.last is None else line_cells(self.last, tile)
        self.last = tile
        cells = {c for t in path for c in brush_cells(self.model, t, self.state.brush_size)}
        if cells:
            self.doc.set_zone_tiles(self.state.team, cells, not self.erasing)
        self.hover(ev)

    def hover(self, ev: ToolEvent) -> None:
        self.scene.hover.set_shape(brush_cells(self.model, ev.tile, self.state.brush_size))
