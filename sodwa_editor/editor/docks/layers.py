"""Layers dock: show or hide each drawing layer and each preview overlay; lock
a layer against edits and set the opacity of the layers drawn over the terrain
(as Tiled's Layers panel).  The reference image and the labels (issue 29) have
their rows too, in step with View -> Show Reference Image / Show Labels (both
show the same :class:`~..layer_state.LayerState`); the reference image's opacity
is the map's own (saved in its editor settings, as Tiled saves an image layer's
opacity in the map), so its spin box edits the document: one undo step, and
adjustments in a row merge.

The dock is a view of two models: the :class:`~..layer_state.LayerState` (shown,
locked, opacity; remembered in the settings, and asked by the document before
an edit) and the :class:`~..previews.PreviewController` (which previews are on,
the Move of the range from an empty tile).  Other parts add a section below the
previews (the balance heat map: :meth:`LayersDock.add_section`).  Enter or
Escape in a spin box (an opacity, the Move) emits :attr:`LayersDock.finished`,
so that the map view takes the keyboard back (B and P reach the tools, not the
box)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
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
from ..layer_state import BASE_LAYER
from ..scene.map_scene import LAYERS
from .property_layers import PropertyLayersSection

if TYPE_CHECKING:
    from ..document import Document
    from ..layer_state import LayerState
    from ..previews import PreviewController

#: the reference image's layer: its opacity is the map's (see the module docstring)
REFERENCE = "reference"
PREVIEWS = {"los": "LoS fan", "reach": "Movement range", "graph": "Adjacency graph",
            "flank": "Flanking and cover"}
#: the keys that end typing in a spin box
DONE_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape)


class LayersDock(QWidget):
    """A row per layer (shown, locked, opacity), a box per preview, the Move spin."""

    #: Enter or Escape in a spin box: the keys go back to the map (after the key)
    finished = Signal()

    def __init__(self, layers: LayerState, previews: PreviewController,
                 parent: QWidget | None = None, *, document: Document | None = None
                 ) -> None:
        super().__init__(parent)
        self.model = layers
        self.previews = previews
        self.document = document
        #: the reference image's opacity (the map's; None without a document)
        self.reference_opacity: QSpinBox | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.boxes: dict[str, QCheckBox] = {}
        self.locks: dict[str, QCheckBox] = {}
        self.opacity: dict[str, QSpinBox] = {}
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(2)  # the rows of every layer fit at the default size
        for col, head in enumerate(("Layer", "Lock", "Opacity")):
            grid.addWidget(QLabel(f"<i>{head}</i>"), 0, col)
        for line, name in enumerate(LAYERS, start=1):
            box = QCheckBox(name.capitalize())
            box.setChecked(layers.visible[name])
            box.toggled.connect(lambda on, n=name: layers.set_visible(n, on))
            grid.addWidget(box, line, 0)
            self.boxes[name] = box
            lock = QCheckBox()
            lock.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            lock.setToolTip(f"Lock {name}: edits of this layer are refused")
            lock.setChecked(layers.locked[name])
            lock.toggled.connect(lambda on, n=name: layers.set_locked(n, on))
            grid.addWidget(lock, line, 1)
            self.locks[name] = lock
            if name == BASE_LAYER or (name == REFERENCE and document is None):
                continue
            spin = QSpinBox()
            spin.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            spin.setRange(0, 100)
            spin.setSuffix(" %")
            grid.addWidget(spin, line, 2)
            if name == REFERENCE:
                self.reference_opacity = spin
                spin.valueChanged.connect(self._set_reference_opacity)
                continue
            spin.setToolTip(f"Opacity of {name}")
            spin.setValue(layers.opacity[name])
            spin.valueChanged.connect(lambda v, n=name: layers.set_opacity(n, v))
            self.opacity[name] = spin
        lay.addLayout(grid)
        lay.addWidget(QLabel("Previews"))
        for name, label in PREVIEWS.items():
            box = QCheckBox(label)
            box.setChecked(previews.enabled[name])
            box.toggled.connect(lambda on, n=name: previews.set_enabled(n, on))
            lay.addWidget(box)
            self.boxes[name] = box
        row = QHBoxLayout()
        self.move_label = QLabel("Move (no character on the tile)")
        self.move_label.setToolTip("The Move of the movement range from a tile where no "
                                   "character stands")
        row.addWidget(self.move_label, 1)
        self.move_spin = QSpinBox()
        self.move_spin.setRange(0, MAX_MOVE)
        self.move_spin.setValue(previews.move_value)
        self.move_spin.setToolTip(self.move_label.toolTip())
        self.move_spin.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.move_spin.valueChanged.connect(previews.set_move_value)
        row.addWidget(self.move_spin, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(row)
        lay.addWidget(QLabel("P over a tile (or Alt+click it) pins the preview source; "
                             "hover another tile for the line or path to it."))
        lay.addStretch(1)
        for text in self.findChildren(QLabel):  # the dock keeps its width (DockBody)
            text.setWordWrap(text is not self.move_label)
        # one line beside its box, never squeezed (a wrapped label in a row got the
        # height of one line and lost the other: "Move (no character")
        self.move_label.setMinimumSize(self.move_label.sizeHint())
        for spin in self.findChildren(QSpinBox):
            spin.installEventFilter(self)
        #: the terrain properties' own boxes and the property filter (under the
        #: previews: the rows above stay in view at the default size)
        self.properties = PropertyLayersSection(layers)
        self.add_section(self.properties)
        layers.visibility_changed.connect(self._show_visible)
        layers.lock_changed.connect(self._show_locked)
        layers.opacity_changed.connect(self._show_opacity)
        previews.enabled_changed.connect(self._show_visible)
        if document is not None:
            document.edited.connect(self._show_reference)
            document.model_replaced.connect(self._show_reference)
            self._show_reference()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Enter or Escape in a spin box hands the keyboard back to the map view
        (:attr:`finished`); the key itself still reaches the box first (Enter
        commits a typed value)."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and \
                event.key() in DONE_KEYS:
            QTimer.singleShot(0, self, self.finished.emit)  # not once the dock is gone
        return False

    def add_section(self, widget: QWidget) -> None:
        """Put ``widget`` under the previews (before the closing stretch); Enter in
        its spin boxes gives the keyboard back too."""
        lay = self.layout()
        assert isinstance(lay, QVBoxLayout)
        lay.insertWidget(lay.count() - 1, widget)
        for spin in widget.findChildren(QSpinBox):
            spin.installEventFilter(self)

    def refusal(self, layers: Iterable[str]) -> str | None:
        """Why an edit of ``layers`` is refused, as the boxes show it (the layer
        state's :meth:`~..layer_state.LayerState.refusal`)."""
        return self.model.refusal(layers)

    # ------------------------------------------------- the models changed
    @staticmethod
    def _check(box: QCheckBox, on: bool) -> None:
        if box.isChecked() != on:
            box.blockSignals(True)
            box.setChecked(on)
            box.blockSignals(False)

    def _show_visible(self, name: str, on: bool) -> None:
        if name in self.boxes:
            self._check(self.boxes[name], on)

    def _show_reference(self, *_args: object) -> None:
        """The map's reference image opacity in its spin box (off without an image)."""
        spin, doc = self.reference_opacity, self.document
        if spin is None or doc is None:
            return
        ref = doc.model.reference_image
        spin.setEnabled(ref is not None)
        spin.setToolTip("Opacity of the reference image (saved in the map, an undo step)"
                        if ref is not None else
                        "No reference image: View -> Reference Image... picks one")
        percent = round(ref.opacity * 100) if ref is not None else 100
        if spin.value() != percent:
            spin.blockSignals(True)
            spin.setValue(percent)
            spin.blockSignals(False)

    def _set_reference_opacity(self, percent: int) -> None:
        """The spin box changed: the map's reference image gets that opacity (one
        undo step); refused (a hidden or locked layer), the box shows the map's."""
        doc = self.document
        ref = doc.model.reference_image if doc is not None else None
        if doc is None or ref is None:
            return
        if round(ref.opacity * 100) != percent:
            doc.set_reference_image(dataclasses.replace(ref, opacity=percent / 100))
        self._show_reference()

    def _show_locked(self, name: str, on: bool) -> None:
        if name in self.locks:
            self._check(self.locks[name], on)

    def _show_opacity(self, name: str, percent: int) -> None:
        spin = self.opacity.get(name)
        if spin is not None and spin.value() != percent:
            spin.blockSignals(True)
            spin.setValue(percent)
            spin.blockSignals(False)
