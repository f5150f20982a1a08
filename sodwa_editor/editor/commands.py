"""Undoable edits of a :class:`~sodwa_editor.engine.model.MapModel`.

Each command is named verb + noun (Tiled convention) and stores the before and
after values of the cells it touched only, never a snapshot of the whole map
(except :class:`ReplaceMap`, used by resize, whose whole point is a new map).
Commands reach the model through ``document.model`` at apply time, so a
command undone after a map replacement was undone writes the right model.

Cell edits go through the model's own mutators, which validate values and tell
listeners the touched rectangle; an edit of more than :data:`BULK` cells writes
the arrays and calls ``notify_bulk_change(layer)`` once instead.

Commands of one drag stroke share a ``stroke`` number and merge (``mergeWith``);
the document pushes them as one :class:`Stroke` step when the stroke ends.

A command holds the :class:`MapHolder` it edits (the
:class:`~.document.Document` in the editor), not the document's class: the
document builds commands, so this module must not know it back.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from PySide6.QtGui import QUndoCommand

from ..engine.model import (
    INDOOR_DEFAULT,
    INDOOR_YES,
    Character,
    Edge,
    MapModel,
    MapObject,
    Setting,
    Side,
)

BULK = 2048


class MapHolder(Protocol):
    """What a command edits: the holder of the current map (``model``), which
    :class:`ReplaceMap` swaps (``replace_model``)."""

    model: MapModel

    def replace_model(self, model: MapModel) -> None: ...


#: field -> model layer name used for change notification.
LAYER = {
    "terrain": "terrain", "elevation": "elevation", "transition": "transition",
    "tile_indoor": "indoor", "border_e": "borders", "border_s": "borders",
    "transition_e": "transition_borders", "transition_s": "transition_borders",
}
TILE_FIELDS = ("terrain", "elevation", "transition", "tile_indoor")
EDGE_FIELDS = ("border_e", "border_s", "transition_e", "transition_s")


def _side(field: str) -> Side:
    """The edge side of an edge layer name (``border_e`` -> ``"E"``)."""
    return "E" if field.endswith("_e") else "S"


def _decode_indoor(code: int) -> bool | None:
    return None if code == INDOOR_DEFAULT else code == INDOOR_YES


def field_shape(model: MapModel, field: str) -> tuple[int, int]:
    return getattr(model, field).shape


def read_field(model: MapModel, field: str, idx: np.ndarray) -> np.ndarray:
    """Current values of ``field`` at flat indices; border fields pack the
    terrain id and the indoor code as ``tid * 4 + indoor + 1``."""
    ys, xs = np.unravel_index(idx, field_shape(model, field))
    arr = getattr(model, field)[ys, xs].astype(np.int32)
    if field in ("border_e", "border_s"):
        indoor = getattr(model, "indoor_" + field[-1])[ys, xs].astype(np.int32)
        return arr * 4 + indoor + 1
    return arr


def write_field(model: MapModel, field: str, idx: np.ndarray, values: np.ndarray) -> None:
    """Write values through the model mutators (or in bulk, see module doc)."""
    if len(idx) == 0:
        return
    shape = field_shape(model, field)
    ys, xs = np.unravel_index(idx, shape)
    if len(idx) > BULK:
        if field in ("border_e", "border_s"):
            getattr(model, field)[ys, xs] = values // 4
            getattr(model, "indoor_" + field[-1])[ys, xs] = values % 4 - 1
        else:
            arr = getattr(model, field)
            arr[ys, xs] = values.astype(arr.dtype)
        model.notify_bulk_change(LAYER[field])
        return
    for y, x, v in zip(ys.tolist(), xs.tolist(), values.tolist(), strict=True):
        if field == "terrain":
            model.set_terrain(x, y, v)
        elif field == "elevation":
            model.set_elevation(x, y, v)
        elif field == "transition":
            model.set_transition(x, y, bool(v))
        elif field == "tile_indoor":
            model.set_tile_indoor(x, y, _decode_indoor(v))
        elif field in ("border_e", "border_s"):
            model.set_border(Edge(x, y, _side(field)), v // 4,
                             indoor=_decode_indoor(v % 4 - 1))
        elif field in ("transition_e", "transition_s"):
            model.set_transition_edge(Edge(x, y, _side(field)), bool(v))
        else:
            raise KeyError(field)


@dataclass
class FieldEdit:
    """Touched cells of one model array: flat indices, values before and after."""

    field: str
    idx: np.ndarray
    before: np.ndarray
    after: np.ndarray

    @classmethod
    def capture(cls, model: MapModel, field: str, idx: np.ndarray,
                after: np.ndarray | int) -> FieldEdit:
        """Edit setting ``after`` at ``idx``, dropping cells that already hold it."""
        idx = np.asarray(idx, np.intp)
        after = np.broadcast_to(np.asarray(after, np.int32), idx.shape)
        idx, first = np.unique(idx, return_index=True)
        after = after[first]
        before = read_field(model, field, idx)
        keep = before != after
        return cls(field, idx[keep], before[keep], after[keep].copy())

    def merged(self, later: FieldEdit) -> FieldEdit:
        """This edit followed by ``later``: first ``before``, last ``after`` per cell."""
        idx = np.concatenate([self.idx, later.idx])
        before = np.concatenate([self.before, later.before])
        after = np.concatenate([self.after, later.after])
        uidx, first = np.unique(idx, return_index=True)
        _, last_rev = np.unique(idx[::-1], return_index=True)
        last = len(idx) - 1 - last_rev
        return FieldEdit(self.field, uidx, before[first], after[last])

    def __len__(self) -> int:
        return len(self.idx)


class EditCells(QUndoCommand):
    """Base of the cell-editing commands; subclasses differ by name and merge id."""

    MERGE_ID = -1

    def __init__(self, doc: MapHolder, text: str, edits: list[FieldEdit],
                 stroke: int | None = None) -> None:
        super().__init__(text)
        self.doc = doc
        self.edits = {e.field: e for e in edits if len(e)}
        self.stroke = stroke

    def cell_count(self) -> int:
        return sum(len(e) for e in self.edits.values())

    def _apply(self, attr: str) -> None:
        model = self.doc.model
        for e in self.edits.values():
            write_field(model, e.field, e.idx, getattr(e, attr))

    def redo(self) -> None:
        self._apply("after")

    def undo(self) -> None:
        model = self.doc.model
        for e in reversed(list(self.edits.values())):
            write_field(model, e.field, e.idx, e.before)

    def id(self) -> int:  # noqa: A003 (Qt override)
        return self.MERGE_ID if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if type(other) is not type(self) or other.stroke != self.stroke:
            return False
        for f, e in other.edits.items():
            self.edits[f] = self.edits[f].merged(e) if f in self.edits else e
        return True


class PaintTerrain(EditCells):
    MERGE_ID = 1


class SetBorders(EditCells):
    MERGE_ID = 2


class SetElevation(EditCells):
    MERGE_ID = 3


class SetTransition(EditCells):
    MERGE_ID = 4


class SetIndoor(EditCells):
    MERGE_ID = 5


class PasteStamp(EditCells):
    MERGE_ID = 6


class Stroke(QUndoCommand):
    """The commands of one drag stroke as one undo step, named after the first.
    They were applied while the stroke was drawn, so pushing it applies nothing."""

    def __init__(self, commands: list[QUndoCommand]) -> None:
        super().__init__(commands[0].text())
        self.commands = commands
        # redo calls so far (an int, not a bool: every step on the stack would hold a
        # reference to True, which tests/test_qt_regressions.py counts)
        self._redos = 0

    def redo(self) -> None:
        self._redos += 1
        if self._redos == 1:  # QUndoStack.push calls redo: the map already shows it
            return
        for cmd in self.commands:
            cmd.redo()

    def undo(self) -> None:
        for cmd in reversed(self.commands):
            cmd.undo()


class SetStartZone(QUndoCommand):
    """Replace the start zones (every team's: painting a tile for one team takes it
    from another); a stroke's commands merge."""

    def __init__(self, doc: MapHolder, after: dict[str, set[tuple[int, int]]],
                 stroke: int | None = None, text: str = "Paint Start Zone") -> None:
        super().__init__(text)
        self.doc, self.stroke = doc, stroke
        self.before = {t: set(z) for t, z in doc.model.start_zones.items()}
        self.after = {t: set(z) for t, z in after.items() if z}

    def _apply(self, zones: dict[str, set[tuple[int, int]]]) -> None:
        model = self.doc.model
        for team in set(model.start_zones) | set(zones):
            if model.start_zones.get(team, set()) != zones.get(team, set()):
                model.set_start_zone(team, zones.get(team, ()))

    def redo(self) -> None:
        self._apply(self.after)

    def undo(self) -> None:
        self._apply(self.before)

    def id(self) -> int:  # noqa: A003
        return 20 if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802
        if not isinstance(other, SetStartZone) or other.stroke != self.stroke:
            return False
        self.after = other.after
        return True


class PutCharacter(QUndoCommand):
    """Add, change, move or remove a character (``None`` = absent)."""

    def __init__(self, doc: MapHolder, text: str, before: Character | None,
                 after: Character | None) -> None:
        super().__init__(text)
        self.doc = doc
        self.before = copy.deepcopy(before)
        self.after = copy.deepcopy(after)

    @staticmethod
    def _set(model: MapModel, old: Character | None, new: Character | None) -> None:
        if old is not None and (new is None or new.id != old.id):
            model.remove_character(old.id)
        if new is not None:
            model.put_character(copy.deepcopy(new))

    def redo(self) -> None:
        self._set(self.doc.model, self.before, self.after)

    def undo(self) -> None:
        self._set(self.doc.model, self.after, self.before)


class PutObject(QUndoCommand):
    """Add, change, move or remove a map object (``None`` = absent)."""

    def __init__(self, doc: MapHolder, text: str, before: MapObject | None,
                 after: MapObject | None) -> None:
        super().__init__(text)
        self.doc = doc
        self.before = copy.deepcopy(before)
        self.after = copy.deepcopy(after)

    @staticmethod
    def _set(model: MapModel, old: MapObject | None, new: MapObject | None) -> None:
        if old is not None and (new is None or new.id != old.id):
            model.remove_object(old.id)
        if new is not None:
            model.put_object(copy.deepcopy(new))

    def redo(self) -> None:
        self._set(self.doc.model, self.before, self.after)

    def undo(self) -> None:
        self._set(self.doc.model, self.after, self.before)


class SetMapSetting(QUndoCommand):
    """Switch the map default between outdoor and indoor."""

    def __init__(self, doc: MapHolder, setting: Setting) -> None:
        super().__init__(f"Set Map {setting.capitalize()}")
        self.doc, self.before, self.after = doc, doc.model.setting, setting

    def redo(self) -> None:
        self.doc.model.set_setting(self.after)

    def undo(self) -> None:
        self.doc.model.set_setting(self.before)


class SetMapProperties(QUndoCommand):
    """Change the map's name and description."""

    def __init__(self, doc: MapHolder, name: str, description: str) -> None:
        super().__init__("Edit Map Properties")
        m = doc.model
        self.doc = doc
        self.before = (m.name, m.description)
        self.after = (name, description)

    def _set(self, values: tuple[str, str]) -> None:
        m = self.doc.model
        m.name, m.description = values
        m.notify_bulk_change("properties")

    def redo(self) -> None:
        self._set(self.after)

    def undo(self) -> None:
        self._set(self.before)


class ReplaceMap(QUndoCommand):
    """Swap in a whole new map (resize, whole-map transforms)."""

    def __init__(self, doc: MapHolder, text: str, after: MapModel) -> None:
        super().__init__(text)
        self.doc, self.before, self.after = doc, doc.model, after

    def redo(self) -> None:
        self.doc.replace_model(self.after)

    def undo(self) -> None:
        self.doc.replace_model(self.before)
