"""Short-lived notes on the map (a refused edit, a resize that dropped
characters): wrapped to the view's width and kept inside it."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QGraphicsView

#: free pixels between a note and the view's edges
NOTE_MARGIN = 8


def wrapped(text: str, metrics: QFontMetricsF, width: float) -> str:
    """``text`` broken between words into lines no wider than ``width`` pixels (a word
    longer than that gets a line of its own)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if line and metrics.horizontalAdvance(candidate) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return "\n".join(lines)


def place_note(view: QGraphicsView, note: QGraphicsSimpleTextItem, at: QPointF | None) -> None:
    """Wrap the note to the view and put it at the viewport point ``at`` (the
    pointer; the centre when None), moved as little as needed to lie inside the
    view.  The note ignores the view's zoom, so its size is in viewport pixels."""
    vp = QRectF(view.viewport().rect()).adjusted(NOTE_MARGIN, NOTE_MARGIN,
                                                 -NOTE_MARGIN, -NOTE_MARGIN)
    note.setText(wrapped(note.text(), QFontMetricsF(note.font()), max(vp.width(), 40)))
    size = note.boundingRect().size()
    p = at if at is not None and vp.contains(at) else vp.center()
    x = min(max(p.x(), vp.left()), max(vp.left(), vp.right() - size.width()))
    y = min(max(p.y(), vp.top()), max(vp.top(), vp.bottom() - size.height()))
    inverse, _ok = view.viewportTransform().inverted()
    note.setPos(inverse.map(QPointF(x, y)))
