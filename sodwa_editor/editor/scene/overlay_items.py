"""Transient feedback items: hovered tile or edge, tool previews (rectangle,
line, paste stamp), the selection and a focus highlight (validation dock)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.model import Edge
from ..geometry import edge_endpoints
from ..style import TILE


def tiles_path(tiles: Iterable[tuple[int, int]]) -> QPainterPath:
    path = QPainterPath()
    for x, y in tiles:
        path.addRect(QRectF(x * TILE, y * TILE, TILE, TILE))
    return path


class ShapeOverlay(QGraphicsItem):
    """A set of tiles and edges drawn with one pen and brush."""

    def __init__(self, pen: QPen, brush: QBrush | QColor | None = None, z: float = 50,
                 parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.pen = pen
        self.brush = QBrush(brush) if brush is not None else QBrush(Qt.BrushStyle.NoBrush)
        self.path = QPainterPath()
        self.lines: list[QLineF] = []
        self.tiles: list[tuple[int, int]] = []
        self.edges: list[Edge] = []
        self.setZValue(z)
        self._bounds = QRectF()

    def set_shape(self, tiles: Iterable[tuple[int, int]] = (),
                  edges: Iterable[Edge] = ()) -> None:
        self.prepareGeometryChange()
        self.tiles = list(tiles)
        self.edges = list(edges)
        self.path = tiles_path(self.tiles).simplified() if self.tiles else QPainterPath()
        self.lines = []
        for e in self.edges:
            (ax, ay), (bx, by) = edge_endpoints(e)
            self.lines.append(QLineF(ax * TILE, ay * TILE, bx * TILE, by * TILE))
        r = self.path.boundingRect()
        for ln in self.lines:
            r = r.united(QRectF(ln.p1(), ln.p2()).normalized())
        pad = self.pen.widthF() + 2
        self._bounds = r.adjusted(-pad, -pad, pad, pad)
        self.update()

    def clear(self) -> None:
        self.set_shape()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setPen(self.pen)
        painter.setBrush(self.brush)
        if not self.path.isEmpty():
            painter.drawPath(self.path)
        if self.lines:
            painter.drawLines(self.lines)


def cosmetic(color: QColor, width: float = 2, style=Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(color, width, style)
    pen.setCosmetic(True)
    return pen
