"""Transient feedback items: hovered tile or edge, tool previews (rectangle,
line, paste stamp), the selection and a focus highlight (validation dock)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.model import Edge, Rect
from ..geometry import edge_endpoints
from ..style import TILE
from .kernels import mask_segments


def tiles_mask(tiles: list[tuple[int, int]]) -> tuple[np.ndarray, int, int]:
    """Boolean mask of ``tiles`` over their bounding box, and the box's top-left tile."""
    xy = np.fromiter(itertools.chain.from_iterable(tiles), np.int64,
                     count=2 * len(tiles)).reshape(-1, 2)
    x0, y0 = (int(v) for v in xy.min(0))
    x1, y1 = (int(v) for v in xy.max(0))
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), bool)
    mask[xy[:, 1] - y0, xy[:, 0] - x0] = True
    return mask, x0, y0


def mask_path(mask: np.ndarray, x0: int = 0, y0: int = 0) -> QPainterPath:
    """Fill path of the tiles of ``mask`` (its top-left tile at x0, y0): one rectangle
    per horizontal run (runs never overlap, so no costly ``simplified()``; the
    outline is drawn separately by :func:`mask_lines`)."""
    path = QPainterPath()
    pad = np.zeros((mask.shape[0], mask.shape[1] + 2), np.int8)
    pad[:, 1:-1] = mask
    d = np.diff(pad, axis=1)
    ry, sx = np.nonzero(d == 1)
    _, ex = np.nonzero(d == -1)
    for y, a, b in zip((ry + y0).tolist(), (sx + x0).tolist(), (ex + x0).tolist(), strict=True):
        path.addRect(QRectF(a * TILE, y * TILE, (b - a) * TILE, TILE))
    return path


def mask_lines(mask: np.ndarray, x0: int = 0, y0: int = 0) -> list[QLineF]:
    """The boundary of the tiles of ``mask`` as straight grid lines (scene units)."""
    h, w = mask.shape
    segs = mask_segments(mask, x0, y0, Rect(x0, y0, x0 + w - 1, y0 + h - 1)) * TILE
    return [QLineF(ax, ay, bx, by) for (ax, ay), (bx, by) in segs.tolist()]


def tiles_path(tiles: list[tuple[int, int]]) -> QPainterPath:
    """Fill path of ``tiles`` (see :func:`mask_path`)."""
    return mask_path(*tiles_mask(tiles)) if tiles else QPainterPath()


def tiles_outline(tiles: list[tuple[int, int]]) -> list[QLineF]:
    """The boundary of the union of ``tiles`` as straight grid lines (scene units)."""
    return mask_lines(*tiles_mask(tiles)) if tiles else []


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
        tiles, edges = list(tiles), list(edges)
        if tiles == self.tiles and edges == self.edges:
            return  # hover events repeat the shape while the pointer stays in a tile
        if tiles:
            mask, x0, y0 = tiles_mask(tiles)
            self._set(tiles, edges, mask_path(mask, x0, y0), mask_lines(mask, x0, y0))
        else:
            self._set(tiles, edges, QPainterPath(), [])

    def set_mask(self, mask: np.ndarray) -> None:
        """The tiles of a map-sized bool mask (a flood region: no list of tuples to
        build and compare, so a 256x256 region takes milliseconds)."""
        ys, xs = np.nonzero(mask)
        if not len(xs):
            self.clear()
            return
        x0, x1, y0, y1 = int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())
        box = mask[y0:y1 + 1, x0:x1 + 1]
        self._set(list(zip(xs.tolist(), ys.tolist(), strict=True)), [],
                  mask_path(box, x0, y0), mask_lines(box, x0, y0))

    def _set(self, tiles: list[tuple[int, int]], edges: list[Edge], path: QPainterPath,
             lines: list[QLineF]) -> None:
        self.prepareGeometryChange()
        self.tiles = tiles
        self.edges = edges
        self.path = path
        self.lines = lines
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
        if not self.path.isEmpty() and self.brush.style() != Qt.BrushStyle.NoBrush:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self.brush)
            painter.drawPath(self.path)
        painter.setPen(self.pen)
        if self.lines:
            painter.drawLines(self.lines)


def cosmetic(color: QColor, width: float = 2, style=Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(color, width, style)
    pen.setCosmetic(True)
    return pen
