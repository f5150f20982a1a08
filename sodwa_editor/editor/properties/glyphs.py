"""One small icon per terrain property (the map's marks, the legend, the
Inspector and the palette draw the same ones): a distinct shape in its
family's colour on a light plate, so a designer tells them apart at a glance.

Families share a colour: movement (Difficult, Very Difficult, Steep,
Precarious) brown, cover green, height red, water blue, darkness indigo,
vision grey (Exposed amber), danger vermillion.  A stronger property of a
scale is its weaker one doubled or filled (one wave Shallow, two Deep; an
outlined shield Cover, a filled one Full Cover)."""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

FAMILY = {
    "movement": QColor(150, 75, 0), "cover": QColor(20, 120, 50),
    "height": QColor(170, 30, 40), "water": QColor(0, 95, 180),
    "dark": QColor(45, 40, 110), "vision": QColor(85, 85, 85),
    "exposed": QColor(200, 130, 0), "danger": QColor(213, 60, 0),
}
FAMILY_OF = {
    "difficult": "movement", "very_difficult": "movement", "steep": "movement",
    "precarious": "movement", "cover": "cover", "full_cover": "cover",
    "high": "height", "very_high": "height", "shallow_water": "water",
    "deep_water": "water", "dark": "dark", "full_dark": "dark", "exposed": "exposed",
    "obscured": "vision", "fully_obscured": "vision", "hazardous": "danger",
    "trapped": "danger",
}
PLATE = QColor(255, 255, 255, 225)
PLATE_EDGE = QColor(40, 40, 40, 160)
#: pixels of the cached icon images (drawn scaled into a few scene units)
ICON_PX = 48


def color_of(name: str) -> QColor:
    return FAMILY[FAMILY_OF.get(name, "vision")]


def _zigzag(p: QPainter, r: QRectF, y: float) -> None:
    w = r.width()
    pts = [QPointF(r.left() + w * (0.15 + 0.14 * i), r.top() + r.height() * (y + (0.08 if i % 2
                                                                                 else -0.08)))
           for i in range(6)]
    p.drawPolyline(QPolygonF(pts))


def _wave(p: QPainter, r: QRectF, y: float) -> None:
    path = QPainterPath()
    x0, w, h = r.left() + r.width() * 0.15, r.width() * 0.7, r.height()
    yy = r.top() + h * y
    path.moveTo(x0, yy)
    path.cubicTo(x0 + w * 0.17, yy - h * 0.16, x0 + w * 0.33, yy - h * 0.16, x0 + w * 0.5, yy)
    path.cubicTo(x0 + w * 0.67, yy + h * 0.16, x0 + w * 0.83, yy + h * 0.16, x0 + w, yy)
    p.drawPath(path)


def _chevron(p: QPainter, r: QRectF, y: float) -> None:
    w, h = r.width(), r.height()
    p.drawPolyline(QPolygonF([QPointF(r.left() + w * 0.2, r.top() + h * (y + 0.18)),
                              QPointF(r.center().x(), r.top() + h * y),
                              QPointF(r.left() + w * 0.8, r.top() + h * (y + 0.18))]))


def _shield(p: QPainter, r: QRectF) -> None:
    w, h = r.width(), r.height()
    path = QPainterPath()
    path.moveTo(r.left() + w * 0.5, r.top() + h * 0.14)
    path.lineTo(r.left() + w * 0.8, r.top() + h * 0.26)
    path.cubicTo(r.left() + w * 0.8, r.top() + h * 0.62, r.left() + w * 0.62,
                 r.top() + h * 0.78, r.left() + w * 0.5, r.top() + h * 0.88)
    path.cubicTo(r.left() + w * 0.38, r.top() + h * 0.78, r.left() + w * 0.2,
                 r.top() + h * 0.62, r.left() + w * 0.2, r.top() + h * 0.26)
    path.closeSubpath()
    p.drawPath(path)


def _cloud(p: QPainter, r: QRectF) -> None:
    w, h = r.width(), r.height()
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)  # the circles' union, not their XOR
    for cx, cy, rad in ((0.35, 0.58, 0.17), (0.52, 0.44, 0.2), (0.68, 0.6, 0.15)):
        path.addEllipse(QPointF(r.left() + w * cx, r.top() + h * cy), w * rad, h * rad)
    path.addRect(QRectF(r.left() + w * 0.35, r.top() + h * 0.58, w * 0.33, h * 0.17))
    p.drawPath(path.simplified())


def _draw(name: str, p: QPainter, r: QRectF, color: QColor) -> None:
    w, h = r.width(), r.height()
    pen = QPen(color, max(1.0, w * 0.11), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
               Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    c = r.center()
    if name == "difficult":
        _zigzag(p, r, 0.5)
    elif name == "very_difficult":
        _zigzag(p, r, 0.35)
        _zigzag(p, r, 0.68)
    elif name == "steep":
        p.setBrush(color)
        p.drawPolygon(QPolygonF([QPointF(r.left() + w * 0.18, r.top() + h * 0.8),
                                 QPointF(r.left() + w * 0.82, r.top() + h * 0.22),
                                 QPointF(r.left() + w * 0.82, r.top() + h * 0.8)]))
    elif name == "precarious":
        p.drawLine(QPointF(r.left() + w * 0.12, r.top() + h * 0.75),
                   QPointF(r.left() + w * 0.88, r.top() + h * 0.75))
        p.setBrush(color)
        p.drawEllipse(QPointF(c.x(), r.top() + h * 0.42), w * 0.13, h * 0.13)
    elif name in ("cover", "full_cover"):
        if name == "full_cover":
            p.setBrush(color)
        _shield(p, r)
    elif name == "high":
        _chevron(p, r, 0.38)
    elif name == "very_high":
        _chevron(p, r, 0.24)
        _chevron(p, r, 0.52)
    elif name == "shallow_water":
        _wave(p, r, 0.5)
    elif name == "deep_water":
        _wave(p, r, 0.36)
        _wave(p, r, 0.66)
    elif name == "dark":
        moon = QPainterPath()
        moon.addEllipse(c, w * 0.3, h * 0.3)
        bite = QPainterPath()
        bite.addEllipse(QPointF(c.x() + w * 0.16, c.y() - h * 0.1), w * 0.26, h * 0.26)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(color)
        p.drawPath(moon.subtracted(bite))
    elif name == "full_dark":
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(15, 15, 30))
        p.drawEllipse(c, w * 0.32, h * 0.32)
    elif name == "exposed":
        p.setBrush(color)
        p.drawEllipse(c, w * 0.16, h * 0.16)
        for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7),
                       (-0.7, -0.7)):
            p.drawLine(QPointF(c.x() + dx * w * 0.26, c.y() + dy * h * 0.26),
                       QPointF(c.x() + dx * w * 0.36, c.y() + dy * h * 0.36))
    elif name in ("obscured", "fully_obscured"):
        if name == "fully_obscured":
            p.setBrush(color)
        _cloud(p, r)
    elif name == "hazardous":
        p.setBrush(color)
        p.setPen(QPen(color, w * 0.06, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                      Qt.PenJoinStyle.RoundJoin))
        p.drawPolygon(QPolygonF([QPointF(c.x(), r.top() + h * 0.14),
                                 QPointF(r.left() + w * 0.88, r.top() + h * 0.84),
                                 QPointF(r.left() + w * 0.12, r.top() + h * 0.84)]))
        p.setPen(QPen(QColor(255, 255, 255), w * 0.1, Qt.PenStyle.SolidLine,
                      Qt.PenCapStyle.RoundCap))
        p.drawLine(QPointF(c.x(), r.top() + h * 0.4), QPointF(c.x(), r.top() + h * 0.6))
        p.drawPoint(QPointF(c.x(), r.top() + h * 0.73))
    elif name == "trapped":
        p.drawLine(QPointF(r.left() + w * 0.25, r.top() + h * 0.25),
                   QPointF(r.left() + w * 0.75, r.top() + h * 0.75))
        p.drawLine(QPointF(r.left() + w * 0.75, r.top() + h * 0.25),
                   QPointF(r.left() + w * 0.25, r.top() + h * 0.75))
    else:  # a property the editor has no icon for: its first letter
        font = p.font()
        font.setPixelSize(max(1, int(h * 0.6)))
        font.setBold(True)
        p.setFont(font)
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, name[:1].upper())


def paint_glyph(p: QPainter, name: str, rect: QRectF, *, faded: bool = False) -> None:
    """Property ``name``'s icon in ``rect`` (a light plate and the shape);
    ``faded``: suppressed here (Dark next to a light source)."""
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    if faded:
        p.setOpacity(p.opacity() * 0.35)
    p.setPen(QPen(PLATE_EDGE, max(0.5, rect.width() * 0.04)))
    p.setBrush(PLATE)
    radius = rect.width() * 0.22
    p.drawRoundedRect(rect, radius, radius)
    _draw(name, p, rect, color_of(name))
    p.restore()


@cache
def glyph_pixmap(name: str, px: int = ICON_PX, faded: bool = False) -> QPixmap:
    """The icon as a ``px`` square image (cached; drawn scaled on the map)."""
    pix = QPixmap(px, px)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    paint_glyph(p, name, QRectF(0.5, 0.5, px - 1, px - 1), faded=faded)
    p.end()
    return pix


def glyph_icon(name: str) -> QIcon:
    return QIcon(glyph_pixmap(name))
