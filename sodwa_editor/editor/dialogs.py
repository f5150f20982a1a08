"""Dialogs: new map, resize, map properties, export pack, special terrain
type, and the problem list shown when a file cannot be opened."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..engine.model import MAX_SIDE
from ..engine.resize import ANCHORS
from ..engine.terrain import Base
from ..io.schemas import load_schema, map_text_limits


def _buttons(dialog: QDialog) -> QDialogButtonBox:
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                           | QDialogButtonBox.StandardButton.Cancel)
    box.accepted.connect(dialog.accept)
    box.rejected.connect(dialog.reject)
    return box


def _spin(lo: int, hi: int, value: int) -> QSpinBox:
    s = QSpinBox()
    s.setRange(lo, hi)
    s.setValue(value)
    return s


class NewMapDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New Map")
        form = QFormLayout(self)
        self.name = QLineEdit("untitled")
        self.name.setMaxLength(map_text_limits()["name"])
        self.width_spin = _spin(1, MAX_SIDE, 32)
        self.height_spin = _spin(1, MAX_SIDE, 24)
        self.setting = QComboBox()
        self.setting.addItems(["outdoor", "indoor"])
        form.addRow("Name", self.name)
        form.addRow("Width", self.width_spin)
        form.addRow("Height", self.height_spin)
        form.addRow("Setting", self.setting)
        form.addRow(_buttons(self))

    def values(self) -> tuple[str, int, int, str]:
        return (self.name.text().strip() or "untitled", self.width_spin.value(),
                self.height_spin.value(), self.setting.currentText())


class ResizeDialog(QDialog):
    """New size plus an anchor (3x3 buttons) or an explicit offset."""

    def __init__(self, width: int, height: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Resize Map")
        self.old = (width, height)
        form = QFormLayout(self)
        self.width_spin = _spin(1, MAX_SIDE, width)
        self.height_spin = _spin(1, MAX_SIDE, height)
        form.addRow("Width", self.width_spin)
        form.addRow("Height", self.height_spin)
        grid = QGridLayout()
        self.anchor_group = QButtonGroup(self)
        for i, name in enumerate(ANCHORS):
            b = QPushButton("")
            b.setCheckable(True)
            b.setToolTip(name)
            b.setFixedSize(26, 26)
            b.setProperty("anchor", name)
            self.anchor_group.addButton(b, i)
            grid.addWidget(b, i // 3, i % 3)
            if name == "top-left":
                b.setChecked(True)
        anchor_box = QWidget()
        anchor_box.setLayout(grid)
        form.addRow("Anchor", anchor_box)
        self.dx = _spin(-MAX_SIDE, MAX_SIDE, 0)
        self.dy = _spin(-MAX_SIDE, MAX_SIDE, 0)
        row = QHBoxLayout()
        row.addWidget(self.dx)
        row.addWidget(self.dy)
        offs = QWidget()
        offs.setLayout(row)
        form.addRow("Offset x, y", offs)
        for w in (self.width_spin, self.height_spin):
            w.valueChanged.connect(self._from_anchor)
        self.anchor_group.buttonClicked.connect(self._from_anchor)
        form.addRow(_buttons(self))

    def _from_anchor(self, *_changed: object) -> None:
        from ..engine.resize import anchor_offset

        b = self.anchor_group.checkedButton()
        name = b.property("anchor") if b is not None else "top-left"
        dx, dy = anchor_offset(*self.old, self.width_spin.value(), self.height_spin.value(), name)
        self.dx.setValue(dx)
        self.dy.setValue(dy)

    def values(self) -> tuple[int, int, int, int]:
        return (self.width_spin.value(), self.height_spin.value(), self.dx.value(),
                self.dy.value())


class PropertiesDialog(QDialog):
    def __init__(self, name: str, description: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Map Properties")
        form = QFormLayout(self)
        self.name = QLineEdit(name)
        self.name.setMaxLength(map_text_limits()["name"])
        self.description = QPlainTextEdit(description)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #c0392b")
        self.problem.hide()
        form.addRow("Name", self.name)
        form.addRow("Description", self.description)
        form.addRow(self.problem)
        form.addRow(_buttons(self))

    def values(self) -> tuple[str, str]:
        return self.name.text().strip() or "untitled", self.description.toPlainText()

    def accept(self) -> None:
        """Stay open, saying why, while the description is longer than a map file
        holds (a text box has no length limit of its own)."""
        limit = map_text_limits()["description"]
        n = len(self.description.toPlainText())
        if n > limit:
            self.problem.setText(f"The description has {n} characters; a map file holds "
                                 f"at most {limit}.")
            self.problem.show()
            return
        super().accept()


class TerrainTypeDialog(QDialog):
    """Declare a special terrain type (name and base behaviour)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add Terrain Type")
        form = QFormLayout(self)
        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. icy")
        self.base = QComboBox()
        self.base.addItems([b.label for b in Base if b is not Base.CLEAR])
        form.addRow("Name", self.name)
        form.addRow("Behaves as", self.base)
        form.addRow(_buttons(self))

    def values(self) -> tuple[str, Base]:
        return self.name.text().strip().lower(), Base[self.base.currentText().upper()]


#: stands for the editor's open map when it has no file yet (Export Map Pack)
OPEN_MAP = Path("<open map>")


class ExportPackDialog(QDialog):
    """Pick map files and the pack metadata."""

    def __init__(self, start: list[Path], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export Map Pack")
        lay = QVBoxLayout(self)
        self.maps = QListWidget()
        for p in start:
            self._add_path(p)
        add = QPushButton("Add Maps...")
        add.clicked.connect(self._add)
        remove = QPushButton("Remove")
        remove.clicked.connect(self._remove)
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(remove)
        lay.addWidget(QLabel("Maps"))
        lay.addWidget(self.maps)
        lay.addLayout(row)
        form = QFormLayout()
        self.name = QLineEdit("my-pack")
        self.version = QLineEdit("1.0.0")
        self.author = QLineEdit()
        self.description = QLineEdit()
        fields = load_schema("mappack")["properties"]
        for key in ("name", "version", "author", "description"):
            getattr(self, key).setMaxLength(fields[key]["maxLength"])
        self.version_rule = fields["version"]  # pattern and the words for it
        self.version.setToolTip(self.version_rule["description"])
        form.addRow("Name", self.name)
        form.addRow("Version", self.version)
        form.addRow("Author", self.author)
        form.addRow("Description", self.description)
        lay.addLayout(form)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c0392b")
        self.problem.hide()
        lay.addWidget(self.problem)
        lay.addWidget(_buttons(self))

    def accept(self) -> None:
        """Stay open, saying why, while the version is not one the pack format takes
        (the schema's pattern, so a pack written here always opens again)."""
        version = self.version.text().strip()
        if not re.search(self.version_rule["pattern"], version):
            shown = f'"{version}"' if version else "An empty version"
            self.problem.setText(f"{shown} is not {self.version_rule['description']}.")
            self.problem.show()
            self.version.setFocus()
            return
        super().accept()

    def _remove(self) -> None:
        for item in self.maps.selectedItems():
            self.maps.takeItem(self.maps.row(item))

    def _add(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Add Maps", "", "SODWA maps (*.json)")
        for f in files:
            self._add_path(Path(f))

    def _add_path(self, path: Path) -> None:
        label = "the open map (not saved to a file)" if path == OPEN_MAP else str(path)
        item = QListWidgetItem(label)
        item.setData(Qt.ItemDataRole.UserRole, str(path))
        self.maps.addItem(item)

    def values(self) -> dict:
        return {
            "maps": [Path(self.maps.item(i).data(Qt.ItemDataRole.UserRole))
                     for i in range(self.maps.count())],
            "name": self.name.text().strip(), "version": self.version.text().strip(),
            "author": self.author.text().strip(), "description": self.description.text(),
        }


def problem_line(p) -> str:
    """One problem for a list: severity, file (when known), place, message; the
    place is left out when the problem is about the whole file."""
    parts = [p.severity]
    if p.source:
        parts.append(Path(p.source).name)
    if p.path or p.map_name is not None:
        parts.append(p.location())
    return ": ".join(parts + [p.message])


class ProblemsDialog(QDialog):
    """Lists the problems of a file that could not be opened or exported."""

    def __init__(self, title: str, summary: str, problems: list,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("problems_dialog")
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(summary))
        self.list = QListWidget()
        for p in problems:
            self.list.addItem(problem_line(p))
        lay.addWidget(self.list)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        box.accepted.connect(self.accept)
        lay.addWidget(box)
        self.resize(640, 360)

    def lines(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]
