"""The Inspector's size row for a character: its size category and, optionally, free
dimensions replacing the size table's (a 4x8 Massive creature; docs/rules.md S1).  Each
change is one undo step of the document (Resize Character), refused with the reason when
the footprint would not fit where the character stands (docs/rules.md S4); a refused
change leaves the row showing what the character has."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QSpinBox, QWidget

from ...battle.rules import default_rules
from ...engine.creatures import SIZE_NAMES
from ...engine.model import MAX_SIDE
from ...engine.sizes import Footprint, footprint_for

if TYPE_CHECKING:
    from ..document import Document


def battle_grid_scale() -> float:
    """Metres per tile of the rules in use (``sizes.grid_scale_m`` of the shipped rules,
    ``resources/rules.json``: what F5 and the Balance Run play unless a rules file is
    chosen there)."""
    return float(default_rules().sizes.grid_scale_m)


def size_choice_text(name: str, grid_scale_m: float) -> str:
    """A size in a size list: its footprint on the map (the size table's squares, as
    the editor places and draws it) and, when the grid scale of the rules makes it
    another one, the footprint battles give it (docs/rules.md S3, S21).

    >>> size_choice_text("huge", 1)
    'Huge 4x4'
    >>> size_choice_text("huge", 2)
    'Huge 4x4 (2x2 in battle at 2 m per tile)'
    >>> size_choice_text("medium", 2)
    'Medium 1x1'
    """
    table, battle = footprint_for(name), footprint_for(name, grid_scale_m=grid_scale_m)
    text = f"{name.capitalize()} {table}"
    return text if battle == table else f"{text} ({battle} in battle at {grid_scale_m:g} m " \
        "per tile)"


class CreatureSizeEditor(QWidget):
    """Size combo box, a *Free* check box and the free width and height (in the size
    table's squares of 1 m: tiles at the default grid scale)."""

    def __init__(self, document: Document, cid: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = document
        self.cid = cid
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.size_box = QComboBox()
        self.size_box.setObjectName("character_size")
        scale = battle_grid_scale()
        for name in SIZE_NAMES:
            self.size_box.addItem(size_choice_text(name, scale), name)
        self.size_box.setToolTip("Size category: the footprint from the size table; at a "
                                 "grid scale of the rules other than 1 m per tile, also "
                                 "the footprint battles give it")
        self.free = QCheckBox("Free")
        self.free.setObjectName("character_free_footprint")
        self.free.setToolTip("Free dimensions (width x height) replacing the size table's, "
                             "like a 4x8 Massive creature")
        self.width_spin, self.height_spin = QSpinBox(), QSpinBox()
        for spin, what in ((self.width_spin, "width"), (self.height_spin, "height")):
            spin.setRange(1, MAX_SIDE)
            spin.setObjectName(f"character_footprint_{what}")
            spin.setToolTip(f"Free footprint {what} in tiles")
        lay.addWidget(self.size_box)
        lay.addWidget(self.free)
        lay.addWidget(self.width_spin)
        lay.addWidget(QLabel("x"))
        lay.addWidget(self.height_spin)
        self.show_character()
        self.size_box.currentIndexChanged.connect(self._size_chosen)
        self.free.toggled.connect(self._free_toggled)
        for spin in (self.width_spin, self.height_spin):
            spin.editingFinished.connect(self._dimensions_typed)

    def character(self):
        return self.doc.model.characters.get(self.cid)

    def show_character(self) -> None:
        """Show what the character has (after a refused change too)."""
        c = self.character()
        if c is None:
            return
        fp = c.footprint_at()
        for w in (self.size_box, self.free, self.width_spin, self.height_spin):
            w.blockSignals(True)
        self.size_box.setCurrentIndex(max(0, self.size_box.findData(c.size)))
        self.free.setChecked(c.footprint is not None)
        dims = c.footprint if c.footprint is not None else fp
        self.width_spin.setValue(dims[0])
        self.height_spin.setValue(dims[1])
        for spin in (self.width_spin, self.height_spin):
            spin.setEnabled(c.footprint is not None)
        for w in (self.size_box, self.free, self.width_spin, self.height_spin):
            w.blockSignals(False)

    def _apply(self, **changes: object) -> None:
        if not self.doc.update_character(self.cid, **changes):
            self.show_character()  # refused (the document said why) or no change

    def _size_chosen(self, index: int) -> None:
        self._apply(size=self.size_box.itemData(index))

    def _free_toggled(self, on: bool) -> None:
        c = self.character()
        if c is None:
            return
        self._apply(footprint=Footprint(*c.footprint_at()) if on else None)

    def _dimensions_typed(self) -> None:
        c = self.character()
        new = Footprint(self.width_spin.value(), self.height_spin.value())
        if c is not None and c.footprint is not None and new != c.footprint:
            self._apply(footprint=new)
