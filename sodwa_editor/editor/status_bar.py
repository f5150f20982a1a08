"""The status bar's read-outs of the tile under the pointer: its coordinates, its
terrain (level, transition, indoor or outdoor) and the edge near the pointer
with its border (:class:`HoverReadout`), and the zoom; the message line, where
the active tool's hint comes back when a timed message over it expires
(:class:`MessageLine`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QStatusBar

from ..engine.model import MapModel
from ..engine.terrain import Base
from .geometry import nearest_edge

if TYPE_CHECKING:
    from .document import Document
    from .scene.map_scene import MapScene
    from .view import MapView

#: how near (tile units) the pointer must be to an edge for the edge read-out
EDGE_NEAR = 0.2
#: free pixels between two read-outs, and before the zoom
FIELD_GAP = 12


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


class HoverReadout(QObject):
    """The tile, terrain and edge read-outs and the zoom, as permanent fields of
    ``bar``.  They follow the pointer (``view.hovered``) and every change of the
    document under a still pointer (a click edit, a fill, a plateau, a stair,
    Escape taking a stroke back): with a cycling tool (In/Out) the designer
    reads the state the next click starts from.  The map read is the scene's
    (a playtest's board, whose walls a battle destroys), else the document's."""

    def __init__(self, bar: QStatusBar, view: MapView, document: Document, scene: MapScene,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document, self.scene = document, scene
        self.tile, self.terrain, self.edge = (StatusField(""), StatusField(""),
                                              StatusField(""))
        self.zoom = StatusField("100%")
        for w in (self.tile, self.terrain, self.edge, self.zoom):
            w.setContentsMargins(FIELD_GAP // 2, 0, FIELD_GAP // 2, 0)
            bar.addPermanentWidget(w)
        #: the pointer (tile units) or None when it is not over the view
        self.pos: tuple[float, float] | None = None
        # one refresh per event-loop turn: a stroke step (the pointer moved, then the
        # map changed under it) changes the texts once, to what the step left
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)
        view.hovered.connect(self.show_at)
        view.zoom_changed.connect(self.show_zoom)
        document.edited.connect(self.schedule)

    def show_at(self, pos: tuple[float, float] | None) -> None:
        self.pos = pos
        self.schedule()

    def schedule(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def refresh(self) -> None:
        """Say what is under the pointer now."""
        fields = (self.tile, self.terrain, self.edge)
        if self.pos is None:
            texts: tuple[str, str, str] = ("", "", "")
        else:
            m = self.scene.model if self.scene.model is not None else self.document.model
            texts = hover_texts(m, *self.pos)
        for label, text in zip(fields, texts, strict=True):
            if label.text() != text:
                label.setText(text)

    def show_zoom(self, zoom: float) -> None:
        self.zoom.setText(f"{zoom * 100:.0f}%")


class MessageLine(QObject):
    """The status bar's message line: timed messages (a note, a saved file) shown
    over the active tool's hint (the paste's border count, the Fill tool's tile
    count), which comes back when they expire.  A tool says its hint once, when
    it changes: without this, a note shown after it (the paste's "Click to place
    the stamp") left the line empty from its expiry until the hint changed."""

    def __init__(self, bar: QStatusBar, view: MapView, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bar, self.view = bar, view
        self._hint = ""
        self._tool: object = None  # the tool the hint is of (another: not shown again)
        bar.messageChanged.connect(self._changed)

    def show(self, text: str, timeout: int, hint: bool = False) -> None:
        """Show ``text`` for ``timeout`` ms (0: until replaced); ``hint``: the active
        tool's hint, shown again whenever a later message expires."""
        if hint:
            self._hint, self._tool = text, self.view.tool
        self.bar.showMessage(text, timeout)

    def _changed(self, text: str) -> None:
        if not text and self._hint and self.view.tool is self._tool:
            self.bar.showMessage(self._hint)
