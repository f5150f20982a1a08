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

    #: a click farther than this (tiles) from every grid line places nothing
    CLICK_REACH = 0.35

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.last_point: tuple[float, float] | None = None
        self.clicked = False  # pressed and not moved yet

    def stroke_to(self, ev: ToolEvent) -> None:
        """The press only records the point: the first move says which grid lines
        the drag follows (so it never starts with a stray crossing edge); a press
        released without moving is a click on the nearest edge."""
        point = (ev.fx, ev.fy)
        if self.last_point is None:
            self.clicked = True
        else:
            self.clicked = False
            self._place(edges_between_points(self.model, self.last_point, point))
        self.last_point = point
        self.hover(ev)

    def release(self, ev: ToolEvent) -> None:
        if self.stroking and self.clicked and self.last_point is not None:
            edge, dist = nearest_edge(self.model, *self.last_point)
            if edge is not None and dist <= self.CLICK_REACH:
                self._place([edge])
            else:
                self.message("click on or near a grid line between two tiles to place a border")
        super().release(ev)

    def _place(self, edges: list) -> None:
        if edges:
            value = 0 if self.erasing else self.state.border_id
            self.doc.set_borders(edges, value, self.state.border_indoor)

    def finish(self) -> None:
        super().finish()
        self.last_point = None
        self.clicked = False

    def hover(self, ev: ToolEvent) -> None:
        edge, _ = nearest_edge(self.model, ev.fx, ev.fy)
        self.scene.hover.set_shape(edges=[edge] if edge is not None else [])
