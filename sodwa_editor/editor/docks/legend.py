"""Legend dock: what every line, fill and preview on the map means.

Each swatch is drawn with the editor's own style constants and drawing helpers
(:mod:`..style`, :mod:`..scene.preview_items`), read when the legend is built,
so the legend cannot drift from the map.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QStyleOptionGraphicsItem,
    QVBoxLayout,
    QWidget,
)

from ...engine.terrain import Base, Crossing
from .. import style
from ..scene import preview_items as pv
from .property_legend import property_entries

SW, SH = 56, 28  # swatch size in pixels
Painter = Callable[[QPainter, QRectF], None]


def _fill(rgb) -> Painter:
    def paint(p: QPainter, r: QRectF) -> None:
        p.fillRect(r, QColor(*rgb[:3]) if len(rgb) == 3 else QColor(*rgb))
    return paint


def _ground(p: QPainter, r: QRectF) -> None:
    p.fillRect(r, QColor(*style.FILL[Base.CLEAR]))


def _thick(color: QColor) -> Painter:
    def paint(p: QPainter, r: QRectF) -> None:
        _ground(p, r)
        p.setPen(QPen(color, style.BORDER_WIDTH * 0.75))
        p.drawLine(QPointF(r.left() + 4, r.center().y()), QPointF(r.right() - 4, r.center().y()))
    return paint


def _elevated(p: QPainter, r: QRectF) -> None:
    alpha = int(style.elevation_alpha(np.array([1]))[0])
    tint = QColor(*style.ELEVATION_TINT, alpha)
    _ground(p, r)
    p.fillRect(r, tint)
    p.setPen(QPen(style.ELEVATED, style.ELEVATION_WIDTH))
    p.drawRect(r.adjusted(3, 3, -3, -3))
    font = QFont()
    font.setPixelSize(13)
    font.setBold(True)
    p.setFont(font)
    p.setPen(style.LEVEL_NUMBER)
    p.drawText(r, Qt.AlignmentFlag.AlignCenter, "1")


def _transition_border(p: QPainter, r: QRectF) -> None:
    _ground(p, r)
    y = r.center().y()
    p.setPen(QPen(style.ELEVATED, style.ELEVATION_WIDTH))
    p.drawLine(QPointF(r.left() + 3, y), QPointF(r.left() + 18, y))
    p.drawLine(QPointF(r.right() - 18, y), QPointF(r.right() - 3, y))
    p.setPen(QPen(style.TRANSITION, 2, Qt.PenStyle.DashLine))
    p.drawLine(QPointF(r.left() + 20, y), QPointF(r.right() - 20, y))


def _transition_tile(p: QPainter, r: QRectF) -> None:
    _ground(p, r)
    p.fillRect(r, QColor(*style.TRANSITION_TILE_RGBA))


def _indoor(p: QPainter, r: QRectF) -> None:
    p.fillRect(r, QColor(*style.FILL_INDOOR_OBSTRUCTING))
    p.fillRect(r, QBrush(style.INDOOR_HATCH, Qt.BrushStyle.DiagCrossPattern))


def _zone(p: QPainter, r: QRectF) -> None:
    team = style.team_color("red")
    _ground(p, r)
    p.fillRect(r, QColor(team.red(), team.green(), team.blue(), style.START_ZONE_ALPHA))
    pen = QPen(team, style.ZONE_OUTLINE_WIDTH, Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.drawRect(r.adjusted(style.ZONE_OUTLINE_INSET, style.ZONE_OUTLINE_INSET,
                          -style.ZONE_OUTLINE_INSET, -style.ZONE_OUTLINE_INSET))


def _los(c: Crossing) -> Painter:
    def paint(p: QPainter, r: QRectF) -> None:
        _ground(p, r)
        rgba = style.LOS_RGBA[int(c)]
        p.fillRect(r, QColor(*rgba))
        if c is Crossing.IMPEDED:
            p.fillRect(r, pv.hatch_brush(style.LOS_HATCH, style.LOS_HATCH_SPACING))
        if c is Crossing.BLOCKED:
            for pen in pv.haloed(style.LOS_EDGE, style.LOS_EDGE_WIDTH):
                p.setPen(pen)
                p.drawLine(QPointF(r.left() + 1, r.top() + 1), QPointF(r.left() + 1, r.bottom()))
    return paint


def _line(pens: list[QPen], dot: bool = True) -> Painter:
    def paint(p: QPainter, r: QRectF) -> None:
        _ground(p, r)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        a, b = QPointF(r.left() + 6, r.center().y()), QPointF(r.right() - 8, r.center().y())
        for pen in pens:
            p.setPen(pen)
            p.drawLine(a, b)
        if dot:
            p.setPen(QPen(pens[-2].color(), 0))
            p.setBrush(pens[-1].color())
            p.drawEllipse(b, 4.5, 4.5)
    return paint


def _ring(c: Crossing) -> Painter:
    def paint(p: QPainter, r: QRectF) -> None:
        _ground(p, r)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        box = QRectF(r.center().x() - 9, r.top() + 5, 18, 18)
        for pen in pv.haloed(style.LOS_LINE[int(c)], style.CULPRIT_WIDTH, cased=True):
            p.setPen(pen)
            p.drawRect(box)
    return paint


def _reach(stop: bool) -> Painter:
    def paint(p: QPainter, r: QRectF) -> None:
        _ground(p, r)
        p.fillRect(r, QColor(*(style.REACH_STOP_RGBA if stop else style.REACH_RGBA)))
        if stop:
            p.fillRect(r, pv.hatch_brush(style.REACH_STOP_HATCH, style.LOS_HATCH_SPACING,
                                         backslash=True))
        for pen in pv.haloed(style.REACH_EDGE, style.LOS_EDGE_WIDTH):
            p.setPen(pen)
            p.drawLine(QPointF(r.right() - 2, r.top()), QPointF(r.right() - 2, r.bottom()))
    return paint


def _graph(c: Crossing) -> Painter:
    def paint(p: QPainter, r: QRectF) -> None:
        from ..scene.graph_item import GraphLayer

        _ground(p, r)
        pens = GraphLayer().pens(c)
        y = r.center().y()
        for pen in pens:
            p.setPen(pen)
            if c is Crossing.BLOCKED:
                p.drawLine(QPointF(r.center().x(), y - 7), QPointF(r.center().x(), y + 7))
            else:
                p.drawLine(QPointF(r.left() + 6, y), QPointF(r.right() - 6, y))
    return paint


def _area(look_name: str, stopped: bool = False) -> Painter:
    """A swatch of an area drawn by :class:`~..scene.area_item.AreaItem` itself."""
    def paint(p: QPainter, r: QRectF) -> None:
        from ..scene import area_item

        _ground(p, r)
        item = area_item.AreaItem(getattr(area_item, look_name))
        tile = style.TILE
        scale = r.height() / tile * 0.8
        p.save()
        p.translate(r.left() + (r.width() - 2 * tile * scale) / 2,
                    r.top() + (r.height() - tile * scale) / 2)
        p.scale(scale, scale)
        item.set_area([] if stopped else [(0, 0), (1, 0)], [(0, 0), (1, 0)] if stopped
                      else [])
        item.paint(p, QStyleOptionGraphicsItem())
        p.restore()
    return paint


def entries() -> list[tuple[str, list[tuple[Painter, str]]]]:
    """Sections of (swatch painter, meaning)."""
    o = style.OUTLINE
    return [
        ("Terrain and borders (rulebook colours)", [
            (_thick(o[Base.OBSTRUCTING]), "Obstructing: thick black line (group outline or "
                                          "border); blocks movement and LoS"),
            (_thick(o[Base.IMPEDING]), "Impeding: thick yellow line; impedes LoS"),
            (_thick(o[Base.DIFFICULT]), "Difficult: thick gray line; movement must stop"),
            (_thick(o[Base.LIQUID]), "Liquid: thick blue line (the editor's colour)"),
            (_elevated, "Elevated terrain: darker per level, level number, red line "
                        "inside the rim"),
            (_transition_border, "Transition border: a gap in the red line, marked green"),
            (_transition_tile, "Transition tile: highlighted green"),
            (_indoor, "Indoor obstruction: near-black, white cross-hatch (rises to the "
                      "ceiling); outdoor ones are brown-gray rock"),
            (_zone, "Start zone: team colour, dashed outline in it"),
        ]),
        property_entries(),
        ("LoS fan from the source tile", [
            (_los(Crossing.CLEAR), "Clear: the map as it is"),
            (_los(Crossing.IMPEDED), "Impeded: hatched"),
            (_los(Crossing.BLOCKED), "Blocked: shaded, edged with a dark line"),
            (_line(pv.haloed(style.LOS_LINE[0], style.LINE_WIDTH, style.LOS_LINE_STYLE[0],
                             cased=True)), "Line to the hovered tile: clear"),
            (_line(pv.haloed(style.LOS_LINE[1], style.LINE_WIDTH, style.LOS_LINE_STYLE[1],
                             cased=True)), "Line: impeded (dashed)"),
            (_line(pv.haloed(style.LOS_LINE[2], style.LINE_WIDTH, style.LOS_LINE_STYLE[2],
                             cased=True)), "Line: blocked (dotted)"),
            (_ring(Crossing.BLOCKED), "What decided it: the tile, edge or corner ringed "
                                      "in the line's colour"),
        ]),
        ("Movement range and adjacency graph", [
            (_reach(False), "Reachable: faint blue, edged; step counts when zoomed in"),
            (_reach(True), "Movement must stop here: hatched"),
            (_line(pv.haloed(style.PATH_LINE, style.LINE_WIDTH, cased=True)),
             "Path to the hovered tile"),
            (_graph(Crossing.CLEAR), "Adjacent tiles (left out while the LoS fan is shown: "
                                     "a pair without a mark is adjacent)"),
            (_graph(Crossing.IMPEDED), "Adjacent, impeded"),
            (_graph(Crossing.BLOCKED), "Neighbours that are not adjacent"),
        ]),
        ("Areas of effect (AoE template tool, an area ability aimed in a playtest)", [
            (_area("TEMPLATE"), "Affected: reddish purple, edged; its point of origin "
                                "ringed, a dashed line from the caster"),
            (_area("TEMPLATE", stopped=True), "Reached on an open map, not here: crossed "
                                              "out (hover it: why, and what stopped it "
                                              "ringed)"),
            (_area("REFUSED"), "Cannot be placed there (out of Range, no line of sight): "
                               "dashed, faint"),
            (_area("EFFECT"), "Playtest: an effect that stays (orange; its name and the "
                              "upkeeps it has left)"),
            (_area("LANDING"), "Playtest: where a falling object lands (dashed)"),
        ]),
    ]


def swatch(paint: Painter) -> QPixmap:
    pix = QPixmap(SW, SH)
    pix.fill(style.BACKGROUND)
    p = QPainter(pix)
    paint(p, QRectF(0, 0, SW, SH))
    p.end()
    return pix


class LegendDock(QWidget):
    """The drawing conventions, each beside a swatch drawn the map's way (the
    main window puts it in a scrolling dock body)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.swatches: dict[str, QLabel] = {}
        for title, items in entries():
            head = QLabel(f"<b>{title}</b>")
            head.setWordWrap(True)
            lay.addWidget(head)
            grid = QGridLayout()
            grid.setColumnStretch(1, 1)
            for row, (paint, text) in enumerate(items):
                pic = QLabel()
                pic.setPixmap(swatch(paint))
                label = QLabel(text)
                label.setWordWrap(True)
                grid.addWidget(pic, row, 0, Qt.AlignmentFlag.AlignTop)
                grid.addWidget(label, row, 1)
                self.swatches[text] = pic
            lay.addLayout(grid)
        lay.addStretch(1)
