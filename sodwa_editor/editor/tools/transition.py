"""Transition tool (T): toggle transition tiles (click inside a tile) and
transition borders (click near an edge).  Refuses, with a message, where there
is no elevation change.  A click on an edge between two levels that has neither
a transition border nor a transition tile beside it makes a whole stair: the
lower tile becomes a transition tile and the edge a transition border (the
rulebook's picture: the character on the lower transition tile, the border
between it and the elevated tile a transition border), in one undo step."""

from __future__ import annotations

from ..geometry import edge_changes_elevation, elevation_changes_at, nearest_edge
from .base import StrokeTool, ToolEvent

EDGE_SNAP = 0.22  # tile units: closer than this to an edge targets the edge


class TransitionTool(StrokeTool):
    name = "transition"
    label = "Transition"
    shortcut = "T"
    options = ("symmetry",)
    tip = ("Toggle transition tiles (click in a tile) and transition borders (click on an "
           "edge); an edge with neither gets a whole stair; only where the elevation changes")

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.kind: str | None = None  # "tile" | "edge" for the current stroke
        self.turn_on = True
        self.refused: str | None = None

    def _target(self, ev: ToolEvent):
        edge, dist = nearest_edge(self.model, ev.fx, ev.fy)
        if edge is not None and dist < EDGE_SNAP:
            return "edge", edge
        x, y = ev.tile
        if self.model.in_bounds(x, y):
            return "tile", (x, y)
        return None, None

    def stroke_to(self, ev: ToolEvent) -> None:
        kind, target = self._target(ev)
        if kind is None:
            return
        m = self.model
        if self.kind is None:
            self.kind = kind
            current = (m.is_transition_edge(target) if kind == "edge"
                       else bool(m.transition[target[1], target[0]]))
            self.turn_on = not current and not self.erasing
        if kind != self.kind:
            return
        if kind == "edge":
            if self.turn_on and not edge_changes_elevation(m, target):
                self._refuse(f"No elevation change across edge {target} (both tiles are at "
                             f"level {int(m.elevation[target.y, target.x])}): no transition "
                             "border there")
                return
            if self.turn_on and self._bare(target):
                (ax, ay), (bx, by) = target.tiles
                low = (ax, ay) if m.elevation[ay, ax] < m.elevation[by, bx] else (bx, by)
                if self.doc.make_stair(low, target):
                    self._refuse(f"Stair made: transition tile {low} and transition border "
                                 f"{target} (one undo step)")
                return
            self.doc.set_transition_edges([target], self.turn_on)
        else:
            if self.turn_on and not elevation_changes_at(m, target):
                self._refuse(f"No elevation change next to {target}: a transition tile must "
                             "border another elevation")
                return
            self.doc.set_transition_tiles([target], self.turn_on)

    def _bare(self, edge) -> bool:
        """No transition border on the edge and no transition tile on either side."""
        m = self.model
        return not m.is_transition_edge(edge) and not any(m.transition[y, x]
                                                          for x, y in edge.tiles)

    def _refuse(self, text: str) -> None:
        if text != self.refused:
            self.refused = text
            self.message(text)

    def finish(self) -> None:
        super().finish()
        self.kind = None
        self.refused = None

    def hover(self, ev: ToolEvent) -> None:
        kind, target = self._target(ev)
        if kind == "edge":
            self.scene.hover.set_shape(edges=[target])
        elif kind == "tile":
            self.scene.hover.set_shape([target])
        else:
            self.scene.hover.clear()
