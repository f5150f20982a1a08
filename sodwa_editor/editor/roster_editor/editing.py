"""The roster being edited: a :class:`~sodwa_editor.io.roster_doc.RosterDocument`, its
own undo stack, and the edits (each one named command: verb + noun).

Every edit is checked by the battle's loader before it is pushed
(:func:`~sodwa_editor.io.roster_doc.problem`): a refused edit changes nothing and
:attr:`RosterEditing.message` says why in the loader's one line, so the document
is always a roster a battle takes (and the matchups can always be computed).
Commands store the document before and after (a roster is small).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ...battle.jsonfiles import BattleInputError
from ...battle.sheet import Roster
from ...io.problems import MapSaveError
from ...io.roster_doc import (
    Column,
    RosterDocument,
    RosterSource,
    ability_columns,
    added,
    added_ability,
    cell_value,
    check,
    deleted,
    deleted_ability,
    duplicated,
    open_roster,
    parse_cell,
    problem,
    roster_columns,
    save_into_pack,
    save_roster_file,
    with_value,
)


class RosterCommand(QUndoCommand):
    """One edit of the roster: the document before and after, and the row to show."""

    def __init__(self, editing: RosterEditing, text: str, before: dict[str, Any],
                 after: dict[str, Any], row: int, row_before: int) -> None:
        super().__init__(text)
        self.editing, self.before, self.after = editing, before, after
        self.row, self.row_before = row, row_before

    def redo(self) -> None:
        self.editing._set_doc(self.after, self.row)

    def undo(self) -> None:
        self.editing._set_doc(self.before, self.row_before)


class RosterEditing(QObject):
    """The roster editor's model: the document, where it came from, its undo stack.

    Signals: ``changed(row)`` after any change of the document (``row``: the archetype
    to show, -1 none); ``source_changed()`` when another roster was opened or the
    document was saved somewhere else; ``saved()`` after every save;
    ``message(text, is_problem)``: what happened or why an edit or a save was refused
    (one line)."""

    changed = Signal(int)
    source_changed = Signal()
    #: the roster was written (a roster file or into a pack; :attr:`source` is it)
    saved = Signal()
    message = Signal(str, bool)
    modified_changed = Signal(bool)

    def __init__(self, document: RosterDocument | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document if document is not None else open_roster(None)
        self.columns: tuple[Column, ...] = roster_columns()
        self.ability_columns: tuple[Column, ...] = ability_columns()
        self.undo_stack = QUndoStack(self)
        self._modified = False
        self.undo_stack.cleanChanged.connect(self._on_clean)
        self._roster = check(self.document.doc, self.document.name)
        #: what the editor says first (a note about the roster opened)
        self.startup_note = self.document.note

    # -------------------------------------------------------------- reading
    @property
    def doc(self) -> dict[str, Any]:
        return self.document.doc

    @property
    def source(self) -> RosterSource:
        return self.document.source

    @property
    def roster(self) -> Roster:
        """The battle's roster of the document as it stands."""
        return self._roster

    @property
    def modified(self) -> bool:
        """Changed since opened or saved (undo back to the saved state: not modified)."""
        return self._modified

    def _on_clean(self, clean: bool) -> None:
        self._modified = not clean
        self.modified_changed.emit(not clean)

    def row_count(self) -> int:
        return len(self.doc["characters"])

    def name_of(self, row: int) -> str:
        return str(self.doc["characters"][row]["name"])

    def value(self, row: int, column: Column, ability: int | None = None) -> Any:
        return cell_value(self.doc, row, column, ability)

    def default_of(self, row: int, column: Column, ability: int | None = None
                   ) -> tuple[Any, ...]:
        """What the cell means when its key is left out, as a one-item tuple (empty: it
        has no meaning then): a damage type is inherited as the battle inherits it (an
        archetype's from the roster's ``defaults``, an ability's from its archetype);
        any other key takes the schema's ``default``."""
        if column.key == "damage_type":
            arch = self.roster.archetypes[row]
            return (arch.damage_type if ability is None
                    else arch.abilities[ability].damage_type,)
        return column.default

    def abilities(self, row: int) -> list[dict[str, Any]]:
        """The ability entries of archetype ``row`` (empty when it has none)."""
        if not 0 <= row < self.row_count():
            return []
        return list(self.doc["characters"][row].get("abilities", ()))

    def _where(self, row: int, column: Column, ability: int | None) -> str:
        inner = "" if ability is None else f"abilities[{ability}]."
        return f"{self.document.name}: characters[{row}].{inner}{column.key}"

    def cell_problem(self, row: int, column: Column, text: str,
                     ability: int | None = None) -> str | None:
        """Why ``text`` in the cell (of archetype ``row``, or of its ability ``ability``)
        would be refused (one line), or None: what the editor shows as the user types."""
        try:
            value = parse_cell(text, column)
        except ValueError as exc:
            return f"{self._where(row, column, ability)}: {exc}"
        if value == self.value(row, column, ability):
            return None
        return problem(with_value(self.doc, row, column, value, ability), self.document.name)

    # -------------------------------------------------------------- editing
    def set_cell(self, row: int, column: Column, text: str,
                 ability: int | None = None) -> bool:
        """Set a cell from its typed text: one command ``Edit <archetype> <column>``
        (``Edit <archetype> <ability> <column>``); False (and a message) when it is
        refused."""
        try:
            value = parse_cell(text, column)
        except ValueError as exc:
            return self._refuse(f"{self._where(row, column, ability)}: {exc}")
        if value == self.value(row, column, ability):
            return True
        after = with_value(self.doc, row, column, value, ability)
        why = problem(after, self.document.name)
        if why:
            return self._refuse(why)
        what = self.name_of(row) if ability is None \
            else f"{self.name_of(row)} {self.abilities(row)[ability]['name']}"
        self._push(f"Edit {what} {column.title}", after, row, row)
        return True

    def add_ability(self, row: int) -> int:
        """Add an ability to archetype ``row``: its index (-1 and a message when the
        roster would be refused)."""
        after, k = added_ability(self.doc, row)
        return k if self._push_checked(f"Add Ability to {self.name_of(row)}", after, row,
                                       row) else -1

    def delete_ability(self, row: int, ability: int) -> None:
        """Delete ability ``ability`` of archetype ``row``."""
        name = self.abilities(row)[ability]["name"]
        self._push(f"Delete {self.name_of(row)} {name}", deleted_ability(self.doc, row, ability),
                   row, row)

    def add(self, at: int | None = None) -> int:
        """Add an archetype (the default sheet) at ``at`` (None: the end): its row (-1
        and a message when the roster would be refused)."""
        after, row = added(self.doc, at)
        return row if self._push_checked("Add Archetype", after, row, -1) else -1

    def duplicate(self, row: int) -> int:
        """Copy archetype ``row`` below it under an unused name: the copy's row (-1 and
        a message when the roster would be refused)."""
        after, new = duplicated(self.doc, row)
        ok = self._push_checked(f"Duplicate {self.name_of(row)}", after, new, row)
        return new if ok else -1

    def delete(self, row: int) -> bool:
        """Delete archetype ``row`` (refused for the last one: a roster has one at least)."""
        after = deleted(self.doc, row)
        return self._push_checked(f"Delete {self.name_of(row)}", after,
                                  min(row, len(after["characters"]) - 1), row)

    def _push_checked(self, text: str, after: dict[str, Any], row: int,
                      row_before: int) -> bool:
        """Push the edit when the battle's loader takes the roster it makes."""
        why = problem(after, self.document.name)
        if why:
            return self._refuse(why)
        self._push(text, after, row, row_before)
        return True

    def _push(self, text: str, after: dict[str, Any], row: int, row_before: int) -> None:
        self.undo_stack.push(RosterCommand(self, text, self.doc, after, row, row_before))

    def _set_doc(self, doc: dict[str, Any], row: int) -> None:
        self.document.doc = doc
        self._roster = check(doc, self.document.name)
        self.changed.emit(row)

    def _refuse(self, why: str) -> bool:
        self.message.emit(why, True)
        return False

    # ------------------------------------------------------------ files
    def open(self, path: Path | str | None) -> bool:
        """Open the roster of a roster file or a map pack (None: the shipped one); the
        undo history starts anew.  False (and a message) when it cannot be used."""
        try:
            document = open_roster(path)
        except BattleInputError as exc:
            return self._refuse(str(exc))
        self.document = document
        self._roster = check(document.doc, document.name)
        self.undo_stack.clear()
        self.source_changed.emit()
        self.changed.emit(-1)
        self.message.emit(document.note or f"Opened {document.source.label}", False)
        return True

    def save(self) -> bool:
        """Save where the roster came from (the shipped roster is never written over:
        False, the caller asks where)."""
        src = self.source
        if src.kind == "default":
            return self._refuse("the shipped roster is not written over: save it as a "
                                "roster file or into a pack")
        return self.save_into_pack(src.path) if src.kind == "pack" \
            else self.save_as(src.path)

    def save_as(self, path: Path | str) -> bool:
        """Write a roster file; the document then comes from it."""
        return self._write(Path(path), "file")

    def save_into_pack(self, path: Path | str) -> bool:
        """Write the roster into a map pack (its maps kept); the document then comes
        from the pack."""
        return self._write(Path(path), "pack")

    def _write(self, path: Path, kind: str) -> bool:
        try:
            base = self.document.folder
            if kind == "pack":
                save_into_pack(self.doc, path, base)
            else:
                save_roster_file(self.doc, path, base)
        except (BattleInputError, MapSaveError, OSError) as exc:
            return self._refuse(str(exc).splitlines()[0])
        new = RosterSource("pack" if kind == "pack" else "file", path)
        moved = new != self.source
        # the portraits in memory stay relative to the folder they were opened from
        self.document = RosterDocument(self.doc, new, base_dir=base)
        self.undo_stack.setClean()
        if moved:
            self.source_changed.emit()
        self.saved.emit()
        self.message.emit(f"Saved the roster {'into pack' if kind == 'pack' else 'as'} "
                          f"{path}", False)
        return True
