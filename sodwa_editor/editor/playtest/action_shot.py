"""A character's Action Shot (RB *The Battle UI*, 1): its portrait with its HP and
Damage Reduction over it.  "The character's HP and Damage Reduction are both
displayed over its Action Shot.  In the example image, the HP value is numerical,
but in the final build, the HP will be represented by red bars": the HP are red
bars across the foot of the portrait (one per Health Point, or per
``ceil(Health / 20)`` points for a character of more than 20), with the numbers
above them; the DR is a badge in the top right corner."""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import QSizePolicy, QWidget

#: the most bars the HP are drawn as
MAX_BARS = 20
HP_RED = QColor(214, 39, 40)
HP_EMPTY = QColor(60, 60, 60)


def hp_bars(hp: int, health: int) -> tuple[int, int]:
    """(bars filled, bars in all) of ``hp`` out of ``health``: one bar per point up to
    :data:`MAX_BARS`, else each bar ``ceil(health / MAX_BARS)`` points (a bar with
    any point left is filled, so a living character never shows none).

    >>> hp_bars(7, 10), hp_bars(0, 10), hp_bars(1, 100), hp_bars(100, 100)
    ((7, 10), (0, 10), (1, 20), (20, 20))
    """
    health = max(1, health)
    per = 1 if health <= MAX_BARS else math.ceil(health / MAX_BARS)
    total = math.ceil(health / per)
    return min(total, math.ceil(max(0, hp) / per)), total


class ActionShot(QWidget):
    """The portrait with HP bars and a DR badge; ``size`` pixels square."""

    def __init__(self, size: int = 104, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("action_shot")
        self.side = size
        self.setFixedSize(size, size)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.portrait: QPixmap | None = None
        self.hp = self.health = self.dr = 0
        self.defeated = False

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(self.side, self.side)

    def show_values(self, portrait: QPixmap | None, hp: int, health: int, dr: int,
                    defeated: bool) -> None:
        """Show ``portrait`` with ``hp`` of ``health`` and Damage Reduction ``dr``
        (repainted only when something changed)."""
        new = (portrait, hp, health, dr, defeated)
        if new == (self.portrait, self.hp, self.health, self.dr, self.defeated):
            return
        self.portrait, self.hp, self.health, self.dr, self.defeated = new
        self.setToolTip(f"HP {hp} of {health}, Damage Reduction {dr}"
                        + (" (defeated)" if defeated else ""))
        self.update()

    def bars(self) -> tuple[int, int]:
        return hp_bars(self.hp, self.health)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        p = QPainter(self)
        s = self.side
        if self.portrait is not None:
            p.drawPixmap(0, 0, self.portrait)
        if self.defeated:
            p.fillRect(QRectF(0, 0, s, s), QColor(40, 40, 40, 150))
        if self.health <= 0:
            p.end()
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont()
        font.setPixelSize(max(8, s // 9))
        font.setBold(True)
        p.setFont(font)
        # the HP: numbers on a dark strip, red bars below them
        strip = QRectF(0, s * 0.7, s, s * 0.3)
        p.fillRect(strip, QColor(0, 0, 0, 170))
        p.setPen(QColor(255, 255, 255))
        p.drawText(strip.adjusted(4, 1, -4, -s * 0.13),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                   f"HP {max(0, self.hp)}/{self.health}")
        filled, total = self.bars()
        gap = 1.0 if total > 12 else 2.0
        x0, w = 4.0, s - 8.0
        bar = (w - gap * (total - 1)) / total
        top, height = s * 0.85, s * 0.11
        p.setPen(Qt.PenStyle.NoPen)
        for k in range(total):
            p.setBrush(HP_RED if k < filled else HP_EMPTY)
            p.drawRect(QRectF(x0 + k * (bar + gap), top, bar, height))
        # the DR: a badge in the top right corner
        badge = QRectF(s - s * 0.42, 2, s * 0.42 - 2, s * 0.2)
        p.setPen(QPen(QColor(255, 255, 255), 1))
        p.setBrush(QColor(40, 40, 60, 210))
        p.drawRoundedRect(badge, 3, 3)
        p.drawText(badge, Qt.AlignmentFlag.AlignCenter, f"DR {self.dr}")
        p.end()
