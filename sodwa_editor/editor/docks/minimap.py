"""Minimap dock: the whole map in small, the part the view shows framed; click
or drag in it to move the view there.

Shown for maps of :data:`MIN_SIDE` tiles or more on a side.  A smaller map
fits the window at a zoom where tiles are still big enough to paint, so the
minimap would only repeat the view: the dock is hidden and its View menu entry
disabled (with a tool tip saying why) until a larger map is opened; it then
comes back as the user left it.

The minimap takes the document (the map it draws) and the map view it
navigates (as Tiled's minimap takes the map document and its view).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QDockWidget, QSizePolicy, QWidget

from .. import style
from ..scene.map_scene import MapScene
from ..style import TILE

if TYPE_CHECKING:
    from ..document import Document
    from ..view import MapView

MIN_SIDE = 64
FRAME = QColor(255, 255, 255)


class Minimap(QWidget):
    """The document's map in small with the view's frame; click or drag to go there."""

    def __init__(self, document: Document, view: MapView,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.view = view
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(120, 120)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Click or drag to move the view there")
        self._timer = QTimer(self)  # edits repaint the minimap at most every 200 ms
        self._timer.setSingleShot(True)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self.update)
        view.horizontalScrollBar().valueChanged.connect(self.update)
        view.verticalScrollBar().valueChanged.connect(self.update)
        view.zoom_changed.connect(self.update)
        document.edited.connect(self.schedule)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(220, 220)

    def schedule(self) -> None:
        if self.isVisible() and not self._timer.isActive():
            self._timer.start()

    # ------------------------------------------------------------- geometry
    def map_rect(self) -> QRectF:
        """Where the map is drawn in the widget (aspect kept, centred)."""
        m = self.document.model
        s = min((self.width() - 8) / m.width, (self.height() - 8) / m.height)
        w, h = m.width * s, m.height * s
        return QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)

    def tile_at(self, pos: QPointF) -> tuple[float, float]:
        r = self.map_rect()
        m = self.document.model
        fx = (pos.x() - r.left()) / r.width() * m.width
        fy = (pos.y() - r.top()) / r.height() * m.height
        return min(max(fx, 0.0), m.width), min(max(fy, 0.0), m.height)

    def view_rect(self) -> QRectF:
        """The part of the map the view shows, in widget coordinates."""
        view = self.view
        seen = view.mapToScene(view.viewport().rect()).boundingRect()
        r = self.map_rect()
        m = self.document.model
        sx, sy = r.width() / (m.width * TILE), r.height() / (m.height * TILE)
        out = QRectF(r.left() + seen.left() * sx, r.top() + seen.top() * sy,
                     seen.width() * sx, seen.height() * sy)
        return out.intersected(r.adjusted(-1, -1, 1, 1))

    # --------------------------------------------------------------- events
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        p = QPainter(self)
        p.fillRect(self.rect(), style.BACKGROUND)
        r = self.map_rect()
        scene = self.view.scene()
        fill = scene.items_by_name["terrain_fill"] if isinstance(scene, MapScene) else None
        image = getattr(fill, "image", None)
        if image is not None and not image.isNull():
            p.drawImage(r, image)
        m = self.document.model
        colors = style.map_team_colors(m)
        sx, sy = r.width() / m.width, r.height() / m.height
        dot = max(2.0, min(sx, sy))
        p.setPen(Qt.PenStyle.NoPen)
        for c in m.characters.values():
            p.setBrush(colors.get(c.team, QColor(255, 255, 255)))
            p.drawEllipse(QPointF(r.left() + (c.x + 0.5) * sx, r.top() + (c.y + 0.5) * sy),
                          dot, dot)
        p.setBrush(Qt.BrushStyle.NoBrush)
        frame = self.view_rect()
        p.setPen(QPen(QColor(0, 0, 0), 3))
        p.drawRect(frame)
        p.setPen(QPen(FRAME, 1.5))
        p.drawRect(frame)
        p.end()

    def _go(self, event: QMouseEvent) -> None:
        fx, fy = self.tile_at(event.position())
        self.view.centerOn(fx * TILE, fy * TILE)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton:
            self._go(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._go(event)


def follow_map_size(dock: QDockWidget, model) -> None:
    """Hide (and disable) the minimap dock for maps under :data:`MIN_SIDE` tiles a
    side; bring it back, as the user left it, for larger ones."""
    big = max(model.width, model.height) >= MIN_SIDE
    action = dock.toggleViewAction()
    if big == action.isEnabled():
        return
    if big:
        action.setEnabled(True)
        action.setToolTip("Minimap")
        dock.setVisible(bool(dock.property("wanted")))
    else:
        dock.setProperty("wanted", dock.isVisible() or dock.property("wanted") is None)
        dock.hide()
        action.setEnabled(False)
        action.setToolTip(f"Minimap: for maps of {MIN_SIDE}x{MIN_SIDE} tiles or more")
