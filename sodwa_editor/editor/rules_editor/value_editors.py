"""One editor widget per kind of rules key (:class:`~sodwa_editor.battle.rules_catalog.RuleKey`):
a spin box for a number (its schema range), a check box for a yes/no key, a combo box
for a choice, a check box per choice for a set of known choices, a comma-separated line for a
free list (damage types), a line for text; a key that may be
``null`` gets a check box that turns the value on (``point_cap`` unchecked: no cap).

Each emits :attr:`ValueEditor.edited` with the new value once per edit (Enter, focus
out, an arrow step, a click), never per keystroke, so one edit is one undo step.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from ...battle.rules_catalog import RuleKey

INT_LIMIT = 2**31 - 1


class ValueEditor(QWidget):
    """The editor of one key's value; :meth:`show_value` shows a value without
    emitting :attr:`edited`."""

    edited = Signal(object)

    def __init__(self, key: RuleKey) -> None:
        super().__init__()
        self.key = key
        self.setObjectName(f"rule_value_{key.key}")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 0)
        self._null: QCheckBox | None = None
        if key.nullable and key.kind in ("integer", "number"):
            self._null = QCheckBox()
            self._null.setToolTip(f"unchecked: {key.key} is null (none)")
            self._null.toggled.connect(self._null_toggled)
            layout.addWidget(self._null)
        self.field = self._make_field()
        layout.addWidget(self.field, 1)
        self._quiet = False

    def _make_field(self) -> QWidget:
        k = self.key
        if k.kind in ("integer", "number"):
            box: QAbstractSpinBox
            if k.kind == "integer":
                spin = QSpinBox()
                spin.setRange(int(k.minimum) if k.minimum is not None else -INT_LIMIT,
                              int(k.maximum) if k.maximum is not None else INT_LIMIT)
                box = spin
            else:
                dspin = QDoubleSpinBox()
                dspin.setDecimals(3)
                dspin.setRange(k.minimum if k.minimum is not None else -1e9,
                               k.maximum if k.maximum is not None else 1e9)
                box = dspin
            box.setKeyboardTracking(False)  # valueChanged on Enter / focus out / arrows
            box.valueChanged.connect(lambda _v: self._emit())
            return box
        if k.kind == "boolean":
            check = QCheckBox()
            check.toggled.connect(lambda _on: self._emit())
            return check
        if k.kind == "choice":
            combo = QComboBox()
            combo.addItems(list(k.choices))
            combo.activated.connect(lambda _i: self._emit())
            return combo
        if k.kind == "list" and k.choices:
            holder = QWidget()
            row = QHBoxLayout(holder)
            row.setContentsMargins(0, 0, 0, 0)
            for choice in k.choices:
                c = QCheckBox(choice)
                c.setObjectName(f"choice_{choice}")
                c.toggled.connect(lambda _on: self._emit())
                row.addWidget(c)
            return holder
        line = QLineEdit()
        if k.kind == "list":
            line.setPlaceholderText("comma-separated, e.g. physical, energy")
        line.editingFinished.connect(self._emit)
        return line

    def _null_toggled(self, on: bool) -> None:
        self.field.setEnabled(on)
        self._emit()

    def value(self) -> Any:
        """The value the widget shows."""
        k, f = self.key, self.field
        if self._null is not None and not self._null.isChecked():
            return None
        if isinstance(f, QSpinBox):
            return f.value()
        if isinstance(f, QDoubleSpinBox):
            return f.value()
        if isinstance(f, QCheckBox):
            return f.isChecked()
        if isinstance(f, QComboBox):
            return f.currentText()
        if isinstance(f, QLineEdit):
            if k.kind == "list":
                return [part.strip() for part in f.text().split(",") if part.strip()]
            return f.text()
        return [c for c in k.choices if self._choice(c).isChecked()]

    def show_value(self, value: Any) -> None:
        self._quiet = True
        try:
            f = self.field
            if self._null is not None:
                self._null.setChecked(value is not None)
                f.setEnabled(value is not None)
                if value is None:
                    return
            if isinstance(f, QSpinBox | QDoubleSpinBox):
                f.setValue(value)
            elif isinstance(f, QCheckBox):
                f.setChecked(bool(value))
            elif isinstance(f, QComboBox):
                f.setCurrentText(str(value))
            elif isinstance(f, QLineEdit):
                f.setText(", ".join(value) if isinstance(value, list | tuple) else str(value))
            else:
                for c in self.key.choices:
                    self._choice(c).setChecked(c in value)
        finally:
            self._quiet = False

    def _choice(self, choice: str) -> QCheckBox:
        box = self.field.findChild(QCheckBox, f"choice_{choice}")
        assert box is not None
        return box

    def _emit(self) -> None:
        if not self._quiet:
            self.edited.emit(self.value())
