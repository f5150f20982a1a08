"""The status bar's read-outs of the tile under the pointer: its coordinates, its
terrain (level, transition, indoor or outdoor) and the edge near the pointer
with its border."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from ..engine.model import MapModel
from ..engine.terrain import Base
from .geometry import nearest_edge

#: how near (tile units) the pointer must be to an edge for the edge read-out
EDGE_NEAR = 0.2


class StatusField(QLabel):
    """A status bar field (the hovered tile, its terrain, the edge near the
    pointer) whose width only grows.  A plain label asks for the window's
    layout again whenever its text changes, and the main window then lays
    out its docks again: on every hover move, and on every step of a
    stroke, where that was a third of the repaint.  Fixed at its widest
    text so far, a new text that fits changes nothing but the label."""

    def setText(self, text: str) -> None:  # noqa: N802 (Qt override)
        super().setText(text)
        hint = self.sizeHint()
        if hint.width() > self.maximumWidth() or hint.height() != self.maximumHeight():
            self.setFixedSize(max(hint.width(), self.minimumWidth()), hint.height())


def hover_texts(m: MapModel, fx: float, fy: float) -> tuple[str, str, str]:
    """What the tile, terrain and edge fields say with the pointer at (fx, fy) in
    tile units ('' for a field with nothing to say)."""
    x, y = int(fx // 1), int(fy // 1)
    if not m.in_bounds(x, y):
        return "", "", ""
    t = m.registry[int(m.terrain[y, x])].name
    extra = " transition" if m.transition[y, x] else ""
    if m.base_at(x, y) is Base.OBSTRUCTING:
        extra += ", indoor" if m.tile_is_indoor(x, y) else ", outdoor"
    terrain = f"{t}, level {int(m.elevation[y, x])}{extra}"
    edge, dist = nearest_edge(m, fx, fy)
    if edge is None or dist >= EDGE_NEAR:
        return f"{x}, {y}", terrain, ""
    b = m.border_at(edge)
    what = m.registry[b].name if b else "no border"
    if b and m.registry[b].base is Base.OBSTRUCTING:
        what += ", indoor" if m.border_is_indoor(edge) else ", outdoor"
    if m.is_transition_edge(edge):
        what += ", transition"
    return f"{x}, {y}", terrain, f"edge {edge}: {what}"
