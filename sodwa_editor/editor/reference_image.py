"""The reference image in the window (issue 29): View -> Reference Image... (the
dialog that picks the file and sets opacity, scale and offset, each change one
undo step), the layer toggles of the reference image and the labels, and the
one-line warning when the map's image file is missing.

The image is a setting of the map (``editor.reference_image`` in the file, a
path relative to the map file), never rules data; the scene's
:class:`~.scene.reference_image_item.ReferenceImageItem` draws it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from ..engine.annotations import SCALE_RANGE, ReferenceImage
from .actions import ActionSpec, build_actions
from .document_annotations import LABELS_LAYER, REFERENCE_LAYER
from .scene.reference_image_item import ReferenceImageItem, resolve, stored_path

if TYPE_CHECKING:
    from .document import Document
    from .layer_state import LayerState
    from .scene.map_scene import MapScene

IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.bmp *.gif *.webp);;All files (*)"
#: the View menu's entries (Tiled has no keys for these)
REFERENCE_ACTIONS = (
    ActionSpec("reference_image", "&Reference Image...", "Ctrl+Shift+R",
               "Pick an image to trace under the map; its opacity, scale and offset"),
    ActionSpec("layer_reference", "Show Reference &Image", "Ctrl+Shift+I",
               "Show or hide the reference image layer", True),
    ActionSpec("layer_labels", "Show &Labels", "Ctrl+Shift+N",
               "Show or hide the labels layer (and in Export PNG)", True),
)


class ReferenceImageControl(QObject):
    """Keeps the scene's reference image item on the document's folder, warns once
    per missing file, builds the actions and opens the dialog."""

    def __init__(self, document: Document, scene: MapScene, layers: LayerState,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document, self.scene, self.layers = document, scene, layers
        self.window = parent
        self.actions: dict[str, QAction] = {}
        self._checked: object = None  # the setting and folder last checked
        item = scene.items_by_name["reference_image"]
        assert isinstance(item, ReferenceImageItem)
        self.item = item
        document.path_changed.connect(self._follow_path)
        document.edited.connect(self._check)
        document.loaded.connect(self._check)
        layers.visibility_changed.connect(self._show_visible)
        self.item.set_base_dir(document.path.resolve().parent if document.path else None)
        QTimer.singleShot(0, self._check)  # once the window says messages

    def build_actions(self, parent: QObject) -> dict[str, QAction]:
        slots: dict[str, Callable[[], object]] = {
            "reference_image": self.open_dialog,
            "layer_reference": lambda: self._toggle(REFERENCE_LAYER, "layer_reference"),
            "layer_labels": lambda: self._toggle(LABELS_LAYER, "layer_labels")}
        self.actions = build_actions(parent, REFERENCE_ACTIONS, slots)
        for layer, key in ((REFERENCE_LAYER, "layer_reference"), (LABELS_LAYER, "layer_labels")):
            self.actions[key].setChecked(self.layers.visible[layer])
        return self.actions

    def _toggle(self, layer: str, key: str) -> None:
        self.layers.set_visible(layer, self.actions[key].isChecked())

    def _show_visible(self, layer: str, on: bool) -> None:
        key = {REFERENCE_LAYER: "layer_reference", LABELS_LAYER: "layer_labels"}.get(layer)
        if key in self.actions and self.actions[key].isChecked() != on:
            self.actions[key].setChecked(on)

    def _follow_path(self, path: Path | None) -> None:
        self.item.set_base_dir(path.resolve().parent if path is not None else None)
        self._check()

    def _check(self) -> None:
        """Say (once per file and folder) that the map's reference image cannot be
        drawn: a missing file or one that is not an image; never more than a line."""
        ref = self.document.model.reference_image
        key = (ref, self.item.base_dir)
        if key == self._checked:
            return
        self._checked = key
        if ref is not None:
            self.item.refresh(None)
        problem = self.item.problem if ref is not None else None
        if problem:
            self.document.message.emit(problem)

    def open_dialog(self) -> ReferenceImageDialog:
        dialog = ReferenceImageDialog(self.document, self.window)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog


class ReferenceImageDialog(QDialog):
    """The file, opacity (%), scale and offset (tiles) of the reference image;
    every change applies at once (one undo step per change, adjustments in a row
    merged); Remove takes the image away."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Reference Image")
        self.document = document
        ref = document.model.reference_image or ReferenceImage("")
        form = QFormLayout(self)
        self.path = QLineEdit(ref.path)
        self.path.setPlaceholderText("an image file (PNG, JPEG...)")
        self.path.editingFinished.connect(self.apply)
        browse = QPushButton("Browse...")
        browse.clicked.connect(self.browse)
        row = QHBoxLayout()
        row.addWidget(self.path)
        row.addWidget(browse)
        form.addRow("File", row)
        self.opacity = QSpinBox()
        self.opacity.setRange(0, 100)
        self.opacity.setSuffix(" %")
        self.opacity.setValue(round(ref.opacity * 100))
        self.scale = QDoubleSpinBox()
        self.scale.setRange(*SCALE_RANGE)
        self.scale.setDecimals(2)
        self.scale.setSingleStep(0.1)
        self.scale.setValue(ref.scale)
        self.scale.setToolTip("1.00: 32 image pixels per tile")
        self.offset = [QDoubleSpinBox(), QDoubleSpinBox()]
        for box, value in zip(self.offset, (ref.offset_x, ref.offset_y), strict=True):
            box.setRange(-4096, 4096)
            box.setDecimals(2)
            box.setSingleStep(0.5)
            box.setSuffix(" tiles")
            box.setValue(value)
        form.addRow("Opacity", self.opacity)
        form.addRow("Scale", self.scale)
        form.addRow("Offset X", self.offset[0])
        form.addRow("Offset Y", self.offset[1])
        self.opacity.valueChanged.connect(self.apply)
        for spin in (self.scale, *self.offset):
            spin.valueChanged.connect(self.apply)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.remove = buttons.addButton("Remove Image", QDialogButtonBox.ButtonRole.ResetRole)
        self.remove.clicked.connect(self.remove_image)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        for button in (browse, *buttons.buttons()):  # Enter in a box applies, only
            if isinstance(button, QPushButton):
                button.setAutoDefault(False)
                button.setDefault(False)

    def value(self) -> ReferenceImage | None:
        path = self.path.text().strip()
        if not path:
            return None
        return ReferenceImage(path, self.opacity.value() / 100, round(self.scale.value(), 4),
                              self.offset[0].value(), self.offset[1].value())

    def apply(self, *_value: object) -> bool:
        """Write the dialog's values to the map (nothing without a file)."""
        value = self.value()
        return value is not None and self.document.set_reference_image(value)

    def browse(self) -> None:
        start = str(self.document.path.parent) if self.document.path else ""
        name, _ = QFileDialog.getOpenFileName(self, "Reference Image", start, IMAGE_FILTER)
        if name:
            self.choose(Path(name))

    def choose(self, file: Path) -> bool:
        """Use ``file`` (stored relative to the map file when it is saved)."""
        self.path.setText(stored_path(file, self.document.path))
        return self.apply()

    def remove_image(self) -> bool:
        self.path.clear()
        return self.document.set_reference_image(None)


__all__ = ["REFERENCE_ACTIONS", "ReferenceImageControl", "ReferenceImageDialog", "resolve",
           "stored_path"]
