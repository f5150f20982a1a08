"""Label tool (N): text annotations on tiles, as Tiled's Insert Text tool (whose
X is the stamp's flip key here).

Click an empty tile: a text box opens on it; type, Enter places the label (Add
Label), Escape drops it.  Click a label: the box opens with its text (Enter:
Edit Label).  Drag a label to another tile: Move Label.  Shift+click a label,
or Delete once it is selected: Delete Label.  Each is one undo step; the
Inspector edits the selected label's text, colour and size too.  Labels are
saved in the map and never read by the rules.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGraphicsView, QLineEdit

from ...engine.annotations import MAX_LABEL_TEXT, Label
from ..style import TILE
from .base import Selection, Tool, ToolEvent


class InlineEditor(QLineEdit):
    """The text box typed into on the map: Enter commits, Escape drops, losing the
    focus commits (as Tiled's text objects)."""

    def __init__(self, view: QGraphicsView, commit, drop) -> None:
        super().__init__(view.viewport())
        self.setMaxLength(MAX_LABEL_TEXT)
        self.setPlaceholderText("label text, Enter")
        self.commit, self.drop = commit, drop
        self.returnPressed.connect(self.commit)
        self.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and \
                event.key() == Qt.Key.Key_Escape:
            self.drop()
            return True
        if event.type() == QEvent.Type.FocusOut:
            self.commit()
        return False


class LabelTool(Tool):
    name = "label"
    label = "Label"
    shortcut = "N"
    tip = ("Click a tile to write a label on it, click a label to edit it, drag it to "
           "move, Shift+click (or Delete when selected) removes it")
    cursor = Qt.CursorShape.IBeamCursor

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.dragging: str | None = None
        self.press_tile: tuple[int, int] | None = None
        self.editor: InlineEditor | None = None
        #: what the open text box writes: a label id, or the tile of a new label
        self.editing: str | tuple[int, int] | None = None

    def label_at(self, x: int, y: int) -> Label | None:
        """The label on tile (x, y) (the last added when several share it)."""
        here = [lb for lb in self.model.labels.values() if (lb.x, lb.y) == (x, y)]
        return max(here, key=lambda lb: (len(lb.id), lb.id)) if here else None

    # ---------------------------------------------------------------- gestures
    def press(self, ev: ToolEvent) -> None:
        self.commit()
        x, y = ev.tile
        if not self.model.in_bounds(x, y) or ev.button != Qt.MouseButton.LeftButton:
            return
        here = self.label_at(x, y)
        if ev.erase:
            if here is not None:
                self.doc.remove_label(here.id)
                self.state.select(None)
            return
        self.press_tile = (x, y)
        if here is not None:
            self.dragging = here.id
            self.state.select(Selection("label", here.id))

    def move(self, ev: ToolEvent) -> None:
        if self.dragging is not None:
            x, y = ev.tile
            self.scene.preview.set_shape([(x, y)] if self.model.in_bounds(x, y) else [])
        else:
            self.hover(ev)

    def release(self, ev: ToolEvent) -> None:
        lid, self.dragging = self.dragging, None
        start, self.press_tile = self.press_tile, None
        self.scene.preview.clear()
        if start is None:
            return
        if ev.tile != start and lid is not None:
            self.doc.move_label(lid, *ev.tile)
            return
        if ev.tile == start:
            self.open_editor(lid if lid is not None else start)

    def cancel(self) -> None:
        self.dragging, self.press_tile = None, None
        self.scene.preview.clear()
        self.drop()

    def deactivate(self) -> None:
        self.commit()
        super().deactivate()

    # --------------------------------------------------------- the text box
    def open_editor(self, target: str | tuple[int, int]) -> InlineEditor | None:
        """Open the text box on a label (its id) or on an empty tile."""
        views = self.scene.views()
        if not views:
            return None
        view = views[0]
        if isinstance(target, str):
            lb = self.model.labels[target]
            tile, text = (lb.x, lb.y), lb.text
        else:
            tile, text = target, ""
        self.drop()
        self.editing = target
        self.editor = editor = InlineEditor(view, self.commit, self.drop)
        editor.setText(text)
        at: QPoint = view.mapFromScene(tile[0] * TILE, (tile[1] + 0.5) * TILE)
        editor.move(at.x(), at.y() - editor.sizeHint().height() // 2)
        editor.setMinimumWidth(160)
        editor.show()
        editor.setFocus()
        editor.selectAll()
        self.state.hint.emit("Type the label, Enter places it, Esc drops it")
        return editor

    def commit(self) -> None:
        """Write the open text box (nothing when empty or unchanged)."""
        editor, target = self.editor, self.editing
        if editor is None:
            return
        self.editor, self.editing = None, None
        text = editor.text().strip()
        self._close(editor)
        if isinstance(target, str):
            if not text:
                self.doc.remove_label(target)  # its text cleared: the label goes
            else:
                self.doc.edit_label(target, text=text)
        elif target is not None and text:
            lid = self.doc.add_label(*target, text)
            if lid is not None:
                self.state.select(Selection("label", lid))

    def drop(self) -> None:
        """Close the text box without writing it."""
        editor, self.editor, self.editing = self.editor, None, None
        if editor is not None:
            self._close(editor)

    def _close(self, editor: InlineEditor) -> None:
        editor.removeEventFilter(editor)
        editor.hide()
        editor.deleteLater()
        self.state.hint.emit("")
        views = self.scene.views()
        if views:
            views[0].setFocus()
