"""Scene items for creatures larger than one tile: the footprint a placement or a move
would cover (tinted where it fits; hatched, with the tile or edge that refuses it ringed,
where it does not) and rings around placed creatures (the flanking preview)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.creatures import where_refused
from ...engine.footprint import Refusal
from ...engine.model import Character, Edge, MapModel
from ...engine.sizes import Footprint
from .. import style
from ..style import TILE
from .preview_items import device_brush, haloed, hatch_brush

Tile = tuple[int, int]
#: the refused footprint's hatching and the ring on what refuses it
REFUSED = style.OKABE_ITO["vermillion"]
#: a fitting footprint's tint and edge
FITS = style.PREVIEW
FITS_EDGE = style.SELECTION


def footprint_rect(anchor: Tile, fp: Footprint, inset: float = 0.0) -> QRectF:
    """The scene rectangle of a footprint whose top-left tile is ``anchor``."""
    return QRectF(anchor[0] * TILE + inset, anchor[1] * TILE + inset,
                  fp.width * TILE - 2 * inset, fp.height * TILE - 2 * inset)


def ring_path(tile: Tile | None = None, edge: Edge | None = None) -> QPainterPath:
    """A ring around a tile, or a bar along an edge (what refuses or decides)."""
    path = QPainterPath()
    if edge is not None:
        a = QPointF((edge.x + 1) * TILE, edge.y * TILE) if edge.side == "E" else QPointF(
            edge.x * TILE, (edge.y + 1) * TILE)
        path.moveTo(a)
        path.lineTo(a + (QPointF(0, TILE) if edge.side == "E" else QPointF(TILE, 0)))
    elif tile is not None:
        inset = TILE * 0.1
        path.addEllipse(QRectF(tile[0] * TILE + inset, tile[1] * TILE + inset,
                               TILE - 2 * inset, TILE - 2 * inset))
    return path


class FootprintGhost(QGraphicsItem):
    """Where a creature would stand: its whole footprint, tinted when it fits; hatched
    in vermillion with the refusing tile or edge ringed (:class:`.footprint.Refusal`)
    when it does not.  Hidden until :meth:`show_at`."""

    def __init__(self) -> None:
        super().__init__()
        self.anchor: Tile | None = None
        self.footprint: Footprint | None = None
        self.refusal: Refusal | None = None
        self.hatch = hatch_brush(REFUSED, style.LOS_HATCH_SPACING)
        self.setZValue(61)  # with the tool preview
        self.setVisible(False)

    @property
    def fits(self) -> bool:
        return self.anchor is not None and self.refusal is None

    def show_at(self, anchor: Tile, fp: Footprint, refusal: Refusal | None) -> None:
        if (anchor, fp, refusal) == (self.anchor, self.footprint, self.refusal) and \
                self.isVisible():
            return
        self.prepareGeometryChange()
        self.anchor, self.footprint, self.refusal = anchor, fp, refusal
        self.setVisible(True)
        self.update()

    def clear(self) -> None:
        if self.anchor is None:
            return
        self.prepareGeometryChange()
        self.anchor = self.footprint = self.refusal = None
        self.setVisible(False)

    def ring(self) -> QPainterPath:
        r = self.refusal
        if r is None:
            return QPainterPath()
        return ring_path(r.tile, r.edge)

    def boundingRect(self) -> QRectF:  # noqa: N802
        if self.anchor is None or self.footprint is None:
            return QRectF()
        pad = TILE * 0.5
        return footprint_rect(self.anchor, self.footprint).united(
            self.ring().boundingRect()).adjusted(-pad, -pad, pad, pad)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.anchor is None or self.footprint is None:
            return
        rect = footprint_rect(self.anchor, self.footprint)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.refusal is None:
            painter.fillRect(rect, FITS)
            pens = haloed(FITS_EDGE, 2.0)
        else:
            painter.fillRect(rect, device_brush(self.hatch, painter))
            pens = haloed(REFUSED, 2.0, "dash")
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for pen in pens:
            painter.setPen(pen)
            painter.drawRect(rect)
        if self.refusal is not None:
            for pen in haloed(REFUSED, style.CULPRIT_WIDTH, cased=True):
                painter.setPen(pen)
                painter.drawPath(self.ring())


class CreatureRings(QGraphicsItem):
    """Outlines around placed creatures, each with an optional badge (the flanking
    preview: the target, its flankers with the squares each counts, the creature or
    tile that covers it).  ``rings``: (top-left tile, footprint, colour, badge text)."""

    def __init__(self) -> None:
        super().__init__()
        self.rings: list[tuple[Tile, Footprint, QColor, str]] = []
        self.tile_ring: Tile | None = None
        self.tile_color = REFUSED
        self.setZValue(41)  # over the tokens and the LoS culprit
        self.setVisible(False)

    def set_rings(self, rings: list[tuple[Tile, Footprint, QColor, str]],
                  tile_ring: Tile | None = None, tile_color: QColor | None = None) -> None:
        self.prepareGeometryChange()
        self.rings = list(rings)
        self.tile_ring = tile_ring
        self.tile_color = tile_color or REFUSED
        self.setVisible(bool(self.rings) or tile_ring is not None)
        self.update()

    def clear(self) -> None:
        self.set_rings([])

    def boundingRect(self) -> QRectF:  # noqa: N802
        out = QRectF()
        for anchor, fp, _c, _b in self.rings:
            out = out.united(footprint_rect(anchor, fp))
        if self.tile_ring is not None:
            out = out.united(footprint_rect(self.tile_ring, Footprint(1, 1)))
        return out.adjusted(-TILE, -TILE, TILE, TILE)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        font = QFont(painter.font())
        font.setPixelSize(int(TILE * 0.34))
        font.setBold(True)
        for anchor, fp, color, badge in self.rings:
            rect = footprint_rect(anchor, fp, TILE * 0.06)
            for pen in haloed(color, 3.0, cased=True):
                painter.setPen(pen)
                painter.drawRoundedRect(rect, TILE * 0.2, TILE * 0.2)
            if badge:
                painter.setFont(font)
                w = TILE * (0.3 + 0.2 * len(badge))
                box = QRectF(rect.right() - w * 0.6, rect.top() - TILE * 0.3, w, TILE * 0.46)
                painter.setPen(QPen(style.CASING, 1))
                painter.setBrush(color)
                painter.drawRoundedRect(box, TILE * 0.12, TILE * 0.12)
                painter.setPen(style.label_color(color))
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, badge)
                painter.setBrush(Qt.BrushStyle.NoBrush)
        if self.tile_ring is not None:
            for pen in haloed(self.tile_color, style.CULPRIT_WIDTH, cased=True):
                painter.setPen(pen)
                painter.drawPath(ring_path(self.tile_ring))


def show_placement(ghost: FootprintGhost, model: MapModel, c: Character, verb: str) -> str:
    """Show on ``ghost`` where ``c`` would stand and whether it may (docs/rules.md S4);
    return the status line: ``Place Ogre (Large 2x2) at 3, 4``, or ``Cannot place Ogre
    (Large 2x2) at 3, 4: character 'imp' is on (4, 4)``."""
    why = where_refused(model, c)
    fp = c.footprint_at()
    ghost.show_at((c.x, c.y), fp, why)
    what = f"{c.name or c.id} ({c.size.capitalize()} {fp}) at {c.x}, {c.y}"
    return f"Cannot {verb.lower()} {what}: {why.text}" if why else f"{verb} {what}"
