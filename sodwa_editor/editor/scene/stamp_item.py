"""The paste preview: the stamp drawn as it will look once placed (terrain,
elevation, transitions and the borders on its edges and outline), semi-
transparent over the map, following the pointer (Tiled draws its stamp
previews the same way)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from .. import style
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
        model.registry.register(t.name, t.base, t.properties)
    for edit in stamp.edits(model, 1, 1):
        write_field(model, edit.field, edit.idx, edit.after)
    scene = MapScene(model)
    scene.setBackgroundBrush(QBrush(Qt.BrushStyle.NoBrush))
    for layer in ("start zones", "characters", "coordinates", "grid"):
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
    painter.setClipRect(QRectF(TILE * scale, TILE * scale, w * TILE * scale, h * TILE * scale))
    scene.render(painter, target, full)
    painter.setClipping(False)
    for layer in ("terrain", "elevation", "transitions"):
        scene.set_layer_visible(layer, False)
    scene.render(painter, target, full)
    painter.end()
    scene.detach()
    return image, scale


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
