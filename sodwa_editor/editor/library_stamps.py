"""The editor's stamps (:class:`~.stamp.Stamp`, what Copy takes) as the stamp
library stores them (:class:`~..io.stamp_library.LibraryStamp`: a small map with a
one-tile margin), and back; and :class:`StampLibrary`, the library the Stamp
Library dock shows: a list of named stamps kept in a ``*.sodwa-stamps.json``
file beside the maps or in a map pack, written after every change.

The library has its own undo stack (as the Roster Editor and the team editor
have theirs; the map's stack never holds a library edit): each edit is one named
command (Save Stamp, Rename Stamp, Delete Stamp, Move Stamp), and undo and redo
write the file too.  The name typed right after Save Selection is part of the
Save step.  Another library file (Open..., the map saved elsewhere) starts a new
history."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..engine.model import Edge, MapModel, Rect
from ..io.stamp_library import (
    LibraryStamp,
    is_pack_file,
    read_library,
    save_library,
    save_pack_stamps,
)
from .commands import write_field
from .stamp import MISSING, Stamp, edges_touching

#: longest stamp name (the schema's maxLength)
MAX_NAME = 100


def to_library(stamp: Stamp, name: str) -> LibraryStamp:
    """``stamp`` as a library stamp named ``name``."""
    w, h = stamp.width, stamp.height
    model = MapModel(w + 2, h + 2, name=name[:200])
    for t in stamp.missing_types(model):
        model.registry.register(t.name, t.base, t.properties, custom=t.custom)
    for edit in stamp.edits(model, 1, 1):
        write_field(model, edit.field, edit.idx, edit.after)
    contents = stamp.contents.turned(lambda x, y: (x + 1, y + 1))
    model.start_zones = {team: set(tiles) for team, tiles in contents.zones.items()}
    model.characters = {c.id: c for c in contents.characters}
    model.objects = {o.id: o for o in contents.objects}
    touch_e, touch_s = edges_touching(np.ones((h, w), bool) if stamp.mask is None
                                      else stamp.mask)
    ys, xs = np.nonzero((stamp.border_e == MISSING) & touch_e)
    open_edges = [Edge(int(x), int(y) + 1, "E") for y, x in zip(ys, xs, strict=True)]
    ys, xs = np.nonzero((stamp.border_s == MISSING) & touch_s)
    open_edges += [Edge(int(x) + 1, int(y), "S") for y, x in zip(ys, xs, strict=True)]
    return LibraryStamp(name, model, None if stamp.mask is None else stamp.mask.copy(),
                        tuple(sorted(open_edges)))


def from_library(entry: LibraryStamp) -> Stamp:
    """The stamp a library entry holds (what the paste preview places)."""
    w, h = entry.size
    stamp = Stamp.from_region(entry.model, Rect(1, 1, w, h), entry.mask)
    for e in entry.open_edges:
        if e.side == "E":
            stamp.border_e[e.y - 1, e.x] = stamp.transition_e[e.y - 1, e.x] = MISSING
        else:
            stamp.border_s[e.y, e.x - 1] = stamp.transition_s[e.y, e.x - 1] = MISSING
    return stamp


#: :meth:`QUndoCommand.id` of a Save Stamp step and the rename that names it
_NAMING = 41


def _set_name(entry: LibraryStamp, name: str) -> None:
    entry.name = name
    entry.model.name = name[:200]


class _LibraryEdit(QUndoCommand):
    """One edit of the list of a :class:`StampLibrary`: :meth:`apply` (redo) and
    :meth:`revert` (undo) change the list; the library is shown and written after
    each, and the row they touched is the current one."""

    def __init__(self, library: StampLibrary, text: str) -> None:
        super().__init__(text)
        self.library = library

    def apply(self) -> int:
        raise NotImplementedError

    def revert(self) -> int:
        raise NotImplementedError

    def redo(self) -> None:
        self.library._applied(self.apply())

    def undo(self) -> None:
        self.library._applied(self.revert())


class AddStamp(_LibraryEdit):
    """Save Stamp: ``entry`` put at ``index``; the rename right after it (the name
    typed into the new row) is merged into it."""

    def __init__(self, library: StampLibrary, entry: LibraryStamp, index: int) -> None:
        super().__init__(library, f"Save Stamp {entry.name!r}")
        self.entry, self.index, self.named = entry, index, False

    def apply(self) -> int:
        self.library.stamps.insert(self.index, self.entry)
        return self.index

    def revert(self) -> int:
        del self.library.stamps[self.index]
        return self.index - 1

    def id(self) -> int:  # noqa: A003 (Qt override)
        return _NAMING

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if self.named or not isinstance(other, RenameStamp) or other.index != self.index:
            return False
        self.named = True  # only the first name typed belongs to the Save step
        self.setText(f"Save Stamp {other.new!r}")
        return True


class RenameStamp(_LibraryEdit):
    def __init__(self, library: StampLibrary, index: int, new: str) -> None:
        self.index, self.old, self.new = index, library.stamps[index].name, new
        super().__init__(library, f"Rename Stamp {self.old!r} to {new!r}")

    def apply(self) -> int:
        _set_name(self.library.stamps[self.index], self.new)
        return self.index

    def revert(self) -> int:
        _set_name(self.library.stamps[self.index], self.old)
        return self.index

    def id(self) -> int:  # noqa: A003 (Qt override)
        return _NAMING  # AddStamp takes it in; two renames stay two steps


class DeleteStamp(_LibraryEdit):
    def __init__(self, library: StampLibrary, index: int) -> None:
        self.index, self.entry = index, library.stamps[index]
        super().__init__(library, f"Delete Stamp {self.entry.name!r}")

    def apply(self) -> int:
        del self.library.stamps[self.index]
        return min(self.index, len(self.library.stamps) - 1)

    def revert(self) -> int:
        self.library.stamps.insert(self.index, self.entry)
        return self.index


class MoveStamp(_LibraryEdit):
    def __init__(self, library: StampLibrary, index: int, to: int) -> None:
        self.index, self.to = index, to
        where = "Up" if to == index - 1 else "Down" if to == index + 1 else f"to {to + 1}"
        super().__init__(library, f"Move Stamp {library.stamps[index].name!r} {where}")

    def apply(self) -> int:
        self.library.stamps.insert(self.to, self.library.stamps.pop(self.index))
        return self.to

    def revert(self) -> int:
        self.library.stamps.insert(self.index, self.library.stamps.pop(self.to))
        return self.index


class StampLibrary(QObject):
    """Named stamps and the file they live in (a library file or a map pack), and
    the undo stack of their edits."""

    #: the list changed (loaded, added, renamed, removed, reordered)
    changed = Signal()
    #: a one-line message (a load error, a refused name, where it was saved)
    message = Signal(str)
    #: an edit, its undo or its redo touched this row (-1: none): show it current
    touched = Signal(int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.stamps: list[LibraryStamp] = []
        self.path: Path | None = None
        self.in_pack = False
        #: the library's own history (the map's undo stack never holds its edits)
        self.undo_stack = QUndoStack(self)

    def _applied(self, row: int) -> None:
        """After a command changed the list: show it, write it, point at ``row``."""
        self.changed.emit()
        self.touched.emit(row)
        self.save()

    # ----------------------------------------------------------------- files
    def load(self, path: Path, *, missing_ok: bool = False) -> bool:
        """Use the library of ``path`` (a library file, or a pack's stamps); a file
        that does not exist yet is an empty library when ``missing_ok``."""
        path = Path(path)
        if missing_ok and not path.exists():
            self._use(path, [], in_pack=False)
            return True
        stamps, problems = read_library(path)
        if stamps is None:
            errors = [p for p in problems if p.is_error] or problems
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            self.message.emit(f"stamp library not loaded: {errors[0]}{more}")
            return False
        self._use(path, stamps, in_pack=is_pack_file(path))
        return True

    def _use(self, path: Path, stamps: list[LibraryStamp], *, in_pack: bool) -> None:
        self.path, self.stamps, self.in_pack = path, stamps, in_pack
        self.undo_stack.clear()  # another library: its own history
        self.changed.emit()

    def save(self) -> bool:
        """Write the library to its file (into the pack when it is one)."""
        if self.path is None:
            self.message.emit("the stamp library has no file yet: save the map, or choose "
                              "a library file in the Stamp Library dock")
            return False
        try:
            if self.in_pack:
                save_pack_stamps(self.stamps, self.path)
            else:
                save_library(self.stamps, self.path)
        except OSError as exc:  # MapSaveError: says what and where
            self.message.emit(str(exc).splitlines()[0])
            return False
        return True

    # ----------------------------------------------------------------- edits
    def names(self) -> list[str]:
        return [s.name for s in self.stamps]

    def free_name(self, base: str = "Stamp") -> str:
        n = 1
        while f"{base} {n}" in self.names():
            n += 1
        return f"{base} {n}"

    def _name_refused(self, name: str, index: int | None = None) -> str | None:
        name = name.strip()
        if not name:
            return "a stamp needs a name"
        if len(name) > MAX_NAME:
            return f"a stamp name holds at most {MAX_NAME} characters"
        if any(s.name == name for i, s in enumerate(self.stamps) if i != index):
            return f"the library has a stamp named {name!r} already"
        return None

    def add(self, stamp: Stamp, name: str) -> int | None:
        """Save ``stamp`` under ``name`` (last in the list), one step "Save Stamp";
        its index, None if refused."""
        why = self._name_refused(name)
        if why is not None:
            self.message.emit(why)
            return None
        index = len(self.stamps)
        self.undo_stack.push(AddStamp(self, to_library(stamp, name.strip()), index))
        return index

    def rename(self, index: int, name: str) -> bool:
        """Rename the stamp at ``index``, one step "Rename Stamp" (merged into the
        Save step when it names the stamp just saved)."""
        why = self._name_refused(name, index)
        if why is not None:
            self.message.emit(why)
            self.changed.emit()  # the list shows the old name again
            return False
        if self.stamps[index].name == name.strip():
            return False
        self.undo_stack.push(RenameStamp(self, index, name.strip()))
        return True

    def remove(self, index: int) -> None:
        """Delete the stamp at ``index``, one step "Delete Stamp"."""
        self.undo_stack.push(DeleteStamp(self, index))

    def move(self, index: int, to: int) -> bool:
        """Move the stamp at ``index`` to ``to`` (the list's order is the file's),
        one step "Move Stamp"."""
        if not (0 <= index < len(self.stamps) and 0 <= to < len(self.stamps)) or index == to:
            return False
        self.undo_stack.push(MoveStamp(self, index, to))
        return True

    def stamp(self, index: int) -> Stamp:
        return from_library(self.stamps[index])
