"""The labels layer: each label's text drawn on its tile, on a plate so it reads
over any terrain (Tiled draws text objects the same way: the text over the map,
in the layer's colour)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...engine.annotations import Label
from ...engine.model import MapModel, Rect
from ..style import TILE
from .layers import LayerItem

#: the label text's size when the label sets none (points at 100 % zoom)
DEFAULT_SIZE = 9
TEXT_COLOR = QColor(20, 20, 20)
PLATE = QColor(255, 255, 240, 215)


def label_font(label: Label) -> QFont:
    font = QFont()
    font.setPointSizeF(label.size or DEFAULT_SIZE)
    font.setBold(True)
    return font


class LabelItem(QGraphicsItem):
    """One label: its text centred on its tile, on a light plate."""

    def __init__(self, label: Label, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.label = label
        self.font = label_font(label)
        width = QFontMetricsF(self.font).horizontalAdvance(label.text) + 6
        height = QFontMetricsF(self.font).height() + 2
        self.rect = QRectF(TILE / 2 - width / 2, TILE / 2 - height / 2, width, height)
        self.setPos(label.x * TILE, label.y * TILE)
        self.setToolTip(f"Label {label.id} at ({label.x}, {label.y}): {label.text}")

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self.rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(PLATE)
        painter.drawRoundedRect(self.rect, 3, 3)
        painter.setPen(QColor(self.label.color) if self.label.color else TEXT_COLOR)
        painter.setFont(self.font)
        painter.drawText(self.rect, Qt.AlignmentFlag.AlignCenter, self.label.text)


class LabelLayer(LayerItem):
    """Rebuilds its label items whenever labels change (a map holds few)."""

    layers = frozenset({"labels"})

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        self.items: dict[str, LabelItem] = {}

    def refresh(self, rect: Rect | None) -> None:
        m: MapModel | None = self.model
        if m is None:
            return
        for item in self.items.values():
            if item.scene() is not None:
                item.scene().removeItem(item)
        self.items = {lid: LabelItem(lb, self) for lid, lb in sorted(m.labels.items())}
