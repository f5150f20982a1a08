"""The Inspector's terrain-properties parts: the tile under the pointer (or the
selected one) with each vocabulary property of its type and that property's
effect (:class:`TilePropertiesView`), and the custom-properties editor of the
selected tile's terrain type, start zone, object or character
(:func:`custom_box`), whose every change is one named undo step of the
document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .commands import Owner
from .custom_editor import CustomPropertiesEditor
from .document_props import max_light_radius
from .glyphs import ICON_PX, glyph_pixmap
from .typed import PropertyRow

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from ..document import Document


class DocumentTarget:
    """A custom-properties editor's target: an owner's properties in the document
    (each change one undo step)."""

    def __init__(self, document: Document, owner: Owner) -> None:
        self.document, self.owner = document, owner
        #: the same for every target of this owner in this document (the editor
        #: made after an edit keeps the keyboard where it was)
        self.key = (id(document), owner)

    def rows(self) -> list[PropertyRow]:
        return self.document.custom_rows(self.owner)

    def apply(self, rows: list[PropertyRow], verb: str, name: str) -> bool:
        return self.document.set_custom_properties(self.owner, rows, verb, name)


def custom_box(document: Document, owner: Owner, message: SignalInstance,
               title: str | None = None) -> QGroupBox:
    """A group box with ``owner``'s custom properties editor; refusals go to
    ``message``."""
    box = QGroupBox(title or "Custom properties")
    box.setToolTip(f"Your typed values of {owner.kind} {owner.key}: no rule reads them; "
                   "they are saved with the map (and exported to Tiled)")
    box.setObjectName(f"custom_{owner.kind}")
    lay = QVBoxLayout(box)
    lay.setContentsMargins(4, 4, 4, 4)
    editor = CustomPropertiesEditor(DocumentTarget(document, owner))
    editor.message.connect(message)
    lay.addWidget(editor)
    return box


def light_radius_spin(value: int, on_change) -> QSpinBox:
    """The radius of a light source: the tiles up to this many adjacency steps away
    are lit (Dark and Full Dark suppressed there); edited when typing ends."""
    spin = QSpinBox()
    spin.setObjectName("light_radius")
    spin.setRange(0, max(max_light_radius(), value))
    spin.setValue(value)
    spin.setToolTip("Tiles up to this many adjacency steps away are lit: Dark and Full "
                    "Dark are suppressed there (the rulebook's light: 1)")
    spin.editingFinished.connect(lambda: spin.value() != value and on_change(spin.value()))
    return spin


def property_lines(document: Document, terrain_id: int) -> list[tuple[str, str, str]]:
    """(property name, label, effect text) of each vocabulary property of a type."""
    t = document.model.registry[terrain_id]
    return [(n, p.spec.label, p.effect_text()) for n, p in t.properties.items()]


class TilePropertiesView(QWidget):
    """The tile under the pointer (else the selected tile): its terrain type and
    each of the type's properties with its icon and effect."""

    #: "Edit Terrain Type..." was clicked for this terrain id
    edit_requested = Signal(int)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tile_properties")
        self.document = document
        self.lay = QVBoxLayout(self)
        self.lay.setContentsMargins(0, 6, 0, 0)
        self.tile: tuple[int, int] | None = None
        self.selected: tuple[int, int] | None = None
        self.hovered: tuple[int, int] | None = None
        self.rows: list[str] = []  # the shown lines (tests)
        document.edited.connect(self._show)
        document.model_replaced.connect(lambda _m: self._show())
        self._show()

    def show_hover(self, tile: tuple[int, int] | None) -> None:
        """The pointer is over ``tile`` (None: off the map)."""
        if tile != self.hovered:
            self.hovered = tile
            self._show()

    def show_selected(self, tile: tuple[int, int] | None) -> None:
        if tile != self.selected:
            self.selected = tile
            self._show()

    def _clear(self) -> None:
        while self.lay.count():
            item = self.lay.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()
                w.deleteLater()

    def _show(self) -> None:
        m = self.document.model
        tile = self.hovered if self.hovered is not None else self.selected
        if tile is not None and not m.in_bounds(*tile):
            tile = None
        # drawn again only when what it says changes (not on every stroke step)
        key = (tile, tile == self.hovered, m.registry[int(m.terrain[tile[1], tile[0]])]
               if tile is not None else None)
        if getattr(self, "_shown", None) == key:
            return
        self._shown = key
        self._clear()
        self.tile, self.rows = tile, []
        if tile is None:
            return
        x, y = tile
        tid = int(m.terrain[y, x])
        t = m.registry[tid]
        where = "under the pointer" if tile == self.hovered else "selected"
        head = QLabel(f"<b>Tile {x}, {y}</b> ({where}): {t.name.capitalize()}, "
                      f"base {t.base.label}")
        head.setWordWrap(True)
        self.lay.addWidget(head)
        lines = property_lines(self.document, tid)
        if not lines:
            note = QLabel("No terrain properties" + (" (a built-in type)" if t.builtin else ""))
            note.setEnabled(False)
            self.lay.addWidget(note)
        for name, label, effect in lines:
            row = QLabel(f"<b>{label}</b>: {effect}")
            row.setWordWrap(True)
            row.setObjectName(f"property_{name}")
            icon = QLabel()
            icon.setPixmap(glyph_pixmap(name).scaled(
                ICON_PX // 3, ICON_PX // 3, Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation))
            line = QWidget()
            hl = QHBoxLayout(line)
            hl.setContentsMargins(0, 0, 0, 0)
            hl.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
            hl.addWidget(row, 1)
            self.lay.addWidget(line)
            self.rows.append(f"{label}: {effect}")
        if not t.builtin:
            edit = QPushButton("Edit Terrain Type...")
            edit.setToolTip(f"Edit {t.name}: its name, base, properties and custom properties")
            edit.clicked.connect(lambda _c=False, i=tid: self.edit_requested.emit(i))
            self.lay.addWidget(edit)
