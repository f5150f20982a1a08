"""The lines of a vector layer's chunk: :class:`LineGroup` (segments drawn
with a sequence of pens, as filled rectangles or straight from a point array)
and :class:`PathChunk` (the groups of one chunk as one cached scene item), with
the array helpers they draw from."""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
import shiboken6
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ..style import TILE
from .kernels import bounds, segment_rects


def tile_pixels(option: QStyleOptionGraphicsItem, painter: QPainter) -> float:
    """Size of one tile on screen, in device pixels."""
    return TILE * QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


class LineGroup:
    """Segments (n, 2, 2) in scene units drawn with a sequence of pens (e.g. a
    wall and its dashed core)."""

    def __init__(self, segments: np.ndarray, pens: Sequence[QPen],
                 clip: QRectF | None = None) -> None:
        self.segments = segments
        self.pens = list(pens)
        #: all the pens of the lines' style (a layer drawn in planes gives each
        #: plane one of them: :meth:`split`, :attr:`ChunkedPathLayer.planed`)
        self.style_pens = self.pens
        #: per pen, the filled rectangles (n, 4: x, y, w, h) that stroke the
        #: segments, or None (drawn as lines)
        self.rects = [_segment_rects(segments, p, clip) for p in self.pens]
        self.points = (None if all(r is not None for r in self.rects)
                       else points_polygon(segments))
        self._lines: list[QLineF] | None = None
        self.width = max((p.widthF() for p in self.pens), default=0.0)
        #: drawn with a cosmetic pen (pixels depend on where a repaint clips it)
        self.cosmetic = any(p.isCosmetic() for p in self.pens)
        x0, y0, x1, y1 = bounds(segments)
        self.lo, self.hi = (x0, y0), (x1, y1)

    def split(self) -> list[LineGroup]:
        """One group per pen, sharing the segments and their prepared points (a
        planed layer draws each pen in a plane of its own)."""
        out = []
        for pen, rects in zip(self.pens, self.rects, strict=True):
            g = copy.copy(self)
            g.pens, g.rects = [pen], [rects]
            g.width, g.cosmetic = pen.widthF(), pen.isCosmetic()
            out.append(g)
        return out

    def same_lines(self, other: LineGroup) -> bool:
        """Whether ``other`` draws the same segments with the same pens."""
        return (self.pens == other.pens and self.segments.shape == other.segments.shape
                and bool(np.array_equal(self.segments, other.segments)))

    @property
    def lines(self) -> list[QLineF]:
        if self._lines is None:
            self._lines = [QLineF(a, b, c, d) for (a, b), (c, d) in self.segments.tolist()]
        return self._lines

    def paint(self, painter: QPainter) -> None:
        for pen, rects in zip(self.pens, self.rects, strict=True):
            if rects is not None:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(pen.color())
                # drawRects(const QRectF *, int) on the array's memory (x, y, w, h
                # doubles, as a QRectF), as drawLines below: no QRectF per rectangle
                painter.drawRects(_rect_array(rects), len(rects))
            elif self.points is not None and self.points.size():
                painter.setPen(pen)
                # drawLines(const QPointF *pairs, int count) straight on the polygon's
                # memory (data() wraps it, not owned by Python): passing the polygon
                # itself makes the binding copy it point by point, ~9x slower
                painter.drawLines(self.points.data(), self.points.size() // 2)


class PathChunk(QGraphicsRectItem):
    """The line groups of one chunk of a vector layer, as one cached item.

    Solid scene-unit pens on axis-aligned segments (outlines, borders) are
    drawn as filled rectangles (the segment's extent including its cap), which
    the raster engine fills far faster than it strokes wide lines; other pens
    (dashed, cosmetic) use ``drawLines`` without antialiasing.  The item uses
    ``DeviceCoordinateCache``: repaints caused by other items (a preview over
    the whole map) blit one pixmap instead of drawing thousands of lines
    again.  ``min_px`` hides the chunk when a tile is smaller than that many
    screen pixels.

    A rectangle item (with no pen and no brush of its own) only for its
    bounding rectangle: the scene asks every chunk of a layer for it on every
    repaint (the chunks are the layer item's children), a thousand calls per
    repaint on a 256x256 map, which cost milliseconds when each went to Python.
    """

    def __init__(self, groups: list[LineGroup], parent: QGraphicsItem | None = None,
                 min_px: float = 0, extent: list[LineGroup] | None = None) -> None:
        super().__init__(parent)
        self.setPen(QPen(Qt.PenStyle.NoPen))
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.min_px = min_px
        self.set_groups(groups, extent=extent)

    def set_groups(self, groups: list[LineGroup], changed: QRectF | None = None,
                   extent: list[LineGroup] | None = None) -> None:
        """Draw ``groups`` from now on (a chunk rebuilt after an edit keeps its
        item: replacing it in the scene costs more than rebuilding its lines);
        ``changed``: the only area where they differ from the previous ones, so
        only that part of the cached pixmap and of the view is redrawn.

        With a cosmetic pen (the adjacency graph) only that part of the view
        is: the raster engine steps a clipped cosmetic line from where the
        clip cuts it, a pixel off the unclipped line, and a cached pixmap's
        partial redraw draws into a piece of the pixmap's size.  Its pixmap is
        dropped instead (switching to ``NoCache`` and back does not schedule
        a repaint) and drawn whole, unclipped, at the next paint, which copies
        the changed part to the view: the rest of the view keeps what the same
        unclipped lines drew before.

        ``extent``: the groups whose extent the item covers (by default
        ``groups``; the planes of a chunk share the extent of all its lines,
        so that a plane of a few ticks is not cut at their ends)."""
        self.groups = groups
        bounds = _extent_rect(extent or groups)
        if bounds != self.rect():
            self.setRect(bounds)  # redraws all of the old and the new rectangle
        elif changed is None:
            self.update()
        elif changed.intersects(bounds):
            if any(g.cosmetic for g in groups):  # the pixmap drawn afresh, whole
                self.setCacheMode(QGraphicsItem.CacheMode.NoCache)
                self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            self.update(changed.intersected(bounds))

    def draws(self, groups: list[LineGroup], extent: list[LineGroup] | None) -> bool:
        """Whether the item already draws ``groups`` over the extent of ``extent``
        (a plane of a rebuilt chunk whose lines did not change keeps its pixmap)."""
        return (len(groups) == len(self.groups)
                and all(a.same_lines(b) for a, b in zip(groups, self.groups, strict=True))
                and self.rect() == _extent_rect(extent or groups))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.min_px and tile_pixels(option, painter) < self.min_px:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for g in self.groups:
            g.paint(painter)


def _extent_rect(groups: list[LineGroup]) -> QRectF:
    """The rectangle holding the lines of ``groups``, their pens' widths and a pixel."""
    pad = max(g.width for g in groups) + 1
    x0, y0 = min(g.lo[0] for g in groups), min(g.lo[1] for g in groups)
    x1, y1 = max(g.hi[0] for g in groups), max(g.hi[1] for g in groups)
    return QRectF(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)


def points_polygon(seg: np.ndarray) -> QPolygonF:
    """The segments' end points as a QPolygonF (``drawLines`` draws one line per
    pair), filled straight from numpy through the polygon's memory: ~100x
    faster than making a QLineF per segment."""
    n = len(seg) * 2
    poly = QPolygonF()
    poly.resize(n)
    if n:
        # poly.data() is the point array's address; the stubs type neither call right
        ptr = shiboken6.VoidPtr(poly.data(), n * 16, True)  # type: ignore[call-arg, arg-type]
        buf = np.frombuffer(ptr, dtype=np.float64)  # type: ignore[call-overload]
        buf[:] = np.ascontiguousarray(seg, np.float64).reshape(-1)
    return poly


def _rect_array(rects: np.ndarray) -> QRectF:
    """The first of the rectangles of a C-contiguous (n, 4) float64 array (x, y,
    w, h: a QRectF's layout) as a QRectF pointing into the array (not owned:
    pass it on to ``drawRects(rects, n)`` while the array lives)."""
    return shiboken6.wrapInstance(rects.ctypes.data, QRectF)  # type: ignore[return-value]


def _segment_rects(seg: np.ndarray, pen: QPen, clip: QRectF | None = None
                   ) -> np.ndarray | None:
    """Filled rectangles (n, 4: x, y, w, h) equal to stroking axis-aligned
    segments (n, 2, 2) with ``pen`` (cut to ``clip`` when given), or None when
    the pen or a segment does not allow it."""
    if pen.isCosmetic() or pen.style() != Qt.PenStyle.SolidLine:
        return None
    w = pen.widthF()
    ext = w / 2 if pen.capStyle() == Qt.PenCapStyle.SquareCap else 0.0
    box = (clip.left(), clip.top(), clip.right(), clip.bottom()) if clip is not None else None
    return segment_rects(seg, w, ext, box)
