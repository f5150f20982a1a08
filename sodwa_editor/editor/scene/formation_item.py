"""The formation placement preview on the map: where each member of a team's
formation starts in a start zone (decision B4, computed by
:func:`sodwa_editor.battle.teams.place_formation`, never here), its id on its
tile, an arrow for the facing the formation's front row takes, and a note over
the zone saying where it went; when the formation did not fit as drawn (the
placement is *inexact*: members took the nearest free tiles) its tiles are
dashed vermillion and the note is a warning.

The item is transient (:meth:`~.map_scene.MapScene.add_transient`): an exported
PNG leaves it out.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...battle.teams import FACINGS
from .. import style
from ..notes import NoteItem
from ..style import TILE

Tile = tuple[int, int]
#: z: over the tokens and the rulebook lines, under the deciding-feature preview (40)
FORMATION_Z = 35.0
#: bluish green: apart from the team colours of the start zones it lands in
EXACT = style.OKABE_ITO["bluish green"]
INEXACT = style.OKABE_ITO["vermillion"]


class FormationPlacementItem(QGraphicsItem):
    """The placed members of one formation (module docstring)."""

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.setZValue(FORMATION_Z)
        self.tiles: tuple[Tile, ...] = ()
        self.labels: tuple[str, ...] = ()
        self.facing = "north"
        self.exact = True
        self.note = NoteItem("", self)
        self.note.setVisible(False)
        self.setVisible(False)

    def show_placement(self, tiles: Sequence[Tile], labels: Sequence[str], facing: str,
                       exact: bool, text: str) -> None:
        """Show members ``labels`` on ``tiles`` facing ``facing``; ``text`` in the note
        above them."""
        self.prepareGeometryChange()
        self.tiles, self.labels = tuple(tiles), tuple(labels)
        self.facing, self.exact = facing, exact
        self.note.setText(text)
        x0 = min(t[0] for t in self.tiles)
        y0 = min(t[1] for t in self.tiles)
        # the note stands above the formation's top row, clear of the arrow when
        # it points north (its size is in pixels)
        self.note.setPos(x0 * TILE, (y0 - (1.4 if facing == "north" else 0)) * TILE)
        self.note.setTransform(QTransform.fromTranslate(
            0, -self.note.boundingRect().height() - 3))
        self.note.setVisible(bool(text))
        self.setVisible(True)
        self.update()

    def clear(self) -> None:
        self.prepareGeometryChange()
        self.tiles, self.labels = (), ()
        self.note.setVisible(False)
        self.setVisible(False)

    def is_shown(self) -> bool:
        return self.isVisible() and bool(self.tiles)

    def boundingRect(self) -> QRectF:  # noqa: N802
        if not self.tiles:
            return QRectF()
        xs, ys = [t[0] for t in self.tiles], [t[1] for t in self.tiles]
        return QRectF((min(xs) - 2) * TILE, (min(ys) - 2) * TILE,
                      (max(xs) - min(xs) + 5) * TILE, (max(ys) - min(ys) + 5) * TILE)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if not self.tiles:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = EXACT if self.exact else INEXACT
        fill = QColor(colour)
        fill.setAlpha(110)
        font = QFont()
        font.setPixelSize(8)
        font.setBold(True)
        painter.setFont(font)
        for (x, y), label in zip(self.tiles, self.labels, strict=True):
            rect = QRectF(x * TILE + 3, y * TILE + 3, TILE - 6, TILE - 6)
            for pen in (QPen(style.HALO, 4), QPen(
                    colour, 2, Qt.PenStyle.SolidLine if self.exact else Qt.PenStyle.DashLine)):
                pen.setCosmetic(True)
                painter.setPen(pen)
                painter.setBrush(fill if pen.color() == colour else Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(rect, 5, 5)
            painter.setPen(style.HALO)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, label[:4])
        self._arrow(painter, colour)

    def _arrow(self, painter: QPainter, colour: QColor) -> None:
        """An arrow beyond the formation's front row, pointing the way it faces."""
        n = len(self.tiles)
        fx, fy = dict(FACINGS)[self.facing]
        cx = sum(t[0] + 0.5 for t in self.tiles) / n
        cy = sum(t[1] + 0.5 for t in self.tiles) / n
        # from the centre line to the front row's outer edge, then 0.9 tile beyond it
        ahead = max((t[0] + 0.5 - cx) * fx + (t[1] + 0.5 - cy) * fy for t in self.tiles) + 0.5
        base = QPointF((cx + fx * ahead) * TILE, (cy + fy * ahead) * TILE)
        tip = QPointF(base.x() + fx * TILE * 0.9, base.y() + fy * TILE * 0.9)
        head = QPointF(tip.x() - fx * TILE * 0.4, tip.y() - fy * TILE * 0.4)
        side = QPointF(-fy * TILE * 0.25, fx * TILE * 0.25)
        path = QPainterPath(base)
        path.lineTo(head)
        for pen in (QPen(style.HALO, 6), QPen(colour, 3)):
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(path)
        painter.setPen(QPen(style.HALO, 1.5))
        painter.setBrush(colour)
        painter.drawPolygon(QPolygonF([tip, head + side, head - side]))
