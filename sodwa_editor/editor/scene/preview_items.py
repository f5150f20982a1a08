"""Scene items for the engine previews: LoS fan colours, movement range, and
a line (LoS) or path (movement) to a target.  (The adjacency graph preview is
:mod:`.graph_item`.)"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.model import MapModel, Rect
from ...engine.terrain import Crossing
from .. import style
from ..style import TILE
from .layers import CHUNK, ImageLayer, premultiply, tile_pixels


def _center(t) -> QPointF:
    return QPointF((t[0] + 0.5) * TILE, (t[1] + 0.5) * TILE)


class ArrayImage(ImageLayer):
    """An image layer filled from a per-tile RGBA array set by the controller."""

    def __init__(self) -> None:
        super().__init__()
        self._pixels: np.ndarray | None = None

    def set_pixels(self, model: MapModel, rgba: np.ndarray) -> None:
        """Show new pixels, redrawing only the 16x16 blocks whose tiles changed
        (a fan recomputed after a small edit mostly stays the same)."""
        if self.model is not model or self.rgba.shape[:2] != model.shape:
            self.prepareGeometryChange()
            self.model = model
            self._pixels = rgba
            self.refresh(None)
            return
        self._pixels = rgba
        changed = (self.rgba != rgba).any(axis=2)
        h, w = changed.shape
        padded = np.zeros((-(-h // CHUNK) * CHUNK, -(-w // CHUNK) * CHUNK), bool)
        padded[:h, :w] = changed
        blocks = padded.reshape(padded.shape[0] // CHUNK, CHUNK, -1, CHUNK).any(axis=(1, 3))
        for by, bx in zip(*np.nonzero(blocks), strict=True):  # redraw changed blocks only
            self.refresh(Rect(int(bx) * CHUNK, int(by) * CHUNK, min(w, (bx + 1) * CHUNK) - 1,
                              min(h, (by + 1) * CHUNK) - 1))

    def compute(self, model: MapModel, rect: Rect) -> np.ndarray:
        if self._pixels is None:
            return np.zeros((rect.y1 - rect.y0 + 1, rect.x1 - rect.x0 + 1, 4), np.uint8)
        return self._pixels[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1]


class LosFanItem(ArrayImage):
    """Every tile coloured clear / impeded / blocked as seen from the source."""

    source_color = QColor(255, 255, 255)

    def __init__(self) -> None:
        super().__init__()
        self.fan: np.ndarray | None = None
        self.lut = premultiply(np.asarray(style.LOS_RGBA, np.uint8))

    def set_fan(self, model: MapModel, fan: np.ndarray) -> None:
        self.fan = fan
        self.set_pixels(model, self.lut[fan])

    def class_at(self, x: int, y: int) -> Crossing:
        """Colour class shown on a tile (read back from the scene item)."""
        return Crossing(int(np.argmax([np.array_equal(self.rgba[y, x], c) for c in self.lut])))


class ReachItem(ArrayImage):
    """Reachable tiles (blue) and tiles where movement must stop (orange), with
    the step count when zoomed in."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: np.ndarray | None = None
        self.stop: np.ndarray | None = None
        self.count = 0

    def set_reach(self, model: MapModel, result) -> None:
        steps = getattr(result, "steps", None)
        stop = getattr(result, "must_stop", None)
        if not isinstance(steps, np.ndarray):
            steps = np.full(model.shape, -1, np.int32)
            stop = np.zeros(model.shape, bool)
            for (x, y), info in result.tiles().items():
                steps[y, x] = info.steps
                stop[y, x] = info.must_stop
        self.steps, self.stop = steps, np.asarray(stop, bool)
        rgba = np.zeros(model.shape + (4,), np.uint8)
        rgba[steps >= 0] = style.REACH_RGBA
        rgba[(steps >= 0) & self.stop] = style.REACH_STOP_RGBA
        self.count = int((steps > 0).sum())
        self.set_pixels(model, premultiply(rgba))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        super().paint(painter, option, widget)
        if self.steps is None or tile_pixels(option, painter) < 18:
            return
        # Step counts as small badges in the tile's top-left corner: readable over
        # the level number written in the middle of elevated tiles.
        font = QFont(painter.font())
        font.setPixelSize(int(TILE * 0.3))
        painter.setFont(font)
        badge = QColor(255, 255, 255, 200)
        ys, xs = np.nonzero(self.steps > 0)
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            text = str(int(self.steps[y, x]))
            box = QRectF(x * TILE + 1, y * TILE + 1, TILE * (0.22 + 0.17 * len(text)), TILE * 0.36)
            painter.fillRect(box, badge)
            painter.setPen(QColor(0, 0, 60))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


class PathItem(QGraphicsItem):
    """The LoS line to a target (coloured by its class) or a movement path."""

    def __init__(self) -> None:
        super().__init__()
        self.path = QPainterPath()
        self.pen = QPen(QColor(0, 0, 0), 3)
        self.crossing: Crossing | None = None

    def set_line(self, a, b, crossing: Crossing) -> None:
        self.prepareGeometryChange()
        self.crossing = crossing
        self.path = QPainterPath(_center(a))
        self.path.lineTo(_center(b))
        rgba = style.LOS_RGBA[int(crossing)]
        self.pen = QPen(QColor(*rgba[:3]), 4)
        self.pen.setCosmetic(True)
        self.update()

    def set_path(self, tiles) -> None:
        self.prepareGeometryChange()
        self.crossing = None
        self.path = QPainterPath(_center(tiles[0]))
        for t in tiles[1:]:
            self.path.lineTo(_center(t))
        self.pen = QPen(QColor(20, 60, 200), 4)
        self.pen.setCosmetic(True)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self.path.boundingRect().adjusted(-8, -8, 8, 8)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setPen(self.pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self.path)
        painter.setBrush(self.pen.color())
        if self.path.elementCount():
            end = self.path.currentPosition()
            painter.drawEllipse(end, TILE * 0.12, TILE * 0.12)
