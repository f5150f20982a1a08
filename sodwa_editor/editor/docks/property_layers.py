"""The Layers dock's terrain-properties section: the filter "Show tiles with"
that dims every tile without the chosen property, and (unfolded with the
"Terrain properties" button, so the dock keeps its size) a box per vocabulary
property (its icon and name) that shows or hides its marks on the map, with
All / None.

A view of the :class:`~..layer_state.LayerState` (``property_shown``,
``property_filter``): the boxes write it and follow it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...engine.terrain_properties import PROPERTY_NAMES, VOCABULARY
from ..properties.glyphs import glyph_icon

if TYPE_CHECKING:
    from ..layer_state import LayerState


class PropertyLayersSection(QWidget):
    """Per-property toggles and the property filter (see the module docstring)."""

    def __init__(self, layers: LayerState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("property_layers")
        self.model = layers
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        self.unfold = QToolButton()
        self.unfold.setObjectName("property_toggles")
        self.unfold.setText("Terrain properties")
        self.unfold.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.unfold.setArrowType(Qt.ArrowType.RightArrow)
        self.unfold.setCheckable(True)
        self.unfold.setAutoRaise(True)
        self.unfold.setToolTip("Show or hide the marks of each terrain property")
        self.unfold.toggled.connect(self._unfold)
        lay.addWidget(self.unfold)
        row = QHBoxLayout()
        row.addWidget(QLabel("Show tiles with"))
        self.filter = QComboBox()
        self.filter.setObjectName("property_filter")
        self.filter.setToolTip("Dim every tile whose terrain type lacks this property")
        self.filter.addItem("(all)", None)
        self.filter.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.filter.setMinimumContentsLength(8)
        for name in PROPERTY_NAMES:
            self.filter.addItem(glyph_icon(name), VOCABULARY[name].label, name)
        self.filter.currentIndexChanged.connect(
            lambda i: layers.set_property_filter(self.filter.itemData(i)))
        row.addWidget(self.filter, 1)
        lay.addLayout(row)
        self.toggles = QWidget()
        toggles = QVBoxLayout(self.toggles)
        toggles.setContentsMargins(0, 0, 0, 0)
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        self.boxes: dict[str, QCheckBox] = {}
        for i, name in enumerate(PROPERTY_NAMES):
            box = QCheckBox(VOCABULARY[name].label)
            box.setIcon(glyph_icon(name))
            box.setToolTip(f"Show the {VOCABULARY[name].label} marks: "
                           f"{VOCABULARY[name].effect}")
            box.setChecked(layers.property_shown[name])
            box.toggled.connect(lambda on, n=name: layers.set_property_shown(n, on))
            grid.addWidget(box, i, 0)
            self.boxes[name] = box
        toggles.addLayout(grid)
        buttons = QHBoxLayout()
        for label, on in (("All", True), ("None", False)):
            button = QPushButton(label)
            button.setToolTip(f"{'Show' if on else 'Hide'} the marks of every property")
            button.clicked.connect(lambda _c=False, v=on: self.show_all(v))
            buttons.addWidget(button)
        buttons.addStretch(1)
        toggles.addLayout(buttons)
        self.toggles.setVisible(False)
        lay.addWidget(self.toggles)
        layers.property_shown_changed.connect(self._shown)
        layers.property_filter_changed.connect(self._filtered)

    def _unfold(self, on: bool) -> None:
        self.unfold.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.toggles.setVisible(on)

    def show_all(self, on: bool) -> None:
        for name in PROPERTY_NAMES:
            self.model.set_property_shown(name, on)

    def _shown(self, name: str, on: bool) -> None:
        box = self.boxes[name]
        if box.isChecked() != on:
            box.blockSignals(True)
            box.setChecked(on)
            box.blockSignals(False)

    def _filtered(self, name: str | None) -> None:
        i = self.filter.findData(name)
        if i != self.filter.currentIndex():
            self.filter.blockSignals(True)
            self.filter.setCurrentIndex(max(i, 0))
            self.filter.blockSignals(False)
