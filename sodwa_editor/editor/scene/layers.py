"""Building blocks of the map scene: per-tile image layers and chunked path layers
(the lines of a chunk and their cached item: :mod:`.line_groups`).

Both redraw only what a model change touched: an :class:`ImageLayer` recomputes
the RGBA pixels (one pixel per tile) of the changed rectangle, a
:class:`ChunkedPathLayer` rebuilds the vector paths of the 16x16-tile chunks
that the rectangle overlaps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ...engine.model import MapModel, Rect
from .. import style
from ..style import TILE
from .line_groups import LineGroup, PathChunk
from .line_groups import points_polygon as points_polygon  # (re-exported)
from .line_groups import tile_pixels as tile_pixels  # (re-exported)

CHUNK = 16


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
        # paint() gets the exposed rectangle, so layers draw only what is visible
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)

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
    """One RGBA pixel per tile, drawn scaled with nearest-neighbour sampling.

    An ``opaque`` layer uses an alpha-less image format (a plain copy when
    drawn); a translucent one draws only the CHUNK x CHUNK blocks that hold
    any visible pixel, since blending is what costs when painting.
    """

    opaque = False

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.rgba = np.zeros((1, 1, 4), np.uint8)
        self.image = QImage()
        self.occupied = np.zeros((1, 1), bool)

    def compute(self, model: MapModel, rect: Rect) -> np.ndarray:
        """Premultiplied RGBA (h, w, 4) uint8 of the tiles in ``rect``."""
        raise NotImplementedError

    def refresh(self, rect: Rect | None) -> None:
        m = self.model
        if m is None:
            return
        if rect is None or self.rgba.shape[:2] != m.shape:
            self.rgba = np.zeros((m.height, m.width, 4), np.uint8)
            fmt = (QImage.Format.Format_RGBX8888 if self.opaque
                   else QImage.Format.Format_RGBA8888_Premultiplied)
            self.image = QImage(self.rgba.data, m.width, m.height, m.width * 4, fmt)
            self.occupied = np.zeros((-(-m.height // CHUNK), -(-m.width // CHUNK)), bool)
            rect = full_rect(m)
        self.rgba[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1] = self.compute(m, rect)
        if not self.opaque:
            cy0, cy1 = rect.y0 // CHUNK, rect.y1 // CHUNK
            cx0, cx1 = rect.x0 // CHUNK, rect.x1 // CHUNK
            alpha = self.rgba[cy0 * CHUNK:(cy1 + 1) * CHUNK, cx0 * CHUNK:(cx1 + 1) * CHUNK, 3]
            h, w = alpha.shape
            padded = np.zeros((-(-h // CHUNK) * CHUNK, -(-w // CHUNK) * CHUNK), bool)
            padded[:h, :w] = alpha > 0
            blocks = padded.reshape(padded.shape[0] // CHUNK, CHUNK, -1, CHUNK).any(axis=(1, 3))
            self.occupied[cy0:cy1 + 1, cx0:cx1 + 1] = blocks
        self.update(QRectF(rect.x0 * TILE, rect.y0 * TILE, (rect.x1 - rect.x0 + 1) * TILE,
                           (rect.y1 - rect.y0 + 1) * TILE))

    def _draw(self, painter: QPainter, r: Rect) -> None:
        w, h = r.x1 - r.x0 + 1, r.y1 - r.y0 + 1
        painter.drawImage(QRectF(r.x0 * TILE, r.y0 * TILE, w * TILE, h * TILE), self.image,
                          QRectF(r.x0, r.y0, w, h))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.model is None:
            return
        r = exposed_tiles(self.model, option.exposedRect)
        if r is None:
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        if self.opaque:
            self._draw(painter, r)
            return
        for cy, cx in zip(*np.nonzero(self.occupied[r.y0 // CHUNK:r.y1 // CHUNK + 1,
                                                    r.x0 // CHUNK:r.x1 // CHUNK + 1]),
                          strict=True):
            cy += r.y0 // CHUNK
            cx += r.x0 // CHUNK
            self._draw(painter, Rect(max(r.x0, cx * CHUNK), max(r.y0, cy * CHUNK),
                                     min(r.x1, cx * CHUNK + CHUNK - 1),
                                     min(r.y1, cy * CHUNK + CHUNK - 1)))


def premultiply(rgba: np.ndarray) -> np.ndarray:
    out = rgba.astype(np.uint16)
    out[..., :3] = out[..., :3] * out[..., 3:4] // 255
    return out.astype(np.uint8)


def _segments(lines) -> np.ndarray:
    """(n, 2, 2) array from a list of (2, 2) segments and/or (k, 2, 2) blocks."""
    if isinstance(lines, np.ndarray):
        return lines.reshape(-1, 2, 2)
    if not len(lines):
        return np.zeros((0, 2, 2))
    if len(lines) == 1 and isinstance(lines[0], np.ndarray) and lines[0].dtype == np.float64:
        return lines[0].reshape(-1, 2, 2)
    return np.concatenate([np.asarray(x, float).reshape(-1, 2, 2) for x in lines])


class ChunkedPathLayer(LayerItem):
    """Vector paths kept per chunk of CHUNK x CHUNK tiles and per style key.

    Subclasses implement :meth:`chunk_paths` returning ``{style: [polylines]}``
    for one chunk and :meth:`pens` for a style.
    """

    #: a lazy layer computes nothing while hidden and catches up when shown
    lazy = False
    #: chunks are not drawn when a tile is smaller than this many screen pixels
    min_px = 0.0
    #: cut line caps at the map's outline (borders must not stick out of the map)
    clip_to_map = False
    #: tiles per side of a chunk
    chunk = CHUNK
    #: Draw each pen of each style in a plane of its own (:meth:`plane`), over
    #: every chunk: a chunk's lines of one plane are drawn over every chunk's
    #: lines of the planes below.  Without planes, each chunk draws its halo
    #: and then its core, and the next chunk's halo covers the ends of this
    #: chunk's cores where their lines meet (the adjacency graph lost the
    #: "not adjacent" ticks and line ends along every chunk boundary).  Each
    #: plane of a chunk is an item of its own (``chunks[(cx, cy, plane)]``).
    planed = False

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        #: the chunk items by (cx, cy), or by (cx, cy, plane) for a planed layer
        self.chunks: dict[tuple[int, ...], PathChunk] = {}
        self._planes: dict[int, QGraphicsRectItem] = {}  # plane -> the parent of its items
        self._legible = True  # tiles are min_px or more on screen (see set_view_scale)
        self._stale = False
        self._pens: dict[Any, list[QPen]] = {}  # pens(key), made once per full redraw

    def itemChange(self, change, value):  # noqa: N802 (Qt override)
        if (change == QGraphicsItem.GraphicsItemChange.ItemVisibleHasChanged and value
                and self._stale):
            self._stale = False
            self.refresh(None)
        return super().itemChange(change, value)

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[Any, list[np.ndarray]]:
        raise NotImplementedError

    def pens(self, style: Any) -> Sequence[QPen]:
        raise NotImplementedError

    def draw_order(self, style: Any) -> Any:
        """Sort key of a style within a chunk: later styles are drawn on top."""
        return 0

    def plane(self, style: Any, pen: int) -> int:
        """The plane (:attr:`planed`) of the ``pen``-th pen of ``style``: higher
        planes are drawn over lower ones."""
        return 0

    def _plane_parent(self, plane: int) -> QGraphicsItem:
        """The item whose children are a plane's chunk items (stacked by plane)."""
        if not self.planed:
            return self
        parent = self._planes.get(plane)
        if parent is None:
            parent = self._planes[plane] = QGraphicsRectItem(self)
            parent.setPen(QPen(Qt.PenStyle.NoPen))
            parent.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
            parent.setZValue(plane)
            parent.setVisible(self._legible)
        return parent

    def set_view_scale(self, scale: float) -> None:
        """The map view's zoom (``scale`` screen pixels per scene unit): below
        ``min_px`` pixels per tile the chunk items draw nothing, and a planed
        layer hides them, so a repaint does not make and blend their cached
        pixmaps for nothing (a rendering without a view draws them as their
        paint decides)."""
        legible = not self.min_px or scale * TILE >= self.min_px
        if legible != self._legible:
            self._legible = legible
            for parent in self._planes.values():
                parent.setVisible(legible)

    def refresh(self, rect: Rect | None) -> None:
        m = self.model
        if m is None:
            return
        if self.lazy and not self.isVisible():
            self._stale = True
            return
        if rect is None:
            self._pens.clear()
            for it in self.chunks.values():
                _remove(it)
            self.chunks.clear()
            rect, changed = full_rect(m), None
        else:
            # lines change only within ``grow`` tiles of the edit; one tile more
            # holds their pens (cosmetic pens are a few pixels: the layers that
            # use them are hidden below ``min_px`` pixels per tile)
            near = rect.grow(self.grow + 1, m.width, m.height)
            changed = QRectF(near.x0 * TILE, near.y0 * TILE, (near.x1 - near.x0 + 1) * TILE,
                             (near.y1 - near.y0 + 1) * TILE)
        rect = rect.grow(self.grow, m.width, m.height)
        n = self.chunk
        for cy in range(rect.y0 // n, rect.y1 // n + 1):
            for cx in range(rect.x0 // n, rect.x1 // n + 1):
                self._rebuild(m, cx, cy, changed)

    def _rebuild(self, m: MapModel, cx: int, cy: int, changed: QRectF | None = None) -> None:
        n = self.chunk
        rect = Rect(cx * n, cy * n, min(m.width, (cx + 1) * n) - 1, min(m.height, (cy + 1) * n) - 1)
        planes: dict[int, list[LineGroup]] = {}
        clip = QRectF(0, 0, m.width * TILE, m.height * TILE) if self.clip_to_map else None
        paths = sorted(self.chunk_paths(m, rect).items(), key=lambda kv: self.draw_order(kv[0]))
        for key, lines in paths:
            seg = _segments(lines)
            if len(seg):
                pens = self._pens.get(key)
                if pens is None:
                    pens = self._pens[key] = list(self.pens(key))
                group = LineGroup(seg * TILE, pens, clip)
                if not self.planed:
                    planes.setdefault(0, []).append(group)
                    continue
                for i, part in enumerate(group.split()):
                    planes.setdefault(self.plane(key, i), []).append(part)
        keys = ({p: (cx, cy, p) for p in self._planes} if self.planed else {0: (cx, cy)})
        for plane, key in keys.items():  # the chunk's planes that have no lines any more
            if plane not in planes and key in self.chunks:
                _remove(self.chunks.pop(key))
        extent = [g for groups in planes.values() for g in groups] if self.planed else None
        for plane, groups in planes.items():
            key = (cx, cy, plane) if self.planed else (cx, cy)
            old = self.chunks.get(key)
            if old is None:
                self.chunks[key] = PathChunk(groups, self._plane_parent(plane), self.min_px,
                                             extent)
            elif not (self.planed and old.draws(groups, extent)):
                old.set_groups(groups, changed, extent)

    def lines(self) -> dict[tuple, list[QLineF]]:
        """All lines per pen set (merged over chunks and planes), for tests and
        exports; the key is ((colour name, width), ...) of the style's pens."""
        out: dict[tuple, list[QLineF]] = {}
        for chunk in self.chunks.values():
            for g in chunk.groups:
                if g.pens[0] is not g.style_pens[0]:
                    continue  # a planed style's lines are listed once, with its first pen
                key = tuple((p.color().name(), p.widthF()) for p in g.style_pens)
                out.setdefault(key, []).extend(g.lines)
        return out


def _remove(item: QGraphicsItem) -> None:
    """Take a chunk item out of its layer and the scene."""
    item.setParentItem(None)  # type: ignore[arg-type]  # stubs: None detaches
    if item.scene() is not None:
        item.scene().removeItem(item)


class TeamColoured:
    """Mixin for layers drawn in team colours (put it before the layer class).

    Adding or removing a team can change other teams' colours
    (:func:`style.team_colors` keeps them apart), so when any colour changed the
    whole layer is redrawn, not just the changed rectangle.  ``team_colors``
    holds the colours of the current drawing.
    """

    model: MapModel | None

    def refresh(self, rect: Rect | None) -> None:
        if self.model is not None:
            old = getattr(self, "team_colors", {})
            colors = style.map_team_colors(self.model)
            if any(old.get(t, c) != c for t, c in colors.items()):
                rect = None
            elif colors != old and isinstance(self, ChunkedPathLayer):
                self._pens.clear()  # a team came or went: its pens are made afresh
            self.team_colors: dict[str, QColor] = colors
        super().refresh(rect)  # type: ignore[misc]  # the layer class after the mixin
