"""Characters as labelled round tokens in their team colour; objects as small
diamonds with the first letter of their kind."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.model import Character, MapModel, MapObject, Rect
from ...engine.sizes import Footprint
from .. import style
from ..style import TILE
from .layers import LayerItem


def token_label(c: Character) -> str:
    """Two letters of a character's name (initials of its first two words)."""
    text = (c.name or c.id).strip()
    words = text.replace("-", " ").split()
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    return text[:2].capitalize()


def unique_labels(labels: dict[str, str]) -> dict[str, str]:
    """Labels (id -> label) made distinct: where several ids share a label, each
    gets the label's first letter and its number among them, in id order
    (three Knights: K1, K2, K3), so no two tokens on the map read the same."""
    by_label: dict[str, list[str]] = {}
    for ident in sorted(labels):
        by_label.setdefault(labels[ident], []).append(ident)
    out = dict(labels)
    for label, idents in by_label.items():
        if len(idents) > 1:
            for n, ident in enumerate(idents, 1):
                out[ident] = f"{label[:1]}{n}"
    return out


class CharacterToken(QGraphicsItem):
    """One character: a circle in the team colour with a two-letter label, drawn over
    its whole footprint (a Huge creature's token covers its 4x4 tiles; a footprint that
    is not square is a rounded rectangle)."""

    def __init__(self, character: Character, color: QColor, label: str,
                 parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.character = character
        self.color = color
        self.label = label
        try:
            self.footprint = character.footprint_at()
        except ValueError:  # an unknown size (validation says so): one tile
            self.footprint = Footprint(1, 1)
        self.setPos(character.x * TILE, character.y * TILE)
        size = "" if self.footprint.area == 1 and character.size == "medium" else \
            f" {character.size.capitalize()} {self.footprint}"
        self.setToolTip(f"{character.name or character.id} ({character.team}){size} "
                        f"Move {character.move} Range {character.range}"
                        + (" flight" if character.flight else ""))

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF(0, 0, TILE * self.footprint.width, TILE * self.footprint.height)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        c = self.character
        color = self.color
        box = self.boundingRect()
        side = min(self.footprint.width, self.footprint.height)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(255, 255, 255), TILE * 0.07 * min(side, 2)))
        painter.setBrush(color)
        m = TILE * 0.17  # leaves the group outline (style.OUTLINE_INSET) clear of the label
        body = box.adjusted(m, m, -m, -m)
        if self.footprint.width == self.footprint.height:
            painter.drawEllipse(body)
        else:
            radius = (TILE * side - 2 * m) / 2
            painter.drawRoundedRect(body, radius, radius)
        if c.flight:
            painter.setPen(QPen(QColor(255, 255, 255), TILE * 0.04, Qt.PenStyle.DotLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(box.adjusted(2, 2, -2, -2))
        font = QFont()
        font.setPixelSize(int(TILE * 0.3 * (1 + 0.6 * (side - 1))))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(style.label_color(color))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.label)


class ObjectMarker(QGraphicsItem):
    """An object: a diamond with two letters of its kind; small in the tile's
    corner when a character shares the tile (both stay visible)."""

    def __init__(self, obj: MapObject, label: str, *, beside_token: bool = False,
                 parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.obj = obj
        self.label = label
        self.beside_token = beside_token
        self.setPos(obj.x * TILE, obj.y * TILE)
        if beside_token:
            self.setZValue(1)  # over the token's rim
        self.setToolTip(f"object {obj.id} ({obj.kind})"
                        + ("" if obj.impedes_los else ", does not impede LoS"))

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF(0, 0, TILE, TILE)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        h, d = (TILE * 0.82, TILE * 0.16) if self.beside_token else (TILE / 2, TILE * 0.3)
        poly = QPolygonF([QPointF(h, h - d), QPointF(h + d, h), QPointF(h, h + d),
                          QPointF(h - d, h)])
        painter.setPen(QPen(QColor(40, 30, 20), 1.5))
        painter.setBrush(QColor(190, 140, 80) if self.obj.impedes_los else QColor(230, 220, 200))
        painter.drawPolygon(poly)
        if self.beside_token:
            return  # too small for letters; the tooltip names it
        font = QFont()
        font.setPixelSize(int(TILE * 0.26))
        painter.setFont(font)
        painter.setPen(QColor(20, 20, 20))
        painter.drawText(self.boundingRect(), Qt.AlignmentFlag.AlignCenter, self.label)


class TokenLayer(LayerItem):
    """Rebuilds its (few) token items whenever characters or objects change."""

    layers = frozenset({"characters", "objects", "start_zones"})

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        self.tokens: dict[str, CharacterToken] = {}
        self.markers: dict[str, ObjectMarker] = {}

    def refresh(self, rect: Rect | None) -> None:
        m: MapModel | None = self.model
        if m is None:
            return
        for item in [*self.tokens.values(), *self.markers.values()]:
            if item.scene() is not None:
                item.scene().removeItem(item)
        occupied = {t for c in m.characters.values() for t in _squares(c)}
        kinds = unique_labels({oid: (o.kind or "?")[:2].capitalize()
                               for oid, o in m.objects.items()})
        self.markers = {oid: ObjectMarker(o, kinds[oid], beside_token=(o.x, o.y) in occupied,
                                          parent=self)
                        for oid, o in m.objects.items()}
        colors = style.map_team_colors(m)
        names = unique_labels({cid: token_label(c) for cid, c in m.characters.items()})
        self.tokens = {cid: CharacterToken(c, colors[c.team], names[cid], self)
                       for cid, c in m.characters.items()}


def _squares(c: Character) -> list[tuple[int, int]]:
    try:
        return c.squares()
    except ValueError:  # an unknown size: its tile
        return [(c.x, c.y)]
