"""Layers dock: show or hide each drawing layer and each preview overlay."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from ...engine.model import MAX_MOVE
from ..scene.map_scene import LAYERS

if TYPE_CHECKING:
    from ..main_window import MainWindow

PREVIEWS = {"los": "LoS fan", "reach": "Movement range", "graph": "Adjacency graph"}


class LayersDock(QWidget):
    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.boxes: dict[str, QCheckBox] = {}
        for name in LAYERS:
            box = QCheckBox(name.capitalize())
            box.setChecked(True)
            box.toggled.connect(lambda on, n=name: win.scene.set_layer_visible(n, on))
            lay.addWidget(box)
            self.boxes[name] = box
        lay.addWidget(QLabel("Previews"))
        for name, label in PREVIEWS.items():
            box = QCheckBox(label)
            box.toggled.connect(lambda on, n=name: win.action_map[f"preview_{n}"].setChecked(on))
            lay.addWidget(box)
            self.boxes[name] = box
        row = QHBoxLayout()
        row.addWidget(QLabel("Move (no character on the tile)"))
        self.move_spin = QSpinBox()
        self.move_spin.setRange(0, MAX_MOVE)
        self.move_spin.setValue(win.previews.move_value)
        self.move_spin.valueChanged.connect(self._set_move)
        row.addWidget(self.move_spin)
        lay.addLayout(row)
        lay.addWidget(QLabel("Alt+click a tile to pin the preview source;\n"
                             "hover another tile for the line or path to it."))
        lay.addStretch(1)

    def _set_move(self, value: int) -> None:
        self.win.previews.move_value = value
        self.win.previews.update_now()

    def set_visible(self, layer: str, on: bool) -> None:
        self.boxes[layer].setChecked(on)

    def sync(self) -> None:
        for name in PREVIEWS:
            box = self.boxes[name]
            box.blockSignals(True)
            box.setChecked(self.win.action_map[f"preview_{name}"].isChecked())
            box.blockSignals(False)
