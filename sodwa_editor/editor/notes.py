"""Short-lived notes on the map (a refused edit, a stair made, a resize that
dropped characters): dark text on a light backdrop with a magenta frame, so a
note reads over any zone tint, token or preview line; wrapped to the view's
width, kept inside it, and placed beside the pointer, never over the tiles
around it (the stair a click made, the wall a click was refused on).

:class:`MapNotes` shows one note at a time in a view and takes it away after
:data:`NOTE_MS`; the note is a transient scene item, left out of an exported
PNG."""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QStyleOptionGraphicsItem, QWidget

from . import style
from .style import TILE

#: free pixels between a note and the view's edges
NOTE_MARGIN = 8
#: free pixels between a note's text and its frame
NOTE_PAD = 5
#: how long a note stays on the map (ms)
NOTE_MS = 2500
NOTE_TEXT = QColor(20, 20, 20)
NOTE_BACKDROP = QColor(255, 255, 255, 240)
NOTE_FRAME = style.FOCUS
#: the pointer's neighbourhood a note keeps clear of: this many tiles around the
#: pointer's tile (a stair made by a click on an edge is the tile beyond it),
#: and at least this many pixels
AVOID_TILES = 1
AVOID_PX = 24


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


class NoteItem(QGraphicsItem):
    """A note: lines of text on a backdrop, the same size at any zoom (its size
    is in viewport pixels; ``pos`` is its top-left corner)."""

    def __init__(self, text: str, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self._text = text
        self._font = QFont()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(100)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:  # noqa: N802 (as QGraphicsSimpleTextItem)
        self.prepareGeometryChange()
        self._text = text

    def font(self) -> QFont:
        return self._font

    def text_size(self) -> tuple[float, float]:
        metrics = QFontMetricsF(self._font)
        lines = self._text.split("\n")
        return (max(metrics.horizontalAdvance(line) for line in lines),
                metrics.lineSpacing() * len(lines))

    def boundingRect(self) -> QRectF:  # noqa: N802
        w, h = self.text_size()
        return QRectF(0, 0, w + 2 * NOTE_PAD, h + 2 * NOTE_PAD)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        r = self.boundingRect()
        painter.setPen(QPen(NOTE_FRAME, 2))
        painter.setBrush(NOTE_BACKDROP)
        painter.drawRoundedRect(r.adjusted(1, 1, -1, -1), 4, 4)
        painter.setPen(NOTE_TEXT)
        painter.setFont(self._font)
        painter.drawText(r.adjusted(NOTE_PAD, NOTE_PAD, -NOTE_PAD, -NOTE_PAD),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), self._text)


def pointer_area(view: QGraphicsView, at: QPointF) -> QRectF:
    """The viewport rectangle a note keeps clear of around the viewport point
    ``at``: the pointer's tile and :data:`AVOID_TILES` tiles around it."""
    scene = view.scene_point(at) if hasattr(view, "scene_point") else view.mapToScene(
        at.toPoint())
    x, y = int(scene.x() // TILE), int(scene.y() // TILE)
    corners = QRectF((x - AVOID_TILES) * TILE, (y - AVOID_TILES) * TILE,
                     (2 * AVOID_TILES + 1) * TILE, (2 * AVOID_TILES + 1) * TILE)
    area = view.viewportTransform().mapRect(corners)
    grow = QRectF(at.x() - AVOID_PX, at.y() - AVOID_PX, 2 * AVOID_PX, 2 * AVOID_PX)
    return area.united(grow)


def place_note(view: QGraphicsView, note: NoteItem, at: QPointF | None) -> None:
    """Wrap the note to the view and put it beside the viewport point ``at`` (the
    pointer; the centre of the view when None): below the tiles around it, else
    above, right or left of them, inside the view.  The note ignores the view's
    zoom, so its size is in viewport pixels."""
    vp = QRectF(view.viewport().rect()).adjusted(NOTE_MARGIN, NOTE_MARGIN,
                                                 -NOTE_MARGIN, -NOTE_MARGIN)
    note.setText(wrapped(note.text(), QFontMetricsF(note.font()),
                         max(vp.width() - 2 * NOTE_PAD, 40)))
    size = note.boundingRect().size()
    w, h = size.width(), size.height()

    def inside(x: float, y: float) -> QRectF:
        x = min(max(x, vp.left()), max(vp.left(), vp.right() - w))
        y = min(max(y, vp.top()), max(vp.top(), vp.bottom() - h))
        return QRectF(x, y, w, h)

    if at is None or not vp.contains(at):
        spot = inside(vp.center().x() - w / 2, vp.center().y() - h / 2)
    else:
        avoid = pointer_area(view, at)
        gap = 4
        candidates = [inside(at.x(), avoid.bottom() + gap),  # below
                      inside(at.x(), avoid.top() - gap - h),  # above
                      inside(avoid.right() + gap, at.y()),  # right
                      inside(avoid.left() - gap - w, at.y())]  # left
        clear = [c for c in candidates if not c.intersects(avoid)]
        spot = clear[0] if clear else min(
            candidates, key=lambda c: c.intersected(avoid).width() * c.intersected(avoid).height())
    inverse, _ok = view.viewportTransform().inverted()
    note.setPos(inverse.map(spot.topLeft()))


class MapNotes(QObject):
    """The notes of one map view: :meth:`show` puts a note beside the pointer
    (replacing the one shown) and takes it away after :data:`NOTE_MS`."""

    def __init__(self, view: QGraphicsView, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.last: NoteItem | None = None
        self.timer = QTimer(self)  # owned here: never fires after the window is gone
        self.timer.setSingleShot(True)
        self.timer.setInterval(NOTE_MS)
        self.timer.timeout.connect(self.drop)

    def show(self, text: str) -> NoteItem:
        note = NoteItem(text)
        view = self.view
        at = getattr(view, "pointer", None)  # the map view follows its pointer
        if at is None:
            at = QPointF(view.viewport().mapFromGlobal(view.cursor().pos()))
        place_note(view, note, at)
        self.drop()
        scene = view.scene()
        add = getattr(scene, "add_transient", scene.addItem)  # not exported with the map
        add(note)
        self.last = note
        self.timer.start()
        return note

    def drop(self) -> None:
        if self.last is not None and self.last.scene() is self.view.scene():
            self.view.scene().removeItem(self.last)
