"""The rules editor's document: a :class:`~sodwa_editor.battle.rules_catalog.RulesVariant`
with its own undo stack, the file it came from and whether it is saved.

Every edit is a command (``Set clock.turn_cost``, ``Reset clock.turn_cost``,
``Reset All Rules``, ``Rename Rules``) on :attr:`RulesDocument.undo_stack`; views
listen to :attr:`RulesDocument.key_changed` and :attr:`RulesDocument.reloaded`.
Saving writes a temporary file beside the target and renames it over, so a failed
write never leaves half a rules file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ...battle.jsonfiles import BattleInputError
from ...battle.rules_catalog import RulesVariant


class _SetRule(QUndoCommand):
    def __init__(self, doc: RulesDocument, key: str, value: Any, text: str) -> None:
        super().__init__(text)
        self.doc, self.key = doc, key
        self.new = value
        self.had = doc.variant.is_changed(key)
        self.old = doc.variant.value(key)

    def redo(self) -> None:
        if self.new is _DEFAULT:
            self.doc.variant.reset(self.key)
        else:
            self.doc.variant.set(self.key, self.new)
        self.doc.key_changed.emit(self.key)

    def undo(self) -> None:
        if self.had:
            self.doc.variant.set(self.key, self.old)
        else:
            self.doc.variant.reset(self.key)
        self.doc.key_changed.emit(self.key)


class _ResetAll(QUndoCommand):
    def __init__(self, doc: RulesDocument) -> None:
        super().__init__("Reset All Rules")
        self.doc = doc
        self.old = doc.variant.changed()

    def redo(self) -> None:
        self.doc.variant.reset()
        self.doc.reloaded.emit()

    def undo(self) -> None:
        for key, value in self.old.items():
            self.doc.variant.set(key, value)
        self.doc.reloaded.emit()


class _Rename(QUndoCommand):
    def __init__(self, doc: RulesDocument, name: str, description: str) -> None:
        super().__init__("Rename Rules")
        self.doc = doc
        self.new = (name, description)
        self.old = (doc.variant.name, doc.variant.description)

    def redo(self) -> None:
        self.doc.variant.name, self.doc.variant.description = self.new
        self.doc.header_changed.emit()

    def undo(self) -> None:
        self.doc.variant.name, self.doc.variant.description = self.old
        self.doc.header_changed.emit()


_DEFAULT = object()


class RulesDocument(QObject):
    """A rules variant being edited: the only writer of :attr:`variant`."""

    key_changed = Signal(str)  # one key's value or changed state
    reloaded = Signal()  # every key may have changed (open, reset all)
    header_changed = Signal()  # name or description
    path_changed = Signal()

    def __init__(self, variant: RulesVariant | None = None, path: Path | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.variant = variant if variant is not None else RulesVariant(
            name="rules variant")
        self.path = path
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    def _clean_changed(self, _clean: bool) -> None:
        self.path_changed.emit()  # the title's unsaved mark

    # -- edits (each one undo command) ---------------------------------------------------
    def set_value(self, key: str, value: Any) -> str | None:
        """Set a key; the one-line reason when the value is refused (nothing pushed)."""
        error = self.variant.check(key, value)
        if error is not None:
            return error
        if value == self.variant.value(key) and type(value) is type(self.variant.value(key)):
            return None
        self.undo_stack.push(_SetRule(self, key, value, f"Set {key}"))
        return None

    def reset_value(self, key: str) -> None:
        if self.variant.is_changed(key):
            self.undo_stack.push(_SetRule(self, key, _DEFAULT, f"Reset {key}"))

    def reset_all(self) -> None:
        if self.variant.changed():
            self.undo_stack.push(_ResetAll(self))

    def rename(self, name: str, description: str | None = None) -> None:
        text = self.variant.description if description is None else description
        if (name, text) != (self.variant.name, self.variant.description):
            self.undo_stack.push(_Rename(self, name, text))

    # -- files ---------------------------------------------------------------------------
    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    def open(self, path: Path) -> None:
        """Replace the variant by a rules file's (``BattleInputError`` with one line
        when it cannot be read; the open variant is then unchanged)."""
        variant = RulesVariant.load(path)
        self.variant = variant
        self.path = Path(path)
        self.undo_stack.clear()
        self.reloaded.emit()
        self.header_changed.emit()
        self.path_changed.emit()

    def save(self, path: Path | None = None) -> Path:
        """Write the rules file (only the changed keys) to ``path`` or the file it
        came from; ``BattleInputError`` (one line) when the numbers contradict each
        other or the file cannot be written."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise BattleInputError("no file to save to: choose one with Save As")
        self.variant.rules(str(target))  # contradictions refuse the save
        text = self.variant.text()
        tmp = ""
        try:
            fd, tmp = tempfile.mkstemp(prefix=".rules-", suffix=".tmp", dir=target.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, target)
        except OSError as exc:
            if tmp:
                Path(tmp).unlink(missing_ok=True)
            raise BattleInputError(f"{target}: cannot write the file: {exc.strerror or exc}"
                                   ) from None
        self.path = target
        self.undo_stack.setClean()
        self.path_changed.emit()
        return target
