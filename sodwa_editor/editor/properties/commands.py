"""The undo command of a custom-properties edit: the owner's whole list of
typed properties before and after (a few rows, so no diff), applied through an
:class:`Access` that knows where the owner (a terrain type, an object, a start
zone, a character) keeps them in the map.

Each edit is one named step: Add Property, Remove Property, Rename Property,
Change Property Type, Edit Property (Tiled's names), with the owner in the
text ("Edit Property 'loot' of Object crate")."""

from __future__ import annotations

from typing import NamedTuple, Protocol

from PySide6.QtGui import QUndoCommand

from ...engine.model import MapModel
from .typed import PropertyRow


class Owner(NamedTuple):
    """Whose properties: ``kind`` (terrain | object | zone | character) and its key
    (the terrain type's name, the object's or character's id, the team)."""

    kind: str
    key: str

    def label(self) -> str:
        return f"{self.kind.capitalize()} {self.key}"


class Access(Protocol):
    """Reads and writes an owner's custom properties in a map."""

    def read(self, model: MapModel, owner: Owner) -> list[PropertyRow]: ...

    def write(self, model: MapModel, owner: Owner, rows: list[PropertyRow]) -> None: ...


class Holder(Protocol):
    model: MapModel


class SetCustomProperties(QUndoCommand):
    """Replace an owner's custom properties (``before`` -> ``after``)."""

    def __init__(self, holder: Holder, access: Access, owner: Owner,
                 after: list[PropertyRow], text: str) -> None:
        super().__init__(text)
        self.holder, self.access, self.owner = holder, access, owner
        self.before = list(access.read(holder.model, owner))
        self.after = [PropertyRow(*r) for r in after]

    def redo(self) -> None:
        self.access.write(self.holder.model, self.owner, self.after)

    def undo(self) -> None:
        self.access.write(self.holder.model, self.owner, self.before)


def step_text(verb: str, owner: Owner, name: str) -> str:
    """``Edit Property 'loot' of Object crate``."""
    return f"{verb} Property '{name}' of {owner.label()}"


def changed(before: list[PropertyRow], after: list[PropertyRow]) -> bool:
    return [tuple(r) for r in before] != [tuple(r) for r in after]
