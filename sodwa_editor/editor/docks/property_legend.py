"""The Legend dock's terrain-properties section: each vocabulary property's icon
(as the map draws it) with its name and effect, a light source's lit area and
the property filter's dimming."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from ...engine.terrain import Base
from ...engine.terrain_properties import PROPERTY_NAMES, VOCABULARY
from .. import style
from ..properties.glyphs import paint_glyph
from ..scene.property_item import DIM_RGBA, LIGHT_EDGE, LIGHT_GLOW

Painter = Callable[[QPainter, QRectF], None]
TITLE = "Terrain properties (icons at the foot of a tile; Layers dock: show, hide, filter)"


def _ground(p: QPainter, r: QRectF) -> None:
    p.fillRect(r, QColor(*style.FILL[Base.CLEAR]))


def _icon(name: str, faded: bool = False) -> Painter:
    def paint(p: QPainter, r: QRectF) -> None:
        _ground(p, r)
        side = r.height() - 6
        paint_glyph(p, name, QRectF(r.center().x() - side / 2, r.top() + 3, side, side),
                    faded=faded)
    return paint


def _light(p: QPainter, r: QRectF) -> None:
    _ground(p, r)
    p.fillRect(r.adjusted(4, 3, -4, -3), QColor(LIGHT_GLOW.red(), LIGHT_GLOW.green(),
                                                LIGHT_GLOW.blue(), 110))
    pen = QPen(LIGHT_EDGE, 1.5, Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.drawRect(r.adjusted(4, 3, -4, -3))
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QPen(LIGHT_EDGE, 1.2))
    p.setBrush(LIGHT_GLOW)
    p.drawEllipse(QPointF(r.center()), 5, 5)


def _dimmed(p: QPainter, r: QRectF) -> None:
    _ground(p, r)
    half = QRectF(r.left(), r.top(), r.width() / 2, r.height())
    p.fillRect(half.translated(r.width() / 2, 0), QColor(*DIM_RGBA))


def property_entries() -> tuple[str, list[tuple[Painter, str]]]:
    """The section: (title, [(swatch painter, meaning)])."""
    rows: list[tuple[Painter, str]] = [
        (_icon(n), f"{VOCABULARY[n].label}: {VOCABULARY[n].effect}") for n in PROPERTY_NAMES]
    rows += [
        (_light, "Light source (Object tool, kind light): glow over the tiles it lights, "
                 "dashed edge; Dark and Full Dark are suppressed there"),
        (_icon("dark", faded=True), "A faded Dark or Full Dark icon: suppressed by a "
                                    "light source"),
        (_dimmed, "Show tiles with a property (Layers dock): the other tiles dimmed"),
    ]
    return TITLE, rows
