"""The paste preview: the stamp drawn as it will look once placed (terrain,
elevation, transitions and the borders on its edges and outline), semi-
transparent over the map, following the pointer (Tiled draws its stamp
previews the same way)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QImage, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.model import Edge
from .. import style
from ..geometry import edge_endpoints
from ..style import TILE
from .overlay_items import cosmetic

if TYPE_CHECKING:
    from ..stamp import Stamp

#: longest side of the preview image, in pixels (a large stamp is drawn scaled)
MAX_SIDE = 2048


def stamp_image(stamp: Stamp) -> tuple[QImage, float]:
    """The stamp drawn by the editor's own scene items on a transparent image with
    a margin of one tile (the outline borders reach into it); returns the image
    and its pixels per scene unit."""
    from ...engine.model import MapModel
    from ..commands import write_field
    from .map_scene import MapScene

    w, h = stamp.width, stamp.height
    model = MapModel(w + 2, h + 2)
    for t in stamp.missing_types(model):
        model.registry.register(t.name, t.base, t.properties, custom=t.custom)
    for edit in stamp.edits(model, 1, 1):
        write_field(model, edit.field, edit.idx, edit.after)
    contents = stamp.contents.turned(lambda x, y: (x + 1, y + 1))  # what stands on it
    model.start_zones = {team: set(tiles) for team, tiles in contents.zones.items()}
    model.characters = {ch.id: ch for ch in contents.characters}
    model.objects = {ob.id: ob for ob in contents.objects}
    scene = MapScene(model)
    scene.setBackgroundBrush(QBrush(Qt.BrushStyle.NoBrush))
    for layer in ("coordinates", "grid", "labels", "reference"):
        scene.set_layer_visible(layer, False)
    scene.flush()
    full = QRectF(0, 0, (w + 2) * TILE, (h + 2) * TILE)
    scale = min(1.0, MAX_SIDE / max(full.width(), full.height()))
    image = QImage(max(1, round(full.width() * scale)), max(1, round(full.height() * scale)),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    target = QRectF(0, 0, image.width(), image.height())
    # the stamp's own tiles, then its edges over the margin (the outline borders)
    if stamp.mask is None:
        painter.setClipRect(QRectF(TILE * scale, TILE * scale, w * TILE * scale,
                                   h * TILE * scale))
    else:  # a magic-wand stamp: only its own tiles
        clip = QPainterPath()
        for y, x in zip(*stamp.mask.nonzero(), strict=True):
            clip.addRect(QRectF((x + 1) * TILE * scale, (y + 1) * TILE * scale,
                                TILE * scale, TILE * scale))
        painter.setClipPath(clip.simplified())
    scene.render(painter, target, full)
    painter.setClipping(False)
    for layer in ("terrain", "elevation", "transitions"):
        scene.set_layer_visible(layer, False)
    scene.render(painter, target, full)
    painter.end()
    scene.detach()
    return image, scale


class EdgeMarks(QGraphicsItem):
    """Edges marked on the map, each a thick vermillion line on a white halo with a
    cross over its middle (where a paste would replace a neighbour's border or
    close its door); the same size on screen at any zoom."""

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.edges: list[Edge] = []
        self.pens = [cosmetic(style.HALO, 9), cosmetic(style.REPLACED_BORDER, 5)]
        for pen in self.pens:
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        self.setZValue(61.6)  # over the paste preview
        self._bounds = QRectF()

    def set_edges(self, edges: list[Edge]) -> None:
        if edges == self.edges:
            return
        self.prepareGeometryChange()
        self.edges = list(edges)
        rect = QRectF()
        for e in self.edges:
            (ax, ay), (bx, by) = edge_endpoints(e)
            rect = rect.united(QRectF(QPointF(ax * TILE, ay * TILE),
                                      QPointF(bx * TILE, by * TILE)).normalized())
        self._bounds = rect.adjusted(-TILE, -TILE, TILE, TILE)
        self.setVisible(bool(self.edges))
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lines = []
        for e in self.edges:
            (ax, ay), (bx, by) = edge_endpoints(e)
            a, b = QPointF(ax * TILE, ay * TILE), QPointF(bx * TILE, by * TILE)
            lines.append(QLineF(a, b))
            mid, q = (a + b) / 2, TILE / 4
            lines += [QLineF(mid + QPointF(-q, -q), mid + QPointF(q, q)),
                      QLineF(mid + QPointF(-q, q), mid + QPointF(q, -q))]
        for pen in self.pens:
            painter.setPen(pen)
            painter.drawLines(lines)


class StampPreview(QGraphicsItem):
    """A stamp image placed with its top-left tile at a map tile, plus a dashed
    outline of its footprint."""

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.image: QImage | None = None
        self.size = (0, 0)
        self.pen = cosmetic(style.SELECTION, 2, Qt.PenStyle.DashLine)
        self.setOpacity(style.STAMP_OPACITY)
        self.setZValue(61.5)  # over the tool preview, under selection and focus
        self.setVisible(False)

    def set_stamp(self, stamp: Stamp | None) -> None:
        self.prepareGeometryChange()
        if stamp is None:
            self.image, self.size = None, (0, 0)
            self.setVisible(False)
            return
        self.image, _scale = stamp_image(stamp)  # drawn over the bounding rectangle
        self.size = (stamp.width, stamp.height)
        self.update()

    def place(self, ox: int, oy: int) -> None:
        """Show the stamp with its top-left tile at (ox, oy)."""
        self.setPos((ox - 1) * TILE, (oy - 1) * TILE)
        self.setVisible(self.image is not None)

    def boundingRect(self) -> QRectF:  # noqa: N802
        w, h = self.size
        return QRectF(0, 0, (w + 2) * TILE, (h + 2) * TILE)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.image is None:
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(self.boundingRect(), self.image)
        w, h = self.size
        painter.setPen(self.pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        pad = style.BORDER_WIDTH  # outside the outline's borders, which it must not hide
        painter.drawRect(QRectF(TILE, TILE, w * TILE, h * TILE).adjusted(-pad, -pad, pad, pad))
