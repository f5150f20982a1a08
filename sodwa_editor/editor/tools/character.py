"""Character tool (C): click an empty tile to place the roster's selected
character for the current team, drag a character to move it, Shift+click to
remove it (right-click picks its team and roster entry); objects tool (O): click
to place an object (kind ``light``: a light source with the chosen radius),
Shift+click removes (right-click picks its kind)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ...engine.model import MapObject
from ...engine.property_layers import LIGHT_KIND
from ..roster import load_roster, make_character
from .base import Selection, Tool, ToolEvent


class CharacterTool(Tool):
    name = "character"
    label = "Character"
    shortcut = "C"
    tip = ("Place characters from the roster, drag to move, Shift+click to remove, "
           "right-click picks a character's team and roster entry")
    options = ("team", "roster_entry", "symmetry")
    picks = "character"
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.dragging: str | None = None

    def press(self, ev: ToolEvent) -> None:
        x, y = ev.tile
        m = self.model
        if not m.in_bounds(x, y):
            return
        here = m.character_at(x, y)
        if ev.erase:  # Shift removes
            if here is not None:
                self.doc.remove_character(here.id)
                self.state.select(None)
            return
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if here is not None:
            self.dragging = here.id
            self.state.select(Selection("character", here.id))
            return
        entry = self.state.roster_entry or load_roster()["characters"][0]
        cid = self.doc.new_character_id(str(entry.get("name", "char")))
        if self.doc.place_character(make_character(entry, cid, self.state.team or "blue", x, y)):
            self.state.select(Selection("character", cid))

    def move(self, ev: ToolEvent) -> None:
        if self.dragging is not None:
            x, y = ev.tile
            self.scene.preview.set_shape([(x, y)] if self.model.in_bounds(x, y) else [])
        else:
            self.hover(ev)

    def release(self, ev: ToolEvent) -> None:
        cid, self.dragging = self.dragging, None
        self.scene.preview.clear()
        if cid is None or cid not in self.model.characters:
            return
        x, y = ev.tile
        c = self.model.characters[cid]
        if (x, y) == (c.x, c.y) or not self.model.in_bounds(x, y):
            return
        self.doc.update_character(cid, x=x, y=y)

    def cancel(self) -> None:
        self.dragging = None
        self.scene.preview.clear()


class ObjectTool(Tool):
    name = "object"
    label = "Object"
    shortcut = "O"
    tip = "Place objects (crates, carts...) on tiles; Shift+click removes, right-click picks"
    options = ("object_kind", "light_radius")
    picks = "object"

    def press(self, ev: ToolEvent) -> None:
        x, y = ev.tile
        m = self.model
        if not m.in_bounds(x, y):
            return
        here = m.objects_at(x, y)
        if ev.erase:  # Shift removes
            if here:
                self.doc.remove_object(here[0].id)
            return
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if here:
            self.state.select(Selection("object", here[0].id))
            return
        kind = self.state.object_kind or "crate"
        oid = self.doc.new_character_id(kind)
        obj = MapObject(oid, kind, x, y)
        if kind == LIGHT_KIND:  # a light source: its radius; it does not impede LoS
            obj = MapObject(oid, kind, x, y, impedes_los=False, radius=self.state.light_radius)
        if self.doc.place_object(obj):
            self.state.select(Selection("object", oid))
