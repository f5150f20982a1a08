"""Character tool (C): click to place the roster's selected character for the current
team, of the size chosen in the tool options (the roster entry's by default); drag a
character by any of its tiles to move it; Shift+click removes it (right-click picks its
team, roster entry and size); objects tool (O): click to place an object (kind
``light``: a light source with the chosen radius), Shift+click removes (right-click
picks its kind).

Under the pointer the Character tool shows the whole footprint the creature would cover,
centred on the pointer (the upper-left of the middle tiles for an even side): tinted
where it may stand, hatched with the tile or edge that refuses it ringed where it may not
(:func:`.engine.footprint.cannot_stand`, docs/rules.md S4), the reason in the status bar.
A drag shows the same for the dragged creature, which keeps the tile it was grabbed by
under the pointer."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt

from ...engine.creatures import centred_anchor
from ...engine.model import Character, MapObject
from ...engine.property_layers import LIGHT_KIND
from ..roster import entries_in_use, make_character
from ..scene.footprint_items import FootprintGhost, show_placement
from .base import Selection, Tool, ToolEvent

Tile = tuple[int, int]


class CharacterTool(Tool):
    name = "character"
    label = "Character"
    shortcut = "C"
    tip = ("Place creatures of any size from the roster, drag to move, Shift+click to "
           "remove, right-click picks a character's team, roster entry and size")
    options = ("team", "roster_entry", "creature_size", "symmetry")
    picks = "character"
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.dragging: str | None = None
        self.grab: Tile = (0, 0)  # the dragged creature's tile under the pointer
        self.ghost = FootprintGhost()  # where a creature would stand
        self.scene.add_transient(self.ghost)
        self._said: str | None = None

    def _entry(self) -> dict:
        return self.state.roster_entry or entries_in_use(self.state.roster_in_use)[0]

    def candidate(self, tile: Tile) -> Character:
        """The character a click on ``tile`` would place (its id still to be made)."""
        entry = self._entry()
        c = make_character(entry, "new", self.state.team or "blue", *tile,
                           size=self.state.creature_size)
        ax, ay = centred_anchor(tile, c.footprint_at())
        return dataclasses.replace(c, x=ax, y=ay)

    def _dragged_to(self, tile: Tile) -> Character | None:
        if self.dragging is None or self.dragging not in self.model.characters:
            return None
        c = self.model.characters[self.dragging]
        return dataclasses.replace(c, x=tile[0] - self.grab[0], y=tile[1] - self.grab[1])

    def _show(self, c: Character | None, verb: str) -> None:
        """The footprint of ``c`` where it would go, and the status line."""
        if c is None:
            self.ghost.clear()
            self._hint("")
            return
        self._hint(show_placement(self.ghost, self.model, c, verb))

    def _hint(self, text: str) -> None:
        if text != self._said:
            self._said = text
            self.state.hint.emit(text)

    def hover(self, ev: ToolEvent) -> None:
        x, y = ev.tile
        if not self.model.in_bounds(x, y):
            self.scene.hover.clear()
            self.ghost.clear()
            self._hint("")
            return
        here = self.model.character_at(x, y)
        if here is not None:  # a click picks it up: show the creature, not a new one
            self.scene.hover.set_shape(here.squares())
            self.ghost.clear()
            self._hint(f"{here.name or here.id} ({here.size.capitalize()} "
                       f"{here.footprint_at()}): drag to move, Shift+click removes")
            return
        self.scene.hover.set_shape([(x, y)])
        self._show(self.candidate((x, y)), "Place")

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
            self.grab = (x - here.x, y - here.y)
            self.state.select(Selection("character", here.id))
            return
        c = self.candidate((x, y))
        c.id = self.doc.new_character_id(str(self._entry().get("name", "char")))
        if self.doc.place_character(c):  # else the document says why, in the status bar
            self.state.select(Selection("character", c.id))
            self.ghost.clear()  # the token shows it now
            self.scene.hover.set_shape(self.model.characters[c.id].squares())

    def move(self, ev: ToolEvent) -> None:
        if self.dragging is not None:
            self._show(self._dragged_to(ev.tile), "Move")
        else:
            self.hover(ev)

    def release(self, ev: ToolEvent) -> None:
        cid, self.dragging = self.dragging, None
        grab, self.grab = self.grab, (0, 0)
        if cid is None or cid not in self.model.characters:
            return  # a click placed (or said why not): its message stays
        self.ghost.clear()
        self._hint("")
        c = self.model.characters[cid]
        x, y = ev.tile[0] - grab[0], ev.tile[1] - grab[1]
        if (x, y) != (c.x, c.y):
            self.doc.update_character(cid, x=x, y=y)

    def cancel(self) -> None:
        self.dragging = None
        self.grab = (0, 0)
        self.ghost.clear()
        self._hint("")

    def leave(self) -> None:
        super().leave()
        if self.dragging is None:
            self.ghost.clear()
            self._hint("")


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
