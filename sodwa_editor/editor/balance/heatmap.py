"""The balance heat map: per-tile counts of a balance run (where characters were
defeated, where attacks were made from) drawn over the map, with its legend and
controls in the Layers dock (show, opacity, clear).

The colours are the colour map of the HTML report's tile plot
(:data:`~sodwa_editor.battle.report.TILE_CMAP`, light yellow to dark red, which no
terrain fill uses), scaled from 0 to the run's highest count; a tile's opacity
grows with its count too (``MIN_ALPHA`` to opaque), so rare tiles stay faint and
the map shows through; tiles with no count stay transparent.  The tint lies under
the level numbers and the tokens (:data:`HEAT_Z`): both read through it.

Zoomed in (a tile of :data:`COUNT_MIN_PX` screen pixels or more: 125 % zoom) each
tile also shows its count, drawn by its own item over the tokens and the rulebook
lines (:data:`COUNTS_Z`): a dark number on a light plate in the tile's top-left
corner, in the strip above the level number and the token's label
(:data:`COUNT_STRIP` of the tile), at a fixed screen size (8 to 12 px), so it never
covers a level number, never hides under a token and never hides a token's
label.  The overlay is cleared when the map changes (any edit, undo, or another
map), since its counts belong to the map as it was when the run started.

:class:`HeatMapControls` takes the document (whose changes clear it) and the
scene it draws on.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QLinearGradient,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QGraphicsItem,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QStyleOptionGraphicsItem,
    QVBoxLayout,
    QWidget,
)

from ..scene.layers import tile_pixels
from ..style import TILE

if TYPE_CHECKING:
    from ..document import Document
    from ..scene.map_scene import MapScene

#: The opacity of the lowest count (the highest is opaque), 0..255.
MIN_ALPHA = 110
#: The tint: over the zone tints, grid (4) and previews, under the level numbers (5)
#: and tokens (6): both stay readable.
HEAT_Z = 4.5
#: The counts: over the tokens (6), the rulebook lines and borders (7-10), under the
#: coordinates (11) and the tool overlays (60+).
COUNTS_Z = 10.5
#: The strip along a tile's top edge the count's plate stays in (a fraction of the
#: tile): above the level number (centred: its text box starts 9 of the tile's 32
#: units down, 0.281) and the token's label (from 0.33).
COUNT_STRIP = 0.28
#: A count's font in screen pixels (the strip decides from what zoom it is drawn).
COUNT_FONT_PX = (8, 12)
#: The smallest tile (screen pixels) whose strip holds a count's plate: 125 % zoom.
COUNT_MIN_PX = 40
DEFAULT_OPACITY = 70


def colours(values: np.ndarray, top: float) -> np.ndarray:
    """Premultiplied RGBA uint8 of ``values`` on the colour map scaled 0..``top``, the
    alpha growing from ``MIN_ALPHA`` to 255 with the value; 0 is transparent."""
    from matplotlib import colormaps  # on first use: the editor starts without matplotlib

    from ...battle.report import TILE_CMAP

    frac = np.clip(np.asarray(values, float) / max(top, 1), 0.0, 1.0)
    rgba = colormaps[TILE_CMAP](frac, bytes=True).astype(np.uint16)
    rgba[..., 3] = np.rint(MIN_ALPHA + (255 - MIN_ALPHA) * frac)
    rgba[..., :3] = rgba[..., :3] * rgba[..., 3:4] // 255
    rgba[np.asarray(values) <= 0] = 0
    return np.ascontiguousarray(rgba, np.uint8)


class HeatMapItem(QGraphicsItem):
    """One coloured square per tile with a count (an image of one pixel per tile,
    drawn scaled without smoothing)."""

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.setZValue(HEAT_Z)
        self.counts = np.zeros((0, 0), np.int64)
        self.kind = ""
        self.image = QImage()
        self._rgba = np.zeros((0, 0, 4), np.uint8)

    @property
    def top(self) -> int:
        return int(self.counts.max()) if self.counts.size else 0

    def set_counts(self, counts: np.ndarray, kind: str) -> None:
        self.prepareGeometryChange()
        self.counts = np.asarray(counts, np.int64)
        self.kind = kind
        h, w = self.counts.shape
        self._rgba = colours(self.counts, self.top)
        self.image = QImage(self._rgba.data, w, h, w * 4,
                            QImage.Format.Format_RGBA8888_Premultiplied)
        self.update()

    def clear(self) -> None:
        self.set_counts(np.zeros((0, 0), np.int64), "")

    def is_empty(self) -> bool:
        return self.counts.size == 0

    def value_at(self, x: int, y: int) -> int:
        h, w = self.counts.shape
        return int(self.counts[y, x]) if 0 <= x < w and 0 <= y < h else 0

    def boundingRect(self) -> QRectF:  # noqa: N802
        h, w = self.counts.shape
        return QRectF(0, 0, w * TILE, h * TILE)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.is_empty():
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(self.boundingRect(), self.image)


def count_font_px(tile_px: float) -> int | None:
    """The count's font size in screen pixels for tiles of ``tile_px`` pixels, or None
    when the tile's top strip cannot hold its plate (the count is not drawn)."""
    low, high = COUNT_FONT_PX
    size = min(high, int(COUNT_STRIP * tile_px) - 3)
    return size if size >= low else None


def count_plate(tile_px: float, text_width: float, font_px: int) -> QRectF:
    """The count's plate in screen pixels from the tile's top-left pixel, its edge
    (one pixel wide) on the pixel centres: rows 0 to ``font_px + 2``, within the
    tile's top strip (``font_px`` is at most the strip's pixels less 3)."""
    return QRectF(0.5, 0.5, min(text_width + 4, tile_px - 2), font_px + 2)


class HeatCountsItem(QGraphicsItem):
    """The counts of a :class:`HeatMapItem`, each on a plate in its tile's top-left
    corner (see the module docstring); drawn only where the tile is large enough."""

    def __init__(self, heat: HeatMapItem, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.heat = heat
        self.setZValue(COUNTS_Z)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self.heat.boundingRect()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        counts = self.heat.counts
        px = tile_pixels(option, painter)
        font_px = count_font_px(px)
        if not counts.size or font_px is None:
            return
        r = exposed_tiles_of(counts.shape, option.exposedRect)
        if r is None:
            return
        x0, y0, x1, y1 = r
        transform = painter.worldTransform()
        font = QFont(painter.font())
        font.setPixelSize(font_px)
        font.setBold(True)
        metrics = QFontMetricsF(font)
        painter.save()
        painter.resetTransform()  # screen pixels: the same size at every zoom
        painter.setFont(font)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for y, x in zip(*np.nonzero(counts[y0:y1 + 1, x0:x1 + 1] > 0), strict=True):
            text = str(int(counts[y0 + y, x0 + x]))
            corner = transform.map(QPointF((x0 + x) * TILE, (y0 + y) * TILE))
            plate = count_plate(px, metrics.horizontalAdvance(text), font_px).translated(
                math.ceil(corner.x()), math.ceil(corner.y()))  # (the tile's first pixel)
            painter.setPen(QPen(COUNT_EDGE, 1))
            painter.setBrush(COUNT_PLATE)
            painter.drawRoundedRect(plate, 2, 2)
            painter.setPen(COUNT_TEXT)
            painter.drawText(plate, int(Qt.AlignmentFlag.AlignCenter), text)
        painter.restore()


#: the count's plate, its edge and its text (dark on light over any tint or token)
COUNT_PLATE = QColor(255, 252, 240, 235)
COUNT_EDGE = QColor(120, 60, 20)
COUNT_TEXT = QColor(40, 20, 0)


def exposed_tiles_of(shape: tuple[int, ...], exposed: QRectF
                     ) -> tuple[int, int, int, int] | None:
    """Tiles ``(x0, y0, x1, y1)`` of a ``(height, width)`` grid in an exposed rectangle."""
    h, w = shape[:2]
    x0, y0 = max(0, int(exposed.left() // TILE)), max(0, int(exposed.top() // TILE))
    x1, y1 = min(w - 1, int(exposed.right() // TILE)), min(h - 1, int(exposed.bottom() // TILE))
    return None if x0 > x1 or y0 > y1 else (x0, y0, x1, y1)


class HeatLegend(QWidget):
    """The colour scale: the colour map from 0 to the highest count."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.top = 0
        self.setMinimumHeight(16)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_top(self, top: int) -> None:
        self.top = top
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        p = QPainter(self)
        grad = QLinearGradient(0, 0, self.width(), 0)
        steps = np.linspace(0, max(self.top, 1), 9)
        for k, colour in enumerate(colours(np.maximum(steps, 1e-9), self.top)):
            grad.setColorAt(k / 8, unpremultiplied(colour))
        p.fillRect(self.rect(), grad)
        p.end()


class HeatMapControls(QWidget):
    """The Layers dock's section for the heat map: what it shows, its scale, a
    show box, an opacity and Clear."""

    def __init__(self, document: Document, scene: MapScene,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = HeatMapItem()
        scene.addItem(self.item)
        self.counts = HeatCountsItem(self.item)
        scene.addItem(self.counts)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel("Balance heat map: none (Tools > Balance Run)")
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.legend = HeatLegend()
        scale = QHBoxLayout()
        self.low = QLabel("0")
        self.high = QLabel("")
        scale.addWidget(self.low)
        scale.addWidget(self.legend, 1)
        scale.addWidget(self.high)
        lay.addLayout(scale)
        row = QHBoxLayout()
        self.show_box = QCheckBox("Show")
        self.show_box.setChecked(True)
        self.show_box.toggled.connect(self.set_shown)
        row.addWidget(self.show_box)
        self.opacity = QSpinBox()
        self.opacity.setRange(0, 100)
        self.opacity.setSuffix(" %")
        self.opacity.setToolTip("Opacity of the heat map")
        self.opacity.valueChanged.connect(lambda v: self.item.setOpacity(v / 100))
        self.opacity.setValue(DEFAULT_OPACITY)
        row.addWidget(self.opacity)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setToolTip("Remove the heat map from the map")
        self.clear_button.clicked.connect(self.clear)
        row.addWidget(self.clear_button)
        lay.addLayout(row)
        self._sync()
        document.edited.connect(self.clear)  # the counts belong to the map as it was
        document.model_replaced.connect(self.clear)

    def show_report(self, report: dict[str, Any], kind: str) -> None:
        """Draw ``kind`` of the report's per-tile counts on the map."""
        from ...battle.report import tile_grid

        self.counts.prepareGeometryChange()  # (its rectangle is the tint's)
        self.item.set_counts(np.array(tile_grid(report, kind), np.int64), kind)
        self.counts.update()
        self.show_box.setChecked(True)
        self.set_shown(True)
        self._sync()

    def set_shown(self, on: bool) -> None:
        """Show or hide the tint and the counts together (the Show box)."""
        self.item.setVisible(on)
        self.counts.setVisible(on)

    def clear(self, *_args: object) -> None:
        if not self.item.is_empty():
            self.counts.prepareGeometryChange()
            self.item.clear()
            self._sync()

    def _sync(self) -> None:
        empty = self.item.is_empty()
        for w in (self.legend, self.low, self.high, self.show_box, self.opacity,
                  self.clear_button):
            w.setVisible(not empty)
        if empty:
            self.title.setText("Balance heat map: none (Tools > Balance Run)")
            return
        from ...battle.report import TILE_TITLES

        self.title.setText(f"Balance heat map: {TILE_TITLES[self.item.kind]} "
                           "(count per tile over the run; the counts show from "
                           "125 % zoom)")
        self.high.setText(str(self.item.top))
        self.legend.set_top(self.item.top)


def unpremultiplied(rgba: np.ndarray) -> QColor:
    r, g, b, a = (int(v) for v in rgba)
    if a == 0:
        return QColor(0, 0, 0, 0)
    return QColor(min(255, r * 255 // a), min(255, g * 255 // a), min(255, b * 255 // a), a)


def tile_pixel_colour(count: int, top: int) -> QColor:
    """The colour (with its alpha) the heat map gives ``count`` (legend and tests)."""
    return unpremultiplied(colours(np.array([count]), top)[0])


__all__ = ["HeatCountsItem", "HeatLegend", "HeatMapControls", "HeatMapItem", "colours",
           "tile_pixel_colour"]
