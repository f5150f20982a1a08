"""Go to Tile (Ctrl+G): type X, Y; the view centres on that tile and rings it.

A small dialog (as Tiled's and LDtk's "go to" boxes): what is typed is checked
as it is typed, a wrong entry is said in one line under the box (what is wrong
and the range the map holds) and OK stays greyed until it reads; Enter on a
good entry goes there and closes the dialog."""

from __future__ import annotations

import re

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from .document import Document

_NUMBERS = re.compile(r"^\s*(-?\d+)\s*[,;\s]\s*(-?\d+)\s*$")


def parse_tile(text: str, width: int, height: int) -> tuple[int, int]:
    """The tile (x, y) of ``text`` ("3, 4", "3 4" or "3;4") on a ``width`` x
    ``height`` map; ``ValueError`` with a one-line reason otherwise."""
    m = _NUMBERS.match(text)
    if m is None:
        raise ValueError(f"type two whole numbers X, Y (e.g. 3, 4), not {text.strip()!r}"
                         if text.strip() else "type the tile as X, Y (e.g. 3, 4)")
    x, y = int(m.group(1)), int(m.group(2))
    for name, value, size in (("X", x, width), ("Y", y, height)):
        if not 0 <= value < size:
            raise ValueError(f"{name} {value} is off the map: {name} runs from 0 to {size - 1}")
    return x, y


class GoToTileDialog(QDialog):
    """Ask for a tile of the document's map; ``chosen(x, y)`` when one is accepted."""

    chosen = Signal(int, int)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setWindowTitle("Go to Tile")
        m = document.model
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(f"X, Y  (0..{m.width - 1}, 0..{m.height - 1})")
        self.error = QLabel("")
        self.error.setObjectName("goto_error")
        self.error.setStyleSheet("color: #b00020")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"Tile of the {m.width} x {m.height} map:"))
        layout.addWidget(self.edit)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.edit.textChanged.connect(self._check)
        self._check()

    def _read(self) -> tuple[int, int] | str:
        m = self.document.model
        try:
            return parse_tile(self.edit.text(), m.width, m.height)
        except ValueError as exc:
            return str(exc)

    def _check(self, *_args: object) -> None:
        read = self._read()
        ok = not isinstance(read, str)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)
        self.error.setText("" if ok or not self.edit.text().strip() else str(read))

    def accept(self) -> None:
        read = self._read()
        if isinstance(read, str):
            self.error.setText(read)  # Enter on a wrong entry: said, the dialog stays
            return
        super().accept()
        self.chosen.emit(*read)
