"""Terrain palette: every terrain type of the map with its fill colour; the
selected one is what the terrain tools paint (and, when it can be a border,
what the border tool places).

The dock takes the document (whose map's types it lists) and the editing state
(the chosen terrain and border); its "Add Terrain Type..." button asks for a new
type through :attr:`PaletteDock.add_requested`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from ...engine.terrain import BORDER_BASES, Base
from .. import style
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

    def __init__(self, document: Document, state: EditorState,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.state = state
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.list = QListWidget()
        self.list.currentRowChanged.connect(self._picked)
        lay.addWidget(self.list)
        add = QPushButton("Add Terrain Type...")
        add.clicked.connect(self.add_requested)
        lay.addWidget(add)
        document.model_replaced.connect(self._model_replaced)
        state.changed.connect(self._state_changed)
        self.rebuild()

    def _model_replaced(self, _model: object) -> None:
        self.rebuild()

    def rebuild(self) -> None:
        m = self.document.model
        fills = terrain_palette(m)
        self.list.blockSignals(True)
        self.list.clear()
        for tid, t in enumerate(m.registry):
            outline = style.OUTLINE.get(t.base)
            kind = t.base.label if not t.builtin else ""
            text = t.name.capitalize() + (f"  ({kind})" if kind else "")
            item = QListWidgetItem(swatch(tuple(int(v) for v in fills[tid]), outline), text)
            item.setData(Qt.ItemDataRole.UserRole, tid)
            tip = f"LoS {t.los.label}, movement {t.move.label}"
            if t.base in BORDER_BASES:
                tip += "; can be a border"
            item.setToolTip(tip)
            self.list.addItem(item)
        state = self.state
        if state.terrain_id >= len(m.registry):
            state.set("terrain_id", 1)
        self.list.setCurrentRow(state.terrain_id)
        self.list.blockSignals(False)

    def _picked(self, row: int) -> None:
        if row < 0:
            return
        state = self.state
        state.set("terrain_id", row)
        base = self.document.model.registry[row].base
        if base in BORDER_BASES and base is not Base.CLEAR:
            state.set("border_id", row)

    def _state_changed(self, name: str) -> None:
        if name == "terrain_id" and self.list.currentRow() != self.state.terrain_id:
            self.list.setCurrentRow(self.state.terrain_id)
