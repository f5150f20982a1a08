"""An area of effect on the map (issue 25): the tiles it affects tinted and edged,
the tiles it would reach on an open map and does not crossed out (another look,
never the same tint), its point of origin ringed, a dashed line from the caster
to a point of origin at Range, and the wall, edge or corner that stopped the tile
under the pointer ringed as the LoS preview rings what decided a line
(:class:`~.preview_items.CulpritItem`, the item's own).

Drawn as the previews are (see the *previews* section of :mod:`..style`): dark
lines on a white halo, regions tinted faintly, so that the terrain, the level
numbers and the tokens stay readable under it (tokens are drawn over it).  Two
looks: :data:`TEMPLATE` (the AoE template tool, an area ability being aimed) and
:data:`EFFECT` (an effect that stays on the board; a falling object's landing
zone dashed).  The item takes tiles, never an engine object: the template tool
and the playtest feed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from ...engine.terrain import Crossing
from .. import style
from ..style import TILE
from .overlay_items import mask_lines, mask_path, tiles_mask
from .preview_items import CulpritItem, haloed

Tile = tuple[int, int]
#: z of an area: over the grid, graph and movement range, under the LoS line, the
#: level numbers and the tokens (the map scene's PREVIEW_Z); effects under templates
TEMPLATE_Z, EFFECT_Z = 4.35, 4.32
CROSS_INSET = 0.3  # of a tile: the arms of a stopped tile's cross end this far in


@dataclass(frozen=True)
class Look:
    """How an area is drawn: its tint, its edge colour and pen style."""

    fill: QColor
    edge: QColor
    dash: str = "solid"


TEMPLATE = Look(QColor(*style.AREA_RGBA), style.AREA_EDGE)
EFFECT = Look(QColor(*style.EFFECT_RGBA), style.EFFECT_EDGE)
#: an area that cannot be placed there (out of Range, no line of sight): dashed, faint
REFUSED = Look(QColor(*style.AREA_RGBA[:3], 30), style.AREA_EDGE, "dash")
LANDING = Look(QColor(*style.EFFECT_RGBA[:3], 30), style.EFFECT_EDGE, "dash")


def _centre(t: Tile) -> QPointF:
    return QPointF((t[0] + 0.5) * TILE, (t[1] + 0.5) * TILE)


class AreaItem(QGraphicsItem):
    """One area of effect (see the module docstring); hidden while it has no tile."""

    def __init__(self, look: Look = TEMPLATE, z: float = TEMPLATE_Z) -> None:
        super().__init__()
        self.look = look
        self.setZValue(z)
        self.affected: tuple[Tile, ...] = ()
        self.stopped: tuple[Tile, ...] = ()
        self.origin: Tile | None = None
        self.source: Tile | None = None
        self.label = ""
        self.fill_path = QPainterPath()
        self.edge_path = QPainterPath()
        self.cross_path = QPainterPath()
        self.marks_path = QPainterPath()
        self._bounds = QRectF()
        #: the wall, edge or corner that stopped the tile under the pointer
        self.culprit = CulpritItem()
        self.culprit.setZValue(40.0)
        self.culprit.setVisible(False)
        self.setVisible(False)

    def add_to(self, scene: QGraphicsScene) -> None:
        """Put the area and its culprit ring on ``scene``."""
        for item in (self, self.culprit):
            if item.scene() is not scene:
                if item.scene() is not None:
                    item.scene().removeItem(item)
                scene.addItem(item)

    def remove(self) -> None:
        for item in (self, self.culprit):
            if item.scene() is not None:
                item.scene().removeItem(item)

    def set_area(self, affected: Sequence[Tile], stopped: Sequence[Tile] = (),
                 origin: Tile | None = None, source: Tile | None = None,
                 label: str = "", look: Look | None = None) -> None:
        """Show an area: ``affected`` and ``stopped`` tiles, the point of ``origin``
        ringed, a dashed line from ``source`` (the caster) when it is elsewhere, and
        ``label`` written at the origin."""
        look = look or self.look
        key = (tuple(affected), tuple(stopped), origin, source, label, look)
        if key == (self.affected, self.stopped, self.origin, self.source, self.label,
                   self.look):
            return  # the pointer moved within a tile: the same area
        self.prepareGeometryChange()
        self.affected, self.stopped, self.origin, self.source, self.label, self.look = key
        self.fill_path = QPainterPath()
        self.edge_path = QPainterPath()
        if affected:
            mask, x0, y0 = tiles_mask(list(affected))
            self.fill_path = mask_path(mask, x0, y0)
            for ln in mask_lines(mask, x0, y0):
                self.edge_path.moveTo(ln.p1())
                self.edge_path.lineTo(ln.p2())
        self.cross_path = QPainterPath()
        for x, y in stopped:
            a, b = (x + CROSS_INSET) * TILE, (x + 1 - CROSS_INSET) * TILE
            c, d = (y + CROSS_INSET) * TILE, (y + 1 - CROSS_INSET) * TILE
            self.cross_path.moveTo(a, c)
            self.cross_path.lineTo(b, d)
            self.cross_path.moveTo(b, c)
            self.cross_path.lineTo(a, d)
        self.marks_path = QPainterPath()
        if origin is not None:
            self.marks_path.addEllipse(_centre(origin), TILE * 0.2, TILE * 0.2)
            if source is not None and source != origin:
                self.marks_path.moveTo(_centre(source))
                self.marks_path.lineTo(_centre(origin))
        bounds = self.fill_path.boundingRect().united(self.cross_path.boundingRect())
        bounds = bounds.united(self.marks_path.boundingRect())
        if label and origin is not None:
            bounds = bounds.united(QRectF((origin[0] - 2) * TILE, (origin[1] - 1) * TILE,
                                          5 * TILE, 2 * TILE))
        self._bounds = bounds.adjusted(-TILE / 4, -TILE / 4, TILE / 4, TILE / 4)
        self.setVisible(bool(affected or stopped))
        self.update()

    def clear(self) -> None:
        self.set_area(())
        self.show_reason(None)

    def show_reason(self, reason: object | None) -> None:
        """Ring the wall, edge or corner ``reason`` names (an engine
        :class:`~sodwa_editor.engine.los.Reason`; None hides the ring)."""
        self.culprit.set_reason(reason, Crossing.BLOCKED)

    # ------------------------------------------------------------------ Qt
    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        look = self.look
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        if not self.fill_path.isEmpty():
            painter.fillPath(self.fill_path, look.fill)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for pen in haloed(look.edge, style.AREA_WIDTH, look.dash):
                pen.setCapStyle(Qt.PenCapStyle.SquareCap)
                painter.setPen(pen)
                painter.drawPath(self.edge_path)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for path, color, dash in ((self.cross_path, style.AREA_STOP, "solid"),
                                  (self.marks_path, look.edge, "dash")):
            if path.isEmpty():
                continue
            for pen in haloed(color, style.AREA_WIDTH, dash):
                painter.setPen(pen)
                painter.drawPath(path)
        if self.label and self.origin is not None:
            font = QFont(painter.font())
            font.setPixelSize(int(TILE * 0.34))
            font.setBold(True)
            painter.setFont(font)
            x, y = self.origin
            box = QRectF((x - 2) * TILE, (y - 0.45) * TILE, 5 * TILE, TILE * 0.42)
            text = painter.fontMetrics().boundingRect(self.label)
            back = QRectF(0, 0, text.width() + 8, box.height())
            back.moveCenter(box.center())
            painter.fillRect(back, QColor(255, 255, 255, 215))
            painter.setPen(look.edge)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.label)
