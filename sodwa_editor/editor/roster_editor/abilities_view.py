"""The abilities of the current archetype as a table of their own (one column per key
of the roster schema's ability, :func:`~sodwa_editor.io.roster_doc.ability_columns`),
with Add Ability and Delete Ability.  Every edit is one command of the roster's undo
history, checked as typed by the battle's loader (an area notation it cannot read, a
name another archetype defines differently: its one line)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...io.roster_doc import Column
from .editing import RosterEditing
from .table import CellDelegate, cell_data, cell_flags, column_header, typed_text

AnyIndex = QModelIndex | QPersistentModelIndex


class AbilityTableModel(QAbstractTableModel):
    """The ability entries of archetype :attr:`archetype` (-1: none chosen)."""

    def __init__(self, editing: RosterEditing, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.editing = editing
        self.columns = editing.ability_columns
        self.archetype = -1
        editing.changed.connect(self._reset)

    def set_archetype(self, row: int) -> None:
        self.beginResetModel()
        self.archetype = row
        self.endResetModel()

    def _reset(self, *_args: object) -> None:
        self.beginResetModel()
        if self.archetype >= self.editing.row_count():
            self.archetype = self.editing.row_count() - 1
        self.endResetModel()

    def column(self, index: int) -> Column | None:
        return self.columns[index]

    def problem_for(self, row: int, column: Column, text: str) -> str | None:
        return self.editing.cell_problem(self.archetype, column, text, ability=row)

    def rowCount(self, parent: AnyIndex | None = None) -> int:  # noqa: N802
        if parent is not None and parent.isValid():
            return 0
        return len(self.editing.abilities(self.archetype))

    def columnCount(self, parent: AnyIndex | None = None) -> int:  # noqa: N802
        return 0 if parent is not None and parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1) if role == Qt.ItemDataRole.DisplayRole else None
        return column_header(self.columns[section], role)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        col = self.columns[index.column()]
        row, k = self.archetype, index.row()
        return cell_data(self.editing.value(row, col, k), col, role,
                         self.editing.default_of(row, col, k))

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return cell_flags(self.columns[index.column()])

    def setData(self, index: AnyIndex, value: Any,  # noqa: N802
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        col = self.columns[index.column()] if index.isValid() else None
        text = None if col is None else typed_text(value, col, role)
        return text is not None and col is not None and self.editing.set_cell(
            self.archetype, col, text, ability=index.row())


class AbilityPanel(QWidget):
    """The current archetype's abilities: a caption, the table, Add and Delete."""

    def __init__(self, editing: RosterEditing, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editing = editing
        self.model = AbilityTableModel(editing, self)
        self.caption = QLabel()
        self.table = QTableView()
        self.table.setObjectName("ability_table")
        self.table.setModel(self.model)
        self.delegate = CellDelegate(self.model, self)
        self.table.setItemDelegate(self.delegate)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.add_button = QPushButton("Add Ability")
        self.delete_button = QPushButton("Delete Ability")
        self.add_button.clicked.connect(self.add)
        self.delete_button.clicked.connect(self.delete)
        buttons = QHBoxLayout()
        buttons.addWidget(self.caption, 1)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.delete_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        self.model.modelReset.connect(self._update)
        self._update()

    def set_archetype(self, row: int) -> None:
        self.model.set_archetype(row)

    def add(self) -> int:
        row = self.model.archetype
        if row < 0:
            return -1
        k = self.editing.add_ability(row)
        if k >= 0:
            self.table.setCurrentIndex(self.model.index(k, 0))
        return k

    def delete(self) -> bool:
        index = self.table.currentIndex()
        if self.model.archetype < 0 or not index.isValid():
            self.editing.message.emit("choose an ability to delete (click a cell of its row)",
                                      True)
            return False
        self.editing.delete_ability(self.model.archetype, index.row())
        return True

    def _update(self) -> None:
        row = self.model.archetype
        has = row >= 0
        name = self.editing.name_of(row) if has else ""
        count = self.model.rowCount()
        self.caption.setText(f"Abilities of {name}: {count}" if has
                             else "Choose an archetype to see its abilities")
        self.add_button.setEnabled(has)
        self.delete_button.setEnabled(has and count > 0)
