"""Building blocks of the map scene: per-tile image layers and chunked path layers.

Both redraw only what a model change touched: an :class:`ImageLayer` recomputes
the RGBA pixels (one pixel per tile) of the changed rectangle, a
:class:`ChunkedPathLayer` rebuilds the vector paths of the 32x32-tile chunks
that the rectangle overlaps.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QImage, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.model import MapModel, Rect
from ..style import TILE

CHUNK = 32


def full_rect(model: MapModel) -> Rect:
    return Rect(0, 0, model.width - 1, model.height - 1)


def exposed_tiles(model: MapModel, exposed: QRectF, margin: int = 0) -> Rect | None:
    """Tiles intersecting an exposed scene rectangle (clipped), or None."""
    x0 = max(0, int(exposed.left() // TILE) - margin)
    y0 = max(0, int(exposed.top() // TILE) - margin)
    x1 = min(model.width - 1, int(exposed.right() // TILE) + margin)
    y1 = min(model.height - 1, int(exposed.bottom() // TILE) + margin)
    if x0 > x1 or y0 > y1:
        return None
    return Rect(x0, y0, x1, y1)


def tile_pixels(option: QStyleOptionGraphicsItem, painter: QPainter) -> float:
    """Size of one tile on screen, in device pixels."""
    return TILE * QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


class LayerItem(QGraphicsItem):
    """Scene item bound to a model; ``refresh(rect)`` redraws a changed region.

    ``layers`` names the model change layers (``Change.layer``) it depends on;
    ``grow`` is how far a change spreads (outlines depend on neighbours).
    """

    layers: frozenset[str] = frozenset()
    grow = 0

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.model: MapModel | None = None

    def bind(self, model: MapModel) -> None:
        self.prepareGeometryChange()
        self.model = model
        self.refresh(None)

    def refresh(self, rect: Rect | None) -> None:
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        if self.model is None:
            return QRectF()
        return QRectF(0, 0, self.model.width * TILE, self.model.height * TILE)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        pass


class ImageLayer(LayerItem):
    """One RGBA pixel per tile, drawn scaled with nearest-neighbour sampling."""

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.rgba = np.zeros((1, 1, 4), np.uint8)
        self.image = QImage()

    def compute(self, model: MapModel, rect: Rect) -> np.ndarray:
        """Premultiplied RGBA (h, w, 4) uint8 of the tiles in ``rect``."""
        raise NotImplementedError

    def refresh(self, rect: Rect | None) -> None:
        m = self.model
        if m is None:
            return
        if rect is None or self.rgba.shape[:2] != m.shape:
            self.rgba = np.zeros((m.height, m.width, 4), np.uint8)
            self.image = QImage(self.rgba.data, m.width, m.height, m.width * 4,
                                QImage.Format.Format_RGBA8888_Premultiplied)
            rect = full_rect(m)
        self.rgba[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1] = self.compute(m, rect)
        self.update(QRectF(rect.x0 * TILE, rect.y0 * TILE, (rect.x1 - rect.x0 + 1) * TILE,
                           (rect.y1 - rect.y0 + 1) * TILE))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.model is None:
            return
        r = exposed_tiles(self.model, option.exposedRect)
        if r is None:
            return
        w, h = r.x1 - r.x0 + 1, r.y1 - r.y0 + 1
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(QRectF(r.x0 * TILE, r.y0 * TILE, w * TILE, h * TILE), self.image,
                          QRectF(r.x0, r.y0, w, h))


def premultiply(rgba: np.ndarray) -> np.ndarray:
    out = rgba.astype(np.uint16)
    out[..., :3] = out[..., :3] * out[..., 3:4] // 255
    return out.astype(np.uint8)


class PathChunk(QGraphicsItem):
    """Cached straight lines drawn with a sequence of pens (e.g. a wall and its
    core).  ``drawLines`` lets the paint engine clip each line, which is much
    faster than stroking one long path."""

    def __init__(self, lines: list[QLineF], pens: Sequence[QPen],
                 parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.lines = lines
        self.pens = list(pens)
        pad = max((p.widthF() for p in self.pens), default=0)
        xs = [v for ln in lines for v in (ln.x1(), ln.x2())]
        ys = [v for ln in lines for v in (ln.y1(), ln.y2())]
        self._bounds = QRectF(min(xs), min(ys), max(xs) - min(xs),
                              max(ys) - min(ys)).adjusted(-pad, -pad, pad, pad)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        for pen in self.pens:
            painter.setPen(pen)
            painter.drawLines(self.lines)


def to_lines(segments: Iterable[np.ndarray], scale: float = TILE) -> list[QLineF]:
    """QLineF (scene units) of 2-point segments given in tile units."""
    return [QLineF(float(c[0][0]) * scale, float(c[0][1]) * scale,
                   float(c[-1][0]) * scale, float(c[-1][1]) * scale)
            for c in segments if len(c) >= 2]


class ChunkedPathLayer(LayerItem):
    """Vector paths kept per chunk of CHUNK x CHUNK tiles and per style key.

    Subclasses implement :meth:`chunk_paths` returning ``{style: [polylines]}``
    for one chunk and :meth:`pens` for a style.
    """

    #: a lazy layer computes nothing while hidden and catches up when shown
    lazy = False

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.chunks: dict[tuple[int, int], list[PathChunk]] = {}
        self._stale = False

    def itemChange(self, change, value):  # noqa: N802 (Qt override)
        if (change == QGraphicsItem.GraphicsItemChange.ItemVisibleHasChanged and value
                and self._stale):
            self._stale = False
            self.refresh(None)
        return super().itemChange(change, value)

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[object, list[np.ndarray]]:
        raise NotImplementedError

    def pens(self, style: object) -> Sequence[QPen]:
        raise NotImplementedError

    def refresh(self, rect: Rect | None) -> None:
        m = self.model
        if m is None:
            return
        if self.lazy and not self.isVisible():
            self._stale = True
            return
        if rect is None:
            for items in self.chunks.values():
                for it in items:
                    it.setParentItem(None)
                    if it.scene() is not None:
                        it.scene().removeItem(it)
            self.chunks.clear()
            rect = full_rect(m)
        rect = rect.grow(self.grow, m.width, m.height)
        for cy in range(rect.y0 // CHUNK, rect.y1 // CHUNK + 1):
            for cx in range(rect.x0 // CHUNK, rect.x1 // CHUNK + 1):
                self._rebuild(m, cx, cy)

    def _rebuild(self, m: MapModel, cx: int, cy: int) -> None:
        for it in self.chunks.pop((cx, cy), []):
            if it.scene() is not None:
                it.scene().removeItem(it)
            else:
                it.setParentItem(None)
        rect = Rect(cx * CHUNK, cy * CHUNK, min(m.width, (cx + 1) * CHUNK) - 1,
                    min(m.height, (cy + 1) * CHUNK) - 1)
        items = []
        for style, lines in self.chunk_paths(m, rect).items():
            if lines:
                items.append(PathChunk(to_lines(lines), self.pens(style), self))
        if items:
            self.chunks[(cx, cy)] = items

    def lines(self) -> dict[tuple, list[QLineF]]:
        """All lines per pen set (merged over chunks), for tests and exports;
        the key is ((colour name, width), ...) of the pens."""
        out: dict[tuple, list[QLineF]] = {}
        for items in self.chunks.values():
            for it in items:
                key = tuple((p.color().name(), p.widthF()) for p in it.pens)
                out.setdefault(key, []).extend(it.lines)
        return out
