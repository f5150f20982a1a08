"""The team's named formations (RB: "You'll be able to save several different
formations per team, choosing which one you would like to use at the beginning of
each battle"): a list, the first the default (in bold, marked), with Add,
Duplicate, Rename (F2 or a double click), Delete, Move Up/Down and Make Default,
each one undo step of the :class:`~.model.TeamDocument`.  Choosing a formation
shows it on the grid."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .model import TeamDocument

DEFAULT_MARK = "default"


class FormationsPanel(QWidget):
    """The formations of a :class:`~.model.TeamDocument` (module docstring)."""

    def __init__(self, document: TeamDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.list = QListWidget()
        self.list.setObjectName("team_formations")
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.list.setToolTip("The team's formations; the first is the default a battle uses")
        self.list.currentRowChanged.connect(self._row_chosen)
        self.list.itemChanged.connect(self._renamed)
        lay.addWidget(self.list, 1)
        grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        for k, (key, text, tip, slot) in enumerate((
            ("add", "Add", "A new formation: the members in rows of 4", document.add_formation),
            ("duplicate", "Duplicate", "A copy of this formation after it",
             lambda: document.duplicate_formation(self.current())),
            ("rename", "Rename", "Rename this formation (F2)", self._rename),
            ("delete", "Delete", "Delete this formation",
             lambda: document.delete_formation(self.current())),
            ("up", "Move Up", "Move this formation up the list", lambda: self._move(-1)),
            ("down", "Move Down", "Move this formation down the list", lambda: self._move(1)),
            ("default", "Make Default", "Make this formation the first, the default",
             lambda: document.move_formation(self.current(), 0)),
        )):
            button = QPushButton(text)
            button.setObjectName(f"formation_{key}")
            button.setToolTip(tip)
            button.clicked.connect(lambda _c=False, s=slot: s())
            grid.addWidget(button, k // 2, k % 2)
            self.buttons[key] = button
        lay.addLayout(grid)
        document.changed.connect(self.refresh)
        document.formation_changed.connect(self._show_row)
        self.refresh()

    def current(self) -> int:
        return self.document.formation

    def refresh(self) -> None:
        fs = self.document.doc.formations
        self.list.blockSignals(True)
        while self.list.count() > len(fs):
            self.list.takeItem(self.list.count() - 1)
        for i, f in enumerate(fs):
            item = self.list.item(i)
            if item is None:
                item = QListWidgetItem()
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                self.list.addItem(item)
            item.setText(f.name)
            font = QFont(self.list.font())
            font.setBold(i == 0)
            item.setFont(font)
            item.setToolTip(f"{f.name}: the {DEFAULT_MARK} formation" if i == 0 else f.name)
        self.list.setCurrentRow(self.current())
        self.list.blockSignals(False)
        self._enable()

    def _enable(self) -> None:
        n, i = len(self.document.doc.formations), self.current()
        has = i >= 0
        for key in ("duplicate", "rename", "delete"):
            self.buttons[key].setEnabled(has)
        self.buttons["up"].setEnabled(has and i > 0)
        self.buttons["default"].setEnabled(has and i > 0)
        self.buttons["down"].setEnabled(has and i < n - 1)

    def _show_row(self, index: int) -> None:
        if self.list.currentRow() != index:
            self.list.blockSignals(True)
            self.list.setCurrentRow(index)
            self.list.blockSignals(False)
        self._enable()

    def _row_chosen(self, row: int) -> None:
        if row >= 0:
            self.document.show_formation(row)

    def _renamed(self, item: QListWidgetItem) -> None:
        # applied once the item's editor has closed: the edit rebuilds the list
        row, text = self.list.row(item), item.text()
        QTimer.singleShot(0, lambda: self._rename_row(row, text))

    def _rename_row(self, row: int, text: str) -> None:
        if not self.document.rename_formation(row, text):
            self.refresh()  # refused or unchanged: the name as it is

    def _rename(self) -> None:
        item = self.list.item(self.current())
        if item is not None:
            self.list.setFocus()
            self.list.editItem(item)

    def _move(self, step: int) -> None:
        i = self.current()
        self.document.move_formation(i, i + step)
