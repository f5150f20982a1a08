"""Border tool (W).  Edges mode: click or drag along grid edges (snapped to the
nearest edge) to place the current border type; Shift removes, the right
button picks the border type of the nearest edge.  Room mode: drag from corner
tile to corner tile to wall the rectangle of tiles in (its four sides, one undo
step); a click on a wall segment opens a door gap there, a click on a gap closes
it again."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ..geometry import Tile, edges_between_points, nearest_edge, room_edges
from .base import StrokeTool, ToolEvent

#: tool options bar choices of the Border tool's drawing mode
BORDER_MODES = ("edges", "room")


class BorderTool(StrokeTool):
    name = "border"
    label = "Border"
    shortcut = "W"
    tip = ("Place borders on grid edges (drag along edges; Shift removes; right-click "
           "picks a border); Room mode: drag a rectangle for its four walls, click a wall "
           "for a door")
    options = ("border_mode", "border_id", "border_indoor")
    picks = "border"

    #: a click farther than this (tiles) from every grid line places nothing
    CLICK_REACH = 0.35

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.last_point: tuple[float, float] | None = None
        self.clicked = False  # pressed and not moved yet
        self.room_from: Tile | None = None  # Room mode: the corner tile pressed
        self.room_point: tuple[float, float] = (0.0, 0.0)
        self.room_dragged = False

    # ------------------------------------------------------------- room mode
    def press(self, ev: ToolEvent) -> None:
        if self.state.border_mode != "room":
            super().press(ev)
            return
        if ev.button in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self.room_from, self.room_point = ev.tile, (ev.fx, ev.fy)
            self.erasing, self.room_dragged = ev.erase, False

    def move(self, ev: ToolEvent) -> None:
        if self.room_from is None:
            super().move(ev)
            return
        if ev.tile != self.room_from:
            self.room_dragged = True
        if self.room_dragged:
            self.scene.preview.set_shape(edges=room_edges(self.model, self.room_from, ev.tile))

    def release(self, ev: ToolEvent) -> None:
        if self.room_from is None:
            self._release_edges(ev)
            return
        start, self.room_from = self.room_from, None
        self.scene.preview.clear()
        if self.room_dragged or ev.tile != start:
            value = 0 if self.erasing else self.state.border_id
            self.doc.set_borders(room_edges(self.model, start, ev.tile), value,
                                 self.state.border_indoor,
                                 "Remove Room Walls" if value == 0 else "Place Room Walls")
        else:
            self._door(*self.room_point)

    def _door(self, fx: float, fy: float) -> None:
        """A click in Room mode: a wall segment becomes a door gap, a gap a wall."""
        edge, dist = nearest_edge(self.model, fx, fy)
        if edge is None or dist > self.CLICK_REACH:
            self.message("click on or near a wall segment to open a door (drag to wall a room)")
        elif self.model.border_at(edge):
            self.doc.set_borders([edge], 0, text="Open Door")
        elif not self.erasing:
            self.doc.set_borders([edge], self.state.border_id, self.state.border_indoor,
                                 "Close Door")

    # ------------------------------------------------------------ edges mode
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

    def _release_edges(self, ev: ToolEvent) -> None:
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

    def cancel(self) -> None:
        if self.room_from is not None:
            self.room_from = None
            self.scene.preview.clear()
        super().cancel()

    def hover(self, ev: ToolEvent) -> None:
        edge, _ = nearest_edge(self.model, ev.fx, ev.fy)
        self.scene.hover.set_shape(edges=[edge] if edge is not None else [])
