"""Minimap dock: the whole map in small (terrain, walls and every border in its
rulebook colour, the characters as dots in their team colour), the part the
view shows framed; click or drag in it to move the view there.

Shown for maps of :data:`MIN_SIDE` tiles or more on a side.  A smaller map
fits the window at a zoom where tiles are still big enough to paint, so the
minimap would only repeat the view: the dock is hidden and its View menu entry
disabled and unchecked (with a tool tip saying why), whatever restores the
window's docks (View > Reset Layout included), until a larger map is opened;
it then comes back as the user left it.

The minimap takes the document (the map it draws) and the map view it
navigates (as Tiled's minimap takes the map document and its view).  The map
is drawn once per edit (at most every 200 ms) and size into an image; a
scroll of the view only draws the frame and the character dots again (over
the frame: a character on the frame's line stays in sight).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import QDockWidget, QSizePolicy, QWidget

from ...engine.terrain import Base
from .. import style
from ..scene.layers import points_polygon
from ..scene.map_scene import MapScene
from ..style import TILE

if TYPE_CHECKING:
    from ...engine.model import MapModel
    from ..document import Document
    from ..view import MapView

MIN_SIDE = 64
FRAME = QColor(255, 255, 255)
#: free pixels around the map in the widget
MARGIN = 4
#: a character's dot is a tile wide, but at least DOT_MIN and at most DOT_MAX pixels
#: (a smaller dot is lost among the border specks of a busy map)
DOT_MIN, DOT_MAX = 4.0, 10.0
#: dots this wide or wider get a dark outline (a smaller dot would be all outline)
DOT_OUTLINED = 6.0


def border_segments(model: MapModel) -> dict[int, np.ndarray]:
    """The border edges of ``model`` per border terrain id, as segments (n, 2, 2)
    in tile units."""
    ys, xs = np.nonzero(model.border_e)  # the edge east of (x, y): x + 1, y .. y + 1
    east = np.stack([np.stack([xs + 1, ys], 1), np.stack([xs + 1, ys + 1], 1)], 1)
    ids_e = model.border_e[ys, xs]
    ys, xs = np.nonzero(model.border_s)  # the edge south of (x, y): x .. x + 1, y + 1
    south = np.stack([np.stack([xs, ys + 1], 1), np.stack([xs + 1, ys + 1], 1)], 1)
    ids = np.concatenate([ids_e, model.border_s[ys, xs]])
    segs = np.concatenate([east, south]).astype(np.float64)
    return {int(t): segs[ids == t] for t in np.unique(ids).tolist()}


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
        self._timer.timeout.connect(self.redraw)
        self._image: QImage | None = None  # the map drawn (see map_image)
        view.horizontalScrollBar().valueChanged.connect(self.update)
        view.verticalScrollBar().valueChanged.connect(self.update)
        view.zoom_changed.connect(self.update)
        document.edited.connect(self.schedule)
        document.model_replaced.connect(self.redraw)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(220, 220)

    def schedule(self) -> None:
        if self.isVisible() and not self._timer.isActive():
            self._timer.start()

    def redraw(self) -> None:
        """Draw the map again (after edits; at most every 200 ms)."""
        self._image = None
        self.update()

    # ------------------------------------------------------------- geometry
    def map_rect(self) -> QRectF:
        """Where the map is drawn in the widget (aspect kept, centred)."""
        m = self.document.model
        s = min((self.width() - 2 * MARGIN) / m.width, (self.height() - 2 * MARGIN) / m.height)
        w, h = m.width * s, m.height * s
        return QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)

    def dot_size(self) -> float:
        """A character's dot diameter in pixels: its tile's width, within
        :data:`DOT_MIN` .. :data:`DOT_MAX`."""
        m = self.document.model
        r = self.map_rect()
        return min(DOT_MAX, max(DOT_MIN, min(r.width() / m.width, r.height() / m.height)))

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

    # -------------------------------------------------------------- drawing
    def map_image(self) -> QImage:
        """The map as the minimap shows it, the widget's size (kept until the
        next edit or resize)."""
        if self._image is not None and self._image.size() == self.size():
            return self._image
        image = QImage(self.size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(style.BACKGROUND)
        p = QPainter(image)
        r = self.map_rect()
        scene = self.view.scene()
        fill = scene.items_by_name["terrain_fill"] if isinstance(scene, MapScene) else None
        terrain = getattr(fill, "image", None)
        if terrain is not None and not terrain.isNull():
            p.drawImage(r, terrain)
        m = self.document.model
        sx, sy = r.width() / m.width, r.height() / m.height
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        width = max(1.0, min(sx, sy) * style.BORDER_WIDTH / TILE)
        order = sorted(border_segments(m).items(),  # walls over fences and streams
                       key=lambda kv: m.registry[kv[0]].base is Base.OBSTRUCTING)
        for tid, segs in order:
            pen = QPen(style.OUTLINE.get(m.registry[tid].base, QColor(0, 0, 0)), width)
            pen.setCapStyle(Qt.PenCapStyle.SquareCap)
            p.setPen(pen)
            pts = segs * (sx, sy) + (r.left(), r.top())
            polygon = points_polygon(pts)
            p.drawLines(polygon.data(), len(pts))
        p.end()
        self._image = image
        return image

    def dot_centres(self) -> list[tuple[str, QPointF]]:
        """Each character's team and its dot's centre in the widget: its tile's
        centre, moved inward just enough for a dot wider than its tile to lie
        inside the map (a dot on the map's edge was cut, and hidden under the
        view's frame)."""
        r = self.map_rect()
        m = self.document.model
        sx, sy = r.width() / m.width, r.height() / m.height
        half = self.dot_size() / 2 + 0.5  # and its smoothed rim
        out = []
        for c in m.characters.values():
            x = min(max(r.left() + (c.x + 0.5) * sx, r.left() + half), r.right() - half)
            y = min(max(r.top() + (c.y + 0.5) * sy, r.top() + half), r.bottom() - half)
            out.append((c.team, QPointF(x, y)))
        return out

    def _draw_dots(self, p: QPainter) -> None:
        """The characters as dots in their team colour, a tile wide (over the
        view's frame: a character on the frame's line stays in sight)."""
        colors = style.map_team_colors(self.document.model)
        size = self.dot_size()
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if size >= DOT_OUTLINED:
            p.setPen(QPen(QColor(0, 0, 0), 1))
            half = (size - 1) / 2  # the outline inside the dot's width
        else:
            p.setPen(Qt.PenStyle.NoPen)
            half = size / 2
        for team, centre in self.dot_centres():
            p.setBrush(colors.get(team, QColor(255, 255, 255)))
            p.drawEllipse(centre, half, half)

    # --------------------------------------------------------------- events
    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        self._image = None
        super().resizeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        p = QPainter(self)
        p.drawImage(0, 0, self.map_image())
        frame = self.view_rect()
        p.setPen(QPen(QColor(0, 0, 0), 3))
        p.drawRect(frame)
        p.setPen(QPen(FRAME, 1.5))
        p.drawRect(frame)
        self._draw_dots(p)
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
    side; bring it back, as the user left it, for larger ones.  Called whenever
    the map or the window's docks change (a map opened, View > Reset Layout): a
    small map's minimap stays hidden, its menu entry disabled and unchecked."""
    big = max(model.width, model.height) >= MIN_SIDE
    action = dock.toggleViewAction()
    if big:
        if not action.isEnabled():
            action.setEnabled(True)
            action.setToolTip("Minimap")
            dock.setVisible(dock.property("wanted") is not False)
        return
    if action.isEnabled():  # a big map before: remember whether it was shown
        # not hidden, rather than visible: before the window is on screen (a run
        # that starts on a small map) no dock is visible, and the minimap the
        # last run left shown was taken for one the user closed
        dock.setProperty("wanted", not dock.isHidden())
    dock.hide()
    action.setEnabled(False)
    action.setToolTip(f"Minimap: for maps of {MIN_SIDE}x{MIN_SIDE} tiles or more")
