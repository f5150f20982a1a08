"""Stamp Library dock (issue 29; Tiled's stamp brush library, LDtk's prefabs):
the named stamps of a library, each with a thumbnail drawn from the stamp.

*Save Selection* (Ctrl+Shift+B) takes the selected region as Copy does (tiles,
edges with the outline, start zones, characters and objects) and adds it under a
new name, which the list opens for typing; double-click (or F2) renames;
*Place* (or Return, or a double-click on the thumbnail) enters the Select tool's
paste preview with the stamp (Z / Shift+Z rotate, X / Y flip, a click places it:
one undo step per placement); *Delete* removes it; *Up* / *Down* (or a drag in
the list) reorder.  Saving, renaming, deleting and reordering are steps of the
library's own undo stack: *Undo* / *Redo* below the list, or Ctrl+Z / Ctrl+Y
(Ctrl+Shift+Z) while the dock has the focus (elsewhere those keys undo the map).
The library lives in ``stamps.sodwa-stamps.json`` beside the open map, or in the
file chosen with *Open...* (a library file or a map pack: the pack's
``stamps``); every change (and every undo and redo) is written at once.  A library that cannot
be read is one line under the list, and nothing is lost.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QIcon, QKeyEvent, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...io.stamp_library import LIBRARY_SUFFIX, library_beside
from ..actions import ActionSpec
from ..library_stamps import StampLibrary
from ..scene.stamp_item import stamp_image

if TYPE_CHECKING:
    from ...io.stamp_library import LibraryStamp
    from ..document import Document
    from ..stamp import Stamp
    from ..tools.base import EditorState

THUMB = 64
#: the Edit menu's entry (Tiled has no key for it)
STAMP_ACTIONS = (ActionSpec("stamp_save", "Save Selection as S&tamp...", "Ctrl+Shift+B",
                            "Add the selected region to the Stamp Library dock"),)
LIBRARY_FILTER = (f"Stamp libraries (*{LIBRARY_SUFFIX});;SODWA map packs (*.json);;"
                  "All files (*)")


def thumbnail(stamp: Stamp) -> QPixmap:
    """The stamp drawn by the scene's own items, fitted in THUMB x THUMB."""
    image, _ = stamp_image(stamp)
    return QPixmap.fromImage(image).scaled(
        THUMB, THUMB, Qt.AspectRatioMode.KeepAspectRatio,
        Qt.TransformationMode.SmoothTransformation)


class StampLibraryDock(QWidget):
    """The library's list with thumbnails and its buttons."""

    #: place this stamp (the window hands it to the Select tool's paste preview)
    place_requested = Signal(object, str)
    #: a one-line message for the status bar
    message = Signal(str)

    def __init__(self, document: Document, state: EditorState, library: StampLibrary,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc, self.state, self.library = document, state, library
        self._thumbs: dict[int, QIcon] = {}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.where = QLabel()
        self.where.setWordWrap(True)
        lay.addWidget(self.where)
        self.list = QListWidget()
        self.list.setIconSize(QSize(THUMB, THUMB))
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.DoubleClicked)
        self.list.itemChanged.connect(self._item_changed)
        self.list.model().rowsMoved.connect(self._rows_moved)
        self.list.itemActivated.connect(lambda _item: self.place())
        lay.addWidget(self.list, 1)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020")
        lay.addWidget(self.problem)
        grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        for i, (key, text, tip, slot) in enumerate((
                ("save", "Save Selection", "Add the selected region as a stamp (Ctrl+Shift+B)",
                 self.save_selection),
                ("place", "Place", "Place the stamp: Z / Shift+Z rotate, X / Y flip",
                 self.place),
                ("rename", "Rename", "Rename the stamp (F2)", self.rename),
                ("delete", "Delete", "Remove the stamp from the library", self.delete),
                ("up", "Up", "Move the stamp up the list", lambda: self.move_stamp(-1)),
                ("down", "Down", "Move the stamp down the list", lambda: self.move_stamp(1)),
                ("open", "Open...", "Use another library file, or a map pack's stamps",
                 self.choose_file),
                ("undo", "Undo", "Undo the last edit of the library (Ctrl+Z in this dock)",
                 library.undo_stack.undo),
                ("redo", "Redo", "Redo the library edit undone last (Ctrl+Y in this dock)",
                 library.undo_stack.redo))):
            button = QPushButton(text)
            button.setToolTip(tip)
            button.clicked.connect(slot)
            grid.addWidget(button, (i + (i >= 7)) // 2, (i + (i >= 7)) % 2)
            self.buttons[key] = button
        lay.addLayout(grid)
        for widget in (self.list, *self.buttons.values()):
            widget.installEventFilter(self)  # Ctrl+Z / Ctrl+Y here: the library's
        stack = library.undo_stack  # its signals' values: the stack may be going away
        self._steps: dict[str, list[Any]] = {"undo": [False, ""], "redo": [False, ""]}
        stack.canUndoChanged.connect(self._can_undo)
        stack.canRedoChanged.connect(self._can_redo)
        stack.undoTextChanged.connect(self._undo_text)
        stack.redoTextChanged.connect(self._redo_text)
        self._show_steps()
        library.touched.connect(self._touched)
        library.changed.connect(self.refresh)
        library.message.connect(self._say)
        document.path_changed.connect(self.follow_map)
        self.follow_map(document.path)

    # ---------------------------------------------------------------- showing
    def follow_map(self, path: Path | None) -> None:
        """Use the library beside the open map (a library chosen by hand stays)."""
        beside = library_beside(path)
        if beside is not None and (self.library.path is None or self._beside):
            self._beside = True
            self.library.load(beside, missing_ok=True)
        self.refresh()

    _beside = True  # the library in use is the one beside the map

    def refresh(self) -> None:
        lib = self.library
        kind = "pack" if lib.in_pack else "file"
        self.where.setText(f"Library {kind}: {lib.path.name}" if lib.path else
                           "Library: not saved yet (save the map, or Open... a library)")
        self.where.setToolTip(str(lib.path or ""))
        current = self.list.currentRow()
        self.list.blockSignals(True)
        self.list.clear()
        for entry in lib.stamps:
            w, h = entry.size
            item = QListWidgetItem(self._icon(entry), entry.name)
            item.setToolTip(f"{entry.name}: {w} x {h} tiles")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable
                          | Qt.ItemFlag.ItemIsDragEnabled)
            self.list.addItem(item)
        self.list.blockSignals(False)
        if lib.stamps:
            self.list.setCurrentRow(min(max(current, 0), len(lib.stamps) - 1))
        for key in ("place", "rename", "delete", "up", "down"):
            self.buttons[key].setEnabled(bool(lib.stamps))

    def _icon(self, entry: LibraryStamp) -> QIcon:
        key = id(entry.model)
        if key not in self._thumbs:
            self._thumbs[key] = QIcon(thumbnail(self.library.stamp(self.library.stamps.index(
                entry))))
        return self._thumbs[key]

    def _can_undo(self, can: bool) -> None:
        self._steps["undo"][0] = can
        self._show_steps()

    def _can_redo(self, can: bool) -> None:
        self._steps["redo"][0] = can
        self._show_steps()

    def _undo_text(self, text: str) -> None:
        self._steps["undo"][1] = text
        self._show_steps()

    def _redo_text(self, text: str) -> None:
        self._steps["redo"][1] = text
        self._show_steps()

    def _show_steps(self) -> None:
        """The Undo / Redo buttons name the step they take back or do again."""
        for key, (can, text) in self._steps.items():
            button = self.buttons[key]
            button.setText(f"{key.capitalize()} {text}" if can else key.capitalize())
            button.setToolTip(f"{key.capitalize()} {text} (Ctrl+{key[0].upper()} in this "
                              "dock)" if can else f"Nothing to {key} in the library")
            button.setEnabled(can)

    def _touched(self, row: int) -> None:
        if 0 <= row < self.list.count():
            self.list.setCurrentRow(row)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """Undo / Redo keys pressed in the dock undo the library, not the map: the
        dock takes the key before the window's Undo shortcut sees it."""
        kind = event.type()
        if kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) and \
                isinstance(event, QKeyEvent):
            step = ("undo" if event.matches(QKeySequence.StandardKey.Undo) else
                    "redo" if event.matches(QKeySequence.StandardKey.Redo) or (
                        event.key() == Qt.Key.Key_Y
                        and event.modifiers() == Qt.KeyboardModifier.ControlModifier)
                    else None)
            if step is not None:
                event.accept()
                if kind == QEvent.Type.KeyPress:
                    getattr(self.library.undo_stack, step)()
                return True
        return super().eventFilter(watched, event)

    def _say(self, text: str) -> None:
        if text.startswith("stamp library not loaded"):
            self.problem.setText(text)
        self.message.emit(text)

    # ---------------------------------------------------------------- actions
    def save_selection(self) -> bool:
        """Add the selected region as a stamp and open its name for typing."""
        from ..stamp import Stamp

        rect = self.state.region
        if rect is None:
            self.message.emit("Select a region first (Select tool, or the magic wand), then "
                              "Save Selection")
            return False
        stamp = Stamp.from_region(self.doc.model, rect, self.state.region_mask)
        index = self.library.add(stamp, self.library.free_name())
        if index is None:
            return False
        self.list.setCurrentRow(index)
        self.list.editItem(self.list.item(index))
        contents = stamp.contents.counts()
        self.message.emit(f"Saved {stamp.width} x {stamp.height} stamp "
                          f"{self.library.stamps[index].name!r}"
                          + (f" with {contents}" if contents else "") + "; type its name")
        return True

    def place(self) -> bool:
        row = self.list.currentRow()
        if not 0 <= row < len(self.library.stamps):
            return False
        name = self.library.stamps[row].name
        self.place_requested.emit(self.library.stamp(row), f"stamp {name!r}")
        return True

    def rename(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.list.editItem(item)

    def delete(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.library.stamps):
            name = self.library.stamps[row].name
            self.library.remove(row)
            self.message.emit(f"Removed stamp {name!r} from the library")

    def move_stamp(self, step: int) -> None:
        row = self.list.currentRow()
        if self.library.move(row, row + step):
            self.list.setCurrentRow(row + step)

    def choose_file(self) -> None:
        start = str(self.library.path or self.doc.path or "")
        name, _ = QFileDialog.getSaveFileName(
            self, "Stamp Library (a new or existing file, or a map pack)", start,
            LIBRARY_FILTER, options=QFileDialog.Option.DontConfirmOverwrite)
        if name:
            self.use_file(Path(name))

    def use_file(self, path: Path) -> bool:
        """Use the library of ``path`` (created when it does not exist)."""
        if self.library.load(path, missing_ok=True):
            self._beside = path == library_beside(self.doc.path)
            self.problem.clear()
            return True
        return False

    # ------------------------------------------------------------ list events
    def _item_changed(self, item: QListWidgetItem) -> None:
        row = self.list.row(item)
        if 0 <= row < len(self.library.stamps) and item.text() != self.library.stamps[row].name:
            self.library.rename(row, item.text())

    def _rows_moved(self, _parent, start: int, _end: int, _dest, row: int) -> None:
        to = row if row < start else row - 1
        self.library.move(start, to)
