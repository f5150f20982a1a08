"""Indoor/outdoor tool (I): click an Obstructing tile or border to cycle its
flag: map default -> Indoor -> Outdoor -> map default."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ...engine.model import INDOOR_DEFAULT, INDOOR_YES
from ...engine.terrain import Base
from ..geometry import nearest_edge
from .base import Tool, ToolEvent
from .transition import EDGE_SNAP

CYCLE = {INDOOR_DEFAULT: True, INDOOR_YES: False}  # anything else -> default (None)


class IndoorTool(Tool):
    name = "indoor"
    label = "Indoor/Outdoor"
    shortcut = "I"
    options = ("symmetry",)
    tip = ("Cycle an obstruction (tile or border) between map default, Indoor and Outdoor; "
           "Indoor obstructions stop flight")

    def press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        m = self.model
        edge, dist = nearest_edge(m, ev.fx, ev.fy)
        if edge is not None and dist < EDGE_SNAP and m.border_at(edge):
            arr = m.indoor_e if edge.side == "E" else m.indoor_s
            new = CYCLE.get(int(arr[edge.y, edge.x]))
            if m.registry[m.border_at(edge)].base is not Base.OBSTRUCTING:
                self.message("Only Obstructing borders are Indoor or Outdoor")
                return
            self.doc.set_border_indoor([edge], new)
            return
        x, y = ev.tile
        if not m.in_bounds(x, y):
            return
        if m.base_at(x, y) is not Base.OBSTRUCTING:
            self.message(f"({x}, {y}) is not an obstruction: only Obstructing tiles and "
                         "borders are Indoor or Outdoor")
            return
        self.doc.set_tile_indoor([(x, y)], CYCLE.get(int(m.tile_indoor[y, x])))

    def hover(self, ev: ToolEvent) -> None:
        edge, dist = nearest_edge(self.model, ev.fx, ev.fy)
        if edge is not None and dist < EDGE_SNAP and self.model.border_at(edge):
            self.scene.hover.set_shape(edges=[edge])
        else:
            super().hover(ev)
