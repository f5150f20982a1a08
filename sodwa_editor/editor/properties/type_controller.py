"""Opens the terrain type dialog (:class:`~.type_dialog.TerrainTypeEditor`) to add
a type or edit one, and hands what it says to the document (one undo step).
The dialogs are window-modal but do not block the event loop (``open``), so the
palette, the Inspector and the menu share one way in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from .type_dialog import TerrainTypeEditor

if TYPE_CHECKING:
    from ..document import Document
    from ..tools.base import EditorState


class TerrainTypeController(QObject):
    """Add Terrain Type... and Edit Terrain Type... of one window."""

    def __init__(self, document: Document, state: EditorState, window: QWidget) -> None:
        super().__init__(window)
        self.document, self.state, self.window = document, state, window
        self.dialog: TerrainTypeEditor | None = None

    def _open(self, dialog: TerrainTypeEditor) -> TerrainTypeEditor:
        self.dialog = dialog
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def add(self) -> TerrainTypeEditor:
        """The dialog for a new type; OK declares it and chooses it to paint."""
        dialog = TerrainTypeEditor(self.document.model.registry, None, self.window)

        def accepted() -> None:
            spec = dialog.values()
            if self.document.declare_terrain_type(spec):
                self.state.set("terrain_id", self.document.model.registry.id_of(spec.name))

        dialog.accepted.connect(accepted)
        return self._open(dialog)

    def edit(self, terrain_id: int) -> TerrainTypeEditor | None:
        """The dialog for the special type ``terrain_id`` (None for a built-in one)."""
        reg = self.document.model.registry
        if not 0 <= terrain_id < len(reg) or reg[terrain_id].builtin:
            return None
        old = reg[terrain_id].name
        dialog = TerrainTypeEditor(reg, reg[terrain_id], self.window)
        dialog.accepted.connect(lambda: self.document.edit_terrain_type(old, dialog.values()))
        return self._open(dialog)
