"""The archetype table: one row per archetype, one column per key of the roster schema
(:func:`~sodwa_editor.io.roster_doc.roster_columns`) and the value model's suggested
cost beside the set cost, with the formula's terms on hover.

:class:`ArchetypeTableModel` shows a :class:`~.editing.RosterEditing` and writes
through it (each edit one undo command); :class:`CellDelegate` checks the text as it
is typed: the editor turns red and shows the loader's one-line message, which
:attr:`CellDelegate.problem` also sends (the dialog's message line shows it).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtCore import Signal as QtSignal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ...battle.roster_value import CostTerms, suggested_cost
from ...io.roster_doc import ABSENT, Column, cell_text
from .editing import RosterEditing

AnyIndex = QModelIndex | QPersistentModelIndex
#: the key of the set cost; the suggested cost's column follows it
COST_KEY = "attributes.cost"
#: background of a cell whose typed text would be refused
PROBLEM_COLOUR = "#f6c1c1"
#: text of a suggested cost that differs from the set cost
DIFFERS = QColor("#9a5b00")
#: text of an optional key left out (the schema's default shown)
UNSET = QColor("#8a8a8a")


def header_title(column: Column) -> str:
    """A column's header: its title on two lines when it has two words or more."""
    words = column.title.split()
    if len(words) < 2:
        return column.title
    half = (len(words) + 1) // 2
    return " ".join(words[:half]) + "\n" + " ".join(words[half:])


def summary(value: Any, column: Column) -> str:
    """What a cell shows: an ability list by its names, other values as typed."""
    if column.type == "json" and isinstance(value, list) \
            and all(isinstance(v, dict) and "name" in v for v in value):
        return ", ".join(str(v["name"]) for v in value)
    return cell_text(value, column)


def column_header(col: Column, role: int) -> Any:
    """A column's header text (two lines) and tool tip (the schema's description)."""
    if role == Qt.ItemDataRole.DisplayRole:
        return header_title(col)
    if role == Qt.ItemDataRole.ToolTipRole:
        return f"{col.key}: {col.description}" if col.description else col.key
    return None


def cell_data(value: Any, col: Column, role: int, default: tuple[Any, ...] = ()) -> Any:
    """What a roster cell holding ``value`` gives for ``role`` (a yes/no key is a check
    box, a list or object shows its summary and its JSON on hover).  ``default``: what a
    key left out means, as a one-item tuple (shown in grey)."""
    if value is ABSENT and default:
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(UNSET)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"not set: {cell_text(default[0], col)} (the default)"
        if role == Qt.ItemDataRole.DisplayRole and col.type != "boolean":
            return cell_text(default[0], col)
        value = default[0] if role == Qt.ItemDataRole.CheckStateRole else value
    if col.type == "boolean" and role == Qt.ItemDataRole.CheckStateRole:
        return Qt.CheckState.Checked if value else Qt.CheckState.Unchecked
    if role == Qt.ItemDataRole.DisplayRole:
        return "" if col.type == "boolean" else summary(value, col)
    if role == Qt.ItemDataRole.EditRole:
        return cell_text(value, col)
    if role == Qt.ItemDataRole.ToolTipRole:
        if col.type == "json" and value is not ABSENT:
            return json.dumps(value, indent=1, ensure_ascii=False)
        return col.description or None
    if role == Qt.ItemDataRole.TextAlignmentRole and col.type in ("integer", "number"):
        return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return None


def cell_flags(col: Column) -> Qt.ItemFlag:
    base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
    if col.type == "boolean":
        return base | Qt.ItemFlag.ItemIsUserCheckable
    return base | Qt.ItemFlag.ItemIsEditable


def typed_text(value: Any, col: Column, role: int) -> str | None:
    """The text a ``setData`` call types into a cell (a check box: yes or no), or None
    for a role that does not edit."""
    if role == Qt.ItemDataRole.CheckStateRole and col.type == "boolean":
        return "yes" if Qt.CheckState(value) == Qt.CheckState.Checked else "no"
    return str(value) if role == Qt.ItemDataRole.EditRole else None


class ArchetypeTableModel(QAbstractTableModel):
    """The archetypes of a :class:`RosterEditing`; the suggested cost is a read-only
    column after the set cost."""

    def __init__(self, editing: RosterEditing, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.editing = editing
        self.columns: list[Column | None] = list(editing.columns)
        at = next((i for i, c in enumerate(editing.columns) if c.key == COST_KEY), None)
        #: the suggested cost's column (None when the schema has no cost key)
        self.suggested_column = None if at is None else at + 1
        if self.suggested_column is not None:
            self.columns.insert(self.suggested_column, None)
        self._rows = editing.row_count()
        self._costs: dict[int, CostTerms] = {}
        editing.changed.connect(self._on_changed)

    # ------------------------------------------------------------- reading
    def rowCount(self, parent: AnyIndex | None = None) -> int:  # noqa: N802
        return 0 if parent is not None and parent.isValid() else self.editing.row_count()

    def columnCount(self, parent: AnyIndex | None = None) -> int:  # noqa: N802
        return 0 if parent is not None and parent.isValid() else len(self.columns)

    def column(self, index: int) -> Column | None:
        """The roster column at ``index`` (None: the suggested cost)."""
        return self.columns[index]

    def column_of(self, key: str) -> int:
        """The table column of a dotted key (``attributes.health``)."""
        return next(i for i, c in enumerate(self.columns) if c is not None and c.key == key)

    def problem_for(self, row: int, column: Column, text: str) -> str | None:
        """The one-line reason the cell would refuse ``text`` (None: it takes it)."""
        return self.editing.cell_problem(row, column, text)

    def cost_terms(self, row: int) -> CostTerms:
        if row not in self._costs:
            roster = self.editing.roster
            self._costs[row] = suggested_cost(roster.archetypes[row], roster)
        return self._costs[row]

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1) if role == Qt.ItemDataRole.DisplayRole else None
        col = self.columns[section]
        if col is not None:
            return column_header(col, role)
        if role == Qt.ItemDataRole.DisplayRole:
            return "Suggested\nCost"
        if role == Qt.ItemDataRole.ToolTipRole:
            return ("The value model's cost (docs/map-format.md, Roster): a starting point, "
                    "not a rule. The difference from the set cost in brackets; hover a cell "
                    "for the formula's terms.")
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), self.columns[index.column()]
        if col is None:
            return self._suggested(row, role)
        return cell_data(self.editing.value(row, col), col, role,
                         self.editing.default_of(row, col))

    def _suggested(self, row: int, role: int) -> Any:
        terms = self.cost_terms(row)
        set_cost = self.editing.roster.archetypes[row].values["cost"]
        diff = terms.cost - set_cost
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{terms.cost} ({diff:+d})" if diff else str(terms.cost)
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join([f"Suggested cost {terms.cost} (set: {set_cost})",
                              *terms.lines()])
        if role == Qt.ItemDataRole.ForegroundRole and diff:
            return QBrush(DIFFERS)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        col = self.columns[index.column()] if index.isValid() else None
        return base if col is None else cell_flags(col)

    # ------------------------------------------------------------- writing
    def setData(self, index: AnyIndex, value: Any,  # noqa: N802
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        col = self.columns[index.column()] if index.isValid() else None
        text = None if col is None else typed_text(value, col, role)
        return text is not None and col is not None \
            and self.editing.set_cell(index.row(), col, text)

    def _on_changed(self, _row: int) -> None:
        self._costs.clear()
        rows = self.editing.row_count()
        if rows != self._rows:
            self.beginResetModel()
            self._rows = rows
            self.endResetModel()
        else:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(rows - 1, len(self.columns) - 1))


class CellModel(Protocol):
    """What :class:`CellDelegate` asks of the table it edits."""

    def column(self, index: int) -> Column | None: ...

    def problem_for(self, row: int, column: Column, text: str) -> str | None: ...


class CellDelegate(QStyledItemDelegate):
    """Edits a cell with a line edit (a list of choices when the schema gives an
    ``enum``), checking the text as it is typed: refused text turns the editor red
    with the loader's message as its tool tip, and :attr:`problem` sends the message
    ("" when the text is fine)."""

    problem = QtSignal(str)

    def __init__(self, model: CellModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,  # noqa: N802
                     index: AnyIndex) -> QWidget:
        col = self.model.column(index.column())
        assert col is not None  # (the suggested cost is not editable)
        row = index.row()
        if col.enum:
            combo = QComboBox(parent)
            combo.addItems([cell_text(v, col) for v in col.enum])
            return combo
        edit = QLineEdit(parent)
        edit.setObjectName("roster_cell_editor")
        edit.textEdited.connect(lambda text, e=edit: self._check(e, row, col, text))
        return edit

    def setEditorData(self, editor: QWidget, index: AnyIndex) -> None:  # noqa: N802
        text = str(index.data(Qt.ItemDataRole.EditRole) or "")
        if isinstance(editor, QComboBox):
            editor.setCurrentText(text)
        elif isinstance(editor, QLineEdit):
            editor.setText(text)

    def setModelData(self, editor: QWidget, model: Any, index: AnyIndex) -> None:  # noqa: N802
        text = editor.currentText() if isinstance(editor, QComboBox) \
            else editor.text() if isinstance(editor, QLineEdit) else ""
        model.setData(index, text, Qt.ItemDataRole.EditRole)

    def _check(self, editor: QLineEdit, row: int, col: Column, text: str) -> None:
        why = self.model.problem_for(row, col, text) or ""
        editor.setStyleSheet(f"QLineEdit {{ background: {PROBLEM_COLOUR}; }}" if why else "")
        editor.setToolTip(why)
        editor.setProperty("problem", why)
        self.problem.emit(why)
