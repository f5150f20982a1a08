"""The custom-properties editor (Tiled's Custom Properties, LDtk's fields): a
table of typed name/value rows with Add, Remove, rename (edit the name), a type
per row and a value editor of that type (a check box for ``bool``, a colour
with its picker, a file with Browse...).

The widget edits a :class:`PropertyTarget`: it reads the rows from it and hands
every change back as the whole new list with the step's verb (Add, Remove,
Rename, Change Type, Edit), so that one change is one undo step when the target
is a document (:class:`~.targets.DocumentTarget`), or plain rows in a dialog
(:class:`LocalTarget`).  What it refuses (an empty or taken name, a value that
is not of the type) it says in one line through :attr:`message`."""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QColorDialog,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...io.values import lone_surrogate
from . import typed
from .typed import PropertyRow

#: longest property name the editor takes
MAX_NAME = 64


class PropertyTarget(Protocol):
    """What the editor edits: its rows, and a change of them (one step)."""

    def rows(self) -> list[PropertyRow]: ...

    def apply(self, rows: list[PropertyRow], verb: str, name: str) -> bool: ...


class LocalTarget:
    """Rows kept in memory (a dialog's properties, before they reach a map)."""

    def __init__(self, rows: list[PropertyRow] | None = None) -> None:
        self._rows = list(rows or [])

    def rows(self) -> list[PropertyRow]:
        return list(self._rows)

    def apply(self, rows: list[PropertyRow], verb: str, name: str) -> bool:
        self._rows = list(rows)
        return True


def name_problem(name: str, taken: list[str]) -> str | None:
    """Why ``name`` cannot name a property (empty, too long, taken), or None."""
    if not name:
        return "give the property a name"
    if len(name) > MAX_NAME:
        return f"a property name has at most {MAX_NAME} characters"
    if name in taken:
        return f"there is a property named {name!r} already"
    why = lone_surrogate(name)
    return f"the property name cannot be stored: {why}" if why else None


class CustomPropertiesEditor(QWidget):
    """Typed key/values of one owner (see the module docstring).

    A view that shows a document rebuilds its form after each edit (the
    Inspector): an editor made for the same target ``key`` right after an
    edit takes the keyboard where the last one had it (the name of the next
    property, or the value just edited), so properties can be typed one after
    the other."""

    #: target key -> the property whose value editor (or "" for the new name)
    #: gets the keyboard in the next editor made for that target
    _focus_next: dict[object, str] = {}

    #: a refused edit and why (a note for the status bar)
    message = Signal(str)
    #: the rows were changed through the target
    applied = Signal()

    def __init__(self, target: PropertyTarget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("custom_properties")
        self.target = target
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Name", "Type", "Value"])
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed)
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        head.setStretchLastSection(True)
        self.table.itemChanged.connect(self._renamed)
        self.table.installEventFilter(self)
        lay.addWidget(self.table)
        add_row = QHBoxLayout()
        self.new_name = QLineEdit()
        self.new_name.setObjectName("new_property_name")
        self.new_name.setPlaceholderText("new property")
        self.new_name.setMaxLength(MAX_NAME)
        self.new_name.returnPressed.connect(self.add)
        self.new_type = QComboBox()
        self.new_type.setObjectName("new_property_type")
        self.new_type.addItems(typed.TYPES)
        self.add_button = QToolButton()
        self.add_button.setText("+")
        self.add_button.setToolTip("Add a property of this name and type (Enter)")
        self.add_button.clicked.connect(self.add)
        self.remove_button = QToolButton()
        self.remove_button.setText("\u2212")
        self.remove_button.setToolTip("Remove the selected property (Delete)")
        self.remove_button.clicked.connect(self.remove_current)
        for w in (self.new_name, self.new_type, self.add_button, self.remove_button):
            add_row.addWidget(w, 1 if w is self.new_name else 0)
        lay.addLayout(add_row)
        self.values: dict[str, QWidget] = {}  # name -> its value editor
        self.refresh()
        key = getattr(target, "key", None)
        if key is not None and key in self._focus_next:
            where = self._focus_next.pop(key)
            widget = self.values.get(where, self.new_name)
            QTimer.singleShot(0, widget, widget.setFocus)

    # ------------------------------------------------------------------ view
    def refresh(self) -> None:
        """Show the target's rows."""
        rows = self.target.rows()
        self.table.blockSignals(True)
        self.table.clearContents()
        self.table.setRowCount(len(rows))
        self.values = {}
        for i, row in enumerate(rows):
            item = QTableWidgetItem(row.name)
            item.setData(Qt.ItemDataRole.UserRole, row.name)
            item.setToolTip("Double-click to rename")
            self.table.setItem(i, 0, item)
            kind = QComboBox()
            kind.addItems(typed.TYPES)
            kind.setCurrentText(row.type)
            kind.currentTextChanged.connect(lambda t, n=row.name: self.set_type(n, t))
            self.table.setCellWidget(i, 1, kind)
            editor = self._value_editor(row)
            self.values[row.name] = editor
            self.table.setCellWidget(i, 2, editor)
        self.table.blockSignals(False)
        self.remove_button.setEnabled(bool(rows))
        # as tall as its rows (two at least, eight at most: then it scrolls)
        height = self.table.horizontalHeader().sizeHint().height() + 2 * self.table.frameWidth()
        height += sum(self.table.rowHeight(i) for i in range(min(len(rows), 8)))
        height += max(0, 2 - len(rows)) * self.table.verticalHeader().defaultSectionSize()
        self.table.setFixedHeight(height)

    def _value_editor(self, row: PropertyRow) -> QWidget:
        name, kind, value = row
        if kind == "bool":
            box = QCheckBox()
            box.setChecked(bool(value))
            box.toggled.connect(lambda on: self.set_value(name, on))
            return box
        if kind == "int" and typed.check_value("int", value):
            spin = QSpinBox()
            spin.setRange(typed.INT_MIN, typed.INT_MAX)
            spin.setValue(int(value))
            spin.editingFinished.connect(lambda: self.set_value(name, spin.value()))
            return spin
        edit = QLineEdit(typed.text_of(kind, value))
        edit.editingFinished.connect(lambda: self._typed(name, kind, edit))
        if kind not in ("color", "file"):
            return edit
        holder = QWidget()
        lay = QHBoxLayout(holder)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(edit, 1)
        button = QPushButton("..." if kind == "file" else "")
        button.setFixedWidth(28)
        if kind == "color":
            button.setStyleSheet(f"background: {QColor(str(value)).name()}")
            button.setToolTip("Pick a colour")
            button.clicked.connect(lambda: self._pick_color(name, str(value)))
        else:
            button.setToolTip("Choose a file")
            button.clicked.connect(lambda: self._pick_file(name, str(value)))
        lay.addWidget(button)
        holder.setFocusProxy(edit)
        holder.setProperty("line_edit", edit)
        return holder

    def line_edit(self, name: str) -> QLineEdit | None:
        """The text box of property ``name``'s value (strings, numbers, colours, files)."""
        w = self.values.get(name)
        if isinstance(w, QLineEdit):
            return w
        inner = w.property("line_edit") if w is not None else None
        return inner if isinstance(inner, QLineEdit) else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.table and event.type() == QEvent.Type.KeyPress and \
                isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Delete and \
                self.table.state() != QAbstractItemView.State.EditingState:
            self.remove_current()
            return True
        return False

    # ----------------------------------------------------------------- edits
    def _apply(self, rows: list[PropertyRow], verb: str, name: str) -> bool:
        key = getattr(self.target, "key", None)
        if key is not None:
            focus = self.focusWidget()
            where = next((n for n, w in self.values.items()
                          if focus is not None and (w is focus or w.isAncestorOf(focus))), "")
            CustomPropertiesEditor._focus_next[key] = name if where else ""
        done = self.target.apply(rows, verb, name)
        if key is not None and not done:
            CustomPropertiesEditor._focus_next.pop(key, None)
        if done:
            self.applied.emit()
        self.refresh()
        return done

    def _refuse(self, why: str) -> bool:
        self.message.emit(why)
        return False

    def add(self) -> bool:
        """Add a property named as typed, of the chosen type, with its default value."""
        name = self.new_name.text().strip()
        rows = self.target.rows()
        why = name_problem(name, [r.name for r in rows])
        if why:
            return self._refuse(f"property not added: {why}")
        kind = self.new_type.currentText()
        self.new_name.clear()
        return self._apply([*rows, PropertyRow(name, kind, typed.default(kind))], "Add", name)

    def remove(self, name: str) -> bool:
        rows = self.target.rows()
        if name not in [r.name for r in rows]:
            return False
        return self._apply([r for r in rows if r.name != name], "Remove", name)

    def remove_current(self) -> bool:
        row = self.table.currentRow()
        item = self.table.item(row, 0) if row >= 0 else None
        if item is None:
            return self._refuse("select a property to remove")
        return self.remove(str(item.data(Qt.ItemDataRole.UserRole)))

    def rename(self, old: str, new: str) -> bool:
        new = new.strip()
        rows = self.target.rows()
        if new == old:
            return False
        why = name_problem(new, [r.name for r in rows if r.name != old])
        if why:
            self.refresh()  # the cell shows the name it has
            return self._refuse(f"property not renamed: {why}")
        return self._apply([r._replace(name=new) if r.name == old else r for r in rows],
                           "Rename", old)

    def _renamed(self, item: QTableWidgetItem) -> None:
        if item.column() == 0:
            self.rename(str(item.data(Qt.ItemDataRole.UserRole)), item.text())

    def set_type(self, name: str, kind: str) -> bool:
        """Change a property's type, keeping its value where it reads as the new type."""
        rows = self.target.rows()
        new = [r._replace(type=kind, value=typed.convert(r.type, kind, r.value))
               if r.name == name else r for r in rows]
        if new == rows:
            return False
        return self._apply(new, "Change Type of", name)

    def set_value(self, name: str, value: Any) -> bool:
        rows = self.target.rows()
        new = [r._replace(value=value) if r.name == name else r for r in rows]
        if [tuple(r) for r in new] == [tuple(r) for r in rows] and \
                all(type(a.value) is type(b.value) for a, b in zip(new, rows, strict=True)):
            return False
        return self._apply(new, "Edit", name)

    def _typed(self, name: str, kind: str, edit: QLineEdit) -> None:
        try:
            value = typed.parse(kind, edit.text())
        except ValueError as exc:
            self._refuse(f"property {name!r} not changed: {exc}")
            self.refresh()
            return
        self.set_value(name, value)

    def _pick_color(self, name: str, current: str) -> None:
        chosen = QColorDialog.getColor(QColor(current), self, f"Colour of {name}",
                                       QColorDialog.ColorDialogOption.ShowAlphaChannel)
        if chosen.isValid():
            self.set_value(name, _hex(chosen))

    def _pick_file(self, name: str, current: str) -> None:
        path, _ = QFileDialog.getOpenFileName(self, f"File of {name}", current)
        if path:
            self.set_value(name, path)


def _hex(color: QColor) -> str:
    """``#rrggbb``, or ``#aarrggbb`` when not opaque (Tiled's colour text)."""
    if color.alpha() == 255:
        return color.name(QColor.NameFormat.HexRgb)
    return color.name(QColor.NameFormat.HexArgb)

