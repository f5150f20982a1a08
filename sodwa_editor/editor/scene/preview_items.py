"""Scene items for the engine previews: LoS fan, movement range, a line (LoS)
or path (movement) to a target, and the feature that decided a line.  (The
adjacency graph preview is :mod:`.graph_item`.)

Drawn to stay legible over every terrain, zone and team colour (see the
*previews* section of :mod:`..style`): regions are shaded or hatched rather
than tinted, region edges and lines are dark on a white halo, and the hues
are Okabe-Ito's colour-blind-safe ones.  The map scene puts them above the
fills and tints but under level numbers, tokens and the rulebook lines.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.model import MapModel, Rect
from ...engine.terrain import Crossing
from .. import style
from ..style import TILE
from .kernels import mask_segments
from .layers import CHUNK, ImageLayer, exposed_tiles, points_polygon, premultiply, tile_pixels
from .overlay_items import mask_path

#: hatching and region edges are drawn when a tile is at least this many pixels
DETAIL_PX = 6.0
PEN_STYLES = {"solid": Qt.PenStyle.SolidLine, "dash": Qt.PenStyle.DashLine,
              "dot": Qt.PenStyle.DotLine}


def _center(t) -> QPointF:
    return QPointF((t[0] + 0.5) * TILE, (t[1] + 0.5) * TILE)


def haloed(color: QColor, width: float, pen_style: str = "solid",
           cased: bool = False) -> list[QPen]:
    """Cosmetic pens drawn in order: a black casing (``cased``), a white halo,
    and the ``color`` line on them."""
    pens = [QPen(style.HALO, width + 2 * style.LINE_HALO),
            QPen(color, width, PEN_STYLES[pen_style])]
    if cased:
        pens.insert(0, QPen(style.CASING, width + 2 * style.LINE_HALO + 2))
    for pen in pens:
        pen.setCosmetic(True)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    return pens


def hatch_brush(color: QColor, spacing: int, backslash: bool = False) -> QBrush:
    """A texture of diagonal ``color`` lines on a white halo, ``spacing`` pixels apart
    (draw it with :func:`device_brush` so that it keeps that size at any zoom)."""
    pix = QPixmap(spacing, spacing)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    for pen in (QPen(style.HALO, 3.2), QPen(color, 1.4)):
        p.setPen(pen)
        for c in (0, spacing, 2 * spacing):  # the line x + y = c and its wrapped copies
            if backslash:
                p.drawLine(QPointF(c - 2 * spacing, -spacing), QPointF(c + spacing, 2 * spacing))
            else:
                p.drawLine(QPointF(c + spacing, -spacing), QPointF(c - 2 * spacing, 2 * spacing))
    p.end()
    return QBrush(pix)


def device_brush(brush: QBrush, painter: QPainter) -> QBrush:
    """``brush`` with its texture kept at one texel per device pixel."""
    scale = painter.worldTransform().m11() or 1.0
    out = QBrush(brush)
    out.setTransform(QTransform.fromScale(1 / scale, 1 / scale))
    return out


def region_segments(mask: np.ndarray, r: Rect) -> np.ndarray:
    """Scene segments (n, 2, 2) between the tiles in ``mask`` (a whole-map bool
    array) and those not in it, for the sides of tiles in ``r`` (the map's own
    edge is no boundary: beyond it counts as inside)."""
    h, w = mask.shape
    ext = np.ones((r.y1 - r.y0 + 3, r.x1 - r.x0 + 3), bool)
    y0, y1, x0, x1 = max(0, r.y0 - 1), min(h, r.y1 + 2), max(0, r.x0 - 1), min(w, r.x1 + 2)
    ext[y0 - r.y0 + 1:y1 - r.y0 + 1, x0 - r.x0 + 1:x1 - r.x0 + 1] = mask[y0:y1, x0:x1]
    return mask_segments(ext, r.x0 - 1, r.y0 - 1, r) * TILE


def edge_pens(edge_color: QColor) -> list[QPen]:
    """The pens of a region's edge: the colour on a white halo, square caps."""
    pens = haloed(edge_color, style.LOS_EDGE_WIDTH)
    for pen in pens:
        pen.setCapStyle(Qt.PenCapStyle.SquareCap)
    return pens


def paint_region(painter: QPainter, option: QStyleOptionGraphicsItem, model: MapModel,
                 hatch: np.ndarray | None, brush: QBrush | None, edge: np.ndarray | None,
                 edge_color: QColor | list[QPen]) -> None:
    """Hatch the tiles of ``hatch`` and outline the region ``edge`` (both
    whole-map masks) within the exposed tiles; ``edge_color`` or the pens of
    :func:`edge_pens` for it."""
    r = exposed_tiles(model, option.exposedRect)
    if r is None:
        return
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    if hatch is not None and brush is not None:
        sub = hatch[r.y0:r.y1 + 1, r.x0:r.x1 + 1]
        if sub.any():
            painter.fillPath(mask_path(sub, r.x0, r.y0), device_brush(brush, painter))
    if edge is not None:
        seg = region_segments(edge, r)
        if len(seg):
            # drawLines(const QPointF *, n) on the polygon's memory (see line_groups.LineGroup)
            points = points_polygon(seg)
            pens = edge_pens(edge_color) if isinstance(edge_color, QColor) else edge_color
            for pen in pens:
                painter.setPen(pen)
                painter.drawLines(points.data(), len(seg))


class ArrayImage(ImageLayer):
    """An image layer filled from a per-tile RGBA array set by the controller."""

    def __init__(self) -> None:
        super().__init__()
        self._pixels: np.ndarray | None = None

    def set_pixels(self, model: MapModel, rgba: np.ndarray, within: Rect | None = None) -> None:
        """Show new pixels, redrawing only the 16x16 blocks whose tiles changed
        (a fan recomputed after a small edit mostly stays the same); ``within``
        bounds the tiles that may have changed, when the caller knows."""
        if self.model is not model or self.rgba.shape[:2] != model.shape:
            self.prepareGeometryChange()
            self.model = model
            self._pixels = rgba
            self.refresh(None)
            return
        self._pixels = rgba
        h, w = model.shape
        r = within if within is not None else Rect(0, 0, w - 1, h - 1)
        x0, y0 = r.x0 // CHUNK * CHUNK, r.y0 // CHUNK * CHUNK
        sl = np.s_[y0:r.y1 + 1, x0:r.x1 + 1]
        changed = (self.rgba[sl] != rgba[sl]).any(axis=2)
        ch, cw = changed.shape
        padded = np.zeros((-(-ch // CHUNK) * CHUNK, -(-cw // CHUNK) * CHUNK), bool)
        padded[:ch, :cw] = changed
        blocks = padded.reshape(padded.shape[0] // CHUNK, CHUNK, -1, CHUNK).any(axis=(1, 3))
        for by, bx in zip(*np.nonzero(blocks), strict=True):  # redraw changed blocks only
            bx0, by0 = x0 + int(bx) * CHUNK, y0 + int(by) * CHUNK
            self.refresh(Rect(bx0, by0, min(w, bx0 + CHUNK) - 1, min(h, by0 + CHUNK) - 1))

    def compute(self, model: MapModel, rect: Rect) -> np.ndarray:
        if self._pixels is None:
            return np.zeros((rect.y1 - rect.y0 + 1, rect.x1 - rect.x0 + 1, 4), np.uint8)
        return self._pixels[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1]


class LosFanItem(ArrayImage):
    """Every tile as seen from the source: clear tiles as they are, impeded
    tiles hatched, blocked tiles shaded with a line along the shadow's edge."""

    def __init__(self) -> None:
        super().__init__()
        self.fan: np.ndarray | None = None
        self.lut = premultiply(np.asarray(style.LOS_RGBA, np.uint8))
        self.hatch = hatch_brush(style.LOS_HATCH, style.LOS_HATCH_SPACING)
        self.edge_pens = edge_pens(style.LOS_EDGE)

    def set_fan(self, model: MapModel, fan: np.ndarray, within: Rect | None = None) -> None:
        """Show ``fan``; ``within`` bounds the tiles that changed since the last
        fan from the same source (None: any)."""
        if fan is self.fan and self.model is model and within is not None:
            return  # the tracker handed back the same fan: nothing changed
        self.fan = fan
        if within is None or self._pixels is None or self._pixels.shape[:2] != fan.shape:
            self.set_pixels(model, self.lut[fan])
            return
        rgba = self._pixels.copy()
        sl = np.s_[within.y0:within.y1 + 1, within.x0:within.x1 + 1]
        rgba[sl] = self.lut[fan[sl]]
        self.set_pixels(model, rgba, within)

    def class_at(self, x: int, y: int) -> Crossing:
        """Class shown on a tile (read back from the drawn image)."""
        return Crossing(int(np.argmax([np.array_equal(self.rgba[y, x], c) for c in self.lut])))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        super().paint(painter, option, widget)
        if self.fan is None or self.model is None or tile_pixels(option, painter) < DETAIL_PX:
            return
        paint_region(painter, option, self.model, self.fan == Crossing.IMPEDED, self.hatch,
                     self.fan == Crossing.BLOCKED, self.edge_pens)


class ReachItem(ArrayImage):
    """Reachable tiles faintly tinted and edged, tiles where movement must stop
    hatched, with the step count when zoomed in."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: np.ndarray | None = None
        self.stop: np.ndarray | None = None
        self.count = 0
        self.hatch = hatch_brush(style.REACH_STOP_HATCH, style.LOS_HATCH_SPACING,
                                 backslash=True)
        self.edge_pens = edge_pens(style.REACH_EDGE)

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
        if self.steps is None or self.stop is None or self.model is None:
            return
        px = tile_pixels(option, painter)
        if px >= DETAIL_PX:
            reach = self.steps >= 0
            paint_region(painter, option, self.model, reach & self.stop, self.hatch, reach,
                         self.edge_pens)
        if px < 18:
            return
        # Step counts as small badges in the tile's top-left corner: readable over
        # the level number written in the middle of elevated tiles.
        font = QFont(painter.font())
        font.setPixelSize(int(TILE * 0.3))
        painter.setFont(font)
        badge = QColor(255, 255, 255, 200)
        r = exposed_tiles(self.model, option.exposedRect)
        if r is None:
            return
        ys, xs = np.nonzero(self.steps[r.y0:r.y1 + 1, r.x0:r.x1 + 1] > 0)
        for y, x in zip((ys + r.y0).tolist(), (xs + r.x0).tolist(), strict=True):
            text = str(int(self.steps[y, x]))
            box = QRectF(x * TILE + 1, y * TILE + 1, TILE * (0.22 + 0.17 * len(text)), TILE * 0.36)
            painter.fillRect(box, badge)
            painter.setPen(QColor(0, 0, 60))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


class PathItem(QGraphicsItem):
    """The LoS line to a target (colour and dash by its class, on a white halo)
    or a movement path."""

    def __init__(self) -> None:
        super().__init__()
        self.path = QPainterPath()
        self.pens = haloed(style.PATH_LINE, style.LINE_WIDTH, cased=True)
        self.crossing: Crossing | None = None

    @property
    def pen(self) -> QPen:
        return self.pens[-1]

    def set_line(self, a, b, crossing: Crossing) -> None:
        self.prepareGeometryChange()
        self.crossing = crossing
        self.path = QPainterPath(_center(a))
        self.path.lineTo(_center(b))
        i = int(crossing)
        self.pens = haloed(style.LOS_LINE[i], style.LINE_WIDTH, style.LOS_LINE_STYLE[i],
                           cased=True)
        self.update()

    def set_path(self, tiles) -> None:
        self.prepareGeometryChange()
        self.crossing = None
        self.path = QPainterPath(_center(tiles[0]))
        for t in tiles[1:]:
            self.path.lineTo(_center(t))
        self.pens = haloed(style.PATH_LINE, style.LINE_WIDTH, cased=True)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self.path.boundingRect().adjusted(-8, -8, 8, 8)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for pen in self.pens:
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self.path)
        if self.path.elementCount():
            end = self.path.currentPosition()
            halo, core = self.pens[-2:]
            painter.setPen(QPen(halo.color(), 0))
            painter.setBrush(core.color())
            painter.drawEllipse(end, TILE * 0.14, TILE * 0.14)


class CulpritItem(QGraphicsItem):
    """The tile, edge or corner that decided a blocked or impeded line of sight
    (the engine's :class:`~sodwa_editor.engine.los.Reason`), ringed in the
    line's colour on a white halo."""

    def __init__(self) -> None:
        super().__init__()
        self.path = QPainterPath()
        self.pens = haloed(style.LOS_LINE[2], style.CULPRIT_WIDTH, cased=True)
        self.kind: str | None = None
        self.place: tuple | None = None

    def set_reason(self, reason, crossing: Crossing) -> None:
        """Show where ``reason`` lies (None hides the item)."""
        self.prepareGeometryChange()
        self.path = QPainterPath()
        self.kind = self.place = None
        if reason is not None:
            if reason.edge is not None:
                e = reason.edge
                a = QPointF((e.x + 1) * TILE, e.y * TILE) if e.side == "E" else QPointF(
                    e.x * TILE, (e.y + 1) * TILE)
                b = a + (QPointF(0, TILE) if e.side == "E" else QPointF(TILE, 0))
                self.path.moveTo(a)
                self.path.lineTo(b)
                self.kind, self.place = "edge", (e.x, e.y, e.side)
            elif reason.corner is not None:
                cx, cy = reason.corner
                self.path.addEllipse(QPointF(cx * TILE, cy * TILE), TILE * 0.22, TILE * 0.22)
                self.kind, self.place = "corner", (cx, cy)
            elif reason.tile is not None:
                tx, ty = reason.tile
                inset = TILE * 0.1
                self.path.addRect(QRectF(tx * TILE + inset, ty * TILE + inset,
                                         TILE - 2 * inset, TILE - 2 * inset))
                self.kind, self.place = "tile", (tx, ty)
        self.pens = haloed(style.LOS_LINE[int(crossing)], style.CULPRIT_WIDTH, cased=True)
        self.setVisible(self.kind is not None)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self.path.boundingRect().adjusted(-TILE / 2, -TILE / 2, TILE / 2, TILE / 2)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for pen in self.pens:
            painter.setPen(pen)
            painter.drawPath(self.path)
