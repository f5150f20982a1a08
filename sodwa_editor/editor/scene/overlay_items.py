"""Transient feedback items: hovered tile or edge, tool previews (rectangle,
line, paste stamp), the selection and a focus highlight (validation dock)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.model import Edge, Rect
from ..geometry import edge_endpoints
from ..style import TILE
from .kernels import mask_segments
from .layers import points_polygon
from .outline_item import mask_outline


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


def mask_lines(mask: np.ndarray, x0: int = 0, y0: int = 0, inset: float = 0.0
               ) -> list[QLineF]:
    """The boundary of the tiles of ``mask`` as straight lines (scene units): on the
    grid lines, or ``inset`` scene units inside the tiles."""
    h, w = mask.shape
    clip = Rect(x0, y0, x0 + w - 1, y0 + h - 1)
    segs = (mask_outline(mask, x0, y0, inset / TILE, clip) if inset
            else mask_segments(mask, x0, y0, clip)) * TILE
    return [QLineF(ax, ay, bx, by) for (ax, ay), (bx, by) in segs.tolist()]


def tiles_path(tiles: list[tuple[int, int]]) -> QPainterPath:
    """Fill path of ``tiles`` (see :func:`mask_path`)."""
    return mask_path(*tiles_mask(tiles)) if tiles else QPainterPath()


def tiles_outline(tiles: list[tuple[int, int]]) -> list[QLineF]:
    """The boundary of the union of ``tiles`` as straight grid lines (scene units)."""
    return mask_lines(*tiles_mask(tiles)) if tiles else []


class MaskShape:
    """A region of the map (a bool mask of the map's shape) prepared for drawing
    once: the tiles as an image of the region's bounding box (one pixel per
    tile in the brush colour, drawn scaled without smoothing) and the outline
    as one point array for ``drawLines``.  A 256x256 region takes a few
    milliseconds to prepare and to draw, where a path of one rectangle per run
    took hundreds."""

    def __init__(self, mask: np.ndarray, brush: QBrush) -> None:
        self.mask = mask
        ys, xs = np.nonzero(mask)
        self.count = len(xs)
        self.bounds = QRectF()
        self.image = QImage()
        self.points = QPolygonF()
        if not self.count:
            return
        x0, x1, y0, y1 = int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())
        self.origin = (x0, y0)
        box = mask[y0:y1 + 1, x0:x1 + 1]
        h, w = box.shape
        self.bounds = QRectF(x0 * TILE, y0 * TILE, w * TILE, h * TILE)
        if brush.style() != Qt.BrushStyle.NoBrush:
            c = brush.color()
            a = c.alpha()
            rgba = np.zeros((h, w, 4), np.uint8)  # premultiplied
            rgba[box] = (c.red() * a // 255, c.green() * a // 255, c.blue() * a // 255, a)
            self._rgba = rgba  # the image shares this memory
            self.image = QImage(rgba.data, w, h, w * 4,
                                QImage.Format.Format_RGBA8888_Premultiplied)
        segs = mask_outline(box, x0, y0, 0.0, Rect(x0, y0, x1, y1)) * TILE
        self.points = points_polygon(segs)

    def tiles(self) -> list[tuple[int, int]]:
        ys, xs = np.nonzero(self.mask)
        return list(zip(xs.tolist(), ys.tolist(), strict=True))

    def paint(self, painter: QPainter, pen: QPen) -> None:
        if not self.image.isNull():
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
            painter.drawImage(self.bounds, self.image,
                              QRectF(0, 0, self.image.width(), self.image.height()))
        painter.setPen(pen)
        if self.points.size():
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # grid lines
            # the polygon's own memory (see scene.line_groups.points_polygon)
            painter.drawLines(self.points.data(), self.points.size() // 2)


SHAPES_KEPT = 64  # footprints whose path and outline a ShapeOverlay keeps


class ShapeOverlay(QGraphicsItem):
    """A set of tiles and edges drawn with one pen and brush; the tiles' outline
    ``inset`` scene units inside them (off the borders on their edges), on a
    ``halo`` pen when given."""

    def __init__(self, pen: QPen, brush: QBrush | QColor | None = None, z: float = 50,
                 parent: QGraphicsItem | None = None, *, inset: float = 0.0,
                 halo: QPen | None = None) -> None:
        super().__init__(parent)
        self.pen = pen
        self.inset = inset
        self.halo = halo
        self.brush = QBrush(brush) if brush is not None else QBrush(Qt.BrushStyle.NoBrush)
        self.path = QPainterPath()
        self.lines: list[QLineF] = []
        self._tiles: list[tuple[int, int]] | None = []
        #: the region shown by :meth:`set_mask`, or None
        self.mask_shape: MaskShape | None = None
        self.edges: list[Edge] = []
        self.setZValue(z)
        self._bounds = QRectF()
        #: tiles relative to their top-left corner -> (fill path, outline) there
        self._shapes: dict[tuple, tuple[QPainterPath, list[QLineF]]] = {}

    def set_shape(self, tiles: Iterable[tuple[int, int]] = (),
                  edges: Iterable[Edge] = ()) -> None:
        tiles, edges = list(tiles), list(edges)
        if self.mask_shape is None and tiles == self.tiles and edges == self.edges:
            return  # hover events repeat the shape while the pointer stays in a tile
        if not tiles:
            self._set(tiles, edges, QPainterPath(), [])
            return
        # A brush's footprint is the same few tiles moved along: its path and
        # outline are made once per shape and moved (every hover and stroke step)
        x0 = min(x for x, _y in tiles)
        y0 = min(y for _x, y in tiles)
        key = tuple((x - x0, y - y0) for x, y in tiles)
        shape = self._shapes.get(key)
        if shape is None:
            mask = tiles_mask(list(key))[0]  # its top-left tile is 0, 0
            if len(self._shapes) >= SHAPES_KEPT:
                self._shapes.clear()
            shape = self._shapes[key] = (mask_path(mask), mask_lines(mask, inset=self.inset))
        path, lines = shape
        dx, dy = x0 * TILE, y0 * TILE
        self._set(tiles, edges, path.translated(dx, dy), [ln.translated(dx, dy) for ln in lines])

    def set_mask(self, mask: np.ndarray | MaskShape) -> None:
        """The tiles of a map-sized bool mask (a flood region), drawn as an image
        and an outline built once (:class:`MaskShape`; pass one to show a region
        prepared before: nothing is built again)."""
        shape = mask if isinstance(mask, MaskShape) else MaskShape(mask, self.brush)
        if shape is self.mask_shape:
            return
        if shape.count == 0:
            self.clear()
            return
        self.prepareGeometryChange()
        self.mask_shape = shape
        self._tiles = None
        self.edges = []
        self.path = QPainterPath()
        self.lines = []
        pad = self.pen.widthF() + 2
        self._bounds = shape.bounds.adjusted(-pad, -pad, pad, pad)
        self.update()

    @property
    def tiles(self) -> list[tuple[int, int]]:
        """The tiles shown (of a mask: listed when asked for)."""
        if self._tiles is None:
            self._tiles = self.mask_shape.tiles() if self.mask_shape is not None else []
        return self._tiles

    @tiles.setter
    def tiles(self, tiles: list[tuple[int, int]]) -> None:
        self._tiles = tiles

    def _set(self, tiles: list[tuple[int, int]], edges: list[Edge], path: QPainterPath,
             lines: list[QLineF]) -> None:
        self.prepareGeometryChange()
        self.mask_shape = None
        self.tiles = tiles
        self.edges = edges
        self.path = path
        self.lines = lines
        r = self.path.boundingRect()  # holds the tiles' outline (``lines`` so far)
        for e in self.edges:
            (ax, ay), (bx, by) = edge_endpoints(e)
            ln = QLineF(ax * TILE, ay * TILE, bx * TILE, by * TILE)
            self.lines.append(ln)
            r = r.united(QRectF(ln.p1(), ln.p2()).normalized())
        pad = max(self.pen.widthF(), self.halo.widthF() if self.halo else 0) + 2
        self._bounds = r.adjusted(-pad, -pad, pad, pad)
        self.update()

    def clear(self) -> None:
        self.set_shape()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.mask_shape is not None:
            self.mask_shape.paint(painter, self.pen)
            return
        if not self.path.isEmpty() and self.brush.style() != Qt.BrushStyle.NoBrush:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self.brush)
            painter.drawPath(self.path)
        if self.lines:
            for pen in (self.halo, self.pen) if self.halo is not None else (self.pen,):
                painter.setPen(pen)
                painter.drawLines(self.lines)


def cosmetic(color: QColor, width: float = 2, style=Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(color, width, style)
    pen.setCosmetic(True)
    return pen
