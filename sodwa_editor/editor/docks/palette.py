"""Terrain palette: every terrain type of the map with its fill colour; the
selected one is what the terrain tools paint (and, when it can be a border,
what the border tool places).

The dock takes the document (whose map's types it lists) and the editing state
(the chosen terrain and border); its "Add Terrain Type..." button asks for a new
type through :attr:`PaletteDock.add_requested`, "Edit..." (or a double-click on a
special type) for a change of one through :attr:`PaletteDock.edit_requested`.
Below the map's types, the built-in presets (:mod:`..properties.presets_panel`):
a click chooses one to paint; the first stroke declares it in the map."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...engine.terrain import BORDER_BASES, Base
from .. import style
from ..properties.document_props import preset_of
from ..properties.presets_panel import PresetList
from ..scene.terrain_item import terrain_palette

if TYPE_CHECKING:
    from ..document import Document
    from ..tools.base import EditorState


def swatch(rgb, outline: QColor | None) -> QIcon:
    pix = QPixmap(20, 20)
    pix.fill(QColor(*rgb))
    if outline is not None:
        p = QPainter(pix)
        p.setPen(QPen(outline, 4))
        p.drawRect(2, 2, 16, 16)
        p.end()
    return QIcon(pix)


class PaletteDock(QWidget):
    """The terrain types of the document's map; a click chooses one."""

    #: the "Add Terrain Type..." button was clicked
    add_requested = Signal()
    #: edit the special terrain type of this id ("Edit...", a double-click)
    edit_requested = Signal(int)

    def __init__(self, document: Document, state: EditorState,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.state = state
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.list = QListWidget()
        self.list.currentRowChanged.connect(self._picked)
        self.list.itemDoubleClicked.connect(lambda item: self._edit(self.list.row(item)))
        self.presets = PresetList()
        self.presets.chosen.connect(self._preset_picked)
        self.presets.setToolTip("The rulebook's example terrains: a click chooses one to "
                                "paint; the first stroke adds it to the map")
        #: "This map": the map's types; "Presets": the example terrains
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.list, "This map")
        self.tabs.addTab(self.presets, "Presets")
        lay.addWidget(self.tabs, 1)
        row = QHBoxLayout()
        add = QPushButton("Add Terrain Type...")
        add.clicked.connect(self.add_requested)
        row.addWidget(add)
        self.edit_button = QPushButton("Edit...")
        self.edit_button.setToolTip("Edit the chosen terrain type: its name, base, "
                                    "properties and custom properties")
        self.edit_button.clicked.connect(lambda: self._edit(self.state.terrain_id))
        row.addWidget(self.edit_button)
        lay.addLayout(row)
        self._types: list = []  # the types shown, to rebuild when they change
        document.model_replaced.connect(self._model_replaced)
        document.edited.connect(self._maybe_rebuild)
        state.changed.connect(self._state_changed)
        self.rebuild()

    def _model_replaced(self, _model: object) -> None:
        self.rebuild()

    def _maybe_rebuild(self) -> None:
        """A step declared or changed a terrain type: show the types afresh (a
        preset painted for the first time is now the map's type)."""
        if list(self.document.model.registry) != self._types:
            self.rebuild()

    def _edit(self, terrain_id: int) -> None:
        reg = self.document.model.registry
        if 0 <= terrain_id < len(reg) and not reg[terrain_id].builtin:
            self.edit_requested.emit(terrain_id)

    def _preset_picked(self, terrain_id: int) -> None:
        self.state.set("terrain_id", terrain_id)

    def rebuild(self) -> None:
        m = self.document.model
        self._types = list(m.registry)
        fills = terrain_palette(m)
        self.list.blockSignals(True)
        self.list.clear()
        for tid, t in enumerate(m.registry):
            outline = style.OUTLINE.get(t.base)
            kind = t.base.label if not t.builtin else ""
            text = t.name.capitalize() + (f"  ({kind})" if kind else "")
            if t.properties:
                text += "  —  " + ", ".join(p.spec.label for p in t.properties.values())
            item = QListWidgetItem(swatch(tuple(int(v) for v in fills[tid]), outline), text)
            item.setData(Qt.ItemDataRole.UserRole, tid)
            tip = f"LoS {t.los.label}, movement {t.move.label}"
            if t.base in BORDER_BASES:
                tip += "; can be a border"
            for p in t.properties.values():
                tip += f"\n{p.spec.label}: {p.effect_text()}"
            if not t.builtin:
                tip += "\n(double-click to edit)"
            item.setToolTip(tip)
            self.list.addItem(item)
        state = self.state
        preset = preset_of(state.terrain_id)
        if preset is not None and preset.name in m.registry:  # painted: the map's type now
            state.set("terrain_id", m.registry.id_of(preset.name))
        elif state.terrain_id >= len(m.registry) and preset is None:
            state.set("terrain_id", 1)
        self.list.setCurrentRow(state.terrain_id if state.terrain_id < len(m.registry) else -1)
        self.list.blockSignals(False)
        self.presets.show_registry(m.registry)
        self._show_choice()

    def _show_choice(self) -> None:
        """The chosen terrain in the list or among the presets, and Edit... enabled
        for a special type of the map."""
        tid, reg = self.state.terrain_id, self.document.model.registry
        preset = preset_of(tid)
        name = preset.name if preset is not None else (reg[tid].name if tid < len(reg) else None)
        self.presets.select_key(name if name in self.presets.items else None)
        self.edit_button.setEnabled(tid < len(reg) and not reg[tid].builtin)

    def _picked(self, row: int) -> None:
        if row < 0:
            return
        state = self.state
        state.set("terrain_id", row)
        base = self.document.model.registry[row].base
        if base in BORDER_BASES and base is not Base.CLEAR:
            state.set("border_id", row)

    def _state_changed(self, name: str) -> None:
        if name != "terrain_id":
            return
        tid = self.state.terrain_id
        row = tid if tid < len(self.document.model.registry) else -1
        if self.list.currentRow() != row:
            self.list.setCurrentRow(row)
        self._show_choice()
