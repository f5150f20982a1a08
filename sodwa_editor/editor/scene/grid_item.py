"""Grid lines and coordinate labels, drawn for the exposed area only."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QPainter, QPen
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from .. import style
from ..style import TILE
from .layers import LayerItem, exposed_tiles, points_polygon, tile_pixels

LABEL_MARGIN = TILE


class GridLines(LayerItem):
    """Thin tile grid, hidden when tiles are smaller than 5 screen pixels."""

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        m = self.model
        r = exposed_tiles(m, option.exposedRect) if m is not None else None
        if r is None or tile_pixels(option, painter) < 5:
            return
        pen = QPen(style.GRID, 0)
        painter.setPen(pen)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        top, bottom = r.y0 * TILE, (r.y1 + 1) * TILE
        left, right = r.x0 * TILE, (r.x1 + 1) * TILE
        xs = np.arange(r.x0, r.x1 + 2, dtype=np.float64) * TILE
        ys = np.arange(r.y0, r.y1 + 2, dtype=np.float64) * TILE
        seg = np.empty((len(xs) + len(ys), 2, 2))
        seg[:len(xs), :, 0] = xs[:, None]  # vertical lines, then horizontal ones
        seg[:len(xs), 0, 1], seg[:len(xs), 1, 1] = top, bottom
        seg[len(xs):, :, 1] = ys[:, None]
        seg[len(xs):, 0, 0], seg[len(xs):, 1, 0] = left, right
        # drawLines(const QPointF *, n) on the polygon's memory (see line_groups.LineGroup)
        points = points_polygon(seg)
        painter.drawLines(points.data(), len(seg))


class CoordinateLabels(LayerItem):
    """Column numbers above the map and row numbers to its left (every n-th
    when zoomed out), so screenshots and the rulebook's x:y notation match."""

    def boundingRect(self) -> QRectF:  # noqa: N802
        m = self.model
        if m is None:
            return QRectF()
        return QRectF(-LABEL_MARGIN, -LABEL_MARGIN, (m.width + 1) * TILE, (m.height + 1) * TILE)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        m = self.model
        if m is None:
            return
        px = tile_pixels(option, painter)
        step = 1
        while px * step < 22:
            step *= 2
        font = QFont()
        font.setPixelSize(max(1, int(min(TILE * 0.4, 11 / max(px / TILE, 1e-3)))))
        painter.setFont(font)
        painter.setPen(style.COORDINATES)
        exp = option.exposedRect
        for x in _near(exp.left(), exp.right(), m.width, step):
            cell = QRectF(x * TILE, -LABEL_MARGIN, TILE, LABEL_MARGIN)
            if cell.intersects(exp):
                painter.drawText(cell, Qt.AlignmentFlag.AlignCenter, str(x))
        for y in _near(exp.top(), exp.bottom(), m.height, step):
            cell = QRectF(-LABEL_MARGIN, y * TILE, LABEL_MARGIN - 3, TILE)
            if cell.intersects(exp):
                painter.drawText(cell, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                                 str(y))


def _near(lo: float, hi: float, n: int, step: int) -> range:
    """The multiples of ``step`` below ``n`` whose tile can meet the scene span
    ``lo``..``hi`` (a repaint of a small area looks at a few labels, not all)."""
    first = max(0, int(lo // TILE) - 1)
    first = -(-first // step) * step
    return range(first, min(n, int(hi // TILE) + 2), step)
