"""Border tool (W): click or drag along grid edges (snapped to the nearest
edge) to place the current border type; right button (or Shift) removes."""

from __future__ import annotations

from ..geometry import edges_between_points, nearest_edge
from .base import StrokeTool, ToolEvent


class BorderTool(StrokeTool):
    name = "border"
    label = "Border"
    shortcut = "W"
    tip = "Place borders on grid edges (drag along edges; right button removes)"
    options = ("border_id", "border_indoor")

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.last_point: tuple[float, float] | None = None

    def stroke_to(self, ev: ToolEvent) -> None:
        point = (ev.fx, ev.fy)
        if self.last_point is None:
            edge, _ = nearest_edge(self.model, *point)
            edges = [edge] if edge is not None else []
        else:
            edges = edges_between_points(self.model, self.last_point, point)
        self.last_point = point
        if edges:
            value = 0 if self.erasing else self.state.border_id
            self.doc.set_borders(edges, value, self.state.border_indoor)
        self.hover(ev)

    def finish(self) -> None:
        super().finish()
        self.last_point = None

    def hover(self, ev: ToolEvent) -> None:
        edge, _ = nearest_edge(self.model, ev.fx, ev.fy)
        self.scene.hover.set_shape(edges=[edge] if edge is not None else [])
