"""The team editor's document: the :class:`~sodwa_editor.battle.team_doc.TeamDoc`
being edited, the roster its members come from, the point cap it is shown
against, its file and its own ``QUndoStack`` (the map's stack never holds a team
edit).

Every edit is one named command (verb + noun, Tiled's convention) holding the
team before and after: a team is a few kilobytes at most (64 members, 64
formations), so the whole immutable document is the undo record, and a command
can never write a half-edited team.  A refused edit pushes nothing and says why
in one line (:attr:`TeamDocument.message`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ...battle import team_doc as td
from ...battle.jsonfiles import BattleInputError
from ...battle.rules import DEFAULT_RULES_PATH, load_rules
from ...battle.sheet import Roster, load_roster
from ...io.problems import MapSaveError
from ...io.team_files import save_team_file

if TYPE_CHECKING:
    from ..roster_in_use import RosterInUse


class TeamEdit(QUndoCommand):
    """One edit of the team: the document before and after it."""

    def __init__(self, holder: TeamDocument, text: str, before: td.TeamDoc,
                 after: td.TeamDoc, formation: tuple[int, int]) -> None:
        super().__init__(text)
        self.holder, self.before, self.after = holder, before, after
        #: the formation shown before and after the edit (an added one is shown)
        self.formation = formation

    def redo(self) -> None:
        self.holder._set(self.after, self.formation[1])

    def undo(self) -> None:
        self.holder._set(self.before, self.formation[0])


class TeamDocument(QObject):
    """The team being edited (see the module docstring)."""

    #: the team changed (an edit, undo or redo, a file opened)
    changed = Signal()
    #: the formation shown changed (its index, -1: the team has none)
    formation_changed = Signal(int)
    #: the file changed (a path, or None for a new team)
    path_changed = Signal(object)
    #: the point cap changed (None: no cap)
    cap_changed = Signal(object)
    #: the roster changed
    roster_changed = Signal()
    #: a line for the user (a refused edit, a file that could not be read or saved)
    message = Signal(str)
    #: a team file was written (its path): the playtest setup and Balance Run read it
    saved = Signal(object)

    def __init__(self, roster: Roster | None = None, cap: int | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.roster = roster if roster is not None else load_roster()
        self.roster_path: Path | None = None
        #: what the editor calls the roster (``pack.json: /roster``, a file, ``shipped``)
        self.roster_label = "shipped"
        self._in_use: RosterInUse | None = None
        self._following = False
        self.cap = cap if cap is not None else load_rules(DEFAULT_RULES_PATH).battle.point_cap
        self.doc = td.TeamDoc("new team")
        self.path: Path | None = None
        self.formation = -1
        self.undo_stack = QUndoStack(self)

    # ------------------------------------------------------------------ state
    def _set(self, doc: td.TeamDoc, formation: int) -> None:
        self.doc = doc
        self.changed.emit()
        self.show_formation(formation)

    def show_formation(self, index: int) -> None:
        """Show formation ``index`` (clamped to the team's formations)."""
        index = min(max(index, 0), len(self.doc.formations) - 1)
        if index != self.formation:
            self.formation = index
        self.formation_changed.emit(index)

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    def points(self) -> int:
        return td.team_points(self.doc, self.roster)

    def over_cap(self) -> bool:
        return self.cap is not None and self.points() > self.cap

    def problems(self) -> list[str]:
        return td.problems(self.doc, self.roster, self.cap)

    def set_cap(self, cap: int | None) -> None:
        """The point cap shown against (a battle's cap: not part of the team file)."""
        if cap != self.cap:
            self.cap = cap
            self.cap_changed.emit(cap)
            self.changed.emit()

    def set_roster(self, roster: Roster, path: Path | None, label: str = "") -> None:
        """Cost and check the team with ``roster`` (from ``path``; ``label``: what the
        editor calls it, by default the file's name); a roster chosen here stops
        following the roster in use."""
        self._following = False
        self._use_roster(roster, path, label)

    def _use_roster(self, roster: Roster, path: Path | None, label: str) -> None:
        self.roster, self.roster_path = roster, path
        self.roster_label = label or (path.name if path is not None else "shipped")
        self.roster_changed.emit()
        self.changed.emit()

    def follow(self, in_use: RosterInUse) -> None:
        """Take the roster in use, now and whenever it changes (a roster saved in the
        Roster Editor), until another roster is chosen with :meth:`set_roster`."""
        self._in_use, self._following = in_use, True
        in_use.changed.connect(self._in_use_changed)
        self._in_use_changed()

    @property
    def following(self) -> bool:
        """The roster is the roster in use."""
        return self._following and self._in_use is not None

    def _in_use_changed(self) -> None:
        if self.following:
            assert self._in_use is not None
            used = self._in_use.current
            self._use_roster(used.roster, None if used.kind == "default" else used.path,
                             used.label)

    # ------------------------------------------------------------------ edits
    def edit(self, text: str, fn: Callable[..., td.TeamDoc], *args: Any,
             formation: int | None = None, **kwargs: Any) -> bool:
        """Apply ``fn(doc, *args, **kwargs)`` as one undo step named ``text``; False (and
        a :attr:`message`) when it is refused, False and nothing pushed when it
        changes nothing.  ``formation``: the formation shown after it."""
        try:
            after = fn(self.doc, *args, **kwargs)
        except td.TeamEditError as exc:
            self.message.emit(str(exc))
            return False
        if after == self.doc:
            return False
        shown = self.formation if formation is None else formation
        self.undo_stack.push(TeamEdit(self, text, self.doc, after, (self.formation, shown)))
        return True

    def add_member(self, archetype: str) -> bool:
        return self.edit(f"Add {archetype}", td.add_member, archetype)

    def remove_member(self, member_id: str) -> bool:
        return self.edit(f"Remove Member {member_id}", td.remove_member, member_id)

    def set_member_id(self, member_id: str, new_id: str) -> bool:
        return self.edit("Rename Member Id", td.set_member, member_id, new_id=new_id)

    def set_member_name(self, member_id: str, name: str) -> bool:
        return self.edit("Rename Member", td.set_member, member_id, name=name)

    def set_member_archetype(self, member_id: str, archetype: str) -> bool:
        return self.edit("Change Archetype", td.set_member, member_id, archetype=archetype)

    def set_name(self, name: str) -> bool:
        return self.edit("Rename Team", td.set_team_name, name)

    def add_formation(self) -> bool:
        return self.edit("Add Formation", td.add_formation,
                         formation=len(self.doc.formations))

    def duplicate_formation(self, index: int) -> bool:
        return self.edit("Duplicate Formation", td.duplicate_formation, index,
                         formation=index + 1)

    def rename_formation(self, index: int, name: str) -> bool:
        return self.edit("Rename Formation", td.rename_formation, index, name, formation=index)

    def delete_formation(self, index: int) -> bool:
        return self.edit("Delete Formation", td.delete_formation, index,
                         formation=max(0, index - 1))

    def move_formation(self, index: int, to: int) -> bool:
        text = "Make Formation Default" if to == 0 else "Move Formation"
        return self.edit(text, td.move_formation, index, to, formation=to)

    def place_member(self, member_id: str, cell: td.Cell) -> bool:
        """Member ``member_id`` dropped on ``cell`` of the formation shown."""
        return self.edit("Move Member", td.place_member, self.formation, member_id, cell)

    # ------------------------------------------------------------------ files
    def new(self) -> None:
        self._reset(td.TeamDoc("new team"), None)

    def open(self, path: Path) -> bool:
        """Open a team file; False (the team being edited kept) and a :attr:`message`
        when it cannot be read."""
        try:
            doc = td.load_team_doc(path, self.roster)
        except BattleInputError as exc:
            self.message.emit(str(exc))
            return False
        self._reset(doc, path)
        return True

    def _reset(self, doc: td.TeamDoc, path: Path | None) -> None:
        self.undo_stack.clear()
        self.path = path
        self._set(doc, 0)
        self.path_changed.emit(path)

    def save(self, path: Path | None = None) -> bool:
        """Write the team to ``path`` (default its own file); False and a
        :attr:`message` (the file on disk unchanged) when it cannot be."""
        target = path or self.path
        if target is None:
            self.message.emit("choose a file to save the team to")
            return False
        try:
            save_team_file(self.doc, self.roster, target)
        except (BattleInputError, MapSaveError) as exc:
            self.message.emit(str(exc))
            return False
        self.undo_stack.setClean()
        if target != self.path:
            self.path = target
            self.path_changed.emit(target)
        self.saved.emit(target)
        return True
