"""Layers dock: show or hide each drawing layer and each preview overlay; lock
a layer against edits and set the opacity of the layers drawn over the terrain
(as Tiled's Layers panel).  Locks and opacities are remembered in the
settings (``layers/locked``, ``layers/opacity/<layer>``).

An edit of a hidden or locked layer is refused with the reason in the status
bar (:meth:`LayersDock.refusal` is the document's ``layer_guard``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...engine.model import MAX_MOVE
from ..scene.map_scene import LAYERS

if TYPE_CHECKING:
    from ..main_window import MainWindow

PREVIEWS = {"los": "LoS fan", "reach": "Movement range", "graph": "Adjacency graph"}
#: the opaque base layer: every other layer has an opacity
BASE_LAYER = "terrain"


class LayersDock(QWidget):
    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.boxes: dict[str, QCheckBox] = {}
        self.locks: dict[str, QCheckBox] = {}
        self.opacity: dict[str, QSpinBox] = {}
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        for col, head in enumerate(("Layer", "Lock", "Opacity")):
            grid.addWidget(QLabel(f"<i>{head}</i>"), 0, col)
        settings = win.settings
        stored = settings.value("layers/locked", [])
        # QSettings gives a one-item list back as a string
        locked = [stored] if isinstance(stored, str) else \
            [str(v) for v in stored] if isinstance(stored, list | tuple) else []
        for line, name in enumerate(LAYERS, start=1):
            box = QCheckBox(name.capitalize())
            box.setChecked(True)
            box.toggled.connect(lambda on, n=name: win.scene.set_layer_visible(n, on))
            grid.addWidget(box, line, 0)
            self.boxes[name] = box
            lock = QCheckBox()
            lock.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            lock.setToolTip(f"Lock {name}: edits of this layer are refused")
            lock.setChecked(name in locked)
            lock.toggled.connect(self._save_locks)
            grid.addWidget(lock, line, 1)
            self.locks[name] = lock
            if name == BASE_LAYER:
                continue
            spin = QSpinBox()
            spin.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            spin.setRange(0, 100)
            spin.setSuffix(" %")
            spin.setToolTip(f"Opacity of {name}")
            spin.valueChanged.connect(lambda v, n=name: self._set_opacity(n, v))
            spin.setValue(_percent(settings.value(f"layers/opacity/{name}", 100)))
            grid.addWidget(spin, line, 2)
            self.opacity[name] = spin
            self._set_opacity(name, spin.value(), save=False)
        lay.addLayout(grid)
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
        lay.addWidget(QLabel("P over a tile (or Alt+click it) pins the preview\n"
                             "source; hover another tile for the line or path to it."))
        lay.addStretch(1)
        for text in self.findChildren(QLabel):  # the dock keeps its width (DockBody)
            text.setWordWrap(True)

    def _set_move(self, value: int) -> None:
        self.win.previews.move_value = value
        self.win.previews.update_now()

    def set_visible(self, layer: str, on: bool) -> None:
        self.boxes[layer].setChecked(on)

    def _save_locks(self, *_changed: object) -> None:
        self.win.settings.setValue("layers/locked",
                                   [n for n, box in self.locks.items() if box.isChecked()])

    def _set_opacity(self, layer: str, percent: int, save: bool = True) -> None:
        self.win.scene.set_layer_opacity(layer, percent / 100)
        if save:
            self.win.settings.setValue(f"layers/opacity/{layer}", percent)

    def reset(self) -> None:
        """Every layer shown and unlocked, every opacity 100 % (View -> Reset
        Layout), and nothing of it left in the settings."""
        for name in LAYERS:
            self.set_visible(name, True)
            self.locks[name].setChecked(False)
        for spin in self.opacity.values():
            spin.setValue(100)
        self.win.settings.remove("layers")

    def refusal(self, layers: Iterable[str]) -> str | None:
        """Why an edit of ``layers`` is refused (a layer is hidden or locked), or None."""
        for layer in layers:
            label = layer.capitalize()
            if not self.win.scene.layer_visible(layer):
                return (f"The {label} layer is hidden: show it in the Layers dock "
                        "to edit it")
            if self.locks[layer].isChecked():
                return f"The {label} layer is locked: unlock it in the Layers dock to edit it"
        return None

    def sync(self) -> None:
        for name in PREVIEWS:
            box = self.boxes[name]
            box.blockSignals(True)
            box.setChecked(self.win.action_map[f"preview_{name}"].isChecked())
            box.blockSignals(False)


def _percent(value: object) -> int:
    """A stored opacity (QSettings may give text back), 0..100; 100 when unreadable."""
    try:
        return min(100, max(0, int(str(value))))
    except ValueError:
        return 100
