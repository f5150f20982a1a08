"""The terrain type dialog: add or edit a designer's own terrain type — its
name, its SODWA base (what decides LoS, adjacency and movement), its
vocabulary properties with their parameters (Hazardous with its hazard,
damage and save; Trapped with its trap ...) and its free custom properties.
"Start from" fills it from one of the built-in presets (the seed's example
terrains).  OK is refused, with the reason in one line, while the name is
taken or not a terrain name or a parameter is wrong."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...engine.terrain import Base, TerrainRegistry, TerrainType
from ...engine.terrain_properties import (
    PRESETS,
    PROPERTY_NAMES,
    VOCABULARY,
    CustomProperty,
    Param,
    TerrainProperty,
    contradictions,
    make_custom,
    make_property,
)
from .custom_editor import CustomPropertiesEditor, LocalTarget
from .document_props import TypeSpec
from .glyphs import glyph_icon
from .typed import PropertyRow

_NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


def custom_rows(custom) -> list[PropertyRow]:
    return [PropertyRow(k, v.type, v.value) for k, v in custom.items()]


def rows_custom(rows: list[PropertyRow], where: str) -> dict[str, CustomProperty]:
    return {r.name: make_custom(r.type, r.value, f"{where}/{r.name}") for r in rows}


def _param_widget(param: Param, value: Any) -> QWidget:
    if param.kind == "int":
        spin = QSpinBox()
        spin.setRange(param.minimum, param.maximum)
        spin.setValue(int(value))
        return spin
    if param.kind == "enum":
        box = QComboBox()
        box.addItems(list(param.choices))
        box.setCurrentText(str(value))
        return box
    if param.kind == "bool":
        check = QCheckBox()
        check.setChecked(bool(value))
        return check
    edit = QLineEdit(str(value))
    if param.kind == "dice":
        edit.setPlaceholderText("e.g. 2d6 (empty: none)")
    return edit


def _param_value(widget: QWidget) -> Any:
    if isinstance(widget, QSpinBox):
        return widget.value()
    if isinstance(widget, QComboBox):
        return widget.currentText()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    assert isinstance(widget, QLineEdit)
    return widget.text().strip()


def _set_param(widget: QWidget, value: Any) -> None:
    if isinstance(widget, QSpinBox):
        widget.setValue(int(value))
    elif isinstance(widget, QComboBox):
        widget.setCurrentText(str(value))
    elif isinstance(widget, QCheckBox):
        widget.setChecked(bool(value))
    elif isinstance(widget, QLineEdit):
        widget.setText(str(value))


class PropertyRowWidget(QWidget):
    """A vocabulary property: its box (with icon and effect) and, while checked,
    its parameters."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        spec = VOCABULARY[name]
        self.name = name
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.box = QCheckBox(spec.label)
        self.box.setObjectName(f"prop_{name}")
        self.box.setIcon(glyph_icon(name))
        self.box.setToolTip(spec.effect)
        lay.addWidget(self.box)
        self.params: dict[str, QWidget] = {}
        self.form_widget = QWidget()
        form = QFormLayout(self.form_widget)
        form.setContentsMargins(24, 0, 0, 4)
        defaults = make_property(name).params
        for p in spec.params:
            w = _param_widget(p, defaults[p.name])
            w.setObjectName(f"param_{name}_{p.name}")
            if p.doc:
                w.setToolTip(p.doc)
            form.addRow(p.name.replace("_", " "), w)
            self.params[p.name] = w
        example = self.params.get("hazard") or self.params.get("trap")
        if isinstance(example, QComboBox):
            example.currentTextChanged.connect(self._example_chosen)
        lay.addWidget(self.form_widget)
        self.form_widget.setVisible(False)
        self.box.toggled.connect(lambda on: self.form_widget.setVisible(on and bool(self.params)))

    def _example_chosen(self, choice: str) -> None:
        """An example hazard or trap: its damage, condition and save fill the form."""
        key = "hazard" if "hazard" in self.params else "trap"
        for k, v in make_property(self.name, {key: choice}).params.items():
            if k != key:
                _set_param(self.params[k], v)

    def set_property(self, prop: TerrainProperty | None) -> None:
        self.box.setChecked(prop is not None)
        if prop is None:
            return
        key = "hazard" if "hazard" in self.params else "trap" if "trap" in self.params else ""
        if key:  # the example first: choosing it refills the others
            _set_param(self.params[key], prop.params[key])
        for k, v in prop.params.items():
            _set_param(self.params[k], v)

    def value(self) -> TerrainProperty | None:
        """The property as set (ValueError naming a wrong parameter), or None."""
        if not self.box.isChecked():
            return None
        return make_property(self.name, {k: _param_value(w) for k, w in self.params.items()},
                             VOCABULARY[self.name].label)


class TerrainTypeEditor(QDialog):
    """Add (``editing`` None) or edit a special terrain type of ``registry``."""

    def __init__(self, registry: TerrainRegistry, editing: TerrainType | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.registry, self.editing = registry, editing
        self.setWindowTitle("Edit Terrain Type" if editing else "Add Terrain Type")
        outer = QVBoxLayout(self)
        form = QFormLayout()
        self.preset = QComboBox()
        self.preset.setObjectName("preset")
        self.preset.addItem("(nothing)", None)
        for p in PRESETS.values():
            self.preset.addItem(f"{p.label} ({p.base})", p.name)
        self.preset.currentIndexChanged.connect(self._preset_chosen)
        if editing is None:
            form.addRow("Start from", self.preset)
        self.name = QLineEdit(editing.name if editing else "")
        self.name.setObjectName("type_name")
        self.name.setPlaceholderText("e.g. icy (lower case, digits, - and _)")
        self.name.setMaxLength(32)
        form.addRow("Name", self.name)
        self.base = QComboBox()
        self.base.setObjectName("type_base")
        for b in Base:
            self.base.addItem(b.label, b)
        self.base.setCurrentIndex(int(editing.base) if editing else int(Base.DIFFICULT))
        self.base.setToolTip("What decides line of sight, adjacency and movement "
                             "(the rulebook's terrain types)")
        form.addRow("Behaves as", self.base)
        outer.addLayout(form)
        group = QGroupBox("Properties (the rules read these)")
        grid = QGridLayout(group)
        self.rows: dict[str, PropertyRowWidget] = {}
        for i, name in enumerate(PROPERTY_NAMES):
            row = PropertyRowWidget(name)
            row.box.toggled.connect(self._check)
            if len(VOCABULARY[name].params) > 2:  # Hazardous, Trapped: a long form
                grid.addWidget(row, 9 + i, 0, 1, 2)
            else:
                grid.addWidget(row, i // 2, i % 2)
            self.rows[name] = row
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(group)
        scroll.setMinimumHeight(260)
        outer.addWidget(scroll, 1)
        outer.addWidget(QLabel("Custom properties (yours; no rule reads them)"))
        self.custom = CustomPropertiesEditor(LocalTarget(
            custom_rows(editing.custom) if editing else []))
        self.custom.message.connect(self._say)
        outer.addWidget(self.custom)
        self.problem = QLabel()
        self.problem.setObjectName("problem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c0392b")
        outer.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        outer.addWidget(buttons)
        self.buttons = buttons
        if editing is not None:
            for name, row in self.rows.items():
                row.set_property(editing.properties.get(name))
        self._check()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        """Enter ends typing in a field (a custom property's name adds it); it does
        not close the dialog: OK does (or Enter on the OK button)."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                not isinstance(self.focusWidget(), QPushButton):
            return
        super().keyPressEvent(event)

    def _say(self, text: str) -> None:
        self.problem.setText(text)

    def _preset_chosen(self, index: int) -> None:
        key = self.preset.itemData(index)
        if key is None:
            return
        preset = PRESETS[key]
        if not self.name.text().strip() or self.name.text().strip() in PRESETS:
            self.name.setText(preset.name)
        self.base.setCurrentIndex(int(Base[preset.base.upper()]))
        for name, row in self.rows.items():
            row.set_property(preset.properties.get(name))

    def _check(self) -> None:
        """Say which chosen properties exclude each other (the stronger applies)."""
        chosen = {n: r for n, r in self.rows.items() if r.box.isChecked()}
        pairs = contradictions(dict.fromkeys(chosen))  # type: ignore[arg-type]
        self.problem.setText("; ".join(
            f"{VOCABULARY[a].label} and {VOCABULARY[b].label} exclude each other: "
            f"{VOCABULARY[b].label} applies" for a, b in pairs))

    def problem_text(self) -> str | None:
        """Why the dialog cannot be accepted, or None."""
        name = self.name.text().strip()
        if not _NAME_RE.match(name):
            return (f"the name {name!r} must be lower-case letters, digits, '_' or '-' "
                    "(1-32 characters, starting with a letter)")
        own = self.editing.name if self.editing else None
        if name != own and name in self.registry:
            return f"this map has a terrain type named {name!r} already"
        try:
            self.values()
        except ValueError as exc:
            return str(exc)
        return None

    def accept(self) -> None:
        why = self.problem_text()
        if why:
            self.problem.setText(why)
            return
        super().accept()

    def values(self) -> TypeSpec:
        props = {n: p for n, r in self.rows.items() if (p := r.value()) is not None}
        name = self.name.text().strip()
        return TypeSpec(name, Base(self.base.currentData()), props,
                        rows_custom(self.custom.target.rows(), f"terrain type {name!r} custom"))
