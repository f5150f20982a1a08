"""Select tool (S): click to inspect a tile, edge, character or object; drag
to select a region for Copy/Cut/Delete; Paste enters stamp mode (the stamp,
drawn as it will look, follows the pointer; click places it, Z / Shift+Z
rotate, X / Y flip, Escape leaves).  A drag that starts inside the selection
(no Shift or Ctrl) moves it with its walls and contents, drawn as the paste
preview while dragging (:mod:`..region_move`); Escape during the drag leaves
everything where it was.  Where the stamp's outline would replace
a border of the tiles around it, or close a door in their wall, the edges are
marked on the map and the status bar counts them (pasting a room beside
another silently closed its door).

A click on any tile of a creature selects the whole creature (its footprint
outlined).  Copy with a creature selected copies the creature; Paste then shows
its footprint under the pointer, tinted where it may stand and hatched with the
reason ringed where it may not, and each click places a copy (Escape or a
right-click leaves)."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

from ...engine.creatures import centred_anchor, size_label
from ...engine.model import Character, Rect
from ..geometry import Tile, nearest_edge, rect_cells
from ..region_move import paste_refusal, refusal
from ..scene.footprint_items import FootprintGhost, show_placement
from ..scene.overlay_items import ShapeOverlay
from ..scene.stamp_item import EdgeMarks, StampPreview
from ..stamp import Stamp
from .base import Selection, Tool, ToolEvent
from .wand import combine, selection_mask, set_selection

EDGE_PICK = 0.15


class SelectTool(Tool):
    name = "select"
    label = "Select"
    shortcut = "S"
    tip = "Select a tile, edge, character or region; copy, cut and paste stamps"
    cursor = Qt.CursorShape.ArrowCursor

    clipboard: Stamp | None = None  # shared by every window of the process
    #: a copied creature (Copy with a character selected); the later copy wins
    creature_clipboard: Character | None = None

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.anchor: Tile | None = None
        self.stamp: Stamp | None = None
        self.stamp_at: Tile | None = None
        self._stamp_item: StampPreview | None = None
        self._marks: EdgeMarks | None = None
        #: symmetry painting: where the paste's mirrored copies land (made on first use)
        self.copies: ShapeOverlay | None = None
        self._said: str | None = None  # the paste's status line last said
        #: a drag moving the selection: the tile it started on, the selection's stamp
        self.move_from: Tile | None = None
        self.move_stamp: Stamp | None = None
        #: pasting a copied creature: the creature (its place follows the pointer)
        self.creature: Character | None = None
        self.ghost = FootprintGhost()  # where a creature would stand
        self.scene.add_transient(self.ghost)

    @property
    def region(self) -> Rect | None:
        """The selected region's bounding rectangle (kept in the editing state, which
        the magic wand also writes; its tiles: ``state.region_mask``)."""
        return self.state.region

    @region.setter
    def region(self, rect: Rect | None) -> None:
        self.state.region, self.state.region_mask = rect, None

    @property
    def stamp_item(self) -> StampPreview:
        """The paste preview (made on first use)."""
        if self._stamp_item is None:
            self._stamp_item = StampPreview()
            self.scene.add_transient(self._stamp_item)  # not exported with the map
        return self._stamp_item

    @property
    def marks(self) -> EdgeMarks:
        """The neighbours' borders a paste here would change (made on first use)."""
        if self._marks is None:
            self._marks = EdgeMarks()
            self._marks.setVisible(False)
            self.scene.add_transient(self._marks)
        return self._marks

    def _show_images(self, tiles: list[Tile]) -> None:
        """Draw the tiles the paste's mirrored copies write (the hover's look)."""
        if self.copies is None:
            if not tiles:
                return
            hover = self.scene.hover
            self.copies = ShapeOverlay(hover.pen, hover.brush, hover.zValue())
            self.scene.add_transient(self.copies)  # not exported with the map
        self.copies.set_shape(tiles)

    # ---------------------------------------------------------------- gestures
    def press(self, ev: ToolEvent) -> None:
        if self.creature is not None:
            if ev.button == Qt.MouseButton.LeftButton:
                self._paste_creature(ev.tile)
            elif ev.button == Qt.MouseButton.RightButton:
                self.cancel()
            return
        if self.stamp is not None:
            if ev.button == Qt.MouseButton.LeftButton:
                ox, oy = self._stamp_origin(ev.tile)
                why = paste_refusal(self.model, self.stamp, ox, oy)
                if why is not None:
                    self.message(f"Not pasted: {why}")
                    return
                self.doc.paste_stamp(self.stamp, ox, oy)
                self._show_stamp(ev.tile)  # pasted: what another paste here would change
            elif ev.button == Qt.MouseButton.RightButton:
                self.cancel()
            return
        if ev.button == Qt.MouseButton.LeftButton:
            self.press_point = (ev.fx, ev.fy)
            x, y = ev.tile
            plain = not ev.modifiers & (Qt.KeyboardModifier.ShiftModifier
                                        | Qt.KeyboardModifier.ControlModifier)
            sel = self.state.selection  # a region (a drag, the wand), not a clicked tile
            if plain and sel is not None and sel.kind == "region" and \
                    self.model.in_bounds(x, y) and selection_mask(self.state, self.model)[y, x]:
                self.move_from = ev.tile  # inside the selection: a drag moves it
            else:
                self.anchor = ev.tile

    def move(self, ev: ToolEvent) -> None:
        if self.creature is not None:
            self._show_creature(ev.tile)
        elif self.stamp is not None:
            self._show_stamp(ev.tile)
        elif self.move_from is not None:
            self._show_move(ev.tile)
        elif self.anchor is not None:
            self._show_region(self._rect(self.anchor, ev.tile))
            super().hover(ev)  # the hover square follows the pointer during the drag
        else:
            self.hover(ev)

    def release(self, ev: ToolEvent) -> None:
        if self.move_from is not None:
            self._drop(ev.tile)
            return
        if self.anchor is None:
            return
        anchor, self.anchor = self.anchor, None
        if ev.tile != anchor:
            r = self._rect(anchor, ev.tile)
            new = np.zeros(self.model.shape, bool)
            new[r.y0:r.y1 + 1, r.x0:r.x1 + 1] = True
            combine(self.state, self.model, new, ev.modifiers)  # Shift adds, Ctrl takes away
            self._show_selection()
            return
        self.pick(*self.press_point)

    def pick(self, fx: float, fy: float) -> None:
        """Select what is under a point for the inspector."""
        m = self.model
        x, y = int(fx // 1), int(fy // 1)
        edge, dist = nearest_edge(m, fx, fy)
        self.region = None
        self.scene.selection.clear()
        if not m.in_bounds(x, y):
            self.state.select(None)
            return
        if edge is not None and dist < EDGE_PICK:
            self.scene.selection.set_shape(edges=[edge])
            self.state.select(Selection("edge", edge))
            return
        self.region = Rect(x, y, x, y)
        self.scene.selection.set_shape([(x, y)])
        c = m.character_at(x, y)
        if c is not None:  # the whole creature
            self.scene.selection.set_shape(
                [t for t in c.squares() if m.in_bounds(*t)])
            self.state.select(Selection("character", c.id))
        else:
            self.state.select(Selection("tile", (x, y)))

    def _rect(self, a: Tile, b: Tile) -> Rect:
        m = self.model
        x0, x1 = sorted((min(max(a[0], 0), m.width - 1), min(max(b[0], 0), m.width - 1)))
        y0, y1 = sorted((min(max(a[1], 0), m.height - 1), min(max(b[1], 0), m.height - 1)))
        return Rect(x0, y0, x1, y1)

    def _show_region(self, r: Rect) -> None:
        self.scene.selection.set_shape(rect_cells((r.x0, r.y0), (r.x1, r.y1)))

    def _show_selection(self) -> None:
        ys, xs = np.nonzero(selection_mask(self.state, self.model))
        self.scene.selection.set_shape(list(zip(xs.tolist(), ys.tolist(), strict=True)))

    # ------------------------------------------------------- moving the region
    def _move_delta(self, tile: Tile) -> Tile:
        assert self.move_from is not None
        return tile[0] - self.move_from[0], tile[1] - self.move_from[1]

    def _show_move(self, tile: Tile) -> None:
        """The selection drawn at its new place as the paste preview, and the
        status line: where it goes, or why it cannot go there."""
        r, (dx, dy) = self.region, self._move_delta(tile)
        if r is None:
            return
        if self.move_stamp is None:
            if (dx, dy) == (0, 0):
                return
            self.move_stamp = Stamp.from_region(self.model, r, self.state.region_mask)
            self.stamp_item.set_stamp(self.move_stamp)
        self.stamp_item.place(r.x0 + dx, r.y0 + dy)
        why = refusal(self.model, r, self.state.region_mask, dx, dy)
        self._hint(f"Move selection by {dx}, {dy}: {why}" if why else
                   f"Move selection by {dx}, {dy} (walls, zones, characters and objects "
                   "come along); release to drop, Esc cancels")

    def _drop(self, tile: Tile) -> None:
        r, (dx, dy) = self.region, self._move_delta(tile)
        mask = self.state.region_mask
        self._end_move()
        if r is None:
            return
        if (dx, dy) == (0, 0):
            self.pick(*self.press_point)  # a click inside the selection inspects
            return
        if self.doc.move_region(r, mask, dx, dy):
            set_selection(self.state, np.roll(selection_mask(self.state, self.model),
                                               (dy, dx), axis=(0, 1)))  # never wraps: inside
            self.message(f"Moved the selection by {dx}, {dy}")
        self._show_selection()

    def _end_move(self) -> None:
        self.move_from, self.move_stamp = None, None
        if self._stamp_item is not None and self.stamp is None:
            self.stamp_item.set_stamp(None)
        self._hint("")

    def _hint(self, text: str) -> None:
        if text != self._said:
            self._said = text
            self.state.hint.emit(text)

    # ----------------------------------------------------------------- stamps
    def _stamp_origin(self, tile: Tile) -> Tile:
        if self.stamp is None:
            return tile
        return tile[0] - self.stamp.width // 2, tile[1] - self.stamp.height // 2

    def _show_stamp(self, tile: Tile | None) -> None:
        if tile is None or self.stamp is None:
            self.stamp_item.setVisible(False)
            self._show_images([])
            self._show_changes([], [])
            return
        self.stamp_at = tile
        ox, oy = self._stamp_origin(tile)
        self.stamp_item.place(ox, oy)
        self._show_images(self.doc.stamp_image_tiles(self.stamp, ox, oy))
        self._show_changes(*self.stamp.outline_changes(self.model, ox, oy))

    def _show_changes(self, replaced: list, closed: list) -> None:
        """Mark the neighbours' borders the paste here would replace and the doors
        it would close, and say how many in the status bar."""
        if self.stamp is None:
            self._show_images([])  # out of the paste: no copies drawn
        if self.stamp is None and self._marks is None:
            return
        self.marks.set_edges(replaced + closed)
        if self.stamp is None:
            text = ""
        elif replaced or closed:
            parts = [f"replaces {len(replaced)} border(s)"] if replaced else []
            parts += [f"closes {len(closed)} door gap(s)"] if closed else []
            text = (f"Paste here {' and '.join(parts)} of the tiles around the stamp "
                    "(marked); move it, or click to paste anyway")
        else:
            text = "Paste here changes no border of the tiles around the stamp"
        if text != self._said:
            self._said = text
            self.state.hint.emit(text)

    # --------------------------------------------------------------- creatures
    def _creature_at(self, tile: Tile) -> Character | None:
        """The copied creature centred on ``tile``."""
        if self.creature is None:
            return None
        x, y = centred_anchor(tile, self.creature.footprint_at())
        return dataclasses.replace(self.creature, x=x, y=y)

    def _show_creature(self, tile: Tile | None) -> None:
        c = None if tile is None else self._creature_at(tile)
        self.stamp_at = tile
        if c is None:
            self.ghost.clear()
            self._hint("")
            return
        self._hint(show_placement(self.ghost, self.model, c, "Paste") +
                   " (click pastes, Esc leaves)")

    def _paste_creature(self, tile: Tile) -> None:
        c = self._creature_at(tile)
        if c is None:
            return
        c.id = self.doc.new_character_id(c.name or c.id)
        if self.doc.place_character(c):  # else the document says why
            self.message(f"Pasted {c.id} at {c.x}, {c.y}")
            self._show_creature(tile)

    def _copy_creature(self, cid: str) -> bool:
        c = copy.deepcopy(self.model.characters[cid])
        SelectTool.creature_clipboard, SelectTool.clipboard = c, None
        self.message(f"Copied character {cid} ({size_label(c)}); paste places copies")
        return True

    def copy(self) -> bool:
        sel = self.state.selection
        if sel is not None and sel.kind == "character" and sel.value in self.model.characters:
            return self._copy_creature(sel.value)
        if self.region is None:
            self.message("Select a region first (drag with the Select tool)")
            return False
        stamp = Stamp.from_region(self.model, self.region, self.state.region_mask)
        SelectTool.clipboard, SelectTool.creature_clipboard = stamp, None
        size = f"{stamp.width} x {stamp.height}" if stamp.mask is None \
            else f"{stamp.tile_count()} (of {stamp.width} x {stamp.height})"
        self.message(f"Copied {size} tiles with "
                     f"{stamp.border_count()} border edge(s), the outline's included")
        return True

    def cut(self) -> bool:
        sel = self.state.selection
        if sel is not None and sel.kind == "character" and sel.value in self.model.characters:
            self._copy_creature(sel.value)
            self.state.select(None)
            return self.doc.remove_character(sel.value)
        if self._clear_refused() or not self.copy():
            return False
        if self.state.selection is not None and self.state.selection.kind in (
                "character", "object"):
            self.state.select(None)  # what it showed goes with the cut
        return self.doc.cut_region(self.region, self.state.region_mask)

    def _clear_refused(self) -> bool:
        """Say why clearing the region (Cut, Delete) would leave a creature where it
        cannot stand (half of an elevated one lowered), and return True."""
        r = self.region
        if r is None:
            return False
        empty = Stamp.empty(r.x1 - r.x0 + 1, r.y1 - r.y0 + 1).with_mask(self.state.region_mask)
        why = paste_refusal(self.model, empty, r.x0, r.y0)
        if why is not None:
            self.message(f"Not cleared: {why}")
        return why is not None

    def delete(self) -> bool:
        sel = self.state.selection
        if sel is not None and sel.kind == "character":
            self.state.select(None)
            return self.doc.remove_character(sel.value)
        if sel is not None and sel.kind == "object":
            self.state.select(None)
            return self.doc.remove_object(sel.value)
        if sel is not None and sel.kind == "label":  # selected with the Label tool
            self.state.select(None)
            return self.doc.remove_label(sel.value)
        if self.region is None or self._clear_refused():
            return False
        return self.doc.clear_region(self.region, mask=self.state.region_mask)

    def paste(self) -> bool:
        if SelectTool.creature_clipboard is not None:
            if self.stamp is not None:  # out of a stamp paste
                self.stamp = None
                self.stamp_item.set_stamp(None)
                self._show_changes([], [])
            self.creature = copy.deepcopy(SelectTool.creature_clipboard)
            self._show_creature(self.stamp_at)
            self.message(f"Click to paste {self.creature.name or self.creature.id}; "
                         "Esc leaves")
            return True
        if SelectTool.clipboard is None:
            self.message("Nothing to paste: copy a region first")
            return False
        return self.place_stamp(SelectTool.clipboard)

    def place_stamp(self, stamp: Stamp, what: str = "the stamp") -> bool:
        """Enter stamp mode with ``stamp`` (the clipboard's, or one of the stamp
        library's): the paste preview follows the pointer, a click places it."""
        self.stamp = stamp
        self.stamp_item.set_stamp(self.stamp)
        self._show_stamp(self.stamp_at)
        self.message(f"Click to place {what}; Z / Shift+Z rotate, X / Y flip, Esc leaves")
        return True

    def transform_stamp(self, how: str) -> None:
        if self.stamp is None:
            return
        self.stamp = {"cw": lambda s: s.rotated(True), "ccw": lambda s: s.rotated(False),
                      "h": lambda s: s.flipped(True), "v": lambda s: s.flipped(False)}[how](
            self.stamp)
        self.stamp_item.set_stamp(self.stamp)
        self._show_stamp(self.stamp_at)

    def key(self, event: QKeyEvent) -> bool:
        if self.stamp is None:
            return False
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        how = {Qt.Key.Key_Z: "ccw" if shift else "cw", Qt.Key.Key_X: "h",
               Qt.Key.Key_Y: "v"}.get(Qt.Key(event.key()))
        if how is None:
            return False
        self.transform_stamp(how)
        return True

    def cancel(self) -> None:
        self.anchor = None
        if self.creature is not None:  # Escape leaves the creature paste
            self.creature = None
            self._show_creature(None)
            return
        if self.move_from is not None:  # Escape during a move: nothing moves
            self._end_move()
            self.message("Move cancelled; the map is as it was")
            return
        if self.stamp is not None:
            self.stamp = None
            self.stamp_item.set_stamp(None)
            self._show_changes([], [])
        else:
            self.region = None
            self.scene.selection.clear()

    def deactivate(self) -> None:
        if self.creature is not None:
            self.creature = None
            self._show_creature(None)
        self.stamp = None
        self.anchor = None
        self.move_from, self.move_stamp = None, None
        if self._stamp_item is not None:
            self.stamp_item.set_stamp(None)
        self._show_changes([], [])
        super().deactivate()
