"""Dialogs: new map, resize, map properties, export pack, special terrain
type, and the problem list shown when a file cannot be opened."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
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


#: side of an anchor button and of its icon (pixels)
ANCHOR_BUTTON, ANCHOR_ICON = 30, 20


def anchor_icon(dx: int, dy: int) -> QIcon:
    """The icon of the anchor button ``(dx, dy)`` steps (each -1, 0 or 1) from the
    chosen anchor: the map (a filled square) on the anchor itself, elsewhere an
    arrow pointing away from it, the way the map grows (as in Tiled's and image
    editors' canvas-size dialogs)."""
    pix = QPixmap(ANCHOR_ICON, ANCHOR_ICON)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    ink = QColor(30, 30, 30)
    c = QPointF(ANCHOR_ICON / 2, ANCHOR_ICON / 2)
    if (dx, dy) == (0, 0):
        p.fillRect(QRectF(4, 4, ANCHOR_ICON - 8, ANCHOR_ICON - 8), ink)
    else:
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)  # one of eight directions
        n = (sx * sx + sy * sy) ** 0.5
        ux, uy = sx / n, sy / n
        tip = c + QPointF(ux, uy) * 7.5
        tail = c - QPointF(ux, uy) * 6.5
        p.setPen(QPen(ink, 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.drawLine(tail, tip)
        left = tip - QPointF(ux * 5 - uy * 4, uy * 5 + ux * 4)
        right = tip - QPointF(ux * 5 + uy * 4, uy * 5 - ux * 4)
        p.setBrush(ink)
        p.drawPolygon(QPolygonF([tip, left, right]))
    p.end()
    return QIcon(pix)


class ResizeDialog(QDialog):
    """New size plus an anchor (3x3 buttons: the map on the anchor, arrows the way
    it grows) or an explicit offset."""

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
            b.setToolTip(f"Keep the map's {name.replace('-', ' ')} in place")
            b.setFixedSize(ANCHOR_BUTTON, ANCHOR_BUTTON)
            b.setIconSize(QSize(ANCHOR_ICON, ANCHOR_ICON))
            b.setProperty("anchor", name)
            self.anchor_group.addButton(b, i)
            grid.addWidget(b, i // 3, i % 3)
            if name == "top-left":
                b.setChecked(True)
        self._show_anchor()
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
        self.anchor_group.buttonClicked.connect(self._show_anchor)
        form.addRow(_buttons(self))

    def _show_anchor(self, *_clicked: object) -> None:
        """Each button's icon from the chosen anchor (see :func:`anchor_icon`)."""
        chosen = self.anchor_group.checkedId()
        ax, ay = chosen % 3, chosen // 3
        for i in range(len(ANCHORS)):
            self.anchor_group.button(i).setIcon(anchor_icon(i % 3 - ax, i // 3 - ay))

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


#: the files a pack may carry besides its maps, as ``sodwa pack build --rules/--roster``
PACK_FILES = {"rules": ("Rules", "a rules file (schemas/rules.schema.json): sodwa battle and "
                        "simulate use it for the pack's maps"),
              "roster": ("Roster", "a roster file (schemas/roster.schema.json)")}


class ExportPackDialog(QDialog):
    """Pick map files, the pack metadata and, as ``sodwa pack build --rules
    --roster --scenario``, a rules and a roster file and scenario files the pack
    carries.  A rules or roster
    file is checked as soon as it is typed or chosen, with the checks and the
    one-line message of ``sodwa pack build`` (``io.packs.read_battle_file``);
    OK is refused while one is wrong."""

    def __init__(self, start: list[Path], parent: QWidget | None = None,
                 folder: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export Map Pack")
        self.folder = folder  # where the file choosers open (the open map's folder)
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
        #: the rules and roster file boxes (empty: the pack carries none)
        self.files: dict[str, QLineEdit] = {}
        for key, (label, tip) in PACK_FILES.items():
            edit = QLineEdit()
            edit.setPlaceholderText("none (optional)")
            edit.setToolTip(f"{tip}; as sodwa pack build --{key}")
            edit.textChanged.connect(self._check_files)
            browse = QPushButton("Browse...")
            browse.clicked.connect(lambda _c=False, k=key: self._browse(k))
            line = QHBoxLayout()
            line.addWidget(edit, 1)
            line.addWidget(browse)
            form.addRow(label, line)
            self.files[key] = edit
        lay.addLayout(form)
        #: scenario files the pack carries (sodwa pack build --scenario), each on one
        #: of the maps above
        self.scenarios = QListWidget()
        self.scenarios.setObjectName("pack_scenarios")
        self.scenarios.setMaximumHeight(80)
        add_scenario = QPushButton("Add Scenarios...")
        add_scenario.clicked.connect(lambda _c=False: self._add_scenarios())
        remove_scenario = QPushButton("Remove")
        remove_scenario.clicked.connect(
            lambda: [self.scenarios.takeItem(self.scenarios.row(i))
                     for i in self.scenarios.selectedItems()])
        lay.addWidget(QLabel("Scenarios (scenario files on the maps above; optional)"))
        lay.addWidget(self.scenarios)
        srow = QHBoxLayout()
        srow.addWidget(add_scenario)
        srow.addWidget(remove_scenario)
        lay.addLayout(srow)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c0392b")
        self.problem.hide()
        lay.addWidget(self.problem)
        lay.addWidget(_buttons(self))

    def file_problem(self) -> str | None:
        """The first problem of the rules and roster files, in ``sodwa pack
        build``'s words (``error: FILE: /: message``), or None."""
        from ..io.packs import read_battle_file

        for key, edit in self.files.items():
            text = edit.text().strip()
            if text:
                _doc, problems = read_battle_file(key, Path(text))
                if problems:
                    p = problems[0]
                    return f"{p.severity}: {p}"
        return None

    def _say(self, text: str | None) -> None:
        self.problem.setText(text or "")
        self.problem.setVisible(bool(text))

    def _check_files(self) -> None:
        self._say(self.file_problem())

    def accept(self) -> None:
        """Stay open, saying why, while the version is not one the pack format takes
        (the schema's pattern, so a pack written here always opens again) or a rules
        or roster file is wrong."""
        version = self.version.text().strip()
        if not re.search(self.version_rule["pattern"], version):
            shown = f'"{version}"' if version else "An empty version"
            self._say(f"{shown} is not {self.version_rule['description']}.")
            self.version.setFocus()
            return
        problem = self.file_problem()
        if problem is not None:
            self._say(problem)
            return
        super().accept()

    def _browse(self, key: str) -> None:
        name, _ = QFileDialog.getOpenFileName(self, f"Choose a {key} file",
                                              str(self.folder or ""), "JSON files (*.json)")
        if name:
            self.files[key].setText(name)

    def _remove(self) -> None:
        for item in self.maps.selectedItems():
            self.maps.takeItem(self.maps.row(item))

    def _add(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Add Maps", str(self.folder or ""),
                                                "SODWA maps (*.json)")
        for f in files:
            self._add_path(Path(f))

    def _add_scenarios(self, files: list[str] | None = None) -> None:
        if files is None:
            files, _ = QFileDialog.getOpenFileNames(self, "Add Scenarios",
                                                    str(self.folder or ""),
                                                    "Scenario files (*.json)")
        for f in files:
            item = QListWidgetItem(str(f))
            item.setData(Qt.ItemDataRole.UserRole, str(f))
            self.scenarios.addItem(item)

    def _add_path(self, path: Path) -> None:
        label = "the open map (not saved to a file)" if path == OPEN_MAP else str(path)
        item = QListWidgetItem(label)
        item.setData(Qt.ItemDataRole.UserRole, str(path))
        self.maps.addItem(item)

    def values(self) -> dict:
        files = {key: Path(e.text().strip()) if e.text().strip() else None
                 for key, e in self.files.items()}
        return {
            "maps": [Path(self.maps.item(i).data(Qt.ItemDataRole.UserRole))
                     for i in range(self.maps.count())],
            "name": self.name.text().strip(), "version": self.version.text().strip(),
            "author": self.author.text().strip(), "description": self.description.text(),
            "scenarios": [Path(self.scenarios.item(i).data(Qt.ItemDataRole.UserRole))
                          for i in range(self.scenarios.count())],
            **files,
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


def text_box(label: QLabel, lines: int, name: str) -> QScrollArea:
    """A word-wrapped label in a box ``lines`` lines high that scrolls: however long
    its text, the rows above it keep their height."""
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box = QScrollArea()
    box.setObjectName(name)
    box.setWidget(label)
    box.setWidgetResizable(True)
    box.setFrameShape(QFrame.Shape.NoFrame)
    box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    box.setFixedHeight(lines * label.fontMetrics().lineSpacing() + 6)
    return box
